// Layers of alternating kinds (structure mode): a step whose layers alternate between
// two kinds comes out as its super-periods (one layer of each kind per window), not as
// the layers of one kind with the others left out. Expected counts follow from how
// each stream is built (stated next to each check).
#include <catch2/catch.hpp>

#include "analyses/cycles/cycle_detect.h"
#include "analyses/cycles/launch_steps.h"
#include "analyses/cycles/layer_kinds.h"
#include "synthetic.h"

using namespace sollens;
using cycles_test::Stream;

namespace {

KernelSequence seq_of(const Stream& s) { return make_kernel_sequence(s.names, s.dur); }

// A full-attention layer of 16 kernels (the first layer has no cast: 15) and a
// sliding-window layer of 18 (split attention and its reduction), as in a gpt-oss
// decoder: both share the GEMMs, norms and MoE kernels.
void full_layer(Stream& s, bool first) {
  s.add("qkv", 3);
  if (!first) s.add("cast", 1);
  for (const char* k : {"rope", "cache", "attn_full", "o_proj", "add_norm", "router", "topk", "route",
                        "moe_up", "moe_down", "moe_sum", "scatter", "add_norm"})
    s.add(k, 2);
  s.add("pad", 1);
}
void sliding_layer(Stream& s) {
  for (const char* k : {"qkv", "cast", "rope", "cache", "attn_split", "attn_reduce", "o_proj", "add_norm",
                        "router", "topk", "route", "moe_up", "moe_down", "moe_sum", "scatter", "add_norm",
                        "pad", "pad2"})
    s.add(k, 2);
}

// count of `name` in each layer window of p.
std::vector<size_t> per_window(const KernelSequence& seq, const CyclePattern& p, const std::string& name) {
  std::vector<size_t> out;
  for (uint32_t s : p.layer->starts) {
    size_t n = 0;
    for (uint32_t j = 0; j < p.layer->length; ++j) n += seq.names[seq.name[s + j]] == name;
    out.push_back(n);
  }
  return out;
}

}  // namespace

TEST_CASE("alternating layer kinds in one graph replay: 12 windows of one layer of each kind") {
  // One decode step replayed by one graph launch: 2 prologue kernels, 24 layers
  // alternating full (16 kernels; 15 for the first) and sliding (18), 2 epilogue
  // kernels: 2 + 12·34 − 1 + 2 = 411 kernels.
  Stream s;
  s.add("embed", 1);
  s.add("norm_in", 1);
  for (int l = 0; l < 24; ++l) {
    if (l % 2 == 0) full_layer(s, l == 0);
    else sliding_layer(s);
  }
  s.add("lm_head", 5);
  s.add("sample", 1);
  REQUIRE(s.names.size() == 411);
  const KernelSequence seq = seq_of(s);
  std::vector<CyclePattern> patterns = detect_cycles(seq);
  promote_single_launch_layers(std::vector<int64_t>(seq.size(), 7), patterns);
  // Without the merge the layer is one kind's: its windows are one super-period apart.
  bool one_kind = false;
  for (const CyclePattern& p : patterns)
    if (p.layer) one_kind |= p.layers_per_outer <= 13 && p.layer->length < 20;
  CHECK(one_kind);
  for (CyclePattern& p : patterns) merge_alternating_kinds(seq, p, CycleOptions{});
  drop_duplicate_patterns(patterns);
  REQUIRE(patterns.size() == 1);
  const CyclePattern& p = patterns[0];
  REQUIRE(p.layer);
  CHECK(p.layer->length == 34);        // 16 + 18
  CHECK(p.layers_per_outer == 12);     // 24 layers, two per window
  CHECK(p.layers_of_kinds == 2);
  CHECK(p.outer.repetitions() == 1);
  CHECK(p.found_by() == "graph launch, layers by anchor (each window 2 layers of alternating kinds)");
  // Each window holds one layer of each kind (the first one loosely: 33 kernels of
  // its own and the next kernel, which is the next layer's).
  CHECK(per_window(seq, p, "attn_full") == std::vector<size_t>(12, 1));
  CHECK(per_window(seq, p, "attn_split") == std::vector<size_t>(12, 1));
}

TEST_CASE("three layers of one kind, then one of another: windows of four layers") {
  // 6 steps, each: embed, 8 × [3 Mamba layers of 6 kernels, 1 attention layer of 9],
  // lm_head: 1 + 8·27 + 1 = 218 kernels.
  Stream s;
  for (int step = 0; step < 6; ++step) {
    s.add("embed", 1);
    for (int g = 0; g < 8; ++g) {
      for (int m = 0; m < 3; ++m)
        for (const char* k : {"m_norm", "m_in", "conv1d", "ssm_scan", "m_gate", "m_out"}) s.add(k, 2);
      for (const char* k : {"a_norm", "qkv", "rope", "attn", "o_proj", "mlp_norm", "up", "act", "down"})
        s.add(k, 2);
    }
    s.add("lm_head", 4);
  }
  const KernelSequence seq = seq_of(s);
  // Detection: the attention kernel (48 times, every 27 kernels) is also an anchor
  // of its own; the step holding those windows as layers is kept over it.
  const std::vector<CyclePattern> patterns = detect_cycles(seq);
  REQUIRE(patterns.size() == 1);
  const CyclePattern& step = patterns[0];
  CHECK(step.outer.length == 218);
  CHECK(step.outer.repetitions() == 6);
  REQUIRE(step.layer);
  CHECK(step.layer->length == 27);
  CHECK(step.layers_per_outer == 8);
  CHECK(per_window(seq, step, "attn") == std::vector<size_t>(48, 1));

  // A layer found from the Mamba kernels (its windows in 8 runs of 3) reads as 8
  // passes; merged, it is 8 windows of 3 Mamba layers and an attention layer.
  CyclePattern p;
  p.outer = step.outer;
  collect_layers(seq, p, step.outer.start + 1, 6, CycleOptions{});
  REQUIRE(p.layer);
  CHECK(p.layers_per_outer == 24);
  CHECK(p.passes == 8);
  REQUIRE(merge_alternating_kinds(seq, p, CycleOptions{}));
  CHECK(p.layer->length == 27);
  CHECK(p.layers_per_outer == 8);
  CHECK(p.layers_of_kinds == 4);  // 3 windows of the run + the 9-kernel hole as one layer
  CHECK(p.passes == 1);
  CHECK(p.layer->repetitions() == 48);
  CHECK(per_window(seq, p, "attn") == std::vector<size_t>(48, 1));
}

TEST_CASE("layers back to back and passes are not merged") {
  // 6 steps of 2 passes × 20 layers of 8 kernels with 3 kernels between passes: runs of
  // 20 windows are passes, and back-to-back layers leave no hole.
  Stream s;
  for (int step = 0; step < 6; ++step) {
    s.add("sched", 1);
    for (int pass = 0; pass < 2; ++pass) {
      s.add("embed", 1);
      for (int b = 0; b < 20; ++b)
        for (int k = 0; k < 8; ++k) s.add("blk" + std::to_string(k), 2);
      s.add("norm_out", 1);
      s.add("proj_out", 1);
    }
  }
  const KernelSequence seq = seq_of(s);
  for (CyclePattern p : detect_cycles(seq)) {
    if (!p.layer) continue;
    const uint32_t length = p.layer->length;
    CHECK_FALSE(merge_alternating_kinds(seq, p, CycleOptions{}));
    CHECK(p.layer->length == length);
    CHECK(p.layers_of_kinds == 1);
  }
}
