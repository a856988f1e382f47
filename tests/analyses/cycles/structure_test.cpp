// Structure mode (the default) on synthetic kernel streams: deviating anchor gaps,
// few steps, passes inside a step, and labels. Expected counts follow from how each
// stream is built (stated next to each check); uplifter's pipeline is the contrast.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analyses/cycles/cycle_detect.h"
#include "analyses/cycles/launch_steps.h"
#include "analyses/cycles/step_evidence.h"
#include "synthetic.h"

using namespace sollens;
using cycles_test::Stream;

namespace {

KernelSequence seq_of(const Stream& s) { return make_kernel_sequence(s.names, s.dur); }

void layer(Stream& s, const std::string& prefix, int kernels) {
  for (int k = 0; k < kernels; ++k) s.add(prefix + std::to_string(k), 3);
}

const CyclePattern* most_repeated(const std::vector<CyclePattern>& ps) {
  const CyclePattern* best = nullptr;
  for (const auto& p : ps)
    if (!best || p.effective().repetitions() > best->effective().repetitions()) best = &p;
  return best;
}

}  // namespace

TEST_CASE("7: a decoder forward whose anchor gaps deviate still gives its 24 layers") {
  // The tail of a previous forward (10 layers of 12), 21 kernels between forwards (LM
  // head, sampling, embedding: the anchor gap there is 12 + 21 = 33, outside 20 %),
  // then 24 layers of which layer 10 holds one extra kernel (gap 13, inside 20 %).
  Stream s;
  for (int l = 0; l < 10; ++l) layer(s, "L", 12);
  layer(s, "between", 21);
  for (int l = 0; l < 24; ++l) {
    layer(s, "L", 6);
    if (l == 10) s.add("extra", 1);
    for (int k = 6; k < 12; ++k) s.add("L" + std::to_string(k), 3);
  }
  const KernelSequence seq = seq_of(s);
  // uplifter rejects every anchor (L0's gaps: 12 … 33 … 13).
  CHECK(detect_cycles(seq, cycles_test::uplifter_options()).empty());
  auto patterns = detect_cycles(seq);
  const CyclePattern* p = most_repeated(patterns);
  REQUIRE(p);
  CHECK(p->outer.length == 12);
  // Both forwards' layers: 10 + 24; the extra kernel does not cost layer 10 (starts
  // 10·12 + 21 = 141 + 12·l, and one more after it).
  CHECK(p->outer.repetitions() == 34);
  CHECK(std::count(p->outer.starts.begin(), p->outer.starts.end(), 141 + 12 * 10) == 1);
  CHECK(std::count(p->outer.starts.begin(), p->outer.starts.end(), 141 + 12 * 11 + 1) == 1);
  CHECK(p->deviating_gaps >= 1);
  CHECK(p->confidence == Confidence::kMedium);
  CHECK(p->found_by().find("deviating") != std::string::npos);
  // With the profiler step around the second forward (kernels 141 … 429): 1 step of
  // its 24 layers, the earlier forward's left outside.
  promote_profiler_steps(seq, {{141, static_cast<uint32_t>(seq.size() - 1)}}, "ProfilerStep#", CycleOptions{},
                         patterns);
  p = most_repeated(patterns);
  REQUIRE(p);
  CHECK(p->outer.repetitions() == 1);
  CHECK(p->outer.start == 141);
  REQUIRE(p->layer);
  CHECK(p->layers_per_outer == 24);
}

TEST_CASE("8: three training iterations are three steps") {
  // forward 100 kernels, backward with activation checkpointing (forward again, then
  // 150 gradient kernels), optimizer 50: 400 kernels, every name 3 times (< 5).
  Stream s;
  for (int it = 0; it < 3; ++it) {
    layer(s, "fwd", 100);
    layer(s, "fwd", 100);  // recomputed in the backward
    layer(s, "bwd", 150);
    layer(s, "opt", 50);
  }
  const KernelSequence seq = seq_of(s);
  CHECK(detect_cycles(seq, cycles_test::uplifter_options()).empty());
  const auto patterns = detect_cycles(seq);
  REQUIRE(patterns.size() == 1);
  CHECK(patterns[0].outer.repetitions() == 3);
  CHECK(patterns[0].outer.length == 400);
  CHECK(patterns[0].few_steps);
  CHECK(patterns[0].confidence == Confidence::kLow);
  CHECK(patterns[0].phase == CyclePhase::kStep);
}

TEST_CASE("8: ProfilerStep#N annotations are steps when no anchor repeats") {
  // Two annotated iterations of 25 kernels: every name at most twice, too few for
  // anchors, too short for few-step detection (few_steps_min_length 30), and not
  // identical (the second ends in another kernel), which a loop that short must be.
  Stream s;
  layer(s, "k", 25);
  layer(s, "k", 24);
  s.add("other_last", 1);
  const KernelSequence seq = seq_of(s);
  std::vector<CyclePattern> patterns = detect_cycles(seq);
  REQUIRE(patterns.empty());
  promote_profiler_steps(seq, {{0, 24}, {25, 49}}, "ProfilerStep#", CycleOptions{}, patterns);
  REQUIRE(patterns.size() == 1);
  CHECK(patterns[0].step_source == StepSource::kAnnotations);
  CHECK(patterns[0].outer.starts == std::vector<uint32_t>{0, 25});
  CHECK(patterns[0].outer.length == 25);
  CHECK(patterns[0].found_by() == "annotation ProfilerStep#");
}

TEST_CASE("8: iterations end with their optimizer step") {
  // Optimizer kernels at 40..49, 100..109 and 160..169: three iterations.
  const auto it = iterations_ending_in({{40, 49}, {100, 109}, {160, 169}});
  REQUIRE(it.size() == 3);
  CHECK(it[0].first == 0);
  CHECK(it[0].last == 49);
  CHECK(it[1].first == 50);
  CHECK(it[1].last == 109);
  CHECK(it[2].first == 110);
  CHECK(it[2].last == 169);
}

// Each pass starts with the same kernel (embed, 12 times, every 306 or 308 kernels):
// it finds the pass as a cycle too; the step, which holds the same 456 layers and is
// not a whole number of passes, is kept.
TEST_CASE("9: guidance runs the network twice per step: steps x passes x layers") {
  // 6 denoising steps: scheduler kernel, then 2 passes (embed, 38 blocks of 8, norm
  // out), then the guidance combine: 1 + 2 × (1 + 304 + 1) + 1 = 614 kernels a step.
  Stream s;
  for (int step = 0; step < 6; ++step) {
    s.add("scheduler", 2);
    for (int pass = 0; pass < 2; ++pass) {
      s.add("embed", 2);
      for (int b = 0; b < 38; ++b) layer(s, "blk", 8);
      s.add("norm_out", 2);
    }
    s.add("cfg_combine", 2);
  }
  const auto patterns = detect_cycles(seq_of(s));
  const CyclePattern* p = nullptr;
  for (const auto& q : patterns)
    if (q.layer && q.outer.length == 614) p = &q;
  REQUIRE(p);
  CHECK(p->outer.repetitions() == 6);
  CHECK(p->passes == 2);
  CHECK(p->layers_per_outer == 76);
  CHECK(p->layer->length == 8);
  CHECK(p->layer->repetitions() == 6 * 76);
  // uplifter stops at the first pass's consecutive blocks.
  for (const auto& q : detect_cycles(seq_of(s), cycles_test::uplifter_options()))
    if (q.layer && q.outer.length == 614) CHECK(q.layers_per_outer == 38);
}

TEST_CASE("10: a step is a step; decode only with evidence") {
  const Stream s = cycles_test::llm_stream(0, 60);
  auto patterns = detect_cycles(seq_of(s));
  REQUIRE(patterns.size() == 1);
  CHECK(patterns[0].phase == CyclePhase::kStep);  // uplifter: decode
  label_llm_phases(seq_of(s), patterns);           // no attention kernel names it
  CHECK(patterns[0].phase == CyclePhase::kStep);
  Stream paged = s;
  for (auto& n : paged.names)
    if (n == "decode_k3") n = "paged_attention_kernel";
  const KernelSequence seq = seq_of(paged);
  patterns = detect_cycles(seq);
  REQUIRE(patterns.size() == 1);
  label_llm_phases(seq, patterns);
  CHECK(patterns[0].phase == CyclePhase::kDecode);
}

TEST_CASE("8: one marked step of four layers is one step of four layers") {
  // ProfilerStep#N around one forward: 3 embedding kernels, 4 layers of 12, 2 head
  // kernels (53). No name is seen 5 times, so no anchor; the step is the evidence.
  Stream s;
  layer(s, "embed", 3);
  for (int l = 0; l < 4; ++l) layer(s, "L", 12);
  layer(s, "head", 2);
  const KernelSequence seq = seq_of(s);
  std::vector<CyclePattern> patterns = detect_cycles(seq);
  REQUIRE(patterns.empty());
  REQUIRE(seq.size() == 53);
  promote_profiler_steps(seq, {{0, 52}}, "ProfilerStep#", CycleOptions{}, patterns);
  REQUIRE(patterns.size() == 1);
  CHECK(patterns[0].outer.repetitions() == 1);
  CHECK(patterns[0].outer.length == 53);
  REQUIRE(patterns[0].layer);
  CHECK(patterns[0].layer->length == 12);
  CHECK(patterns[0].layers_per_outer == 4);
  CHECK(patterns[0].layer_offset == 3);
  // A marked step with nothing repeating inside stays no pattern.
  Stream flat;
  layer(flat, "k", 53);
  const KernelSequence flat_seq = seq_of(flat);
  std::vector<CyclePattern> none = detect_cycles(flat_seq);
  promote_profiler_steps(flat_seq, {{0, 52}}, "ProfilerStep#", CycleOptions{}, none);
  CHECK(none.empty());
}

TEST_CASE("a stage's blocks in every iteration are one pattern") {
  // 3 iterations of 40 distinct kernels, 5 blocks of 12, 30 distinct kernels: the
  // blocks' anchor gaps deviate between iterations (12 … 82), so each iteration's
  // blocks are found on their own; they are one cycle of 15 repetitions, not 5.
  Stream s;
  for (int it = 0; it < 3; ++it) {
    layer(s, "f", 40);
    for (int b = 0; b < 5; ++b) layer(s, "blk", 12);
    layer(s, "o", 30);
  }
  const KernelSequence seq = seq_of(s);
  const auto patterns = detect_cycles(seq);
  const CyclePattern* p = most_repeated(patterns);
  REQUIRE(p);
  CHECK(p->outer.length == 12);
  CHECK(p->outer.starts == std::vector<uint32_t>{40, 52, 64, 76, 88, 170, 182, 194, 206, 218, 300, 312,
                                                 324, 336, 348});  // 40 + 130·it + 12·b
}

TEST_CASE("8: two short forwards (warm-up, then measured) are two steps") {
  // A benchmark: 1 setup kernel, then the same forward of 36 kernels twice. Each name
  // twice: no anchor; 2 × 36 cover 72 of 73 kernels, 36 >= few_steps_min_length.
  Stream s;
  s.add("setup", 1);
  for (int it = 0; it < 2; ++it) layer(s, "fwd", 36);
  const auto patterns = detect_cycles(seq_of(s));
  REQUIRE(patterns.size() == 1);
  CHECK(patterns[0].outer.starts == std::vector<uint32_t>{1, 37});
  CHECK(patterns[0].outer.length == 36);
  CHECK(patterns[0].few_steps);
  CHECK(patterns[0].phase == CyclePhase::kStep);
  // The marks confirm them: high confidence, found by the annotation.
  std::vector<CyclePattern> confirmed = patterns;
  promote_profiler_steps(seq_of(s), {{1, 36}, {37, 72}}, "ProfilerStep#", CycleOptions{}, confirmed);
  REQUIRE(confirmed.size() == 1);
  CHECK(confirmed[0].confidence == Confidence::kHigh);
  CHECK(confirmed[0].found_by() == "annotation ProfilerStep#");
}

TEST_CASE("a second kind of layer found in one step is collected through every step") {
  // 6 steps of: head, 7 layers A of 8 kernels, 5 layers B of 10, tail: 1 + 56 + 50 + 1
  // = 108 kernels. The B cycle is given as verified in the first step only (an anchor
  // with many runs keeps one); nested in the detected steps it has 5 layers in each.
  Stream s;
  for (int step = 0; step < 6; ++step) {
    s.add("head", 1);
    for (int l = 0; l < 7; ++l) layer(s, "A", 8);
    for (int l = 0; l < 5; ++l) layer(s, "B", 10);
    s.add("tail", 1);
  }
  const KernelSequence seq = seq_of(s);
  CyclePattern steps;
  steps.outer.length = 108;
  for (uint32_t k = 0; k < 6; ++k) steps.outer.starts.push_back(108 * k);
  collect_layers(seq, steps, 1, 8, CycleOptions{});
  REQUIRE(steps.layers_per_outer == 7);
  CyclePattern b;
  b.outer.length = 10;
  for (uint32_t l = 0; l < 5; ++l) b.outer.starts.push_back(57 + 10 * l);
  b.outer.start = 57;
  std::vector<CyclePattern> patterns = {steps, b};
  nest_in_detected_steps(seq, CycleOptions{}, patterns);
  const CyclePattern& nested = patterns[1];
  REQUIRE(nested.layer);
  CHECK(nested.outer.repetitions() == 6);
  CHECK(nested.layers_per_outer == 5);
  CHECK(nested.layer->repetitions() == 30);
  CHECK(nested.layer->starts[5] == 108 + 57);
}

TEST_CASE("10: of two patterns with the same steps, the surer one is the step") {
  // Both: 6 steps of 100 kernels. A: 7 layers of 10, high confidence; B (a second kind
  // of layer nested in the same steps, from an anchor with deviating gaps): 5 of 30.
  std::vector<CyclePattern> ps(2);
  for (CyclePattern& p : ps) {
    p.outer.length = 100;
    for (uint32_t k = 0; k < 6; ++k) p.outer.starts.push_back(100 * k);
    p.layer = Cycle{};
  }
  ps[0].layer->length = 10, ps[0].layers_per_outer = 7, ps[0].confidence = Confidence::kHigh;
  ps[1].layer->length = 30, ps[1].layers_per_outer = 5, ps[1].confidence = Confidence::kMedium;
  label_main_step(ps);
  CHECK(ps[0].phase == CyclePhase::kStep);
  CHECK(ps[1].phase == CyclePhase::kOther);
  ps[1].confidence = Confidence::kHigh;  // equally sure: more layer kernels (150 > 70)
  label_main_step(ps);
  CHECK(ps[1].phase == CyclePhase::kStep);
}
