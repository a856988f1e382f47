// Elementwise ops in traces without "Input Strides" (PyTorch 1.x): TraceLens's models skip
// them (parity: the perf sheets keep skipping), the SOL evaluates them with contiguous
// strides. The device is the H100 SXM5 (DRAM 3.35 TB/s); kernels run 1 ms.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "analyses/perf/modeled_ops.h"
#include "analyses/sol/sol.h"
#include "analyses/sol/threaded_trace.h"
#include "devices/device_db.h"
#include "ingest/trace_reader.h"

using namespace sollens;

namespace {

struct Run {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
  SolOps ops;
};

// One op launching one 1 ms kernel; `strides` "" leaves "Input Strides" out.
Run run(const std::string& name, const std::string& dims, const std::string& types, const std::string& strides) {
  std::string args = R"("Input Dims":)" + dims + R"(,"Input type":)" + types;
  if (!strides.empty()) args += R"(,"Input Strides":)" + strides;
  test::ThreadedTrace t;
  t.cpu_op(1, name, 10, 20, args).launch(1, 12, "k", 100, 1000);
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(t.json()));
  REQUIRE(loaded.ok());
  TraceTree tree = TraceTree::build(*loaded.value());
  const DeviceSpec* h100 = find_device("H100_SXM5_80GB");
  REQUIRE(h100 != nullptr);
  SolOps ops = collect_sol_ops(*loaded.value(), tree, h100);
  REQUIRE(ops.ops.size() == 1);
  return {std::move(loaded.value()), std::move(tree), std::move(ops)};
}

void check_estimate(const SolOp& op, double bytes) {
  INFO(op.function << ": " << op.no_estimate);
  CHECK(op.estimated);
  CHECK(op.bytes == bytes);
  CHECK(op.roofline.estimate_us == Approx(bytes / 3.35e12 * 1e6));
  CHECK(op.roofline.estimate_us < op.measured_us);
}

}  // namespace

TEST_CASE("sol: an elementwise op without Input Strides is estimated as contiguous", "[sol][contiguous]") {
  // x.pow(2), x [1, 1, 2048] fp32 (an RMSNorm's, one token): reads 2048 · 4 = 8,192 bytes,
  // writes as many: 16,384 bytes, 4.9 ns at 3.35 TB/s.
  Run pow = run("aten::pow", "[[1,1,2048],[]]", R"(["float","Scalar"])", "");
  check_estimate(pow.ops.ops[0], 16384);
  CHECK(pow.ops.ops[0].note == "inputs assumed contiguous: the trace has no Input Strides");
  // The same op as PyTorch 2.x writes it: the same bytes, no assumption.
  Run strided = run("aten::pow", "[[1,1,2048],[]]", R"(["float","Scalar"])", "[[2048,2048,1],[]]");
  check_estimate(strided.ops.ops[0], 16384);
  CHECK(strided.ops.ops[0].note.empty());
  // x · rstd, [1, 1, 2048] × [1, 1, 1] fp32: 8,192 + 4 read, 8,192 written = 16,388 bytes.
  Run mul = run("aten::mul", "[[1,1,2048],[1,1,1]]", R"(["float","float"])", "");
  check_estimate(mul.ops.ops[0], 16388);
}

TEST_CASE("sol: TraceLens's elementwise model still skips an op without Input Strides", "[sol][contiguous]") {
  // Parity: upstream indexes args["Input Strides"] (KeyError), so the perf sheets have no row.
  Run mul = run("aten::mul", "[[1,1,2048],[1,1,1]]", R"(["float","float"])", "");
  const ModeledOps modeled = evaluate_modeled_ops(*mul.store, mul.tree);
  REQUIRE(modeled.evals.size() == 1);
  CHECK(modeled.evals[0].result.status != perf::Status::kOk);
  CHECK(modeled.rows.empty());
}
