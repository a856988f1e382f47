// Cycle detection on real shared traces, asserting only what the trace itself shows:
// the layer count of the SGLang Qwen3-8B decode step (one paged-attention kernel per
// layer, 36 layers in one graph launch) and the ProfilerStep#N iterations of a
// ResNet-50 training trace; the H200 PyTorch 2.11 GPT-2 (3 steps x 6 layers) and ResNet-50
// (3 steps) training traces of their MANIFEST.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyses/cycles/cycles.h"
#include "ingest/trace_reader.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

const fs::path kTraces = fs::path(SOLLENS_FIXTURES_DIR) / "traces";

std::unique_ptr<EventStore> load(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(ss.str()));
  REQUIRE(r.ok());
  return std::move(r.value());
}

size_t count_events(const EventStore& s, Category cat, std::string_view name_part) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s.category[i] == cat && s.phase[i] == Phase::kComplete &&
        s.name_of(i).find(name_part) != std::string_view::npos)
      ++n;
  return n;
}

}  // namespace

#ifdef SOLLENS_HAVE_ZLIB
TEST_CASE("SGLang Qwen3-8B decode: one repetition per layer") {
  const auto store =
      load(kTraces / "tracelens-sglang-qwen3-8b-decode" / "sglang_Qwen3-8B_decode.json.gz");
  // One paged-attention (QKV) kernel per transformer layer.
  const size_t layers = count_events(*store, Category::kKernel, "paged_attention_ll4mi_QKV");
  REQUIRE(layers == 36);  // Qwen3-8B's num_hidden_layers
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* found = nullptr;
  for (const auto& sc : report.sequences)
    for (const auto& p : sc.patterns)
      if (p.effective().repetitions() == layers) found = &p;
  REQUIRE(found);
  // Each layer window holds exactly one paged-attention kernel.
  for (const auto& sc : report.sequences)
    for (const auto& p : sc.patterns) {
      if (&p != found) continue;
      size_t attention = 0;
      for (uint32_t j = 0; j < p.effective().length; ++j)
        attention += sc.sequence.names[sc.sequence.name[p.effective().start + j]].find(
                         "paged_attention_ll4mi_QKV") != std::string::npos;
      CHECK(attention == 1);
      // A step outside LLM mode; decode in LLM mode (graph replay, paged attention).
      CHECK(p.phase == CyclePhase::kStep);
      // The trace is one decode step: one graph launch replays every kernel. So the
      // LLM view has one step holding the 36 layers (not 36 "steps"), and the kernels
      // of the replay before and after the layers (embedding, LM head) outside them.
      REQUIRE(count_events(*store, Category::kCudaRuntime, "GraphLaunch") == 1);
      CHECK(p.step_source == StepSource::kOneLaunch);
      CHECK(p.outer.repetitions() == 1);
      CHECK(p.layers_per_outer == layers);
      CHECK(p.outer.length > layers * p.layer->length);
    }
}

TEST_CASE("vLLM TP8 eager prefill (B200): in LLM mode one annotated step holding the layers") {
  const auto store = load(kTraces / "tracelens-b200-vllm-tp8" / "eager_trace.json.gz");
  // One paged-context attention kernel per layer, and one annotated execute step.
  const size_t layers = count_events(*store, Category::kKernel, "fmhaSm100aKernel");
  REQUIRE(layers == 36);
  REQUIRE(count_events(*store, Category::kGpuUserAnnotation, "execute_context") == 1);
  CycleOptions llm;
  llm.llm = true;
  for (const bool llm_mode : {false, true}) {
    const CycleReport report = analyze_cycles(*store, llm_mode ? llm : CycleOptions{});
    const CyclePattern* found = nullptr;
    for (const auto& sc : report.sequences)
      for (const auto& p : sc.patterns)
        if (p.effective().repetitions() == layers) found = &p;
    REQUIRE(found);
    if (llm_mode) {
      // Every layer lies inside the one annotated step: 1 step, 36 layers in it.
      CHECK(found->step_source == StepSource::kOneAnnotation);
      CHECK(found->outer.repetitions() == 1);
      CHECK(found->layers_per_outer == layers);
      CHECK(found->outer.length > layers * found->layer->length);
      // One prefill forward: the step annotation's name says context (vLLM's
      // execute_context_…), so it is prefill, not 36 decode steps.
      CHECK(found->phase == CyclePhase::kPrefill);
    } else {
      // Outside LLM mode annotations never turn repetitions into layers, and nothing
      // is called prefill or decode.
      CHECK_FALSE(found->layer);
      CHECK(found->step_source != StepSource::kOneAnnotation);
      CHECK(found->phase == CyclePhase::kStep);
    }
  }
}

TEST_CASE("ResNet-50 training (V100): one repetition per ProfilerStep") {
  const auto store =
      load(kTraces / "kineto-tb-resnet50-v100" / "worker0.1623143089861.pt.trace.json.gz");
  const size_t steps = count_events(*store, Category::kCpuOp, "ProfilerStep#");
  REQUIRE(steps == 6);
  const CycleReport report = analyze_cycles(*store);
  REQUIRE(report.sequences.size() == 1);  // every kernel on one stream of one GPU
  const auto& sc = report.sequences[0];
  const CyclePattern* step = nullptr;
  for (const auto& p : sc.patterns)
    if (p.outer.repetitions() == steps) step = &p;
  REQUIRE(step);
  // The profiled window holds only the 6 steps: they tile the kernel sequence.
  CHECK(step->outer.length * steps == sc.sequence.size());
  CHECK(step->outer.start == 0);
  // Same answer in device order (a single stream) and deterministic across runs.
  CycleOptions opt;
  opt.order = KernelOrder::kStartTimePerDevice;
  const CycleReport again = analyze_cycles(*store, opt);
  REQUIRE(again.sequences.size() == 1);
  REQUIRE(again.sequences[0].patterns.size() == sc.patterns.size());
  for (size_t i = 0; i < sc.patterns.size(); ++i)
    CHECK(again.sequences[0].patterns[i].outer.starts == sc.patterns[i].outer.starts);
}

const CyclePattern* main_step(const CycleReport& report, const KernelSequence** seq = nullptr) {
  for (const auto& sc : report.sequences)
    for (const auto& p : sc.patterns)
      if (p.phase == CyclePhase::kStep || p.phase == CyclePhase::kDecode ||
          p.phase == CyclePhase::kPrefill) {
        if (seq) *seq = &sc.sequence;
        return &p;
      }
  return nullptr;
}

size_t kernels_in_window(const KernelSequence& seq, uint32_t start, uint32_t length,
                         std::string_view part) {
  size_t n = 0;
  for (uint32_t j = 0; j < length; ++j)
    n += seq.names[seq.name[start + j]].find(part) != std::string::npos;
  return n;
}

TEST_CASE("SGLang Qwen3-8B decode in LLM mode: one decode step of 36 layers") {
  const auto store =
      load(kTraces / "tracelens-sglang-qwen3-8b-decode" / "sglang_Qwen3-8B_decode.json.gz");
  CycleOptions llm;
  llm.llm = true;
  const CycleReport report = analyze_cycles(*store, llm);
  const CyclePattern* p = main_step(report);
  REQUIRE(p);
  CHECK(p->phase == CyclePhase::kDecode);
  CHECK(p->outer.repetitions() == 1);
  CHECK(p->layers_per_outer == 36);  // paged-attention kernels, counted above
}

TEST_CASE("OWLv2-large (H100): 5 forwards of 24 vision layers") {
  const auto store = load(kTraces / "tracelens-h100-owlv2-large" /
                          "google_owlv2-large-patch14-ensemble__1016001.json.gz");
  // Vision attention softmax (cunn_SoftMaxForward) once per vision layer, text
  // attention softmax (softmax_warp_forward) once per text layer: OWLv2-large has 24
  // vision and 12 text layers, so 120 / 24 = 60 / 12 = 5 forwards.
  REQUIRE(count_events(*store, Category::kKernel, "cunn_SoftMaxForward") == 120);
  REQUIRE(count_events(*store, Category::kKernel, "softmax_warp_forward") == 60);
  const KernelSequence* seq = nullptr;
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* p = main_step(report, &seq);
  REQUIRE(p);
  CHECK(p->phase == CyclePhase::kStep);
  CHECK(p->outer.repetitions() == 5);
  CHECK(p->layers_per_outer == 24);
  REQUIRE(p->layer);
  for (uint32_t s : p->layer->starts)
    CHECK(kernels_in_window(*seq, s, p->layer->length, "cunn_SoftMaxForward") == 1);
  // The text layers: a second layer of the same 5 forwards, 12 in each.
  const CyclePattern* text = nullptr;
  for (const auto& sc : report.sequences)
    for (const auto& q : sc.patterns)
      if (&q != p && q.layer && kernels_in_window(*seq, q.layer->start, q.layer->length, "softmax_warp_forward") == 1)
        text = &q;
  REQUIRE(text);
  CHECK(text->outer.starts == p->outer.starts);
  CHECK(text->layers_per_outer == 12);
  CHECK(text->layer->repetitions() == 60);
}

TEST_CASE("Qwen1.5-0.5B (H100): the forward inside ProfilerStep#6 is one step of 24 layers") {
  const auto store =
      load(kTraces / "tracelens-h100-qwen1.5-0.5b" / "Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
  // The trace holds 34 flash-attention kernels: 10 of a forward that began before the
  // profiler step, 24 inside the step's GPU annotation (Qwen1.5-0.5B: 24 layers).
  REQUIRE(count_events(*store, Category::kKernel, "flash_fwd_kernel") == 34);
  double begin = 0, end = 0;
  for (size_t i = 0; i < store->size(); ++i)
    if (store->category[i] == Category::kGpuUserAnnotation &&
        store->name_of(i).rfind("ProfilerStep#", 0) == 0)
      begin = store->ts[i], end = store->ts[i] + store->dur[i];
  size_t inside = 0;
  for (size_t i = 0; i < store->size(); ++i)
    inside += store->category[i] == Category::kKernel && store->ts[i] >= begin &&
              store->ts[i] + store->dur[i] <= end &&
              store->name_of(i).find("flash_fwd_kernel") != std::string_view::npos;
  REQUIRE(inside == 24);
  CHECK(analyze_cycles(*store, CycleOptions{.structure = false}).patterns() == 0);  // uplifter
  const KernelSequence* seq = nullptr;
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* p = main_step(report, &seq);
  REQUIRE(p);
  CHECK(p->step_source == StepSource::kAnnotations);
  CHECK(p->outer.repetitions() == 1);
  CHECK(p->layers_per_outer == inside);
  REQUIRE(p->layer);
  for (uint32_t s : p->layer->starts)
    CHECK(kernels_in_window(*seq, s, p->layer->length, "flash_fwd_kernel") == 1);
}

TEST_CASE("A100 DDP (HTA nccl_data): three training iterations from CPU-side ProfilerStep#N") {
  const auto store = load(kTraces / "hta-a100-ddp-nccl" / "nccl_data.json.gz");
  // Three ProfilerStep#N annotations, CPU side only (no GPU twin), one
  // Optimizer.step each: three iterations, fewer than uplifter's five.
  REQUIRE(count_events(*store, Category::kUserAnnotation, "ProfilerStep#") == 3);
  REQUIRE(count_events(*store, Category::kGpuUserAnnotation, "ProfilerStep#") == 0);
  REQUIRE(count_events(*store, Category::kUserAnnotation, "Optimizer.step") == 3);
  CHECK(analyze_cycles(*store, CycleOptions{.structure = false}).patterns() == 0);  // uplifter
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* p = main_step(report);
  REQUIRE(p);
  CHECK(p->outer.repetitions() == 3);
  CHECK(p->step_source == StepSource::kAnnotations);
  CHECK(p->found_by().rfind("annotation ProfilerStep#", 0) == 0);
}

TEST_CASE("PARAM linear: iterations end with their Optimizer.step") {
  const auto store = load(kTraces / "param-et-linear" / "linear_kineto.json.gz");
  // Counted from the trace (python: each kernel placed by its launch's time in an
  // Optimizer.step annotation): 40 optimizer steps; up to the first one's last kernel
  // 136 kernels (the profile starts mid-iteration), then 39 iterations of 220 each:
  // 136 + 39 × 220 = 8716, every kernel of the trace. No ProfilerStep#N annotation.
  REQUIRE(count_events(*store, Category::kUserAnnotation, "Optimizer.step") == 40);
  REQUIRE(count_events(*store, Category::kUserAnnotation, "ProfilerStep#") == 0);
  REQUIRE(count_events(*store, Category::kKernel, "") == 8716);
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* p = main_step(report);
  REQUIRE(p);
  CHECK(p->outer.repetitions() == 39);
  CHECK(p->outer.length == 220);
  CHECK(p->outer.start == 136);
  CHECK(p->found_by().rfind("annotation Optimizer.step", 0) == 0);
  // Each iteration runs 21 Linear forward GEMMs (volta_sgemm_64x64_tn), so 21 backward
  // layers: 20 of dgrad, wgrad, bias reduce and 3 elementwise kernels, and the first
  // layer's without dgrad (its input needs no gradient), one kernel short.
  REQUIRE(p->layer);
  CHECK(p->layer->length == 6);
  CHECK(p->layers_per_outer == 21);
}

TEST_CASE("FLUX.1 (xDiT capture): one graph-replayed step, one pass, 19 + 38 blocks") {
  const auto store =
      load(kTraces / "tracelens-xdit-flux1-capture" / "capture_trace_rank_0.json.gz");
  // Counted from the trace (python, kernels of stream 0 by start time): one
  // hipGraphLaunch replays 993 kernels; they hold 57 aiter::fmha_fwd kernels, 19 spaced
  // 29 apart (the double-stream blocks) then 38 spaced 11 (12 for 4 of them: the
  // single-stream blocks): FLUX.1's 19 + 38 blocks, run once (no guidance pass: 1
  // step x 1 pass). Before the replay the CLIP (12 layers) and T5 (24) text encoders
  // run eagerly, after it the VAE decoder.
  REQUIRE(count_events(*store, Category::kCudaRuntime, "GraphLaunch") == 1);
  REQUIRE(count_events(*store, Category::kKernel, "fmha_fwd") == 57);
  const CycleReport report = analyze_cycles(*store);
  std::vector<const CyclePattern*> in_launch;
  const KernelSequence* seq = nullptr;
  for (const auto& sc : report.sequences)
    for (const auto& p : sc.patterns)
      if (p.step_source == StepSource::kOneLaunch) in_launch.push_back(&p), seq = &sc.sequence;
  REQUIRE(in_launch.size() == 2);  // double and single blocks
  CHECK(in_launch[0]->layers_per_outer == 19);
  CHECK(in_launch[0]->layer->length == 29);
  CHECK(in_launch[1]->layers_per_outer == 38);
  size_t blocks = 0;
  for (const CyclePattern* p : in_launch) {
    CHECK(p->outer.repetitions() == 1);
    CHECK(p->outer.length == 993);
    CHECK(p->passes == 1);
    for (uint32_t s : p->layer->starts)
      CHECK(kernels_in_window(*seq, s, p->layer->length, "fmha_fwd") == 1);
    blocks += p->layers_per_outer;
  }
  CHECK(blocks == 57);
}

TEST_CASE("vLLM gpt-oss decode (full graph): 24 layers of two alternating kinds in one replay") {
  const auto store = load(kTraces / "tracelens-vllm-decode-full" / "graph_execution.json.gz");
  // Counted from the trace: one graph launch; 12 kernel_unified_attention_2d (the
  // full-attention layers) and 12 kernel_unified_attention_3d (the sliding-window
  // layers, split attention and its reduce_segments), alternating: gpt-oss-20b's 24
  // layers. A layer of one kind alone would leave the other 12 out.
  REQUIRE(count_events(*store, Category::kCudaRuntime, "GraphLaunch") == 1);
  REQUIRE(count_events(*store, Category::kKernel, "kernel_unified_attention_2d") == 12);
  REQUIRE(count_events(*store, Category::kKernel, "kernel_unified_attention_3d") == 12);
  const KernelSequence* seq = nullptr;
  const CycleReport report = analyze_cycles(*store);
  REQUIRE(report.patterns() == 1);
  const CyclePattern* p = main_step(report, &seq);
  REQUIRE(p);
  CHECK(p->step_source == StepSource::kOneLaunch);
  CHECK(p->outer.repetitions() == 1);
  CHECK(p->layers_per_outer == 12);
  CHECK(p->layers_of_kinds == 2);
  REQUIRE(p->layer);
  for (uint32_t s : p->layer->starts) {
    CHECK(kernels_in_window(*seq, s, p->layer->length, "kernel_unified_attention_2d") == 1);
    CHECK(kernels_in_window(*seq, s, p->layer->length, "kernel_unified_attention_3d") == 1);
  }
}

TEST_CASE("bert-small (H100, MI300X): one ProfilerStep of 4 layers") {
  // bert-small (L-4): one attention kernel per layer (flash_fwd on the H100, attn_fwd
  // on the MI300X), 4 in the trace, inside its one ProfilerStep#6 annotation. No
  // kernel is seen 5 times: the step is the evidence.
  const std::pair<const char*, const char*> traces[] = {{"tracelens-h100-bert-small", "flash_fwd"},
                                                        {"tracelens-mi300x-bert-small", "attn_fwd"}};
  for (const auto& [gpu, attention] : traces) {
    const auto store = load(kTraces / gpu / "gaunernst_bert-small-uncased__1016001.json.gz");
    REQUIRE(count_events(*store, Category::kUserAnnotation, "ProfilerStep#") == 1);
    REQUIRE(count_events(*store, Category::kKernel, attention) == 4);
    const KernelSequence* seq = nullptr;
    const CycleReport report = analyze_cycles(*store);
    const CyclePattern* p = main_step(report, &seq);
    REQUIRE(p);
    CHECK(p->outer.repetitions() == 1);
    CHECK(p->step_source == StepSource::kAnnotations);
    CHECK(p->layers_per_outer == 4);
    REQUIRE(p->layer);
    for (uint32_t s : p->layer->starts) CHECK(kernels_in_window(*seq, s, p->layer->length, attention) == 1);
  }
}

TEST_CASE("AlexNet benchmark (HTA simple_add): a warm-up and a measured forward are two steps") {
  const auto store = load(kTraces / "hta-a100-alexnet-simple-add" / "benchmark_result_493459_1694039959_trace.json.gz");
  // Counted from the trace: the benchmark's annotations hold two forwards (…|warmup|forward
  // and …|measure|forward, each written twice, nested), 36 kernels each on stream 7.
  REQUIRE(count_events(*store, Category::kUserAnnotation, "warmup|forward") == 2);
  REQUIRE(count_events(*store, Category::kUserAnnotation, "measure|forward") == 2);
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* p = main_step(report);
  REQUIRE(p);
  CHECK(p->outer.repetitions() == 2);
  CHECK(p->outer.length == 36);
  CHECK(p->few_steps);
}

TEST_CASE("A100 DDP (HTA nccl_data): forward and backward blocks in each of the three iterations") {
  const auto store = load(kTraces / "hta-a100-ddp-nccl" / "nccl_data.json.gz");
  const CycleReport report = analyze_cycles(*store);
  // Every pattern of the main stream has the three iterations as its steps, none one
  // iteration alone.
  size_t layered = 0;
  for (const auto& sc : report.sequences)
    for (const auto& p : sc.patterns)
      if (p.layer) {
        ++layered;
        CHECK(p.outer.repetitions() == 3);
        CHECK(p.layer->repetitions() == 3 * p.layers_per_outer);
      }
  CHECK(layered == 2);
}

TEST_CASE("normalization layer test: three iterations of the python loop") {
  const auto store = load(kTraces / "tracelens-normalization-layer-test" / "normalization_layer_test.json.gz");
  // No ProfilerStep, optimizer or DDP annotation; the python loop calls nn.Module:
  // Net_0 three times (then MSELoss and backward): three iterations.
  REQUIRE(count_events(*store, Category::kUserAnnotation, "ProfilerStep#") == 0);
  REQUIRE(count_events(*store, Category::kPythonFunction, "nn.Module: Net_0") == 3);
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* p = main_step(report);
  REQUIRE(p);
  CHECK(p->outer.repetitions() == 3);
  CHECK(p->found_by() == "python frame nn.Module: Net_0");
}

TEST_CASE("GPT-2 training (H200, PyTorch 2.11): 3 steps of 6 layers") {
  const auto store = load(kTraces / "h200-pt211-gpt2-train" / "gpt2_train.json.gz");
  // MANIFEST: a 6-layer GPT-2, 3 training steps, no ProfilerStep#; AdamW ends each step
  // (one Optimizer.step per iteration) and cuDNN SDPA runs once per layer forward.
  REQUIRE(count_events(*store, Category::kUserAnnotation, "ProfilerStep#") == 0);
  REQUIRE(count_events(*store, Category::kUserAnnotation, "Optimizer.step") == 3);
  REQUIRE(count_events(*store, Category::kCpuOp, "aten::_cudnn_attention_forward") == 3 * 6);
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* p = main_step(report);
  REQUIRE(p);
  CHECK(p->phase == CyclePhase::kStep);  // training: no prefill or decode inferred
  CHECK(p->outer.repetitions() == 3);
  REQUIRE(p->layer);
  CHECK(p->layers_per_outer == 6);
  CHECK(p->layer->repetitions() == 3 * 6);
}

TEST_CASE("ResNet-50 training (H200, PyTorch 2.11): 3 steps") {
  const auto store = load(kTraces / "h200-pt211-resnet50-train" / "resnet50_train.json.gz");
  // MANIFEST: 3 training steps (SGD), no ProfilerStep#: one Optimizer.step each.
  REQUIRE(count_events(*store, Category::kUserAnnotation, "Optimizer.step") == 3);
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* p = main_step(report);
  REQUIRE(p);
  CHECK(p->outer.repetitions() == 3);
  CHECK(p->found_by().rfind("annotation Optimizer.step", 0) == 0);
}

#endif
