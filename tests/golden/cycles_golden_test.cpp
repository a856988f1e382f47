// Cycle detection on real shared traces, asserting only what the trace itself shows:
// the layer count of the SGLang Qwen3-8B decode step (one paged-attention kernel per
// layer, 36 layers in one graph launch) and the ProfilerStep#N iterations of a
// ResNet-50 training trace.
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
  LoadResult r = load_trace(PaddedBuffer::copy_of(ss.str()));
  REQUIRE(r.store);
  return std::move(r.store);
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
      CHECK(p.phase == CyclePhase::kDecode);
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
    } else {
      // Outside LLM mode annotations never turn repetitions into layers.
      CHECK_FALSE(found->layer);
      CHECK(found->step_source != StepSource::kOneAnnotation);
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
#endif
