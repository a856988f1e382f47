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

#ifdef SOLLENS_HAVE_ZLIB  // a .json.gz fixture: the wasm build reads plain JSON only
namespace {

double finding(const Table& verdict, const std::string& key) {
  for (size_t r = 0; r < verdict.num_rows(); ++r)
    if (verdict.column(0).string_at(r) == key) return verdict.column(1).float_at(r);
  FAIL("no finding " << key);
  return 0;
}

size_t row_of(const Table& t, const std::string& function) {
  for (size_t r = 0; r < t.num_rows(); ++r)
    if (t.find("function")->string_at(r) == function) return r;
  FAIL("no row " << function);
  return 0;
}

}  // namespace

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
  // The elementwise ops alone (read inputs + write output, one token, fp32 in the norms):
  //   each RMSNorm: copy_ bf16→fp32 2048 · 6 = 12,288; pow 2048 · 8 = 16,384; add eps 12;
  //     rsqrt 8; mul x · rstd 2048 · 8 + 4 = 16,388; copy_ fp32→bf16 12,288;
  //     mul by the weight 3 · 2048 · 2 = 12,288: 69,656; 33 of them = 2,298,648
  //   each layer: rotary q 2 · 8,320 (mul by cos, sin) + neg 4,096 + add 12,288 = 33,024,
  //     rotary k 2 · 2,176 + 1,024 + 3,072 = 8,448, two residual adds 2 · 12,288,
  //     silu 8192 · 4 = 32,768, gate · up 8192 · 6 = 49,152: 147,968; 16 layers = 2,367,488
  //   the rotary tables: 2 mul by a scalar of 64 fp32 (516) + 2 copy_ (384) = 1,800
  //   4,667,936 bytes = 0.972 µs, so 514.9 µs of weights + 3.4 µs of the rest + 1.0 µs
  //   of elementwise ops = 519.3 µs: the headline's 0.519 ms.
  constexpr double kLayer = 2 * 2048.0 * 2048 + 2 * 2048.0 * 512 + 3 * 2048.0 * 8192;
  static_assert(kLayer == 60817408);
  constexpr double kBytes = 2 * (16 * kLayer + 128256.0 * 2048);
  static_assert(kBytes == 2471493632);
  constexpr double kWeightsMs = kBytes / 4.8e12 * 1e3;  // 0.5149 ms

  Session session;
  REQUIRE(test::load_text(session, test::fixture_text("synthetic/llama_decode.json.gz")).ok());
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
        "launch-bound: 94 % idle; 1 prefill + 31 decode steps; each decode step 17.1 ms wall, 0.519 ms of SOL");
}

TEST_CASE("llama decode fixture: elementwise ops with PyTorch's Input Strides get a SOL", "[sol][fixture]") {
  // The fixture's cpu_ops carry Input Strides as PyTorch 2.x writes them, so aten::pow and
  // the other elementwise ops are modeled. By hand, aten::pow (x.pow(2) in each RMSNorm,
  // fp32, 33 a forward): a decode step's [1, 1, 2048] reads 2048 · 4 = 8,192 bytes and
  // writes as many: 16,384 bytes / 4.8 TB/s = 3.41 ns; the prefill's [1, 128, 2048]
  // 2,097,152 bytes = 0.437 µs. 33 · 2,097,152 + 31 · 33 · 16,384 = 85,966,848 bytes
  // = 17.91 µs for all 1,056. Each one's kernel takes microseconds: none is faster than
  // its SOL.
  Session session;
  REQUIRE(test::load_text(session, test::fixture_text("synthetic/llama_decode.json.gz")).ok());
  ReportRequest request;
  request.no_hta = true;
  request.sol_sheets = true;  // as `sollens report` asks
  const Report report = session.report(request);
  const Table* by_function = report.find("sol_by_function");
  REQUIRE(by_function);
  const size_t pow = row_of(*by_function, "aten::pow");
  CHECK(by_function->find("count")->int_at(pow) == 1056);
  CHECK(by_function->find("estimated_time_ms")->float_at(pow) == Approx(85966848 / 4.8e12 * 1e3).epsilon(1e-6));
  CHECK(by_function->find("measured_time_ms")->float_at(pow) > by_function->find("estimated_time_ms")->float_at(pow));
  for (const char* f : {"aten::mul", "aten::add", "aten::copy_", "aten::pow", "aten::rsqrt", "aten::neg", "aten::silu"}) {
    const size_t r = row_of(*by_function, f);
    CHECK(by_function->find("unmodeled_ops")->int_at(r) == 0);
    CHECK(by_function->find("faster_than_estimate_ops")->int_at(r) == 0);
  }
}
#endif  // SOLLENS_HAVE_ZLIB
