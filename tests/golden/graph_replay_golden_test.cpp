// Graph replays on the SGLang Qwen3-8B decode fixture (MI300X): one hipGraphLaunch
// replays 544 kernels; capture_traces/bs_32_rank0.json.gz recorded the capture of that
// graph, whose launches that never ran name the same 544 kernels in the same order
// (counted apart from sollens: the capture's hip*LaunchKernel events without a GPU
// event, args.kernel against the replay's kernel names, aligned with Python's difflib:
// 544 equal). So every replayed kernel maps:
//   * the replayed time is TraceLens's hipGraphLaunch row of ops_summary.csv
//     (total_direct_kernel_time_sum), all of it mapped;
//   * the GEMMs are 36 layers × 4 (QKV, O, gate-up, down) + the LM head = 145 aten::mm
//     ops, and their kernels are the hipGraphLaunch->Cijk_* rows of TraceLens's
//     unified_perf_summary.csv (Kernel Time (µs)_sum: 36 + 36 + 36 + 36 + 1 calls).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>

#include "analyses/perf/modeled_ops.h"
#include "devices/device_identify.h"
#include "analyses/sol/sol_graph_ops.h"
#include "analyses/sol/sol_ops.h"
#include "api/session.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "support/golden_fixtures.h"
#include "support/reference_csv.h"

using namespace sollens;

namespace {

const test::fs::path kSet = test::kTraces / "tracelens-sglang-qwen3-8b-decode";
const test::fs::path kReplay = kSet / "sglang_Qwen3-8B_decode.json.gz";
const test::fs::path kCapture = kSet / "capture_traces" / "bs_32_rank0.json.gz";

size_t column_of(const test::CsvRows& rows, const std::string& name) {
  const auto it = std::find(rows[0].begin(), rows[0].end(), name);
  REQUIRE(it != rows[0].end());
  return static_cast<size_t>(it - rows[0].begin());
}

double reference_graph_launch_us() {
  const test::CsvRows rows = test::parse_csv(test::read_text(kSet / "tracelens-report" / "ops_summary.csv"));
  const size_t time = column_of(rows, "total_direct_kernel_time_sum");
  for (size_t r = 1; r < rows.size(); ++r)
    if (rows[r][0] == "hipGraphLaunch") return std::stod(rows[r][time]);
  FAIL("no hipGraphLaunch row");
  return 0;
}

// The replayed GEMM kernels: TraceLens names them hipGraphLaunch->Cijk_... (Synthetic Op).
std::pair<double, size_t> reference_replayed_gemms() {
  const test::CsvRows rows = test::parse_csv(test::read_text(kSet / "tracelens-report" / "unified_perf_summary.csv"));
  const size_t time = column_of(rows, "Kernel Time (µs)_sum"), count = column_of(rows, "operation_count");
  double us = 0;
  size_t calls = 0;
  for (size_t r = 1; r < rows.size(); ++r) {
    if (!rows[r][0].starts_with("hipGraphLaunch->Cijk_")) continue;
    us += std::stod(rows[r][time]);
    calls += std::stoul(rows[r][count]);
  }
  return {us, calls};
}

std::unique_ptr<EventStore> read(const test::fs::path& p) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(test::read_text(p)));
  REQUIRE(r.ok());
  return std::move(r.value());
}

}  // namespace

TEST_CASE("graph replay golden: SGLang decode replay mapped to its capture trace", "[graphs][golden]") {
  const auto replay = read(kReplay);
  const auto capture = read(kCapture);
  TreeOptions python;
  python.include_python = true;
  const TraceTree replay_tree = TraceTree::build(*replay, python);
  const TraceTree capture_tree = TraceTree::build(*capture, python);
  const ModeledOps capture_modeled = evaluate_modeled_ops(*capture, capture_tree);
  const CaptureTrace captured{capture.get(), &capture_tree, &capture_modeled};
  const DeviceIdentification device = identify_trace_device(*replay);
  REQUIRE(device.roofline_spec() != nullptr);
  SolOptions options;
  options.capture = &captured;
  const SolOps ops = collect_sol_ops(*replay, replay_tree, device.roofline_spec(), options);

  double replayed_us = 0, gemm_us = 0;
  size_t gemm_ops = 0, gemm_kernels = 0;
  for (const SolOp& op : ops.ops) {
    if (replay->name_of(op.event) != "hipGraphLaunch") continue;
    replayed_us += op.measured_us;
    CHECK(op.function != "hipGraphLaunch");  // nothing stays with the launch
    if (op.function != "aten::mm") continue;
    ++gemm_ops;
    gemm_kernels += op.kernels.size();
    gemm_us += op.measured_us;
    CHECK(op.estimated);
  }
  CHECK(replayed_us == Approx(reference_graph_launch_us()).epsilon(1e-6));
  const auto [reference_gemm_us, reference_gemm_calls] = reference_replayed_gemms();
  CHECK(gemm_ops == 145);
  CHECK(gemm_kernels == reference_gemm_calls);
  CHECK(gemm_us == Approx(reference_gemm_us).epsilon(1e-6));
  const bool all_mapped = std::any_of(ops.notes.begin(), ops.notes.end(), [](const std::string& n) {
    return n.starts_with("1 graph replay (544 kernels, 9.66 ms) mapped from the capture trace: 100.0 % of their "
                         "kernel time mapped");
  });
  CHECK(all_mapped);
}

TEST_CASE("graph replay golden: the session's capture trace reaches the report's SOL notes", "[graphs][golden]") {
  Session session;
  REQUIRE(session.load(PaddedBuffer::copy_of(test::read_text(kReplay))).ok());
  REQUIRE(session.load_capture(PaddedBuffer::copy_of(test::read_text(kCapture))).ok());
  REQUIRE(session.capture() != nullptr);
  ReportRequest request;
  request.sol_sheets = true;
  const Report report = session.report(request);
  const auto mapped = [](const std::string& n) { return n.find("mapped from the capture trace: 100.0 %") != std::string::npos; };
  CHECK(std::any_of(report.sol_notes.begin(), report.sol_notes.end(), mapped));
}

// The paged attention a replay ran is counted with the lengths of the replay's step:
// the capture's own annotation (capture_32_DECODE) has none, the replay's
// execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk32785sqsq32sqsk32785) has
// g_sqsk = Σ N_Q·N_KV = 32,785 (TraceLens's inference-attention formulas,
// tracelens-semantics.md §6.4). The captured op's q is (32, 32, 128): H_Q = 32,
// d_qk = d_v = 128; its KV caches (835874, 1, 8, 128): H_KV = 8. Per layer:
//   FLOPs = 2·g_sqsk·H_Q·d_qk + 2·g_sqsk·H_Q·d_v = 4 · 32,785 · 32 · 128 = 537,149,440
//   elements = g_sq·H_Q·d_qk + g_sk·H_KV·(d_qk + d_v) + g_sq·H_Q·d_v
//            = 131,072 + 32,785 · 8 · 256 + 131,072 = 67,405,824 → × 2 B (bf16) = 134,811,648 B
// SGLang's per-call-site op names are stripped (--strip-sglang-suffixes) so the op meets its model.
TEST_CASE("graph replay golden: captured paged attention runs with the replay's sequence lengths", "[graphs][golden]") {
  Session session;
  LoadOptions options;
  options.tree.strip_sglang_profiler_suffixes = true;
  REQUIRE(session.load(PaddedBuffer::copy_of(test::read_text(kReplay)), options).ok());
  REQUIRE(session.load_capture(PaddedBuffer::copy_of(test::read_text(kCapture))).ok());
  const DeviceIdentification device = session.identify_device();
  REQUIRE(device.roofline_spec() != nullptr);
  SolOptions sol;
  sol.capture = session.capture();
  const SolOps ops = collect_sol_ops(session.store(), session.python_tree(), device.roofline_spec(), sol);
  size_t layers = 0;
  for (const SolOp& op : ops.ops) {
    if (op.function != "sglang_profiler::attention_paged_attention_ragged") continue;
    ++layers;
    REQUIRE(op.estimated);
    CHECK(op.flops == 537149440.0);
    CHECK(op.bytes == 134811648.0);
  }
  CHECK(layers == 36);
}
