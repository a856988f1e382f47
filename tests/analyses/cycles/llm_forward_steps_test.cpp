// Inferred LLM forwards as steps: an unannotated Hugging Face-style decode loop
// (tests/fixtures/synthetic/hf_decode_loop.json, make_hf_decode_loop.py) launches the
// same 31 kernels in its prefill and in each of its 31 decode forwards, so detection
// alone finds one "step" of 32; the shapes say which forward is which.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyses/cycles/cycles.h"
#include "ingest/trace_reader.h"

using namespace sollens;

namespace {

std::unique_ptr<EventStore> load_decode_loop() {
  std::ifstream in(std::filesystem::path(SOLLENS_FIXTURES_DIR) / "synthetic/hf_decode_loop.json", std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(ss.str()));
  REQUIRE(r.ok());
  return std::move(r.value());
}

}  // namespace

TEST_CASE("cycles: the prefill forward and the 31 decode forwards of an unannotated loop", "[cycles][phases]") {
  const auto store = load_decode_loop();
  const CycleReport report = analyze_cycles(*store);
  REQUIRE(report.sequences.size() == 1);
  const auto& patterns = report.sequences[0].patterns;
  REQUIRE(patterns.size() == 2);
  // Forward f holds kernels [31 f, 31 f + 31): 1 embedding, 4 layers of 7, LM head, argmax.
  const CyclePattern& prefill = patterns[0];
  CHECK(prefill.phase == CyclePhase::kPrefill);
  CHECK(prefill.outer.starts == std::vector<uint32_t>{0});
  CHECK(prefill.outer.length == 31);
  CHECK(prefill.tokens_per_step == 4 * 256);
  REQUIRE(prefill.layer);
  CHECK(prefill.layers_per_outer == 4);
  CHECK(prefill.layer->length == 7);

  const CyclePattern& decode = patterns[1];
  CHECK(decode.phase == CyclePhase::kDecode);
  REQUIRE(decode.outer.repetitions() == 31);
  for (uint32_t f = 1; f <= 31; ++f) CHECK(decode.outer.starts[f - 1] == 31 * f);
  CHECK(decode.outer.length == 31);
  CHECK(decode.tokens_per_step == 4);  // [4, 1] per forward
  REQUIRE(decode.layer);
  CHECK(decode.layers_per_outer == 4);
  CHECK(decode.found_by() == "inferred LLM forwards, layers by anchor");

  const std::string summary = cycles_summary(report);
  CHECK(summary.find("prefill (pid 0 stream 7) 1 x 31 kernels") != std::string::npos);
  CHECK(summary.find("decode (pid 0 stream 7) 31 x 31 kernels") != std::string::npos);
}

TEST_CASE("cycles: uplifter mode does not read the forwards", "[cycles][phases]") {
  const auto store = load_decode_loop();
  CycleOptions uplifter;
  uplifter.structure = false;
  const CycleReport report = analyze_cycles(*store, uplifter);
  for (const CyclePattern& p : report.sequences[0].patterns) CHECK(p.tokens_per_step == 0);
}

TEST_CASE("cycles: LLM mode keeps what kernel names or annotations already say", "[cycles][phases]") {
  // graph_decode (make_cycle_traces.py): its decode kernels are flash_fwd_splitkv, which
  // LLM mode reads as decode evidence; the graph launches stay its steps.
  std::ifstream in(std::filesystem::path(SOLLENS_FIXTURES_DIR) / "synthetic/cycles/graph_decode.json", std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(ss.str()));
  REQUIRE(r.ok());
  CycleOptions llm;
  llm.llm = true;
  const CycleReport report = analyze_cycles(*r.value(), llm);
  const auto& patterns = report.sequences[0].patterns;
  const auto decode = std::find_if(patterns.begin(), patterns.end(),
                                   [](const CyclePattern& p) { return p.phase == CyclePhase::kDecode; });
  REQUIRE(decode != patterns.end());
  CHECK(decode->found_by() == "graph launches, layers by anchor");  // the launches, not the inference
  CHECK(decode->tokens_per_step == 0);
  // The eager prefill before the replays has no such name; the inferred forward names it
  // (make_cycle_traces.py: an eager forward of 1 + 4 layers × 9 + 2 = 39 kernels first).
  const auto prefill = std::find_if(patterns.begin(), patterns.end(),
                                    [](const CyclePattern& p) { return p.phase == CyclePhase::kPrefill; });
  REQUIRE(prefill != patterns.end());
  CHECK(prefill->outer.starts == std::vector<uint32_t>{0});
  CHECK(prefill->outer.length == 39);
  CHECK(prefill->found_by() == "inferred LLM forwards, layers by anchor");
}

TEST_CASE("cycles: LLM mode finds the prefill where decode's kernel names differ", "[cycles][phases]") {
  // named_decode_loop.json (make_named_decode_loop.py): the prefill's attention is
  // flash_fwd_kernel and it launches one extra kernel (a causal mask after the
  // embedding); each of the 15 decode forwards runs flash_fwd_splitkv_kernel, which LLM
  // mode reads as decode. Prefill: kernels [0, 32) = embedding 0, mask 1, 4 layers of 7
  // at 2, 9, 16, 23, LM head 30, argmax 31. Decode forward f (1..15): 31 kernels from
  // 32 + 31 (f - 1); 32 + 15 × 31 = 497 kernels in all.
  std::ifstream in(std::filesystem::path(SOLLENS_FIXTURES_DIR) / "synthetic/named_decode_loop.json", std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(ss.str()));
  REQUIRE(r.ok());
  CycleOptions llm;
  llm.llm = true;
  const CycleReport report = analyze_cycles(*r.value(), llm);
  REQUIRE(report.kernels == 497);
  const auto& patterns = report.sequences[0].patterns;
  REQUIRE(patterns.size() == 2);

  const CyclePattern& prefill = patterns[0];
  CHECK(prefill.phase == CyclePhase::kPrefill);
  CHECK(prefill.outer.starts == std::vector<uint32_t>{0});
  CHECK(prefill.outer.length == 32);
  CHECK(prefill.tokens_per_step == 4 * 256);
  REQUIRE(prefill.layer);
  CHECK(prefill.layers_per_outer == 4);
  CHECK(prefill.layer->length == 7);
  CHECK(prefill.found_by() == "inferred LLM forwards, layers by anchor");

  const CyclePattern& decode = patterns[1];
  CHECK(decode.phase == CyclePhase::kDecode);
  REQUIRE(decode.outer.repetitions() == 15);
  for (uint32_t f = 1; f <= 15; ++f) CHECK(decode.outer.starts[f - 1] == 32 + 31 * (f - 1));
  CHECK(decode.outer.length == 31);
  CHECK(decode.tokens_per_step == 4);
  REQUIRE(decode.layer);
  CHECK(decode.layers_per_outer == 4);
  CHECK(decode.layer->length == 7);

  const std::string summary = cycles_summary(report);
  CHECK(summary.find("prefill (pid 0 stream 7) 1 x 32 kernels, 4 layers of 7") != std::string::npos);
  CHECK(summary.find("decode (pid 0 stream 7) 15 x 31 kernels, 4 layers of 7") != std::string::npos);
}
