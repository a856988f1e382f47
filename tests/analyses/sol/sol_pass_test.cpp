// Backward ops belong to their forward op's module (Kineto's Sequence number), and the
// layer tables keep each pass apart, on a tiny hand-made two-thread training step.
#include <catch2/catch.hpp>

#include <string>

#include "devices/device_db.h"
#include "analyses/sol/sol.h"
#include "analyses/sol/threaded_trace.h"
#include "ingest/trace_reader.h"
#include "support/sol_cases.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

namespace {

constexpr int kForwardThread = 1, kAutogradThread = 2;

std::string with_sequence(const std::string& args, int seq) {
  return args + R"(,"Sequence number":)" + std::to_string(seq) + R"(,"Fwd thread id":0)";
}

// Forward thread: Linear_0 runs an mm 4096 (seq 7, kernel 300 µs); Dropout_0 runs an
// mm 64 (seq 8, 2 µs); an mm 64 outside every module with no sequence number (1 µs).
// Autograd thread: evaluate_function: MmBackward0 (seq 7) → MmBackward0 → two aten::mm
// 4096 (dX and dW, 250 µs each); evaluate_function: MmBackward0 (seq 8) → one mm 64 (3 µs).
// Forward thread again: Optimizer.step#SGD.step holds an mm 64 (4 µs).
std::string training_step() {
  test::ThreadedTrace t;
  t.python(kForwardThread, "nn.Module: Linear_0", 10, 90)
      .cpu_op(kForwardThread, "aten::mm", 20, 5, with_sequence(test::mm_args(4096), 7))
      .launch(kForwardThread, 21, "big_gemm", 200, 300)
      .python(kForwardThread, "nn.Module: Dropout_0", 110, 40)
      .cpu_op(kForwardThread, "aten::mm", 120, 5, with_sequence(test::mm_args(64), 8))
      .launch(kForwardThread, 121, "small_gemm", 600, 2)
      .cpu_op(kForwardThread, "aten::mm", 160, 5, test::mm_args(64))
      .launch(kForwardThread, 161, "small_gemm", 610, 1)
      .cpu_op(kAutogradThread, "autograd::engine::evaluate_function: MmBackward0", 1000, 100,
              R"("Sequence number":8,"Fwd thread id":1)")
      .cpu_op(kAutogradThread, "MmBackward0", 1001, 90, R"("Sequence number":8,"Fwd thread id":1)")
      .cpu_op(kAutogradThread, "aten::mm", 1010, 5, test::mm_args(64))
      .launch(kAutogradThread, 1011, "small_gemm", 1200, 3)
      .cpu_op(kAutogradThread, "autograd::engine::evaluate_function: MmBackward0", 2000, 100,
              R"("Sequence number":7,"Fwd thread id":1)")
      .cpu_op(kAutogradThread, "MmBackward0", 2001, 90, R"("Sequence number":7,"Fwd thread id":1)")
      .cpu_op(kAutogradThread, "aten::mm", 2010, 5, test::mm_args(4096))
      .launch(kAutogradThread, 2011, "big_gemm", 2200, 250)
      .cpu_op(kAutogradThread, "aten::mm", 2030, 5, test::mm_args(4096))
      .launch(kAutogradThread, 2031, "big_gemm", 2500, 250)
      .annotation(kForwardThread, "Optimizer.step#SGD.step", 3000, 100)
      .cpu_op(kForwardThread, "aten::mm", 3010, 5, test::mm_args(64))
      .launch(kForwardThread, 3011, "small_gemm", 3100, 4);
  return t.json();
}

SolReport analyze(const std::string& json) {
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(loaded.ok());
  const EventStore& store = *loaded.value();
  TreeOptions options;
  options.include_python = true;
  const TraceTree tree = TraceTree::build(store, options);
  DeviceIdentification device;
  device.status = DeviceStatus::kUserChosen;
  device.spec = find_device("H100_SXM5_80GB");
  REQUIRE(device.spec != nullptr);
  return analyze_sol(store, tree, device);
}

// The row whose first column is `key` and whose pass is `pass`.
size_t row_of(const Table& t, const std::string& key, const std::string& pass) {
  for (size_t r = 0; r < t.num_rows(); ++r)
    if (t.column(0).string_at(r) == key && col(t, "pass").string_at(r) == pass) return r;
  FAIL("no row (" << key << ", " << pass << ") in " << t.name());
  return 0;
}

}  // namespace

TEST_CASE("sol pass: backward ops take their forward op's module, by Sequence number", "[sol][pass]") {
  const SolReport r = analyze(training_step());
  REQUIRE(r.ops.ops.size() == 7);
  size_t backward = 0;
  for (const SolOp& op : r.ops.ops) {
    if (op.pass != "backward") continue;
    ++backward;
    REQUIRE(op.forward_event >= 0);
    CHECK(op.in_module);
  }
  CHECK(backward == 3);

  // (layer, pass) rows: Linear forward holds the 300 µs mm, Linear backward its two
  // 250 µs mms (dX, dW), Dropout backward the 3 µs mm of sequence 8.
  const Table& types = r.by_layer_type;
  const size_t linear_bwd = row_of(types, "Linear", "backward");
  CHECK(col(types, "count").int_at(linear_bwd) == 2);
  CHECK(col(types, "measured_time_ms").float_at(linear_bwd) == Approx(0.5).epsilon(1e-12));
  CHECK(col(types, "estimated_time_ms").float_at(linear_bwd) == Approx(2 * test::kBigMmUs / 1e3).epsilon(1e-12));
  CHECK(col(types, "measured_time_ms").float_at(row_of(types, "Linear", "forward")) == Approx(0.3).epsilon(1e-12));
  CHECK(col(types, "measured_time_ms").float_at(row_of(types, "Dropout", "backward")) == Approx(0.003).epsilon(1e-12));
  // The mm outside modules with no Sequence number is "other"; the optimizer's its own pass.
  CHECK(col(types, "measured_time_ms").float_at(row_of(types, "(no module) GEMM", "other")) == Approx(0.001).epsilon(1e-12));
  CHECK(col(types, "measured_time_ms").float_at(row_of(types, "(no module) GEMM", "optimizer")) ==
        Approx(0.004).epsilon(1e-12));
  // Rows still partition the ops: 300 + 2 + 1 + 3 + 250 + 250 + 4 = 810 µs.
  double sum = 0;
  for (size_t row = 0; row < types.num_rows(); ++row) sum += col(types, "measured_time_ms").float_at(row);
  CHECK(sum == Approx(0.81).epsilon(1e-12));

  const Table& instances = r.by_layer_instance;
  CHECK(col(instances, "count").int_at(row_of(instances, "Linear_0", "backward")) == 2);
  const Table& modules = r.by_module;
  CHECK(col(modules, "count").int_at(row_of(modules, "Dropout_0", "backward")) == 1);
  CHECK(col(modules, "layer_type").string_at(row_of(modules, "Dropout_0", "backward")) == "Dropout");
}

TEST_CASE("sol pass: an op with a Sequence number outside modules is forward", "[sol][pass]") {
  test::ThreadedTrace t;
  t.cpu_op(1, "aten::mm", 20, 5, with_sequence(test::mm_args(64), 3)).launch(1, 21, "small_gemm", 100, 1);
  const SolReport r = analyze(t.json());
  REQUIRE(r.ops.ops.size() == 1);
  CHECK(r.ops.ops[0].pass == "forward");
  CHECK(col(r.by_layer_type, "pass").string_at(0) == "forward");
}
