// Linking ET nodes to a tiny Kineto trace, each way, and the measured GPU time.
#include <catch2/catch.hpp>

#include "analyses/solar/solar_report.h"
#include "ingest/trace_reader.h"
#include "support/et_builder.h"

using namespace sollens;
using namespace sollens::solar;
using namespace sollens::test;

namespace {

const char* kMm = "aten::mm(Tensor self, Tensor mat2) -> Tensor";
const char* kRelu = "aten::relu(Tensor self) -> Tensor";

// ET (pid 7): mm (id/rf_id 2) then relu (id/rf_id 3), both on thread 1.
std::unique_ptr<ExecutionGraph> et() {
  Result<std::unique_ptr<ExecutionGraph>> r = load_et(et_flat({
      {2, 1, "aten::mm", kMm, {et_tensor(10, 11, {4, 8}), et_tensor(12, 13, {8, 2})},
       {et_tensor(14, 15, {4, 2})}},
      {3, 1, "aten::relu", kRelu, {et_tensor(14, 15, {4, 2})}, {et_tensor(16, 17, {4, 2})}},
  }));
  REQUIRE(r.ok());
  return std::move(r.value());
}

// mm and relu as cpu_ops with the given extra args; mm launches one 3 µs kernel.
std::string kineto(const std::string& mm_args, const std::string& relu_args, int pid = 7) {
  const std::string p = std::to_string(pid);
  return R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": )" + p + R"(, "tid": 1, "ts": 10, "dur": 5, "args": {)" + mm_args + R"(}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": )" + p + R"(, "tid": 1, "ts": 11, "dur": 2, "args": {"correlation": 42}},
    {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 12, "dur": 3, "args": {"correlation": 42, "stream": 7, "device": 0}},
    {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 42, "pid": )" + p + R"(, "tid": 1, "ts": 11},
    {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 42, "pid": 0, "tid": 7, "ts": 12, "bp": "e"},
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": )" + p + R"(, "tid": 1, "ts": 20, "dur": 5, "args": {)" + relu_args + R"(}}
  ]})";
}

MeasuredRun run(const ExecutionGraph& graph, const std::string& trace) {
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(trace));
  INFO(loaded.message());
  REQUIRE(loaded.ok());
  const TraceTree tree = TraceTree::build(*loaded.value());
  return measure_run(build_solar_graph(graph), graph, *loaded.value(), tree);
}

}  // namespace

TEST_CASE("Kineto link: Record function id first") {
  const auto graph = et();
  // External ids that would mislead: swapped.
  const MeasuredRun m = run(*graph, kineto(R"("External id": 3, "Record function id": 2)",
                                           R"("External id": 2, "Record function id": 3)"));
  CHECK(m.link_method == "record_function_id");
  CHECK(m.compute_nodes_linked == 2);
  REQUIRE(m.node_gpu_us.size() == 2);
  CHECK(m.node_gpu_us[0] == 3);  // mm's kernel
  CHECK(m.node_gpu_us[1] == 0);  // relu launched nothing here
  CHECK(m.linked_gpu_busy_us == 3);
}

TEST_CASE("Kineto link: External id when the names agree") {
  const auto graph = et();
  const MeasuredRun m = run(*graph, kineto(R"("External id": 2)", R"("External id": 3)"));
  CHECK(m.link_method == "external_id");
  CHECK(m.compute_nodes_linked == 2);
}

TEST_CASE("Kineto link: per-thread alignment when the ids do not match") {
  const auto graph = et();
  const MeasuredRun m = run(*graph, kineto(R"("External id": 900)", R"("External id": 901)"));
  CHECK(m.link_method == "thread_alignment");
  CHECK(m.compute_nodes_linked == 2);
  CHECK(m.node_gpu_us[0] == 3);
}

TEST_CASE("Kineto link: another process is not linked") {
  const auto graph = et();
  const MeasuredRun m = run(*graph, kineto(R"("External id": 2)", R"("External id": 3)", 8));
  CHECK(m.link_method == "none");
  CHECK(m.compute_nodes_linked == 0);
  CHECK_THAT(m.link_note, Catch::Contains("pid 7"));
}
