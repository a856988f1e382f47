// The synthetic Llama decode loop (fixtures/synthetic/llama_decode.json.gz, written by
// make_llama_decode.py): what its verdict says, and its decode step's speed of light
// worked out by hand from the shapes.
#include <catch2/catch.hpp>

#include <string>

#include "api/api_test_traces.h"
#include "api/session.h"
#include "api/verdict_text.h"
#include "support/test_trace.h"

using namespace sollens;

namespace {

double finding(const Table& verdict, const std::string& key) {
  for (size_t r = 0; r < verdict.num_rows(); ++r)
    if (verdict.column(0).string_at(r) == key) return verdict.column(1).float_at(r);
  FAIL("no finding " << key);
  return 0;
}

}  // namespace

#ifdef SOLLENS_HAVE_ZLIB  // a .json.gz fixture: the wasm build reads plain JSON only
TEST_CASE("llama decode fixture: a decode step's SOL is its weights read once from HBM", "[verdict][fixture]") {
  // Llama 3.2 1B-like, bf16 (2 bytes a parameter). Per layer:
  //   q, o   2048 × 2048        = 4,194,304 each
  //   k, v   2048 × 8 · 64      = 1,048,576 each
  //   gate, up, down 2048 × 8192 = 16,777,216 each
  //   sum 2 · 4,194,304 + 2 · 1,048,576 + 3 · 16,777,216 = 60,817,408
  // 16 layers: 973,078,528; LM head 128,256 × 2048 = 262,668,288 (the embedding reads one
  // row per token only). 1,235,746,816 parameters = 2,471,493,632 bytes; at the H200's
  // 4.8 TB/s: 514.9 µs. The rest (one token's activations, the KV cache of 8 heads ×
  // ≤ 159 positions × 64 per layer, the norms) adds well under 1 %.
  constexpr double kLayer = 2 * 2048.0 * 2048 + 2 * 2048.0 * 512 + 3 * 2048.0 * 8192;
  static_assert(kLayer == 60817408);
  constexpr double kBytes = 2 * (16 * kLayer + 128256.0 * 2048);
  static_assert(kBytes == 2471493632);
  constexpr double kWeightsMs = kBytes / 4.8e12 * 1e3;  // 0.5149 ms

  Session session;
  REQUIRE(test::load_text(session, test::fixture_text("synthetic/llama_decode.json.gz")).ok);
  ReportRequest request;  // the trace's deviceProperties name the H200
  request.no_hta = true;
  const Report report = session.report(request);
  const Table* verdict = report.find("verdict");
  REQUIRE(verdict);
  const double sol_ms = finding(*verdict, "step_sol_ms.decode");
  CHECK(sol_ms >= kWeightsMs);
  CHECK(sol_ms <= kWeightsMs * 1.01);
  CHECK(finding(*verdict, "steps.prefill") == 1);
  CHECK(finding(*verdict, "steps.decode") == 31);
  // Each decode forward's CPU: 660 launching ops of 24 µs, 16 layers × (12 views of 3 µs
  // + 7 aten::t of 2 µs) = 800 µs, the final slice and LM head's aten::t 5 µs, then
  // 500 µs of Python: 17,145 µs from one step's first kernel to the next's (the last
  // step, not followed, counts its span: the mean is a little less).
  CHECK(finding(*verdict, "step_wall_ms.decode") == Approx(17.145).epsilon(0.002));
  CHECK(finding(*verdict, "gpu_idle_pct") == Approx(94).margin(0.5));
  // The sentence, as a new user reads it on the first screen.
  CHECK(report_headline(report) ==
        "launch-bound: 94 % idle; 1 prefill + 31 decode steps; each decode step 17.1 ms wall, 0.518 ms of SOL");
}
#endif  // SOLLENS_HAVE_ZLIB
