// Solar's golden values (NVlabs/SOLAR examples and tests, seed-systems.md b.8) on
// tiny synthetic Execution Traces, and the classification rules.
#include <catch2/catch.hpp>

#include "analyses/solar/sol_model.h"
#include "analyses/solar/solar_graph.h"
#include "support/et_builder.h"

using namespace sollens;
using namespace sollens::solar;
using namespace sollens::test;

namespace {

const char* kMatmul = "aten::matmul(Tensor self, Tensor other) -> Tensor";
const char* kLinear = "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor";
const char* kRelu = "aten::relu(Tensor self) -> Tensor";
const char* kGelu = "aten::gelu(Tensor self, *, str approximate='none') -> Tensor";
const char* kConvolution =
    "aten::convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] "
    "padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor";

struct Built {
  std::unique_ptr<ExecutionGraph> graph;
  SolarGraph solar;
  Totals totals;
};

Built build(const std::string& text) {
  Result<std::unique_ptr<ExecutionGraph>> r = load_et(text);
  INFO(r.message());
  REQUIRE(r.ok());
  Built b;
  b.graph = std::move(r.value());
  b.solar = build_solar_graph(*b.graph);
  std::vector<const SolarNode*> nodes;
  for (const SolarNode& n : b.solar.nodes) nodes.push_back(&n);
  b.totals = sum_nodes(nodes, nullptr);
  return b;
}

}  // namespace

TEST_CASE("Solar golden: Matmul example, W[4,32,64] @ X[64,128]") {
  const Built b = build(et_flat({{2, 1, "aten::matmul", kMatmul,
                                  {et_tensor(10, 11, {4, 32, 64}), et_tensor(12, 13, {64, 128})},
                                  {et_tensor(14, 15, {4, 32, 128})}}}));
  REQUIRE(b.solar.nodes.size() == 1);
  CHECK(b.totals.macs == 1048576);                 // 4·32·128·64
  CHECK(b.totals.unfused_elements == 32768);       // 8192 + 8192 + 16384
  CHECK(b.totals.unfused_bytes == 32768 * 4);      // 131,072 B
  CHECK(b.solar.unique_external_elements == 32768);  // a single op: fused == unfused
}

TEST_CASE("Solar golden: Conv2d example, [1,3,32,32] -> Conv2d(3,16,k3,p1), no bias") {
  const Built b = build(et_flat(
      {{2, 1, "aten::convolution", kConvolution,
        {et_tensor(10, 11, {1, 3, 32, 32}), et_tensor(12, 13, {16, 3, 3, 3}), et_none(), et_int(1),
         et_int(1), et_int(1), et_bool(false), et_int(0), et_int(1)},
        {et_tensor(14, 15, {1, 16, 32, 32})}}}));
  CHECK(b.totals.macs == 442368);            // 16·32·32 outputs × 3·3·3
  CHECK(b.totals.other_ops == 0);
  CHECK(b.totals.unfused_elements == 19888);  // 3,072 + 432 + 16,384
}

TEST_CASE("Solar golden: Linear(64,32,bias) on [2,16,64]") {
  const Built b = build(et_flat({{2, 1, "aten::linear", kLinear,
                                  {et_tensor(10, 11, {2, 16, 64}), et_tensor(12, 13, {32, 64}),
                                   et_tensor(16, 17, {32})},
                                  {et_tensor(14, 15, {2, 16, 32})}}}));
  CHECK(b.totals.macs == 65536);          // 2·16·32·64
  CHECK(b.totals.other_ops == 2 * 16 * 32);  // Solar's bias_add layer
  CHECK(b.totals.weight_elements == 32 * 64 + 32);
}

TEST_CASE("Solar golden: Linear(256,512) on [2,128,256]") {
  const Built b = build(et_flat({{2, 1, "aten::linear", kLinear,
                                  {et_tensor(10, 11, {2, 128, 256}), et_tensor(12, 13, {512, 256}),
                                   et_none()},
                                  {et_tensor(14, 15, {2, 128, 512})}}}));
  CHECK(b.totals.macs == 33554432);
  CHECK(b.totals.unfused_elements == 65536 + 131072 + 131072);
}

TEST_CASE("Solar golden: MinGPT GELU on 8192x8192 fp16, fused = fused_prefetched = 2·8192²") {
  const Built b = build(et_flat({{2, 1, "aten::gelu", kGelu,
                                  {et_tensor(10, 11, {8192, 8192}, "c10::Half", 2)},
                                  {et_tensor(14, 15, {8192, 8192}, "c10::Half", 2)}}}));
  CHECK(b.solar.unique_external_elements == 134217728.0);  // HEAD fused and fused_prefetched
  CHECK(b.totals.model_io_elements == 134217728.0);        // SOL_GUIDE's per-layer sum
  CHECK(b.totals.macs == 0);
  CHECK(b.totals.other_ops == 8192.0 * 8192);
  CHECK(b.totals.unfused_bytes == 134217728.0 * 2);        // each tensor's own itemsize
}

TEST_CASE("Linear -> ReLU -> Linear: weights, intermediates and model I/O") {
  // x[4,8] → linear(W1[16,8], b1[16]) → relu → linear(W2[2,16], b2[2]) → y[4,2]
  const Built b = build(et_flat({
      {2, 1, "aten::linear", kLinear,
       {et_tensor(10, 11, {4, 8}), et_tensor(20, 21, {16, 8}), et_tensor(22, 23, {16})},
       {et_tensor(30, 31, {4, 16})}},
      {3, 1, "aten::relu", kRelu, {et_tensor(30, 31, {4, 16})}, {et_tensor(32, 33, {4, 16})}},
      {4, 1, "aten::linear", kLinear,
       {et_tensor(32, 33, {4, 16}), et_tensor(24, 25, {2, 16}), et_tensor(26, 27, {2})},
       {et_tensor(34, 35, {4, 2})}},
  }));
  REQUIRE(b.solar.nodes.size() == 3);
  const double weights = 16 * 8 + 16 + 2 * 16 + 2;  // 178
  CHECK(b.totals.weight_elements == weights);
  CHECK(b.totals.intermediate_elements == 4 * 64);  // two tensors, each written and read
  CHECK(b.totals.model_io_elements == 32 + weights + 8);
  CHECK(b.totals.unfused_elements == b.totals.model_io_elements + b.totals.intermediate_elements);
  CHECK(b.solar.intermediate_tensors == 2);
  // The interior ReLU touches no DRAM once fused: fused == Σ weights (none).
  CHECK(b.solar.nodes[1].model_io_elements == 0);
  CHECK(b.solar.nodes[1].unfused_elements == 128);
  // Weights are never intermediate.
  for (const SolarNode& n : b.solar.nodes)
    for (const Access& a : n.reads)
      if (a.weight) CHECK(a.producer == -1);
  CHECK_FALSE(b.solar.parameters_from_optimizer);
}

TEST_CASE("Views are transparent and composites are counted once, at their leaves") {
  const char* kT = "aten::t(Tensor(a) self) -> Tensor(a)";
  const char* kMm = "aten::mm(Tensor self, Tensor mat2) -> Tensor";
  const Built b = build(et_flat({
      {2, 1, "aten::relu", kRelu, {et_tensor(10, 11, {4, 8})}, {et_tensor(12, 13, {4, 8})}},
      {3, 1, "aten::linear", kLinear, {et_tensor(12, 13, {4, 8}), et_tensor(20, 21, {16, 8}), et_none()},
       {et_tensor(30, 31, {4, 16})}},
      {4, 3, "aten::t", kT, {et_tensor(20, 21, {16, 8})}, {et_tensor(40, 21, {8, 16})}},
      {5, 3, "aten::mm", kMm, {et_tensor(12, 13, {4, 8}), et_tensor(40, 21, {8, 16})},
       {et_tensor(30, 31, {4, 16})}},
  }));
  REQUIRE(b.solar.nodes.size() == 2);  // relu and mm; linear and t are not counted
  CHECK(b.solar.composite_nodes == 1);
  CHECK(b.solar.view_nodes == 1);
  CHECK(b.totals.macs == 4 * 16 * 8);
  const SolarNode& mm = b.solar.nodes[1];
  CHECK(mm.reads[0].producer == 0);   // relu's output
  CHECK(mm.reads[1].producer == -1);  // the weight, seen through its t() view
}

TEST_CASE("Tensor ids are reused: an input links to the latest earlier producer") {
  const Built b = build(et_flat({
      {2, 1, "aten::relu", kRelu, {et_tensor(10, 11, {4})}, {et_tensor(12, 13, {4})}},
      {3, 1, "aten::relu", kRelu, {et_tensor(12, 13, {4})}, {et_tensor(14, 15, {4})}},
      {4, 1, "aten::relu", kRelu, {et_tensor(14, 15, {4})}, {et_tensor(12, 13, {4})}},  // reused
      {5, 1, "aten::relu", kRelu, {et_tensor(12, 13, {4})}, {et_tensor(16, 17, {4})}},
  }));
  REQUIRE(b.solar.nodes.size() == 4);
  CHECK(b.solar.nodes[1].reads[0].producer == 0);
  CHECK(b.solar.nodes[3].reads[0].producer == 2);
}

TEST_CASE("A view's reused key: a fresh output there is no view of the old base") {
  const char* kView = "aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)";
  const Built b = build(et_flat({
      {2, 1, "aten::relu", kRelu, {et_tensor(10, 11, {4})}, {et_tensor(12, 13, {4})}},
      {3, 1, "aten::view", kView, {et_tensor(12, 13, {4})}, {et_tensor(14, 13, {2, 2})}},
      {4, 1, "aten::relu", kRelu, {et_tensor(14, 13, {2, 2})}, {et_tensor(16, 17, {2, 2})}},
      {5, 1, "aten::relu", kRelu, {et_tensor(20, 21, {4})}, {et_tensor(14, 13, {4})}},  // reused
      {6, 1, "aten::relu", kRelu, {et_tensor(14, 13, {4})}, {et_tensor(22, 23, {4})}},
      {7, 1, "aten::relu", kRelu, {et_tensor(12, 13, {4})}, {et_tensor(24, 25, {4})}},
  }));
  REQUIRE(b.solar.nodes.size() == 5);
  CHECK(b.solar.nodes[1].reads[0].producer == 0);  // through the view to its base
  CHECK(b.solar.nodes[3].reads[0].producer == 2);  // the fresh tensor under the reused key
  CHECK(b.solar.nodes[4].reads[0].producer == 0);  // the base was not overwritten
}

TEST_CASE("Optimizer parameter list: in-place updates of tensors read outside the optimizer") {
  const char* kAdd = "aten::_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()";
  const char* kMul = "aten::_foreach_mul_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()";
  const char* kMm = "aten::mm(Tensor self, Tensor mat2) -> Tensor";
  const auto list = [](std::vector<EtArg> items) {
    EtArg a{"[", "[", "GenericList["};
    for (size_t i = 0; i < items.size(); ++i) {
      a.value += (i ? "," : "") + items[i].value;
      a.shape += (i ? "," : "") + items[i].shape;
      a.type += (i ? "," : "") + items[i].type;
    }
    a.value += "]";
    a.shape += "]";
    a.type += "]";
    return a;
  };
  const Built b = build(et_flat({
      {2, 1, "aten::mm", kMm, {et_tensor(10, 11, {4, 8}), et_tensor(20, 21, {8, 8})},
       {et_tensor(30, 31, {4, 8})}},
      {3, 1, "Optimizer.step#SGD.step", "", {}, {}, 7},
      // momentum buffer 50 and parameter 20 are both updated in place; only 20 is read outside
      {4, 3, "aten::_foreach_mul_", kMul, {list({et_tensor(50, 51, {8, 8})}), et_int(1)}, {}},
      {5, 3, "aten::_foreach_add_", kAdd,
       {list({et_tensor(20, 21, {8, 8})}), list({et_tensor(50, 51, {8, 8})}), et_int(1)}, {}},
  }));
  CHECK(b.solar.parameters_from_optimizer);
  CHECK(b.solar.parameters == 1);
  CHECK(b.solar.nodes[0].reads[1].weight);
  CHECK_FALSE(b.solar.nodes[0].reads[0].weight);
  CHECK(b.solar.nodes[1].segment == Segment::kOptimizer);
}

TEST_CASE("SOL model: HEAD whole-graph roofline and SOL_GUIDE per-op sums") {
  // Two ops on a made-up GPU with 1 GHz, 100 B/cycle, 1000 MAC/cycle, 10 SM ops/cycle.
  SolarHardware hw;
  hw.name = "test";
  hw.freq_ghz = 1;
  hw.dram_bytes_per_cycle = 100;
  hw.mac_per_cycle_fp32 = 1000;
  hw.mac_per_cycle_sm = 10;
  SolarNode a, c;
  a.cost.macs = 100000;  // 100 compute cycles
  a.cost.mac_dtype = "float";
  a.unfused_bytes = 1000;  // 10 memory cycles
  a.model_io_bytes = 1000;
  c.cost.other_ops = 100;  // 10 SM cycles
  c.unfused_bytes = 20000;  // 200 memory cycles
  c.model_io_bytes = 0;
  const Totals t = sum_nodes({&a, &c}, &hw);
  CHECK(t.compute_tc_cycles == 100);
  CHECK(t.compute_sm_cycles == 10);
  const SolModel head = head_model(t, 0, 1000, hw);
  CHECK(head.unfused.total_cycles == 210);  // max(100, 21000 / 100)
  CHECK(head.fused.total_cycles == 100);    // max(100, 10)
  CHECK(head.fused.bottleneck == "compute");
  CHECK(head.unfused.runtime_ms == Approx(210 / 1e6));
  const SolModel design = design_intent_model(t, hw);
  CHECK(design.unfused.total_cycles == 100 + 200);    // max(100, 10) + max(10, 200)
  CHECK(design.fused.total_cycles == 100 + 10);       // max(100, 10) + max(10, 0)
  CHECK(design.fused_prefetched.total_cycles == 110);  // max(100 + 10, 10 + 0)
}
