// Weights and state found from the Execution Trace itself, weights read once per
// pass, our corrected per-op bytes (gathers, fills) and the causes of ops measured
// faster than their SOL. Every expected number is worked out in the comments.
#include <catch2/catch.hpp>

#include "devices/device_db.h"
#include "analyses/solar/faster_than_sol.h"
#include "analyses/solar/solar_intermediates.h"
#include "analyses/solar/solar_report.h"
#include "support/et_builder.h"
#include "support/table_column.h"

using namespace sollens;
using namespace sollens::solar;
using namespace sollens::test;

namespace {

const char* kLinear = "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor";
const char* kT = "aten::t(Tensor(a) self) -> Tensor(a)";
const char* kAddmm =
    "aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor";
const char* kMm = "aten::mm(Tensor self, Tensor mat2) -> Tensor";
const char* kRelu = "aten::relu(Tensor self) -> Tensor";
const char* kIndexCopy =
    "aten::index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)";
const char* kCudnnForward =
    "aten::_cudnn_attention_forward(Tensor query, Tensor key, Tensor value, Tensor? attn_bias, "
    "Tensor? cum_seq_q, Tensor? cum_seq_k, SymInt max_q, SymInt max_k, bool compute_log_sumexp, "
    "float dropout_p=0., bool is_causal=False, bool return_debug_mask=False, *, float? scale=None) "
    "-> (Tensor output, Tensor logsumexp)";

std::unique_ptr<ExecutionGraph> load(const std::string& text) {
  Result<std::unique_ptr<ExecutionGraph>> r = load_et(text);
  INFO(r.message());
  REQUIRE(r.ok());
  return std::move(r.value());
}

Totals totals_of(const SolarGraph& s, const SolarHardware* hw) {
  std::vector<const SolarNode*> nodes;
  for (const SolarNode& n : s.nodes) nodes.push_back(&n);
  return sum_nodes(nodes, hw);
}

// A made-up GPU: 1 GHz, 100 B/cycle DRAM, 1000 fp32 MACs/cycle, no L2 figures.
SolarHardware toy_gpu() {
  SolarHardware hw;
  hw.name = "toy";
  hw.freq_ghz = 1;
  hw.dram_bytes_per_cycle = 100;
  hw.mac_per_cycle_fp32 = 1000;
  hw.mac_per_cycle_sm = 10;
  return hw;
}

// One forward of linear(W1[16,8], b1[16]) → relu → linear(W2[2,16], b2[2]) on x[4,8],
// each linear recorded as PyTorch does: t(W) then addmm(b, x, Wᵀ). Activations get
// fresh ids per forward (base); weights keep theirs.
std::vector<EtNodeSpec> mlp_forward(int64_t id, int64_t base) {
  const EtArg x = et_tensor(base, base + 1, {4, 8});
  const EtArg h = et_tensor(base + 2, base + 3, {4, 16});
  const EtArg r = et_tensor(base + 4, base + 5, {4, 16});
  const EtArg y = et_tensor(base + 6, base + 7, {4, 2});
  const EtArg w1 = et_tensor(20, 21, {16, 8}), b1 = et_tensor(22, 23, {16});
  const EtArg w2 = et_tensor(24, 25, {2, 16}), b2 = et_tensor(26, 27, {2});
  const EtArg w1t = et_tensor(40, 21, {8, 16}), w2t = et_tensor(42, 25, {16, 2});
  return {
      {id, 1, "aten::linear", kLinear, {x, w1, b1}, {h}},
      {id + 1, id, "aten::t", kT, {w1}, {w1t}},
      {id + 2, id, "aten::addmm", kAddmm, {b1, x, w1t}, {h}},
      {id + 3, 1, "aten::relu", kRelu, {h}, {r}},
      {id + 4, 1, "aten::linear", kLinear, {r, w2, b2}, {y}},
      {id + 5, id + 4, "aten::t", kT, {w2}, {w2t}},
      {id + 6, id + 4, "aten::addmm", kAddmm, {b2, r, w2t}, {y}},
  };
}

}  // namespace

TEST_CASE("Inference ET: weights found without an optimizer and read once per forward") {
  std::vector<EtNodeSpec> nodes = mlp_forward(2, 100);
  for (const EtNodeSpec& n : mlp_forward(20, 200)) nodes.push_back(n);
  const auto graph = load(et_flat(nodes));
  const SolarGraph s = build_solar_graph(*graph);
  REQUIRE(s.nodes.size() == 6);  // addmm, relu, addmm per forward
  CHECK_FALSE(s.parameters_from_optimizer);
  CHECK(s.parameter_source == ParameterSource::kInferred);
  CHECK(s.parameters == 4);  // W1, b1, W2, b2 (x is read and never written, but as mat1)
  CHECK_FALSE(s.nodes[0].reads[1].weight);  // x
  // W1 128 + b1 16 + W2 32 + b2 2 = 178 elements, fp32: 712 B once, twice read.
  CHECK(s.weight_elements_once == 178);
  CHECK(s.weight_bytes_once == 712);
  CHECK(s.weight_passes == 2);
  CHECK(s.weight_bytes_read == 1424);
  // Solar HEAD's fused traffic: inputs x0, x1 (32 + 32) and each weight once (178), the
  // model outputs y0, y1 (8 + 8) = 258 elements; read per pass, + 178 = 436 (1744 B).
  CHECK(s.unique_external_elements == 258);
  const SolarHardware hw = toy_gpu();
  const Totals t = totals_of(s, &hw);
  const WeightTraffic w = weight_traffic(s, &hw);
  CHECK(w.passes == 2);
  CHECK_THAT(w.rule, Catch::Contains("L2 size unknown"));
  const SolModel head = head_sol(s, t, w, hw);
  CHECK(head.fused.memory_bytes == 1744);
  CHECK(head.fused.total_cycles == Approx(17.44));  // 1744 B / 100 B per cycle > 1.28 MAC cycles
  CHECK(head.unfused.total_cycles >= head.fused.total_cycles);
  CHECK(head.fused.total_cycles >= head.fused_prefetched.total_cycles);
  // All 712 B of weights fit in a 1 MB L2: read once, Solar's 258 elements (1032 B).
  SolarHardware big_l2 = hw;
  big_l2.l2_bytes = 1e6;
  const WeightTraffic on_chip = weight_traffic(s, &big_l2);
  CHECK(on_chip.on_chip);
  CHECK(head_sol(s, t, on_chip, big_l2).fused.memory_bytes == 1032);
}

TEST_CASE("Decode: 96 forwards over a 0.85 GB bf16 weight on an H200 take >= 17 ms fused") {
  // Each forward: relu(x_f [1, 8192]) then mm(·, W [8192, 51880] bf16): W is
  // 8192·51880·2 = 850,001,920 B, read in 96 passes: 81,600,184,320 B.
  std::vector<EtNodeSpec> nodes;
  const EtArg w = et_tensor(20, 21, {8192, 51880}, "c10::BFloat16", 2);
  for (int64_t f = 0; f < 96; ++f) {
    const int64_t base = 1000 + 10 * f;
    const EtArg x = et_tensor(base, base + 1, {1, 8192}, "c10::BFloat16", 2);
    const EtArg r = et_tensor(base + 2, base + 3, {1, 8192}, "c10::BFloat16", 2);
    const EtArg y = et_tensor(base + 4, base + 5, {1, 51880}, "c10::BFloat16", 2);
    nodes.push_back({2 + 2 * f, 1, "aten::relu", kRelu, {x}, {r}});
    nodes.push_back({3 + 2 * f, 1, "aten::mm", kMm, {r, w}, {y}});
  }
  const auto graph = load(et_flat(nodes));
  const SolarGraph s = build_solar_graph(*graph);
  CHECK(s.parameters == 1);
  CHECK(s.weight_bytes_once == 850001920.0);
  CHECK(s.weight_passes == 96);
  CHECK(s.weight_bytes_read == 96 * 850001920.0);
  const DeviceSpec* h200 = find_device("H200");
  REQUIRE(h200);
  const std::optional<SolarHardware> hw = solar_hardware(*h200);
  REQUIRE(hw);
  const Totals t = totals_of(s, &*hw);
  const WeightTraffic traffic = weight_traffic(s, &*hw);
  CHECK_FALSE(traffic.on_chip);  // 850 MB against 50 MB of L2
  const SolModel head = head_sol(s, t, traffic, *hw);
  // 96 · 0.85e9 B / 4.8e12 B/s = 17.0 ms, plus the activations.
  CHECK(head.fused.runtime_ms >= 96 * 850001920.0 / 4.8e12 * 1e3);
  CHECK(head.fused.runtime_ms == Approx(17.0).epsilon(0.01));
  CHECK(head.fused_prefetched.runtime_ms == head.fused.runtime_ms);
}

TEST_CASE("KV cache: a buffer updated by index_copy_ and read by attention is state") {
  // Two decode steps: index_copy_ writes k_new, v_new [1,2,1,8] into the caches K, V
  // [1,2,16,8] (bf16), then attention reads q [1,2,1,8] and the whole caches.
  std::vector<EtNodeSpec> nodes;
  const EtArg cache_k = et_tensor(100, 101, {1, 2, 16, 8}, "c10::BFloat16", 2);
  const EtArg cache_v = et_tensor(110, 111, {1, 2, 16, 8}, "c10::BFloat16", 2);
  for (int64_t step = 0; step < 2; ++step) {
    const int64_t id = 2 + 10 * step, base = 1000 + 100 * step;
    const auto small = [&](int64_t k) { return et_tensor(base + k, base + k + 1, {1, 2, 1, 8}, "c10::BFloat16", 2); };
    const EtArg index = et_tensor(base + 50, base + 51, {1}, "long int", 8);
    nodes.push_back({id, 1, "aten::index_copy_", kIndexCopy, {cache_k, et_int(2), index, small(0)}, {cache_k}});
    nodes.push_back({id + 1, 1, "aten::index_copy_", kIndexCopy, {cache_v, et_int(2), index, small(2)}, {cache_v}});
    nodes.push_back({id + 2, 1, "aten::_cudnn_attention_forward", kCudnnForward,
                     {small(4), cache_k, cache_v, et_none(), et_none(), et_none(), et_int(1),
                      et_int(16), et_bool(false), et_int(0), et_bool(false), et_bool(false)},
                     {small(6)}});
  }
  const auto graph = load(et_flat(nodes));
  const SolarGraph s = build_solar_graph(*graph);
  CHECK(s.state_storages == 2);
  REQUIRE(s.nodes.size() == 6);
  const SolarNode& attention = s.nodes[2];
  // Without the state class both caches would be intermediates (index_copy_ wrote them).
  CHECK(attention.intermediate_elements == 0);
  CHECK(attention.state_elements == 2 * 256);
  CHECK(attention.state_bytes == 1024);
  // index_copy_ writes its 16-element source into the cache (Solar's scatter rule): state.
  CHECK(s.nodes[0].state_bytes == 32);
  CHECK(s.nodes[0].intermediate_elements == 0);
  // Per step 32 + 32 + 1024 = 1088 B of state: 2176 in all.
  CHECK(totals_of(s, nullptr).state_bytes == 2176);
  CHECK(s.parameters == 0);  // a cache is not a weight
}

TEST_CASE("Corrected bytes: gathers read one element per index, fills only write") {
  const char* kNll =
      "aten::nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt "
      "ignore_index) -> (Tensor output, Tensor total_weight)";
  const char* kFill = "aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)";
  const char* kIndexSelect = "aten::index_select(Tensor self, int dim, Tensor index) -> Tensor";
  const char* kCopy = "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)";
  const auto graph = load(et_flat({
      {2, 1, "aten::nll_loss_forward", kNll,
       {et_tensor(10, 11, {4, 1000}), et_tensor(12, 13, {4}, "long int", 8), et_none(), et_int(1),
        et_int(-100)},
       {et_tensor(14, 15, {}), et_tensor(16, 17, {})}},
      {3, 1, "aten::fill_", kFill, {et_tensor(20, 21, {1000}), et_int(0)}, {et_tensor(20, 21, {1000})}},
      {4, 1, "aten::index_select", kIndexSelect,
       {et_tensor(30, 31, {100, 64}), et_int(0), et_tensor(32, 33, {10}, "long int", 8)},
       {et_tensor(34, 35, {10, 64})}},
      {5, 1, "aten::copy_", kCopy,
       {et_tensor(40, 41, {1000}, "c10::BFloat16", 2), et_tensor(42, 43, {1000}), et_bool(false)},
       {et_tensor(40, 41, {1000}, "c10::BFloat16", 2)}},
  }));
  const SolarGraph s = build_solar_graph(*graph);
  REQUIRE(s.nodes.size() == 4);
  CHECK(s.nodes[0].kind == OpKind::kGather);
  CHECK(s.nodes[1].kind == OpKind::kFill);
  CHECK(s.nodes[2].kind == OpKind::kGather);
  // nll_loss_forward: Solar reads 4000·4 + 4·8 and writes 2 scalars: 16040 B; one
  // log-prob per target row: 4·4 + 32 + 8 = 56 B.
  CHECK(s.nodes[0].unfused_bytes == 16040);
  CHECK(s.nodes[0].corrected_unfused_bytes == 56);
  // fill_: Solar reads and writes 1000 floats, 8000 B; it only writes: 4000 B.
  CHECK(s.nodes[1].unfused_bytes == 8000);
  CHECK(s.nodes[1].corrected_unfused_bytes == 4000);
  // index_select: Solar 6400·4 + 10·8 + 640·4 = 28240 B; the 640 rows' elements read:
  // 640·4 + 80 + 2560 = 5200 B.
  CHECK(s.nodes[2].unfused_bytes == 28240);
  CHECK(s.nodes[2].corrected_unfused_bytes == 5200);
  // copy_ fp32 → bf16: Solar reads self 2000 B + src 4000 B, writes 2000 B: 8000 B; the
  // destination is not read: 6000 B.
  CHECK(s.nodes[3].unfused_bytes == 8000);
  CHECK(s.nodes[3].corrected_unfused_bytes == 6000);
}

TEST_CASE("Faster than SOL: model, on_chip, device and no_gpu_kernel causes") {
  // Toy GPU at 1 GHz (1 cycle = 0.001 µs), DRAM 100 B/cycle, L2 1000 B at 1000 B/cycle.
  SolarHardware hw = toy_gpu();
  hw.l2_bytes = 1000;
  hw.l2_bytes_per_cycle = 1000;
  SolarGraph g;
  g.nodes.resize(6);
  for (SolarNode& n : g.nodes) n.cost.mac_dtype = "float";
  // A: 16040 B → 0.1604 µs; measured 0.01; corrected 56 B from DRAM 0.00056 µs: model.
  g.nodes[0].unfused_bytes = 16040;
  g.nodes[0].corrected_unfused_bytes = 56;
  // B: 800 B → 0.008 µs; measured 0.002; fits in L2, 0.0008 µs there: on_chip.
  g.nodes[1].unfused_bytes = g.nodes[1].corrected_unfused_bytes = 800;
  // C: 100000 B → 1 µs; measured 0.5; corrected max(99000 / 100, 100000 / 1000) = 990
  // cycles = 0.99 µs, still above 0.5: device.
  g.nodes[2].unfused_bytes = g.nodes[2].corrected_unfused_bytes = 100000;
  // D: measured 2 µs ≥ its 1 µs; E: not measured; F: no GPU time under it.
  for (size_t i : {3, 4, 5}) g.nodes[i].unfused_bytes = g.nodes[i].corrected_unfused_bytes = 100000;
  const FasterThanSol f = explain_faster_ops(g, hw, {0.01, 0.002, 0.5, 2, -1, 0});
  CHECK(f.cause == std::vector<std::string_view>{"model", "on_chip", "device", "", "", "no_gpu_kernel"});
  CHECK(f.faster == 4);
  CHECK(f.model == 1);
  CHECK(f.on_chip == 1);
  CHECK(f.device == 1);
  CHECK(f.no_gpu_kernel == 1);
  CHECK(f.faster_than_corrected == 1);  // C only; F ran nothing on the GPU
  CHECK(f.excess_us == Approx((0.1604 - 0.01) + (0.008 - 0.002) + (1 - 0.5) + 1));
  CHECK(op_sol(g.nodes[1], hw).corrected_us == Approx(0.0008));
  CHECK(op_sol(g.nodes[2], hw).corrected_us == Approx(0.99));
}

TEST_CASE("Inference ET: a weight cast before use (autocast) is the cast's source") {
  // copy_ writes a bf16 copy of the fp32 W [16, 8] (storage 21); mm reads the copy's
  // transpose. The copy is written in the trace, so the weight is the fp32 source.
  const char* kCopy = "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)";
  const EtArg w = et_tensor(20, 21, {16, 8});
  const EtArg w_bf16 = et_tensor(30, 31, {16, 8}, "c10::BFloat16", 2);
  const EtArg w_bf16_t = et_tensor(32, 31, {8, 16}, "c10::BFloat16", 2);
  const auto graph = load(et_flat({
      {2, 1, "aten::copy_", kCopy, {w_bf16, w, et_bool(false)}, {w_bf16}},
      {3, 1, "aten::t", kT, {w_bf16}, {w_bf16_t}},
      {4, 1, "aten::mm", kMm, {et_tensor(40, 41, {4, 8}, "c10::BFloat16", 2), w_bf16_t},
       {et_tensor(42, 43, {4, 16}, "c10::BFloat16", 2)}},
  }));
  const SolarGraph s = build_solar_graph(*graph);
  CHECK(s.parameter_source == ParameterSource::kInferred);
  CHECK(s.parameters == 1);
  REQUIRE(s.nodes.size() == 2);
  CHECK(s.nodes[0].reads[1].weight);  // copy_ reads the fp32 weight: 128 · 4 B
  CHECK(s.nodes[0].weight_bytes == 512);
  CHECK_FALSE(s.nodes[1].reads[1].weight);  // the bf16 copy is an intermediate
  CHECK(s.nodes[1].reads[1].producer == 0);
}

TEST_CASE("KV cache grown by cat (DynamicCache), read through a copy, is state") {
  // Prefill: attention over K0, V0 [1,2,4,8] (4 tokens). Each decode step: cat the
  // cache with the new token's k, v [1,2,1,8], copy the keys (a repeat_kv-style
  // contiguous copy), attention of 1 query over 5, then 6 keys.
  const char* kCat = "aten::cat(Tensor[] tensors, int dim=0) -> Tensor";
  const char* kClone = "aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor";
  const auto bf16 = [](int64_t id, int64_t tokens) {
    return et_tensor(id, id + 1, {1, 2, tokens, 8}, "c10::BFloat16", 2);
  };
  const auto pair = [](const EtArg& a, const EtArg& b) {
    return EtArg{"[" + a.value + "," + b.value + "]", "[" + a.shape + "," + b.shape + "]",
                 "GenericList[" + a.type + "," + b.type + "]"};
  };
  const auto attention = [&](int64_t id, const EtArg& q, const EtArg& k, const EtArg& v, int64_t out) {
    return EtNodeSpec{id, 1, "aten::_cudnn_attention_forward", kCudnnForward,
                      {q, k, v, et_none(), et_none(), et_none(), et_int(1), et_int(1), et_bool(false),
                       et_int(0), et_bool(false), et_bool(false)},
                      {bf16(out, 1)}};
  };
  std::vector<EtNodeSpec> nodes = {attention(2, bf16(10, 4), bf16(100, 4), bf16(110, 4), 20)};
  for (int64_t step = 1; step <= 2; ++step) {
    const int64_t id = 10 * step, base = 1000 * step, tokens = 4 + step;
    const EtArg old_k = step == 1 ? bf16(100, 4) : bf16(1000 * (step - 1) + 200, tokens - 1);
    const EtArg old_v = step == 1 ? bf16(110, 4) : bf16(1000 * (step - 1) + 210, tokens - 1);
    const EtArg k = bf16(base + 200, tokens), v = bf16(base + 210, tokens);
    const EtArg k_copy = bf16(base + 220, tokens);
    nodes.push_back({id, 1, "aten::cat", kCat, {pair(old_k, bf16(base + 10, 1)), et_int(-2)}, {k}});
    nodes.push_back({id + 1, 1, "aten::cat", kCat, {pair(old_v, bf16(base + 12, 1)), et_int(-2)}, {v}});
    nodes.push_back({id + 2, 1, "aten::clone", kClone, {k}, {k_copy}});
    nodes.push_back(attention(id + 3, bf16(base + 14, 1), k_copy, v, base + 16));
  }
  const auto graph = load(et_flat(nodes));
  const SolarGraph s = build_solar_graph(*graph);
  // The prefill's K0, V0 and each step's grown K, V: 6 storages; the copy is not state.
  CHECK(s.state_storages == 6);
  REQUIRE(s.nodes.size() == 9);
  // Step 1's cat reads K0 (64 elements) and the new k (16), writes K1 (80): the cache
  // parts are state, 64 + 80 = 144 elements.
  CHECK(s.nodes[1].state_elements == 144);
  // Step 1's attention reads V1 (80 elements) as state, the key copy as an intermediate.
  CHECK(s.nodes[4].state_elements == 80);
  CHECK(s.nodes[4].intermediate_elements == 80);
  CHECK(s.parameters == 0);
  // The page's intermediates table leaves state out: its rows sum to intermediate_bytes,
  // the two key copies, each written and read once: (160 + 160) + (192 + 192) B.
  const Table t = intermediates_table(*graph, s);
  REQUIRE(t.num_rows() == 2);
  const double removed = col(t, "bytes_removed").float_at(0) + col(t, "bytes_removed").float_at(1);
  CHECK(removed == totals_of(s, nullptr).intermediate_bytes);
  CHECK(removed == (160 + 160) + (192 + 192));
}

TEST_CASE("Weight passes: a tied weight's lookup pass reads only its rows") {
  // W [10, 4] fp32 (160 B) is looked up (index_select of 2 rows: 8 floats, 32 B), then,
  // after a relu, read whole by the output projection mm(h, Wᵀ): two passes, 32 + 160 B.
  const char* kIndexSelect = "aten::index_select(Tensor self, int dim, Tensor index) -> Tensor";
  const EtArg w = et_tensor(20, 21, {10, 4});
  const auto graph = load(et_flat({
      {2, 1, "aten::index_select", kIndexSelect,
       {w, et_int(0), et_tensor(30, 31, {2}, "long int", 8)}, {et_tensor(32, 33, {2, 4})}},
      {3, 1, "aten::relu", kRelu, {et_tensor(32, 33, {2, 4})}, {et_tensor(34, 35, {2, 4})}},
      {4, 1, "aten::t", kT, {w}, {et_tensor(40, 21, {4, 10})}},
      {5, 1, "aten::mm", kMm, {et_tensor(34, 35, {2, 4}), et_tensor(40, 21, {4, 10})},
       {et_tensor(36, 37, {2, 10})}},
  }));
  const SolarGraph s = build_solar_graph(*graph);
  CHECK(s.parameters == 1);
  CHECK(s.weight_passes == 2);
  CHECK(s.weight_bytes_once == 160);
  CHECK(s.weight_bytes_read == 192);
}
