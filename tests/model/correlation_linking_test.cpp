// GPU events tied to their launches by args.correlation (HTA's rule) when a trace has
// no flow events; TraceLens's flow rule stays one option away (TreeOptions::link).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ingest/trace_reader.h"
#include "model/trace_tree.h"

using namespace sollens;
namespace fs = std::filesystem;

namespace {

const fs::path kFixtures = fs::path(SOLLENS_FIXTURES_DIR);

std::unique_ptr<EventStore> load_text(const std::string& json) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  return std::move(r.value());
}

std::unique_ptr<EventStore> load_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return load_text(ss.str());
}

TraceTree build(const EventStore& s, LinkMode mode) {
  TreeOptions o;
  o.link = mode;
  return TraceTree::build(s, o);
}

std::string x(const char* cat, const char* name, int pid, double ts, double dur, const char* args) {
  return std::string(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name + R"(","pid":)" +
         std::to_string(pid) + R"(,"tid":1,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
         std::to_string(dur) + R"(,"args":)" + args + "}";
}

std::string ac2g(char ph, int id, int pid) {
  return std::string(R"({"ph":")") + ph + R"(","cat":"ac2g","name":"ac2g","id":)" +
         std::to_string(id) + R"(,"pid":)" + std::to_string(pid) + R"(,"tid":1,"ts":0})";
}

// Rows of tests/fixtures/synthetic/correlation_only_launches.json (file order).
enum Row : uint32_t {
  kMm = 1, kMmLaunch, kAdd, kAddLaunch, kMemcpyCall, kAllReduce, kAllReduceLaunch,
  kGemm, kAddKernel, kMemcpy, kNcclKernel, kOrphan
};

}  // namespace

TEST_CASE("no flow events: auto and correlation tie each GPU event to its launch") {
  const auto s = load_file(kFixtures / "synthetic/correlation_only_launches.json");
  for (LinkMode mode : {LinkMode::kAuto, LinkMode::kCorrelation}) {
    INFO(link_mode_name(mode));
    const TraceTree t = build(*s, mode);
    CHECK(t.linked_by == LinkMode::kCorrelation);
    CHECK_FALSE(t.has_launch_flows);
    CHECK(t.parent[kGemm] == kMmLaunch);
    CHECK(t.parent[kAddKernel] == kAddLaunch);
    CHECK(t.parent[kMemcpy] == kMemcpyCall);
    CHECK(t.parent[kNcclKernel] == kAllReduceLaunch);
    CHECK(t.parent[kOrphan] == kNoParent);  // correlation 99: no launch carries it
    CHECK(t.in_tree[kOrphan] == 0);
    CHECK(t.linked_gpu_events == 4);
    CHECK(t.gpu_events.size() == 5);
    // The launches stay under their cpu_ops, so the kernels reach them.
    CHECK(t.parent[kMemcpyCall] == kAdd);
    REQUIRE(t.children(kAddLaunch).size() == 1);
    CHECK(t.children(kAddLaunch)[0] == kAddKernel);
  }
}

TEST_CASE("no flow events: flows (TraceLens's rule) links nothing") {
  const auto s = load_file(kFixtures / "synthetic/correlation_only_launches.json");
  const TraceTree t = build(*s, LinkMode::kFlows);
  CHECK(t.linked_by == LinkMode::kFlows);
  CHECK(t.linked_gpu_events == 0);
  for (uint32_t g : t.gpu_events) CHECK(t.parent[g] == kNoParent);
  CHECK(t.gpu_events.size() == 5);
}

TEST_CASE("a trace with flows: auto is TraceLens's flow rule, correlation ignores the flows") {
  // Launch 42 has its flow pair; launch 44 has none, so only correlation links kernel 5.
  const auto s = load_text(
      R"({"traceEvents":[)" +
      x("cuda_runtime", "cudaLaunchKernel", 1, 5, 5, R"({"correlation":42})") + "," +  // 0
      ac2g('s', 42, 1) + "," + ac2g('f', 42, 0) + "," +                                 // 1, 2
      x("cuda_runtime", "cudaLaunchKernel", 1, 20, 5, R"({"correlation":44})") + "," + // 3
      x("kernel", "a", 0, 60, 10, R"({"correlation":42})") + "," +                     // 4
      x("kernel", "b", 0, 80, 10, R"({"correlation":44})") + "]}");                    // 5
  const TraceTree flows = build(*s, LinkMode::kFlows);
  const TraceTree automatic = build(*s, LinkMode::kAuto);
  CHECK(automatic.linked_by == LinkMode::kFlows);
  CHECK(automatic.has_launch_flows);
  CHECK(automatic.parent == flows.parent);
  CHECK(automatic.in_tree == flows.in_tree);
  CHECK(automatic.parent[4] == 0);
  CHECK(automatic.parent[5] == kNoParent);
  CHECK(automatic.linked_gpu_events == 1);

  const TraceTree by_id = build(*s, LinkMode::kCorrelation);
  CHECK(by_id.linked_by == LinkMode::kCorrelation);
  CHECK(by_id.parent[4] == 0);
  CHECK(by_id.parent[5] == 3);
  CHECK(by_id.linked_gpu_events == 2);
}

TEST_CASE("auto keeps the flow rule when the GPU events carry no correlation id") {
  const auto s = load_text(R"({"traceEvents":[)" +
                           x("cuda_runtime", "cudaLaunchKernel", 1, 5, 5, R"({"correlation":1})") +
                           "," + x("kernel", "k", 0, 60, 10, "{}") + "]}");
  CHECK(build(*s, LinkMode::kAuto).linked_by == LinkMode::kFlows);
  CHECK(build(*s, LinkMode::kCorrelation).linked_gpu_events == 0);
}

TEST_CASE("a correlation id on launches of two processes links nothing") {
  // Ids are per process: 7 is launched in pid 1 and in pid 2, so kernel 2's launch is unknown;
  // 8 is launched twice in pid 1 and the last launch wins.
  const auto s = load_text(
      R"({"traceEvents":[)" +
      x("cuda_runtime", "cudaLaunchKernel", 1, 5, 1, R"({"correlation":7})") + "," +  // 0
      x("cuda_runtime", "cudaLaunchKernel", 2, 6, 1, R"({"correlation":7})") + "," +  // 1
      x("kernel", "k7", 0, 60, 10, R"({"correlation":7})") + "," +                    // 2
      x("cuda_runtime", "cudaLaunchKernel", 1, 7, 1, R"({"correlation":8})") + "," +  // 3
      x("cuda_runtime", "cudaLaunchKernel", 1, 9, 1, R"({"correlation":8})") + "," +  // 4
      x("kernel", "k8", 0, 80, 10, R"({"correlation":8})") + "]}");                   // 5
  const TraceTree t = build(*s, LinkMode::kCorrelation);
  CHECK(t.parent[2] == kNoParent);
  CHECK(t.ambiguous_correlations == 1);
  CHECK(t.parent[5] == 4);
  CHECK(t.linked_gpu_events == 1);
}

TEST_CASE("link modes by name") {
  CHECK(link_mode_from_name("flows") == LinkMode::kFlows);
  CHECK(link_mode_from_name("correlation") == LinkMode::kCorrelation);
  CHECK(link_mode_from_name("auto") == LinkMode::kAuto);
  CHECK_FALSE(link_mode_from_name("Flows"));
  CHECK_FALSE(link_mode_from_name(""));
  CHECK(link_mode_name(LinkMode::kCorrelation) == "correlation");
}

#ifdef SOLLENS_HAVE_ZLIB  // a .json.gz fixture: the wasm build reads plain JSON only
TEST_CASE("hta-sampled-rank1: no flow events, every GPU event linked by correlation id") {
  const auto s = load_file(kFixtures / "traces/hta-sampled-rank1/sampled_rank-1.json.gz");
  // Counted once with Python's json module: 1154 events with cat kernel (1104),
  // gpu_memcpy (40) or gpu_memset (10), and each one's args.correlation is the
  // args.correlation of exactly one cuda_runtime event (cudaLaunchKernel 1104,
  // cudaMemcpyAsync 40, cudaMemsetAsync 10; 1154 distinct ids, all in pid 4045).
  const TraceTree automatic = build(*s, LinkMode::kAuto);
  CHECK(automatic.linked_by == LinkMode::kCorrelation);
  CHECK(automatic.gpu_events.size() == 1154);
  CHECK(automatic.linked_gpu_events == 1154);
  CHECK(automatic.ambiguous_correlations == 0);
  for (uint32_t g : automatic.gpu_events) {
    REQUIRE(automatic.parent[g] != kNoParent);
    const auto launch = static_cast<uint32_t>(automatic.parent[g]);
    CHECK(s->category[launch] == Category::kCudaRuntime);
    CHECK(s->correlation[launch] == s->correlation[g]);
  }
  CHECK(build(*s, LinkMode::kFlows).linked_gpu_events == 0);  // what TraceLens sees
}
#endif  // SOLLENS_HAVE_ZLIB
