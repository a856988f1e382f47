#include <catch2/catch.hpp>

#include <filesystem>

#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "support/golden_fixtures.h"

using namespace sollens;

namespace {

std::unique_ptr<EventStore> load(const std::string& events) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(R"({"traceEvents":[)" + events + "]}"));
  REQUIRE(r.ok());
  return std::move(r.value());
}

std::string x(const char* cat, const char* name, double ts, double dur, const char* args = "{}",
              int pid = 1, int tid = 1) {
  return std::string(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name +
         R"(","pid":)" + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) +
         R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) +
         R"(,"args":)" + args + "}";
}

std::string flow(char ph, int id, int pid, int tid) {
  return std::string(R"({"ph":")") + ph + R"(","cat":"ac2g","name":"ac2g","id":)" +
         std::to_string(id) + R"(,"pid":)" + std::to_string(pid) + R"(,"tid":)" +
         std::to_string(tid) + R"(,"ts":0})";
}

}  // namespace

TEST_CASE("host stacks nest by time per thread; the outermost cpu_op is a root") {
  auto s = load(x("cpu_op", "outer", 0, 100) + "," +              // 0
                x("cpu_op", "inner", 10, 20) + "," +              // 1
                x("cuda_runtime", "cudaLaunchKernel", 12, 5) + "," +  // 2
                x("cpu_op", "sibling", 40, 10) + "," +            // 3
                x("cpu_op", "other_thread", 10, 20, "{}", 1, 2));  // 4
  TraceTree t = TraceTree::build(*s);
  CHECK(t.parent[0] == kNoParent);
  CHECK(t.parent[1] == 0);
  CHECK(t.parent[2] == 1);
  CHECK(t.parent[3] == 0);
  CHECK(t.parent[4] == kNoParent);
  REQUIRE(t.cpu_roots.size() == 2);
  CHECK(t.cpu_roots[0] == 0);
  CHECK(t.cpu_roots[1] == 4);
  auto kids = t.children(0);
  REQUIRE(kids.size() == 2);
  CHECK(kids[0] == 1);
  CHECK(kids[1] == 3);
}

TEST_CASE("bleed rule: under 1 µs of overhang re-parents one level up, more is dropped") {
  auto s = load(x("cpu_op", "root", 0, 100) + "," +    // 0
                x("cpu_op", "a", 10, 20) + "," +       // 1: ends at 30
                x("cpu_op", "bleeds", 29.5, 5) + "," + // 2: overhang of a by 0.5 µs → child of root
                x("cpu_op", "b", 40, 20) + "," +       // 3: ends at 60
                x("cpu_op", "sticks_out", 50, 20));    // 4: overhang of b by 10 µs → dropped
  TraceTree t = TraceTree::build(*s);
  CHECK(t.parent[2] == 0);
  CHECK(t.host_events_reparented == 1);
  CHECK(t.parent[4] == kNoParent);
  CHECK(t.host_events_dropped == 1);
  CHECK(t.children(4).empty());
  CHECK(t.in_tree[4] == 1);  // TraceLens marks it before dropping it
}

TEST_CASE("a lone overhanging event (stack of one) is dropped, not re-parented") {
  auto s = load(x("cpu_op", "a", 0, 10) + "," + x("cpu_op", "b", 9.5, 5));
  TraceTree t = TraceTree::build(*s);
  CHECK(t.parent[1] == kNoParent);
  CHECK(t.host_events_dropped == 1);
}

TEST_CASE("launch → kernel through ac2g flows, keyed by correlation") {
  auto s = load(x("cpu_op", "aten::mm", 0, 50, R"({"External id":7})") + "," +            // 0
                x("cuda_runtime", "cudaLaunchKernel", 5, 5, R"({"External id":7,"correlation":42})") + "," +  // 1
                flow('s', 42, 1, 1) + "," + flow('f', 42, 0, 7) + "," +                   // 2,3
                x("kernel", "gemm", 60, 10, R"({"External id":7,"correlation":42})", 0, 7) + "," +  // 4
                x("kernel", "orphan", 80, 10, R"({"correlation":43})", 0, 7));            // 5
  TraceTree t = TraceTree::build(*s);
  CHECK(t.linking_key == LinkingKey::kCorrelation);
  CHECK(t.parent[4] == 1);
  CHECK(t.in_tree[4] == 1);
  CHECK(t.in_tree[5] == 0);
  CHECK(t.linked_gpu_events == 1);
  REQUIRE(t.gpu_events.size() == 2);
}

TEST_CASE("a launch whose flow has no end links nothing") {
  auto s = load(x("cuda_runtime", "cudaLaunchKernel", 5, 5, R"({"correlation":42})") + "," +
                flow('s', 42, 1, 1) + "," +
                x("kernel", "gemm", 60, 10, R"({"correlation":42})", 0, 7));
  TraceTree t = TraceTree::build(*s);
  CHECK(t.in_tree[2] == 0);
  CHECK(t.launches_without_flow == 1);
}

TEST_CASE("a graph launch owns every GPU event with its correlation, flows or not") {
  std::string ev = x("cuda_runtime", "hipGraphLaunch", 0, 5, R"({"correlation":9})");
  for (int k = 0; k < 300; ++k)
    ev += "," + x("kernel", ("k" + std::to_string(k)).c_str(), 10 + k, 1, R"({"correlation":9})", 9, 1);
  ev += "," + x("kernel", "eager", 400, 1, R"({"correlation":10})", 9, 1);
  auto s = load(ev);
  TraceTree t = TraceTree::build(*s);
  CHECK(t.children(0).size() == 300);
  CHECK(t.linked_gpu_events == 300);
  CHECK(t.in_tree[301] == 0);
}

TEST_CASE("without a correlation on the first launch the linking key is External id") {
  auto s = load(x("cuda_runtime", "cudaLaunchKernel", 5, 5, R"({"External id":3})") + "," +
                flow('s', 3, 1, 1) + "," + flow('f', 3, 0, 7) + "," +
                x("kernel", "gemm", 60, 10, R"({"External id":3})", 0, 7));
  TraceTree t = TraceTree::build(*s);
  CHECK(t.linking_key == LinkingKey::kExternalId);
  CHECK(t.parent[3] == 0);
  CHECK_FALSE(t.used_legacy_flows);
}

TEST_CASE("2021 traces: async flows are used when there is no ac2g flow") {
  auto s = load(
      R"({"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":1,"tid":"25738","ts":5,"dur":5,"args":{"correlation":4,"external id":2}},)"
      R"({"ph":"s","cat":"async","name":"launch","id":4,"pid":1,"tid":"25738","ts":5},)"
      R"({"ph":"f","cat":"async","name":"launch","id":4,"pid":0,"tid":"stream 7","ts":60,"bp":"e"},)"
      R"({"ph":"X","cat":"Kernel","name":"gemm","pid":0,"tid":"stream 7","ts":60,"dur":10,"args":{"correlation":4,"external id":2}})");
  TraceTree t = TraceTree::build(*s);
  CHECK(t.used_legacy_flows);
  CHECK(t.parent[3] == 0);
  TreeOptions strict;
  strict.legacy_flows_when_no_ac2g = false;
  CHECK(TraceTree::build(*s, strict).parent[3] == kNoParent);
}

TEST_CASE("python frames join the tree only when asked") {
  auto s = load(x("python_function", "forward", 0, 100) + "," + x("cpu_op", "aten::mm", 10, 10));
  CHECK(TraceTree::build(*s).parent[1] == kNoParent);
  CHECK_FALSE(TraceTree::build(*s).used_legacy_flows);  // no flows at all
  TreeOptions with_python;
  with_python.include_python = true;
  CHECK(TraceTree::build(*s, with_python).parent[1] == 0);
}

namespace {

// Both trees, node by node: parents, membership, children in order, and the counts.
void require_same_tree(const TraceTree& a, const TraceTree& b) {
  REQUIRE(a.parent == b.parent);
  REQUIRE(a.in_tree == b.in_tree);
  REQUIRE(a.cpu_roots == b.cpu_roots);
  REQUIRE(a.gpu_events == b.gpu_events);
  for (uint32_t e = 0; e < a.parent.size(); ++e) {
    const auto ca = a.children(e), cb = b.children(e);
    REQUIRE(std::vector<uint32_t>(ca.begin(), ca.end()) == std::vector<uint32_t>(cb.begin(), cb.end()));
  }
  CHECK(a.linking_key == b.linking_key);
  CHECK(a.host_events == b.host_events);
  CHECK(a.host_events_dropped == b.host_events_dropped);
  CHECK(a.host_events_reparented == b.host_events_reparented);
  CHECK(a.linked_gpu_events == b.linked_gpu_events);
  CHECK(a.launches_without_flow == b.launches_without_flow);
  CHECK(a.used_legacy_flows == b.used_legacy_flows);
  CHECK(a.linked_by == b.linked_by);
  CHECK(a.has_launch_flows == b.has_launch_flows);
  CHECK(a.ambiguous_correlations == b.ambiguous_correlations);
}

}  // namespace

TEST_CASE("reused launch links: python frames, a flow launch, a graph launch, an unended flow") {
  auto s = load(x("python_function", "forward", 0, 100) + "," +
                x("cpu_op", "aten::mm", 10, 20, R"({"External id":1})") + "," +
                x("cuda_runtime", "cudaLaunchKernel", 12, 2, R"({"External id":1,"correlation":7})") + "," +
                flow('s', 7, 1, 1) + "," + flow('f', 7, 0, 7) + "," +
                x("kernel", "gemm", 15, 5, R"({"External id":1,"correlation":7})", 0, 7) + "," +
                x("cuda_runtime", "cudaGraphLaunch", 40, 2, R"({"correlation":9})") + "," +
                x("kernel", "k1", 45, 1, R"({"correlation":9})", 0, 7) + "," +
                x("kernel", "k2", 47, 1, R"({"correlation":9})", 0, 7) + "," +
                x("cuda_runtime", "cudaLaunchKernel", 60, 2, R"({"correlation":11})") + "," +
                flow('s', 11, 1, 1));
  TreeOptions with_python;
  with_python.include_python = true;
  const TraceTree without = TraceTree::build(*s);
  REQUIRE(without.linked_gpu_events == 3);
  REQUIRE(without.launches_without_flow == 1);
  const TraceTree reused = TraceTree::build(*s, with_python, without);
  CHECK(reused.parent[1] == 0);  // the python frame is in this tree
  CHECK(reused.parent[5] == 2);  // the flow's kernel under its launch
  require_same_tree(reused, TraceTree::build(*s, with_python));
  require_same_tree(TraceTree::build(*s, {}, reused), without);
}

#ifdef SOLLENS_HAVE_ZLIB  // .json.gz fixtures: the wasm build reads plain JSON only
TEST_CASE("a tree that reuses another's launch links equals one built from scratch") {
  // Flows with python frames, graph launches, and a trace without flow events (linked by
  // correlation id).
  const char* traces[] = {"tracelens-h100-bert-small", "tracelens-vllm-decode-full", "hta-sampled-rank1"};
  for (const char* name : traces) {
    INFO(name);
    std::filesystem::path file;
    for (const auto& entry : std::filesystem::directory_iterator(test::kTraces / name))
      if (entry.path().string().ends_with(".json.gz")) file = entry.path();
    REQUIRE(!file.empty());
    Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(test::read_text(file)));
    REQUIRE(r.ok());
    TreeOptions with_python;
    with_python.include_python = true;
    const TraceTree without = TraceTree::build(*r.value());
    REQUIRE(without.linked_gpu_events > 0);
    require_same_tree(TraceTree::build(*r.value(), with_python, without), TraceTree::build(*r.value(), with_python));
    require_same_tree(TraceTree::build(*r.value(), {}, TraceTree::build(*r.value(), with_python)), without);
  }
}
#endif  // SOLLENS_HAVE_ZLIB
