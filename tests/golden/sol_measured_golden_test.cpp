// Speed of light against kernels measured on a GPU: the recorded H200 bench
// (tests/fixtures/traces/h200-pt211-gemm-bench, MANIFEST.md: 5 rounds of an 8192³ bf16
// matmul, 4096³ fp16 and fp32 matmuls, a 16×8192×8192 bf16 matmul and a 1 GiB fp32 add).
// A large GEMM runs near 80-85 % of the dense tensor-core peak and a streaming add near
// 90 % of HBM bandwidth; figures far from that mean the device data or the model is wrong.
#include <catch2/catch.hpp>

#include "devices/device_identify.h"
#include "analyses/sol/sol.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "support/golden_fixtures.h"

using namespace sollens;

TEST_CASE("sol golden: H200 bf16 GEMM and fp32 add against their measured kernels", "[sol][golden]") {
  const test::fs::path trace = test::kTraces / "h200-pt211-gemm-bench" / "gemm_bench.json.gz";
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(test::read_text(trace)));
  REQUIRE(loaded.ok());
  const TraceTree tree = TraceTree::build(*loaded.value(), TreeOptions{});
  const DeviceIdentification device = identify_trace_device(*loaded.value());
  REQUIRE(device.roofline_spec() != nullptr);
  REQUIRE(device.roofline_spec()->id == "H200_SXM_141GB");
  const SolReport r = analyze_sol(*loaded.value(), tree, device);

  // bf16 GEMM: FLOPs = 2·8192³ = 1,099,511,627,776; at the 989.4 TFLOPS dense bf16 peak
  // that is 1.0995e12 / 989.4e12 s = 1111.29 µs. MANIFEST: about 827 TFLOP/s measured,
  // 1.0995e12 / 827e12 s = 1329.5 µs, so 1111.29 / 1329.5 = 83.6 % of the estimate.
  // fp32 add of two 1 GiB tensors: reads 2·2^30 B and writes 2^30 B, 3·2^30 =
  // 3,221,225,472 B; at 4.8 TB/s that is 671.09 µs. MANIFEST: about 4.4 TB/s measured,
  // 3.2212e9 / 4.4e12 s = 732.1 µs, so 671.09 / 732.1 = 91.7 %.
  size_t gemms = 0, adds = 0;
  for (const SolOp& op : r.ops.ops) {
    if (!op.estimated) continue;
    const double efficiency_pct = op.roofline.estimate_us / op.measured_us * 100;
    INFO(op.function << " " << op.flops << " FLOP, " << op.bytes << " B, " << op.measured_us << " µs");
    if (op.function == "aten::mm" && op.flops == 2.0 * 8192 * 8192 * 8192) {
      ++gemms;
      CHECK(op.compute_spec == "matrix_bf16");
      CHECK(op.roofline.estimate_us == Approx(1111.29131572).epsilon(1e-9));
      CHECK(efficiency_pct >= 80);
      CHECK(efficiency_pct <= 88);
    } else if (op.function == "aten::add") {
      ++adds;
      CHECK(op.bytes == 3.0 * (1 << 30));
      CHECK(op.roofline.estimate_us == Approx(671.08864).epsilon(1e-9));
      CHECK(op.faster_cause == FasterCause::kNone);
      CHECK(efficiency_pct >= 88);
      CHECK(efficiency_pct <= 95);
    }
  }
  CHECK(gemms == 5);
  CHECK(adds == 5);
  CHECK(r.totals.faster_than_estimate == 0);
}
