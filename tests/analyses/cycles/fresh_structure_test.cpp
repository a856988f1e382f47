// Cycles on the structures of fresh traces, each a small generated Kineto trace
// (tests/fixtures/synthetic/cycles/make_cycle_traces.py) whose truth is how the
// generator writes it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyses/cycles/cycles.h"
#include "ingest/trace_reader.h"

using namespace sollens;

namespace {

std::unique_ptr<EventStore> load_cycle_trace(const std::string& name) {
  std::ifstream in(std::filesystem::path(SOLLENS_FIXTURES_DIR) / "synthetic" / "cycles" / name, std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(ss.str()));
  REQUIRE(r.ok());
  return std::move(r.value());
}

const CyclePattern* with_phase(const CycleReport& report, CyclePhase phase) {
  for (const auto& sc : report.sequences)
    for (const auto& p : sc.patterns)
      if (p.phase == phase) return &p;
  return nullptr;
}

}  // namespace

TEST_CASE("cycles: CUDA-graph replays of single-token forwards are decode, the eager prefill is named",
          "[cycles][phases]") {
  // One eager forward (embedding, 4 layers of 9, LM head, argmax: 39 kernels), then 12
  // cudaGraphLaunch replays of the same 39.
  const auto store = load_cycle_trace("graph_decode.json");
  const CycleReport report = analyze_cycles(*store);
  REQUIRE(report.patterns() == 2);
  const CyclePattern* prefill = with_phase(report, CyclePhase::kPrefill);
  const CyclePattern* decode = with_phase(report, CyclePhase::kDecode);
  REQUIRE(prefill);
  REQUIRE(decode);
  CHECK(prefill->outer.starts == std::vector<uint32_t>{0});
  CHECK(prefill->outer.length == 39);
  CHECK(prefill->layers_per_outer == 4);
  CHECK(decode->outer.repetitions() == 12);
  CHECK(decode->outer.length == 39);
  CHECK(decode->outer.starts[0] == 39);
  CHECK(decode->layers_per_outer == 4);
}

TEST_CASE("cycles: a loop over two streams is one loop", "[cycles]") {
  // setup_copy, then 6 iterations of loop_start, 4 layers of gemm_a (7), copy_b (8),
  // gemm_c (7), reduce_d (8), act_e (7), and loop_end (8): 22 kernels per iteration,
  // 13 on stream 7 and 9 on stream 8, interleaved in time. Stream 7 alone repeats
  // 6 x 13 without layers; the device's loop shows its layers.
  const auto store = load_cycle_trace("two_streams.json");
  const CycleReport report = analyze_cycles(*store);
  REQUIRE(report.sequences.size() == 1);  // the device's two streams, merged
  CHECK(report.sequences[0].sequence.label == "pid 0");
  CHECK(report.kernels == 1 + 6 * 22);
  REQUIRE(report.patterns() == 1);
  const CyclePattern& p = report.sequences[0].patterns[0];
  CHECK(p.phase == CyclePhase::kStep);
  CHECK(p.outer.repetitions() == 6);
  CHECK(p.outer.length == 22);
  REQUIRE(p.layer);
  CHECK(p.layers_per_outer == 4);
  CHECK(p.layer->length == 5);
}

TEST_CASE("cycles: an 8-layer MLP under DDP has 8 backward layers, the first and last one kernel short",
          "[cycles]") {
  // Per ProfilerStep (65 kernels on stream 7): copy_input, 8 forward GEMMs with 7 ReLUs
  // between them, the loss and its gradient, then backward layers 7..0 of
  // threshold_backward, dgrad, wgrad, bias reduce and two bucket copies (6), layer 7
  // without threshold_backward and layer 0 without dgrad (5 each), then sgd_update.
  const auto store = load_cycle_trace("mlp_ddp.json");
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* p = with_phase(report, CyclePhase::kStep);
  REQUIRE(p);
  CHECK(p->outer.repetitions() == 3);
  CHECK(p->outer.length == 65);
  REQUIRE(p->layer);
  CHECK(p->layer->length == 6);
  CHECK(p->layers_per_outer == 8);
}

TEST_CASE("cycles: four iterations of a loop with no annotation", "[cycles]") {
  // 4 iterations of embedding_fwd, 6 layers of 5 (ln, qkv, attention, out, gelu),
  // loss_fwd, loss_bwd, 6 backward layers of 6, adam_step: 70 kernels each.
  const auto store = load_cycle_trace("four_iterations.json");
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern* p = with_phase(report, CyclePhase::kStep);
  REQUIRE(p);
  CHECK(p->outer.repetitions() == 4);
  CHECK(p->outer.length == 70);
  REQUIRE(p->layer);
  CHECK(p->layers_per_outer == 6);
}

TEST_CASE("cycles: three identical iterations shorter than a long step are a loop", "[cycles]") {
  // setup, 3 iterations of it_0 .. it_15 back to back, teardown: 50 kernels.
  const auto store = load_cycle_trace("three_short_iterations.json");
  const CycleReport report = analyze_cycles(*store);
  REQUIRE(report.patterns() == 1);
  const CyclePattern& p = report.sequences[0].patterns[0];
  CHECK(p.outer.starts == std::vector<uint32_t>{1, 17, 33});
  CHECK(p.outer.length == 16);
  CHECK(p.few_steps);
}

TEST_CASE("cycles: four iterations whose first runs warm-up kernels are four", "[cycles]") {
  // The loop of four_iterations.json with 5 warm-up kernels in the first iteration
  // (after its third layer): iterations of 75, 70, 70, 70 kernels starting at 0, 75,
  // 145, 215. Windows of one length match only 3 (rotated past the warm-up); each
  // iteration holds the shortest one's kernels in order.
  const auto store = load_cycle_trace("four_iterations_warmup.json");
  const CycleReport report = analyze_cycles(*store);
  REQUIRE(report.patterns() == 1);
  const CyclePattern& p = report.sequences[0].patterns[0];
  CHECK(p.outer.starts == std::vector<uint32_t>{0, 75, 145, 215});
  CHECK(p.outer.length == 70);
}
