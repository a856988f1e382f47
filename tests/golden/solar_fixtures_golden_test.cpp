// Solar on the real Execution Traces in tests/fixtures: totals against sums taken
// here from the ET's own shapes, parameters against the optimizer's list, and the
// link to the Kineto trace of the same run.
#include <catch2/catch.hpp>

#include "devices/device_db.h"
#include "analyses/solar/faster_than_sol.h"
#include "analyses/solar/solar_report.h"
#include "ingest/execution_trace_reader.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "support/golden_fixtures.h"

using namespace sollens;
using namespace sollens::solar;
using namespace sollens::test;

namespace {

std::unique_ptr<ExecutionGraph> load_graph(const fs::path& p) {
  Result<std::unique_ptr<ExecutionGraph>> r = load_execution_trace(PaddedBuffer::copy_of(read_text(p)));
  INFO(r.message());
  REQUIRE(r.ok());
  return std::move(r.value());
}

const std::vector<int64_t>& shape(const ExecutionGraph& g, const EtNode& n, size_t input) {
  return g.tensors[n.inputs.at(input).tensors.at(0)].shape;
}

double product(const std::vector<int64_t>& v) {
  double p = 1;
  for (int64_t x : v) p *= static_cast<double>(x);
  return p;
}

double total_macs(const SolarGraph& s) {
  double m = 0;
  for (const SolarNode& n : s.nodes) m += n.cost.macs;
  return m;
}

}  // namespace

TEST_CASE("Solar fixture: param-et-linear with its Kineto trace") {
  const auto graph = load_graph(kTraces / "param-et-linear" / "linear_et.json.gz");
  CHECK(graph->schema == "1.0.1");
  CHECK(graph->nodes.size() == 931);
  const SolarGraph solar = build_solar_graph(*graph);

  // MACs from the GEMMs' shapes: mm [M,K]·[K,N]; addmm(bias, [M,K], [K,N]).
  double macs = 0;
  size_t gemms = 0;
  for (const EtNode& n : graph->nodes) {
    if (n.name == "aten::mm") {
      macs += product(shape(*graph, n, 0)) * static_cast<double>(shape(*graph, n, 1)[1]);
      ++gemms;
    } else if (n.name == "aten::addmm") {
      macs += product(shape(*graph, n, 1)) * static_cast<double>(shape(*graph, n, 2)[1]);
      ++gemms;
    }
  }
  CHECK(gemms == 62);
  CHECK(total_macs(solar) == macs);
  size_t costed = 0;
  for (const SolarNode& n : solar.nodes) costed += n.cost.macs > 0;
  CHECK(costed == gemms);
  CHECK(solar.parameters_from_optimizer);
  CHECK(solar.parameters == 42);  // 21 weights + 21 biases in _foreach_add_'s first list

  const std::string kineto_text = read_text(kTraces / "param-et-linear" / "linear_kineto.json.gz");
  Result<std::unique_ptr<EventStore>> kineto = load_trace(PaddedBuffer::copy_of(kineto_text));
  REQUIRE(kineto.ok());
  const TraceTree tree = TraceTree::build(*kineto.value());
  const MeasuredRun m = measure_run(solar, *graph, *kineto.value(), tree);
  CHECK(m.link_method == "thread_alignment");  // no Record function id; External id ≠ rf_id
  CHECK(m.compute_nodes == solar.nodes.size());
  CHECK(static_cast<double>(m.compute_nodes_linked) >= 0.95 * static_cast<double>(m.compute_nodes));
  CHECK(m.linked_gpu_busy_us > 0);
  CHECK(m.linked_gpu_busy_us <= m.trace_gpu_busy_us);
}

TEST_CASE("Solar fixture: param-et-resnet's ET alone") {
  const auto graph = load_graph(kTraces / "param-et-resnet" / "resnet_et.json.gz");
  CHECK(graph->schema == "1.1.0-chakra.0.0.4");
  CHECK(graph->nodes.size() == 14392);
  const SolarGraph solar = build_solar_graph(*graph);
  CHECK(solar.parameters_from_optimizer);
  CHECK(solar.parameters == 161);
  CHECK(solar.uncosted_compute_nodes == 0);

  // Every forward convolution, convolution backward and GEMM is costed; forward conv
  // MACs = N·O·P·Q (output) × C·R·S (weight's per-output-channel volume).
  size_t convs_and_gemms = 0;
  double forward_conv_macs = 0;
  for (const EtNode& n : graph->nodes) {
    if (n.name == "aten::cudnn_convolution") {
      const auto& out = graph->tensors[n.outputs.at(0).tensors.at(0)].shape;
      const auto& w = shape(*graph, n, 1);
      forward_conv_macs += product(out) * static_cast<double>(w[1] * w[2] * w[3]);
    }
    if (n.name == "aten::cudnn_convolution" || n.name == "aten::convolution_backward" ||
        n.name == "aten::mm" || n.name == "aten::addmm")
      ++convs_and_gemms;
  }
  CHECK(convs_and_gemms == 159 + 159 + 6 + 3);
  size_t costed = 0;
  double counted_forward_conv_macs = 0;
  for (const SolarNode& n : solar.nodes) {
    if (n.cost.macs > 0) ++costed;
    if (graph->nodes[n.node].name == "aten::cudnn_convolution") counted_forward_conv_macs += n.cost.macs;
  }
  CHECK(costed == convs_and_gemms);
  CHECK(counted_forward_conv_macs == forward_conv_macs);

  // Its Kineto file is another run (pid 23442 against the ET's 1734239): nothing links.
  Result<std::unique_ptr<EventStore>> kineto = load_trace(PaddedBuffer::copy_of(read_text(kTraces / "param-et-resnet" / "resnet_kineto.json.gz")));
  REQUIRE(kineto.ok());
  const TraceTree tree = TraceTree::build(*kineto.value());
  const MeasuredRun m = measure_run(solar, *graph, *kineto.value(), tree);
  CHECK(m.link_method == "none");
  CHECK(m.compute_nodes_linked == 0);
  CHECK_THAT(m.link_note, Catch::Contains("pid 1734239"));
}

TEST_CASE("Solar fixture: hta-et-simple-add links by External id") {
  const fs::path dir = kTraces / "hta-et-simple-add";
  const auto graph = load_graph(dir / "benchmark_simple_add_et.json.gz");
  const SolarGraph solar = build_solar_graph(*graph);
  CHECK(total_macs(solar) == 0);
  size_t adds = 0;
  for (const SolarNode& n : solar.nodes)
    if (graph->nodes[n.node].name == "aten::add") {
      ++adds;
      CHECK(n.cost.other_ops == 256 * 256);  // one op per element of the [256, 256] sum
    }
  CHECK(adds == 2);
  Result<std::unique_ptr<EventStore>> kineto = load_trace(PaddedBuffer::copy_of(read_text(dir / "benchmark_simple_add_trace.json.gz")));
  REQUIRE(kineto.ok());
  const TraceTree tree = TraceTree::build(*kineto.value());
  const MeasuredRun m = measure_run(solar, *graph, *kineto.value(), tree);
  CHECK(m.link_method == "external_id");
  CHECK(m.compute_nodes_linked == m.compute_nodes);
}

TEST_CASE("Solar fixture: H200 PyTorch 2.11 GPT-2 training, attention, weights and faster-than-SOL ops") {
  const fs::path dir = kTraces / "h200-pt211-gpt2-train";
  const auto graph = load_graph(dir / "gpt2_train_et.json.gz");
  const SolarGraph solar = build_solar_graph(*graph);

  // cuDNN SDPA, causal, q/k/v [8, 12, 512, 64]: 8·12·(512·513/2)·(64+64) = 1,613,758,464
  // MACs per forward (≥ 8·12·512²·64·2 / 2 = 1.61e9), 2.5× that per backward. Only the
  // leaves count: scaled_dot_product_attention and _scaled_dot_product_cudnn_attention
  // (and its backward) are composites.
  size_t forwards = 0, backwards = 0;
  for (const SolarNode& n : solar.nodes) {
    const std::string& name = graph->nodes[n.node].name;
    CHECK(name.find("scaled_dot_product") == std::string::npos);
    if (name == "aten::_cudnn_attention_forward") {
      ++forwards;
      CHECK(n.kind == OpKind::kAttention);
      CHECK(n.cost.macs == 1613758464.0);
      CHECK(n.cost.macs >= 8.0 * 12 * 512 * 512 * 64 * 2 / 2);
      CHECK_THAT(n.cost.note, Catch::Contains("causal"));
    } else if (name == "aten::_cudnn_attention_backward") {
      ++backwards;
      CHECK(n.cost.macs == 2.5 * 1613758464.0);
    }
  }
  CHECK(forwards == 18);  // 6 layers × 3 steps
  CHECK(backwards == 18);

  // AdamW's parameter list: 76 tensors, 81,912,576 fp32 values (wte 50257·768, wpe
  // 1024·768, 6 layers of 7,087,872, ln_f 2·768) = 327,650,304 B, each read in several
  // passes per step (forward, backward, optimizer). No KV cache in training.
  CHECK(solar.parameters == 76);
  CHECK(solar.weight_bytes_once == 327650304.0);
  CHECK(solar.weight_passes >= 3 * 3);
  CHECK(solar.state_storages == 0);

  // Corrected bytes: nll_loss_forward reads one log-prob per row of [4096, 50257] fp32:
  // 4096·4 + the int64 target 4096·8 + two fp32 scalars = 49,160 B (Solar: all 823 MB);
  // fill_ of the [8, 512, 50257] fp32 gradient only writes 205,852,672·4 B.
  for (const SolarNode& n : solar.nodes) {
    const std::string& name = graph->nodes[n.node].name;
    if (name == "aten::nll_loss_forward") CHECK(n.corrected_unfused_bytes == 49160.0);
    if (name == "aten::fill_" && n.unfused_bytes == 2 * 823410688.0)
      CHECK(n.corrected_unfused_bytes == 823410688.0);
  }

  // Measured beside it on the H200: the 393 ops whose time is below Solar's per-op
  // unfused SOL (as the issue counted them) each carry a cause, and none is below our
  // corrected SOL.
  Result<std::unique_ptr<EventStore>> kineto = load_trace(PaddedBuffer::copy_of(read_text(dir / "gpt2_train.json.gz")));
  REQUIRE(kineto.ok());
  const TraceTree tree = TraceTree::build(*kineto.value());
  const MeasuredRun m = measure_run(solar, *graph, *kineto.value(), tree);
  CHECK(m.compute_nodes_linked == m.compute_nodes);
  const DeviceSpec* h200 = find_device("H200");
  REQUIRE(h200);
  const std::optional<SolarHardware> hw = solar_hardware(*h200);
  REQUIRE(hw);
  const FasterThanSol f = explain_faster_ops(solar, *hw, m.node_gpu_us);
  CHECK(f.faster == 393);
  CHECK(f.model + f.on_chip + f.device + f.no_gpu_kernel == f.faster);
  CHECK(f.no_gpu_kernel == 228);  // AdamW's step counters: 76 CPU add_ per step
  CHECK(f.faster_than_corrected == 0);
  for (size_t i = 0; i < solar.nodes.size(); ++i) {
    const std::string& name = graph->nodes[solar.nodes[i].node].name;
    if (name == "aten::nll_loss_forward") CHECK(f.cause[i] == "model");
  }
}
