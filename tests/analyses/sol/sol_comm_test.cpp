// Communication ops: a collective's estimate from its bytes, NCCL's bus factor and the
// per-direction link bandwidth of deviceDB, worked out by hand:
//   H100 SXM5: 18 NVLink 4 links × 50 GB/s bidirectional = 900 GB/s → 450 GB/s per direction.
//   MI300X: 7 Infinity Fabric links × 128 GB/s bidirectional → 64 GB/s per link and direction,
//           a mesh: a group of n GPUs uses n − 1 links.
//   all-reduce, n = 8, S = 64 MiB = 67,108,864 B: f = 2·7/8 = 1.75 → 117,440,512 B
//           / 450e9 B/s = 260.978916 µs on the H100.
//   all-gather, n = 4, S (output) = 8 MiB = 8,388,608 B: f = 3/4 → 6,291,456 B
//           / (3 · 64e9 B/s) = 32.768 µs on the MI300X.
#include <catch2/catch.hpp>

#include <string>

#include "analyses/ops/trace_builder.h"
#include "devices/device_db.h"
#include "analyses/sol/sol.h"
#include "analyses/sol/sol_comm.h"
#include "ingest/trace_reader.h"
#include "support/sol_cases.h"
#include "support/table_column.h"

using namespace sollens;
using collectives::CollectiveKind;
using test::col;

namespace {

constexpr double kAllReduceUs = 117440512.0 / 450e9 * 1e6;  // 260.978916
constexpr double kAllGatherUs = 6291456.0 / 192e9 * 1e6;     // 32.768

const DeviceSpec& device(const char* name) {
  const DeviceSpec* d = find_device(name);
  REQUIRE(d != nullptr);
  return *d;
}

std::string collective_args(const std::string& name, int64_t nelems, const std::string& dtype) {
  const std::string n = std::to_string(nelems);
  return R"("Collective name":")" + name + R"(","In msg nelems":)" + n + R"(,"Out msg nelems":)" + n +
         R"(,"Group size":8,"dtype":")" + dtype +
         R"(","In split size":"[]","Out split size":"[]","Process Group Name":"0",)"
         R"("Process Group Ranks":"[0, 1, 2, 3, 4, 5, 6, 7]")";
}

// Phase "train/grad_sync" holds module DDP_0, whose record_param_comms launches an
// all-reduce of 33,554,432 bf16 elements (S = 64 MiB; kernel 400 µs) and an all-gather
// of fp8 elements, a dtype TraceLens's table does not size (kernel 50 µs).
std::string grad_sync() {
  test::TraceBuilder t;
  t.raw(test::annotation("train/grad_sync", 0, 1000))
      .python("nn.Module: DDP_0", 5, 995)
      .cpu_op("record_param_comms", 10, 5)
      .launch(11, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 100, 400, "kernel", 7, "cudaLaunchKernel",
              collective_args("allreduce", 33554432, "BFloat16"))
      .cpu_op("record_param_comms", 500, 5)
      .launch(501, "ncclDevKernel_AllGather_RING_LL", 600, 50, "kernel", 7, "cudaLaunchKernel",
              collective_args("_allgather_base", 1024, "Float8_e4m3fn"));
  return t.json();
}

SolReport analyze(const std::string& json, const char* device_name) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  TreeOptions options;
  options.include_python = true;
  const TraceTree tree = TraceTree::build(*r.value(), options);
  DeviceIdentification d;
  d.status = DeviceStatus::kUserChosen;
  d.spec = &device(device_name);
  return analyze_sol(*r.value(), tree, d);
}

double metric(const SolReport& r, const std::string& name) {
  for (size_t row = 0; row < r.metrics.num_rows(); ++row)
    if (r.metrics.column(0).string_at(row) == name) return r.metrics.column(1).float_at(row);
  FAIL("no metric " << name);
  return 0;
}

}  // namespace

TEST_CASE("sol comm: deviceDB's link figures are per direction", "[sol]") {
  const DeviceSpec& h100 = device("H100_SXM5_80GB");
  REQUIRE(h100.scale_up_link);
  CHECK(h100.scale_up_link->links == 18);
  CHECK(h100.scale_up_link->gbps_per_direction == 900.0 / 2);
  CHECK_FALSE(h100.scale_up_link->mesh);
  const DeviceSpec& mi300x = device("MI300X");
  REQUIRE(mi300x.scale_up_link);
  CHECK(mi300x.scale_up_link->mesh);
  CHECK(mi300x.scale_up_link->link_gbps_per_direction == 128.0 / 2);
  CHECK_FALSE(device("L40S").scale_up_link);  // PCIe card: topology-dependent, left out
}

TEST_CASE("sol comm: the link rate of a group", "[sol]") {
  CHECK(group_link_rate(device("H100_SXM5_80GB"), 2).gbps == 450);  // a switch: full rate to any peer
  CHECK(group_link_rate(device("H100_SXM5_80GB"), 8).gbps == 450);
  const LinkRate beyond = group_link_rate(device("H100_SXM5_80GB"), 16);
  CHECK(beyond.gbps == 0);
  CHECK(beyond.why_not.find("spans nodes") != std::string::npos);
  CHECK(group_link_rate(device("GB200_per_GPU"), 72).gbps == 900);  // NVL72: one domain
  CHECK(group_link_rate(device("MI300X"), 2).gbps == 64);            // a mesh: one link per peer
  CHECK(group_link_rate(device("MI300X"), 5).gbps == 4 * 64);
  CHECK(group_link_rate(device("MI300X"), 8).gbps == 7 * 64);
  CHECK(group_link_rate(device("L40S"), 2).why_not == "no link bandwidth for L40S in deviceDB");
}

TEST_CASE("sol comm: estimate = S · f(n) / B", "[sol]") {
  CHECK(kAllReduceUs == Approx(260.978916).epsilon(1e-8));
  const RooflineEstimate ar =
      communication_estimate(CollectiveKind::kAllReduce, 8, 67108864.0, device("H100_SXM5_80GB"), 1.0);
  REQUIRE(ar.ok);
  CHECK(ar.estimate_us == Approx(kAllReduceUs).epsilon(1e-12));
  CHECK(ar.communication_us == ar.estimate_us);
  CHECK(ar.bound == SolBound::kCommunication);
  CHECK(ar.link_gbps == 450);
  const RooflineEstimate slow =
      communication_estimate(CollectiveKind::kAllReduce, 8, 67108864.0, device("H100_SXM5_80GB"), 0.8);
  CHECK(slow.estimate_us == Approx(kAllReduceUs / 0.8).epsilon(1e-12));
  const RooflineEstimate ag = communication_estimate(CollectiveKind::kAllGather, 4, 8388608.0, device("MI300X"), 1.0);
  REQUIRE(ag.ok);
  CHECK(ag.estimate_us == Approx(kAllGatherUs).epsilon(1e-12));
  const RooflineEstimate alone =
      communication_estimate(CollectiveKind::kAllReduce, 1, 1024.0, device("H100_SXM5_80GB"), 1.0);
  CHECK_FALSE(alone.ok);
  CHECK(alone.why_not == "group of one: nothing crosses a link");
}

TEST_CASE("sol comm: collective kernels are ops, in their module and phase", "[sol]") {
  const SolReport r = analyze(grad_sync(), "H100_SXM5_80GB");
  CHECK(metric(r, "sol/total_ops") == 1);
  CHECK(metric(r, "sol/estimated_time_ms") == Approx(kAllReduceUs / 1e3).epsilon(1e-12));
  CHECK(metric(r, "sol/measured_time_ms") == Approx(0.4).epsilon(1e-12));
  CHECK(metric(r, "sol/communication_ops") == 1);
  CHECK(metric(r, "sol/communication_estimated_time_ms") == Approx(kAllReduceUs / 1e3).epsilon(1e-12));
  CHECK(metric(r, "sol/communication_measured_time_ms") == Approx(0.4).epsilon(1e-12));
  CHECK(metric(r, "sol/communication_gb") == Approx(117440512.0 / 1e9).epsilon(1e-12));
  CHECK(metric(r, "sol/total_memory_gb") == 0);  // link bytes are not DRAM bytes
  CHECK(metric(r, "sol/communication_unmodeled_ops") == 1);
  CHECK(metric(r, "sol/communication_unmodeled_time_ms") == Approx(0.05).epsilon(1e-12));

  const Table& top = r.top_operations;
  REQUIRE(top.num_rows() == 1);
  CHECK(col(top, "function").string_at(0) == "allreduce");
  CHECK(col(top, "bound").string_at(0) == "communication");
  CHECK(col(top, "communication_time_us").float_at(0) == Approx(kAllReduceUs).epsilon(1e-12));
  CHECK(col(top, "data_moved_mb").float_at(0) == Approx(117.440512).epsilon(1e-12));
  CHECK(col(top, "layer_type").string_at(0) == "DDP");
  CHECK(col(top, "phase").string_at(0) == "train/grad_sync");
  CHECK(col(top, "efficiency_pct").float_at(0) == Approx(kAllReduceUs / 400 * 100).epsilon(1e-12));

  REQUIRE(r.unmodeled.num_rows() == 1);
  CHECK(col(r.unmodeled, "function").string_at(0) == "_allgather_base");
  CHECK(col(r.unmodeled, "reason").string_at(0) == "message size unknown (dtype 'Float8_e4m3fn')");
}

TEST_CASE("sol comm: a GPU without a link figure leaves collectives unmodeled, and says so", "[sol]") {
  const SolReport r = analyze(grad_sync(), "L40S");
  CHECK(metric(r, "sol/communication_ops") == 0);
  CHECK(metric(r, "sol/communication_unmodeled_ops") == 2);
  CHECK(metric(r, "sol/unmodeled_time_ms") == Approx(0.45).epsilon(1e-12));
  bool noted = false;
  for (const std::string& n : r.ops.notes) noted |= n.find("no link bandwidth for L40S") != std::string::npos;
  CHECK(noted);
  bool reason = false;
  for (size_t row = 0; row < r.unmodeled.num_rows(); ++row)
    reason |= col(r.unmodeled, "reason").string_at(row) == "no link bandwidth for L40S in deviceDB";
  CHECK(reason);
}
