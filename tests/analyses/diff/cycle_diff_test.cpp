// Cycle diff across "vendors": two synthetic decode runs of the same model whose kernel
// names share nothing; one kernel of the layer is slower in the second. Expected values
// by hand from the construction (kernels back to back, so a step's latency is the sum
// of its durations).
#include <catch2/catch.hpp>

#include "analyses/diff/cycle_diff.h"

using namespace sollens;

namespace {

// 10 decode steps: embed (2 µs), 4 layers of 8 kernels (3 µs each; the fourth kernel
// `slow_us`), head (8 µs), sampler (4 µs).
CycleReport decode_run(const std::string& prefix, double slow_us) {
  const char* layer[] = {"qkv", "attention", "projection", "norm", "upscale", "activation", "downscale", "residual"};
  std::vector<std::string> names;
  std::vector<double> dur;
  for (int step = 0; step < 10; ++step) {
    names.push_back(prefix + "embedding");
    dur.push_back(2);
    for (int l = 0; l < 4; ++l)
      for (int k = 0; k < 8; ++k) {
        names.push_back(prefix + layer[k]);
        dur.push_back(k == 3 ? slow_us : 3);
      }
    names.push_back(prefix + "lmhead");
    dur.push_back(8);
    names.push_back(prefix + "sampler");
    dur.push_back(4);
  }
  CycleReport report;
  SequenceCycles s;
  s.sequence = make_kernel_sequence(names, dur);
  s.patterns = detect_cycles(s.sequence);
  report.kernels = names.size();
  report.sequences.push_back(std::move(s));
  return report;
}

}  // namespace

TEST_CASE("diff_cycles pairs two vendors' patterns and positions", "[diff]") {
  const CycleReport a = decode_run("sm90_", 3), b = decode_run("cijk_", 6);
  REQUIRE(a.patterns() == 1);
  REQUIRE(b.patterns() == 1);
  REQUIRE(a.sequences[0].patterns[0].layer);
  const CycleDiff d = diff_cycles(a, b, {"h100", "mi300x"});

  REQUIRE(d.cycles.num_rows() == 2);
  const Table& c = d.cycles;
  CHECK(c.find("level")->string_at(0) == "step");
  // step: 2 + 32·3 + 8 + 4 = 110 µs; with the fourth layer kernel at 6 µs: 110 + 4·3 = 122.
  CHECK(c.find("h100::latency_us")->float_at(0) == Approx(110));
  CHECK(c.find("mi300x::latency_us")->float_at(0) == Approx(122));
  CHECK(c.find("latency_us__mi300x_diff")->float_at(0) == Approx(12));
  CHECK(c.find("latency_us__mi300x_pct")->float_at(0) == Approx(100.0 * 12 / 110));
  CHECK(c.find("h100::repetitions")->int_at(0) == 10);
  // layer: 8·3 = 24 µs → 27 µs.
  CHECK(c.find("level")->string_at(1) == "layer");
  CHECK(c.find("h100::latency_us")->float_at(1) == Approx(24));
  CHECK(c.find("mi300x::latency_us")->float_at(1) == Approx(27));

  // No signature is shared and the layers are equally long: position i pairs with i.
  const Table& p = d.positions;
  REQUIRE(p.num_rows() == 8);
  for (size_t r = 0; r < 8; ++r) {
    INFO("position " << r);
    const std::string base = p.find("h100::kernel_name")->string_at(r);
    const std::string var = p.find("mi300x::kernel_name")->string_at(r);
    CHECK(base.substr(5) == var.substr(5));  // same layer kernel, other vendor prefix
    CHECK(p.find("avg_us__mi300x_diff")->float_at(r) == Approx(base == "sm90_norm" ? 3.0 : 0.0));
  }
}
