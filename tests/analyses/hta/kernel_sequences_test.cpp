#include "analyses/hta/kernel_sequences.h"

#include <catch2/catch.hpp>

#include <string>

#include "support/test_trace.h"

namespace sollens::hta {
namespace {

int g_corr = 0;

std::string host(const std::string& cat, const std::string& name, int tid, double ts, double dur, int corr = 0) {
  const std::string args = corr > 0 ? R"({"correlation": )" + std::to_string(corr) + "}" : "{}";
  return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": 1, "tid": )" + std::to_string(tid) +
         R"(, "ts": )" + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": )" + args + "},";
}

// A launch call at `call` on thread `tid` and its kernel at `start` for `dur` µs.
std::string launched(int tid, double call, const std::string& kernel, double start, double dur) {
  const int corr = ++g_corr;
  return host("cuda_runtime", "cudaLaunchKernel", tid, call, 1, corr) + R"({"ph": "X", "cat": "kernel", "name": ")" +
         kernel + R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(start) + R"(, "dur": )" + std::to_string(dur) +
         R"(, "args": {"device": 0, "stream": 7, "correlation": )" + std::to_string(corr) + "}},";
}

// Main thread 1 (it has ProfilerStep#1 [0, 1000], depth 0), backward thread 2 (autograd::).
//   linear [10, 60]:   gemm 5, bias 2, relu 1 µs, by GPU start          → A: gpu 8, cpu 50
//   linear [100, 150]: gemm 6, bias 2, relu 1                          → A: gpu 9, cpu 50
//   linear [200, 240]: gemm, bias: 2 kernels < min_pattern_len 3       → none
//   linear [300, 350]: launched gemm, bias, relu; on the GPU bias (320) runs before
//                      gemm (340) and relu (345)                       → B: gpu 6, cpu 50
//   linear [400, 460] around linear [405, 455] (depth 2, not a root): the outer one
//                      takes the inner one's gemm, bias, relu (2 each) → A: gpu 6, cpu 60
//   thread 2: linear [500, 590] at its top level, hung under ProfilerStep#1 (depth 0) as
//                      HTA links the backward thread: depth 1, a root  → A: gpu 6, cpu 90
// A = "aten::linear|gemm|bias|relu": 4 roots, gpu 29, cpu 250; B = "aten::linear|bias|gemm|relu": 1.
std::string sequences_trace() {
  g_corr = 0;
  std::string e = host("user_annotation", "ProfilerStep#1", 1, 0, 1000);
  e += host("cpu_op", "aten::linear", 1, 10, 50) + launched(1, 12, "gemm", 30, 5) + launched(1, 20, "bias", 40, 2) +
       launched(1, 24, "relu", 45, 1);
  e += host("cpu_op", "aten::linear", 1, 100, 50) + launched(1, 102, "gemm", 120, 6) +
       launched(1, 104, "bias", 130, 2) + launched(1, 106, "relu", 140, 1);
  e += host("cpu_op", "aten::linear", 1, 200, 40) + launched(1, 202, "gemm", 210, 2) + launched(1, 204, "bias", 220, 2);
  e += host("cpu_op", "aten::linear", 1, 300, 50) + launched(1, 305, "gemm", 340, 2) +
       launched(1, 310, "bias", 320, 2) + launched(1, 315, "relu", 345, 2);
  e += host("cpu_op", "aten::linear", 1, 400, 60) + host("cpu_op", "aten::linear", 1, 405, 50) +
       launched(1, 410, "gemm", 420, 2) + launched(1, 412, "bias", 430, 2) + launched(1, 414, "relu", 440, 2);
  e += host("cpu_op", "autograd::engine::evaluate_function: MulBackward0", 2, 480, 10);
  e += host("cpu_op", "aten::linear", 2, 500, 90) + launched(2, 510, "gemm", 520, 2) +
       launched(2, 512, "bias", 530, 2) + launched(2, 514, "relu", 540, 2);
  e.pop_back();  // the last comma
  return R"({"schemaVersion": 1, "traceEvents": [)" + e + "]}";
}

HtaOptions with_operator(const std::string& op) {
  HtaOptions o;
  o.sequences_operator = op;
  return o;
}

TEST_CASE("kernel sequences: the kernels under each shallowest occurrence of the operator, counted by pattern") {
  const auto store = test::load_store(sequences_trace());
  const HtaTrace trace(*store);
  const Table t = frequent_cuda_kernel_sequences_table(trace, with_operator("aten::linear"));
  REQUIRE(t.num_rows() == 2);
  CHECK(t.column(0).name() == "pattern");
  CHECK(t.column(2).name() == "GPU kernel duration (us)");
  CHECK(t.column(3).name() == "CPU op duration (us)");
  CHECK(t.column(0).string_at(0) == "aten::linear|gemm|bias|relu");
  CHECK(t.column(1).int_at(0) == 4);
  CHECK(t.column(2).float_at(0) == 29);
  CHECK(t.column(3).float_at(0) == 250);
  CHECK(t.column(0).string_at(1) == "aten::linear|bias|gemm|relu");
  CHECK(t.column(1).int_at(1) == 1);
  CHECK(t.column(2).float_at(1) == 6);
  CHECK(t.column(3).float_at(1) == 50);
}

TEST_CASE("kernel sequences: min_pattern_len and top_k") {
  const auto store = test::load_store(sequences_trace());
  const HtaTrace trace(*store);
  HtaOptions two = with_operator("aten::linear");
  two.min_pattern_len = 2;  // linear [200, 240] joins with its 2 kernels (4 µs)
  const Table t = frequent_cuda_kernel_sequences_table(trace, two);
  REQUIRE(t.num_rows() == 3);
  CHECK(t.column(0).string_at(2) == "aten::linear|gemm|bias");  // count 1, after B by pattern
  CHECK(t.column(2).float_at(2) == 4);
  HtaOptions top = with_operator("aten::linear");
  top.top_k = 1;
  CHECK(frequent_cuda_kernel_sequences_table(trace, top).num_rows() == 1);
}

TEST_CASE("kernel sequences: the backward thread hangs under the main thread's step") {
  const auto store = test::load_store(sequences_trace());
  const HtaTrace trace(*store);
  const HostNesting nesting = host_nesting(trace, std::vector<uint8_t>(store->size(), 1));
  const std::vector<int32_t> depth = call_graph_depth(trace, nesting);
  int seen = 0;
  for (uint32_t i = 0; i < store->size(); ++i) {
    if (store->name_of(i) != "aten::linear") continue;
    if (store->tid[i] == store->tid[0]) continue;  // thread 1's
    CHECK(nesting.depth[i] == 0);  // top level of its own thread
    CHECK(depth[i] == 1);          // under ProfilerStep#1 (depth 0)
    ++seen;
  }
  CHECK(seen == 1);
}

TEST_CASE("kernel sequences: no operator or an unknown one gives an empty sheet") {
  const auto store = test::load_store(sequences_trace());
  const HtaTrace trace(*store);
  CHECK(frequent_cuda_kernel_sequences_table(trace, HtaOptions{}).num_rows() == 0);
  CHECK(frequent_cuda_kernel_sequences_table(trace, with_operator("aten::conv2d")).num_rows() == 0);
  CHECK(frequent_cuda_kernel_sequences_table(trace, HtaOptions{}).num_columns() == 4);
}

}  // namespace
}  // namespace sollens::hta
