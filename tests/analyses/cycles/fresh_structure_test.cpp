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
  LoadResult r = load_trace(PaddedBuffer::copy_of(ss.str()));
  REQUIRE(r.store);
  return std::move(r.store);
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
