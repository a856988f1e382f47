// Cycle detection on the reference scenarios of seed-systems.md §a.5 and on synthetic
// N steps × L layers streams. Expected values are worked out by hand in the comments.
#include <catch2/catch.hpp>

#include "analyses/cycles/cycle_detect.h"
#include "analyses/cycles/cycle_stats.h"
#include "analyses/cycles/kernel_sequence.h"
#include "synthetic.h"

using namespace sollens;
using cycles_test::Stream;

namespace {

KernelSequence seq_of(const Stream& s) { return make_kernel_sequence(s.names, s.dur); }

std::vector<uint32_t> arithmetic(uint32_t first, uint32_t step, size_t count) {
  std::vector<uint32_t> v;
  for (size_t i = 0; i < count; ++i) v.push_back(first + static_cast<uint32_t>(i) * step);
  return v;
}

}  // namespace

TEST_CASE("§a.5 case 1: 60 decode steps of 4 layers") {
  const Stream s = cycles_test::llm_stream(0, 60);
  REQUIRE(s.names.size() == 2100);
  const KernelSequence seq = seq_of(s);
  const auto patterns = detect_cycles(seq, cycles_test::uplifter_options());
  REQUIRE(patterns.size() == 1);
  const CyclePattern& p = patterns[0];
  // decode_k* (240 each) are 8 apart (< 10); embed_decode (60, first at 0) is the anchor.
  CHECK(seq.names[p.anchor] == "embed_decode");
  CHECK(p.outer.start == 0);
  CHECK(p.outer.length == 35);
  CHECK(p.outer.starts == arithmetic(0, 35, 60));
  REQUIRE(p.layer);
  // uplifter: start=1 len=8 reps=240, EndPos = 59·35 + 25 + 8 = 2098, centre 1049.5.
  CHECK(p.layer->start == 1);
  CHECK(p.layer->length == 8);
  CHECK(p.layer->repetitions() == 240);
  CHECK(p.layer->end() == 2098);
  CHECK(p.layer->center() == 1049.5);
  CHECK(p.layer_offset == 1);
  CHECK(p.layers_per_outer == 4);
  CHECK(cycle_signature(seq, *p.layer) ==
        "decode_k0|decode_k1|decode_k2|decode_k3|decode_k4|decode_k5|decode_k6|decode_k7");
  // A lone significant pattern: labelled decode.
  CHECK(p.phase == CyclePhase::kDecode);
  const CycleStatistics st = position_statistics(seq, *p.layer);
  CHECK(st.avg_cycle_us == Approx(24.0));  // 8 × 3 µs
  CHECK(st.total_us == Approx(5760.0));    // 240 × 24
  CHECK(st.kernels_per_cycle == 8);
  CHECK(st.iterations == 240);
}

TEST_CASE("§a.5 case 2: 3 prefill requests then 60 decode steps — no rotation") {
  const Stream s = cycles_test::llm_stream(3, 60);
  REQUIRE(s.names.size() == 2250);
  const KernelSequence seq = seq_of(s);
  const auto patterns = detect_cycles(seq, cycles_test::uplifter_options());
  // embed_prefill occurs 3 times (< 5); prefill_k0 (12×) passes the spacing check
  // (gaps 12 and 14, tolerance 2) but only 4 of its 12-kernel windows match (< 5).
  REQUIRE(patterns.size() == 1);
  const CyclePattern& p = patterns[0];
  CHECK(p.outer.start == 150);
  CHECK(p.outer.length == 35);
  CHECK(p.outer.repetitions() == 60);
  REQUIRE(p.layer);
  // uplifter gives start 151 or 152 (rotated, avg 25.25) by map order; we always 151.
  CHECK(p.layer->start == 151);
  CHECK(p.layer->repetitions() == 240);
  const CycleStatistics st = position_statistics(seq, *p.layer);
  CHECK(st.avg_cycle_us == Approx(24.0));
  CHECK(st.total_us == Approx(5760.0));
  for (const auto& pos : st.positions) CHECK(pos.kernel_name == "decode_k" + std::to_string(pos.index));
}

TEST_CASE("§a.5 case 3: 6 prefill requests then 60 decode steps, deterministic") {
  const Stream s = cycles_test::llm_stream(6, 60);
  REQUIRE(s.names.size() == 2400);
  const KernelSequence seq = seq_of(s);
  const auto first = detect_cycles(seq, cycles_test::uplifter_options());
  REQUIRE(first.size() == 2);
  // Ordered by centre: prefill (centre (1 + 299)/2 = 150) then decode.
  const CyclePattern& prefill = first[0];
  const CyclePattern& decode = first[1];
  CHECK(prefill.phase == CyclePhase::kPrefill);
  CHECK(decode.phase == CyclePhase::kDecode);
  CHECK(seq.names[prefill.anchor] == "embed_prefill");
  CHECK(prefill.outer.start == 0);
  CHECK(prefill.outer.length == 50);
  CHECK(prefill.outer.repetitions() == 6);
  REQUIRE(prefill.layer);
  CHECK(prefill.layer->start == 1);
  CHECK(prefill.layer->length == 12);
  CHECK(prefill.layer->repetitions() == 24);
  CHECK(prefill.layer->end() == 299);  // 250 + 1 + 36 + 12
  REQUIRE(decode.layer);
  CHECK(decode.layer->start == 301);
  CHECK(decode.layer->length == 8);
  CHECK(decode.layer->repetitions() == 240);
  // centrePct 56.2 and 6.2 as uplifter prints them.
  CHECK(decode.layer->center() / 2400 * 100 == Approx(56.229).epsilon(1e-4));
  CHECK(prefill.layer->center() / 2400 * 100 == Approx(6.25));
  CHECK(position_statistics(seq, *prefill.layer).avg_cycle_us == Approx(120.0));
  // Same answer every run (uplifter's start varies between 1 and 2).
  for (int run = 0; run < 3; ++run) {
    const auto again = detect_cycles(seq_of(s), cycles_test::uplifter_options());
    REQUIRE(again.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
      CHECK(again[i].outer.starts == first[i].outer.starts);
      CHECK(again[i].layer->starts == first[i].layer->starts);
      CHECK(again[i].phase == first[i].phase);
    }
  }
}

TEST_CASE("N steps × L layers with noise kernels are recovered exactly") {
  // Step (70 kernels): embed, 6 layers × 11 kernels (layer_k0 … layer_k10), a noise
  // kernel with a new name every step, lm_head, sampler. Layer kernels occur 120 times,
  // 11 apart inside a step but 15 across a step boundary (|15 − 11| > 2): not anchors.
  Stream s;
  uint32_t lcg = 12345;
  auto jitter = [&] {
    lcg = lcg * 1664525u + 1013904223u;
    return static_cast<double>(lcg >> 24) / 256.0;  // [0, 1)
  };
  const int steps = 20, layers = 6;
  for (int step = 0; step < steps; ++step) {
    s.add("embed", 2 + jitter());
    for (int l = 0; l < layers; ++l)
      for (int k = 0; k < 11; ++k) s.add("layer_k" + std::to_string(k), 5 + jitter());
    s.add("noise_kernel_" + std::to_string(100 + step), 1 + jitter());
    s.add("lm_head", 9 + jitter());
    s.add("sampler", 3 + jitter());
  }
  const KernelSequence seq = seq_of(s);
  const auto patterns = detect_cycles(seq, cycles_test::uplifter_options());
  REQUIRE(patterns.size() == 1);
  const CyclePattern& p = patterns[0];
  CHECK(seq.names[p.anchor] == "embed");
  CHECK(p.outer.starts == arithmetic(0, 70, steps));
  REQUIRE(p.layer);
  CHECK(p.layer->length == 11);
  CHECK(p.layer_offset == 1);
  CHECK(p.layers_per_outer == layers);
  std::vector<uint32_t> layer_starts;
  for (int step = 0; step < steps; ++step)
    for (int l = 0; l < layers; ++l) layer_starts.push_back(70 * step + 1 + 11 * l);
  CHECK(p.layer->starts == layer_starts);

  // The 4 kernels outside the layers keep their own statistics.
  const CycleStatistics outer = position_statistics(seq, p.outer);
  CHECK(outer.positions[0].kernel_name == "embed");
  CHECK(outer.positions[67].kernel_name == "noise_kernel_100");  // the first step's name
  CHECK(outer.positions[68].kernel_name == "lm_head");
  CHECK(outer.positions[69].kernel_name == "sampler");
}

TEST_CASE("Without sub-cycles the outer cycle alone is reported; thresholds are options") {
  const Stream s = cycles_test::llm_stream(0, 10);
  CycleOptions opt = cycles_test::uplifter_options();
  opt.find_sub_cycles = false;
  auto patterns = detect_cycles(seq_of(s), opt);
  REQUIRE(patterns.size() == 1);
  CHECK_FALSE(patterns[0].layer);
  CHECK(patterns[0].outer.repetitions() == 10);
  // 4 steps are below the default minimum of 5 repetitions; allowed when lowered.
  const Stream few = cycles_test::llm_stream(0, 4);
  CHECK(detect_cycles(seq_of(few), cycles_test::uplifter_options()).empty());
  opt.min_repetitions = 4;
  opt.min_anchor_count = 4;
  patterns = detect_cycles(seq_of(few), opt);
  REQUIRE(patterns.size() == 1);
  CHECK(patterns[0].outer.repetitions() == 4);
}

TEST_CASE("A repetition that differs in more than 5 % of its kernels is skipped") {
  // 8 steps of 20 kernels (anchor "start", 19 distinct others); step 3 has 2 of its
  // 20 kernels renamed (90 % < 95 %), step 5 one (95 % ≥ 95 %).
  Stream s;
  for (int step = 0; step < 8; ++step) {
    s.add("start", 1);
    for (int k = 1; k < 20; ++k) {
      std::string name = "op" + std::to_string(k) + "x";
      if ((step == 3 && (k == 4 || k == 9)) || (step == 5 && k == 7)) name = "odd" + name;
      s.add(name, 1);
    }
  }
  const auto patterns = detect_cycles(seq_of(s), cycles_test::uplifter_options());
  REQUIRE(patterns.size() == 1);
  CHECK(patterns[0].outer.starts == std::vector<uint32_t>{0, 20, 40, 80, 100, 120, 140});
}

TEST_CASE("Empty and short sequences find nothing") {
  CHECK(detect_cycles(seq_of(Stream{})).empty());
  Stream s;
  for (int i = 0; i < 30; ++i) s.add("k" + std::to_string(i % 3) + "x", 1);
  CHECK(detect_cycles(seq_of(s), cycles_test::uplifter_options()).empty());  // period 3 < 10
}
