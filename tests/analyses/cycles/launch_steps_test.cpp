#include <catch2/catch.hpp>

#include "analyses/cycles/launch_steps.h"
#include "store/event_store.h"

using namespace sollens;

namespace {

// A layer cycle as detection reports it: `reps` windows of `len` kernels from `start`.
CyclePattern layer_only(uint32_t start, uint32_t len, uint32_t reps) {
  CyclePattern p;
  p.outer.start = start;
  p.outer.length = len;
  for (uint32_t r = 0; r < reps; ++r) p.outer.starts.push_back(start + r * len);
  p.phase = CyclePhase::kDecode;
  return p;
}

}  // namespace

TEST_CASE("a layer cycle inside one graph launch becomes the layer of a one-launch step") {
  // Kernels 0-2: embedding (launch 7); 3-62: 6 layers of 10 (launch 7); 63-64: LM head
  // and sampling (launch 7); 65-66: the next, eager kernels (launches 8, 9).
  std::vector<int64_t> launch(67, 7);
  launch[65] = 8;
  launch[66] = 9;
  std::vector<CyclePattern> patterns = {layer_only(3, 10, 6)};
  promote_single_launch_layers(launch, patterns);
  const CyclePattern& p = patterns[0];
  REQUIRE(p.layer);
  CHECK(p.step_source == StepSource::kOneLaunch);
  CHECK(p.layer->start == 3);
  CHECK(p.layer->repetitions() == 6);
  CHECK(p.outer.start == 0);
  CHECK(p.outer.length == 65);  // 3 + 6 * 10 + 2
  CHECK(p.outer.starts == std::vector<uint32_t>{0});
  CHECK(p.layer_offset == 3);
  CHECK(p.layers_per_outer == 6);
  CHECK(p.phase == CyclePhase::kDecode);
}

TEST_CASE("cycles across launches, or without launch ids, stay steps") {
  std::vector<int64_t> launch(60);
  for (size_t i = 0; i < launch.size(); ++i) launch[i] = static_cast<int64_t>(i / 10);  // a launch per step
  std::vector<CyclePattern> patterns = {layer_only(0, 10, 6)};
  promote_single_launch_layers(launch, patterns);
  CHECK_FALSE(patterns[0].layer);
  CHECK(patterns[0].outer.repetitions() == 6);

  std::vector<int64_t> unknown(60, kNoValue);
  promote_single_launch_layers(unknown, patterns);
  CHECK_FALSE(patterns[0].layer);
  CHECK(patterns[0].step_source != StepSource::kOneLaunch);
}

TEST_CASE("a pattern that already has a layer is left alone") {
  std::vector<int64_t> launch(100, 3);
  CyclePattern p = layer_only(0, 20, 5);
  p.layer = layer_only(2, 5, 12).outer;
  p.layers_per_outer = 3;
  std::vector<CyclePattern> patterns = {p};
  promote_single_launch_layers(launch, patterns);
  CHECK(patterns[0].outer.length == 20);
  CHECK(patterns[0].layers_per_outer == 3);
  CHECK(patterns[0].step_source != StepSource::kOneLaunch);
}

TEST_CASE("a layer cycle inside one GPU annotation becomes the layer of its step (LLM mode)") {
  // 2 embedding kernels, 5 layers of 4, 1 LM head: 1 µs each, back to back from 0 µs;
  // then 2 kernels of the next region at 100 µs.
  std::vector<std::string> names = {"embed", "gather"};
  for (int l = 0; l < 5; ++l)
    for (const char* k : {"qkv", "attn", "proj", "mlp"}) names.push_back(k);
  names.push_back("lm_head");
  std::vector<double> ts;
  for (size_t i = 0; i < names.size(); ++i) ts.push_back(static_cast<double>(i));
  names.push_back("next");
  names.push_back("next");
  ts.push_back(100);
  ts.push_back(101);
  const KernelSequence seq = make_kernel_sequence(names, std::vector<double>(names.size(), 1.0), ts);
  const std::vector<AnnotationSpan> step = {{0, 23, "step"}};  // kernels 0..22 end by 23 µs
  std::vector<CyclePattern> patterns = {layer_only(2, 4, 5)};
  promote_single_annotation_layers(seq, step, patterns);
  const CyclePattern& p = patterns[0];
  REQUIRE(p.layer);
  CHECK(p.step_source == StepSource::kOneAnnotation);
  CHECK(p.outer.start == 0);
  CHECK(p.outer.length == 23);  // 2 + 5 * 4 + 1: the "next" kernels lie outside it
  CHECK(p.layer_offset == 2);
  CHECK(p.layers_per_outer == 5);

  // An annotation that does not hold every repetition changes nothing.
  std::vector<CyclePattern> cut = {layer_only(2, 4, 5)};
  promote_single_annotation_layers(seq, {{0, 10, "cut"}}, cut);
  CHECK_FALSE(cut[0].layer);
}
