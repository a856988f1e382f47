#include "analyses/cycles/cycles.h"

#include <algorithm>
#include <string>

#include "analyses/cycles/launch_steps.h"
#include "analyses/cycles/layer_kinds.h"
#include "analyses/cycles/llm_forward_steps.h"
#include "analyses/cycles/step_evidence.h"
#include "analyses/cycles/stream_merge.h"

namespace sollens {

namespace {

// The GPU annotations on the device of a sequence's kernels.
std::vector<AnnotationSpan> gpu_annotations(const EventStore& store, const KernelSequence& seq) {
  std::vector<AnnotationSpan> out;
  if (seq.size() == 0) return out;
  const StrId device = store.pid[seq.rows[0]];
  for (size_t r = 0; r < store.size(); ++r)
    if (store.category[r] == Category::kGpuUserAnnotation && store.pid[r] == device)
      out.push_back({store.ts[r], store.ts[r] + store.dur[r], std::string(store.name_of(r))});
  return out;
}

std::vector<AnnotationSpan> profiler_steps(const std::vector<AnnotationSpan>& annotations) {
  std::vector<AnnotationSpan> out;
  for (const AnnotationSpan& a : annotations)
    if (a.name.rfind("ProfilerStep#", 0) == 0) out.push_back(a);
  return out;
}

// Structure mode after detection: steps from the trace's own evidence, then labels.
// Steps the trace marks, the first kind present: GPU ProfilerStep#N annotations, their
// CPU side, iterations ending in Optimizer.step, iterations starting at a
// DistributedDataParallel forward (annotation or python frame), graph launches,
// iterations of the python loop's body.
void promote_marked_steps(const EventStore& store, const KernelSequence& seq,
                          const std::vector<AnnotationSpan>& annotations, const StepMarks& marks,
                          const CycleOptions& options, std::vector<CyclePattern>& patterns) {
  std::vector<KernelSpan> steps = kernel_spans(seq, profiler_steps(annotations));
  std::string evidence = "ProfilerStep#";
  if (steps.empty()) steps = kernels_in_spans(store, seq, marks, marks.profiler_steps);
  if (steps.empty()) {
    steps = iterations_ending_in(kernels_in_spans(store, seq, marks, marks.optimizer_steps));
    evidence = "Optimizer.step";
  }
  const uint32_t n = static_cast<uint32_t>(seq.size());
  if (steps.empty()) {
    steps = iterations_starting_at(kernels_in_spans(store, seq, marks, marks.ddp_forwards), n);
    evidence = "DistributedDataParallel.forward";
  }
  if (steps.empty()) {
    steps = iterations_starting_at(kernels_in_spans(store, seq, marks, marks.ddp_frames), n);
    evidence = std::string(kPythonFrameEvidence) + "nn.Module: DistributedDataParallel";
  }
  if (steps.empty()) {
    steps = graph_launch_spans(store, seq, marks);
    evidence = kGraphLaunchEvidence;
  }
  // A loop body holds at least min_cycle_length kernels, and there are two or more.
  if (steps.empty() && n >= 2 * options.min_cycle_length) {
    std::string frame;
    steps = repeated_python_frames(store, seq, marks, frame);
    evidence = std::string(kPythonFrameEvidence) + frame;
    // The weakest evidence: a loop body of a few kernels (a helper called twice) is
    // not a step.
    const bool short_body = std::any_of(steps.begin(), steps.end(), [&](const KernelSpan& s) {
      return s.size() < options.min_cycle_length;
    });
    if (short_body) steps.clear();
  }
  promote_profiler_steps(seq, steps, evidence, options, patterns);
}

void apply_step_evidence(const EventStore& store, const KernelSequence& seq, const StepMarks& marks,
                         const LlmPhases& llm, const CycleOptions& options, std::vector<CyclePattern>& patterns) {
  if (options.order == KernelOrder::kFileOrder) {
    label_main_step(patterns);
    return;
  }
  const std::vector<AnnotationSpan> annotations = gpu_annotations(store, seq);
  promote_marked_steps(store, seq, annotations, marks, options, patterns);
  if (options.llm) promote_single_annotation_layers(seq, annotations, patterns);
  // A promoted layer was matched as a whole cycle (95 %); inside its step, layers are
  // matched as layers (80 %, an extra kernel, a first layer that differs a little).
  for (CyclePattern& p : patterns)
    if (p.layer && p.step_source != StepSource::kDetected)
      collect_layers(seq, p, p.layer->start, p.layer->length, options);
  for (CyclePattern& p : patterns) merge_alternating_kinds(seq, p, options);
  drop_duplicate_patterns(patterns);
  if (options.llm) label_llm_phases(seq, patterns);
  else label_main_step(patterns);
  apply_llm_forwards(store, seq, marks, llm, options, patterns);
}

// Detection and, in structure mode, the trace's step evidence on one sequence.
SequenceCycles sequence_cycles(const EventStore& store, KernelSequence seq, const StepMarks& marks,
                               const LlmPhases& llm, const CycleOptions& options) {
  SequenceCycles sc;
  sc.patterns = detect_cycles(seq, options);
  std::vector<int64_t> launch(seq.size());
  for (size_t i = 0; i < seq.size(); ++i) launch[i] = store.correlation[seq.rows[i]];
  promote_single_launch_layers(launch, sc.patterns);
  if (options.structure) {
    apply_step_evidence(store, seq, marks, llm, options, sc.patterns);
  } else {
    // The store is scanned for annotations only where a pattern could use them.
    const bool layerless = std::any_of(sc.patterns.begin(), sc.patterns.end(),
                                       [](const CyclePattern& p) { return !p.layer; });
    if (options.llm && options.order != KernelOrder::kFileOrder && layerless)
      promote_single_annotation_layers(seq, gpu_annotations(store, seq), sc.patterns);
  }
  sc.sequence = std::move(seq);
  return sc;
}

}  // namespace

size_t CycleReport::patterns() const {
  size_t n = 0;
  for (const auto& s : sequences) n += s.patterns.size();
  return n;
}

CycleReport analyze_cycles(const EventStore& store, const CycleOptions& options) {
  CycleReport report;
  report.structure = options.structure;
  const StepMarks marks = options.structure ? index_step_marks(store) : StepMarks{};
  const LlmPhases llm = options.structure ? infer_llm_phases(store) : LlmPhases{};
  const auto detect = [&](KernelSequence seq) { return sequence_cycles(store, std::move(seq), marks, llm, options); };
  for (auto& seq : build_kernel_sequences(store, options.order)) {
    report.kernels += seq.size();
    report.sequences.push_back(detect(std::move(seq)));
  }
  if (options.structure && options.order == KernelOrder::kStartTimePerStream)
    merge_interleaved_streams(store, detect, report.sequences);
  return report;
}

std::string cycles_summary(const CycleReport& report) {
  std::string out = std::to_string(report.patterns()) + " repeating pattern" +
                    (report.patterns() == 1 ? "" : "s") + " in " + std::to_string(report.kernels) +
                    " kernels";
  std::string sep = ": ";
  for (const auto& sc : report.sequences)
    for (const auto& p : sc.patterns) {
      if (p.phase == CyclePhase::kOther) continue;
      out += sep + cycle_phase_name(p.phase) + " (" + sc.sequence.label + ") " +
             std::to_string(p.outer.repetitions()) + " x " + std::to_string(p.outer.length) +
             " kernels";
      if (p.layer) {
        out += ", " + std::to_string(p.layers_per_outer) + " layers of " +
               std::to_string(p.layer->length);
        if (report.structure && p.passes > 1) out += " in " + std::to_string(p.passes) + " passes";
      }
      if (report.structure) {
        out += std::string(" [") + p.found_by() + "; " + confidence_name(p.confidence) + "]";
      } else {
        if (p.step_source == StepSource::kOneLaunch) out += " (the step is one graph launch)";
        if (p.step_source == StepSource::kOneAnnotation) out += " (the step is one annotated region)";
      }
      sep = "; ";
    }
  return out;
}

}  // namespace sollens
