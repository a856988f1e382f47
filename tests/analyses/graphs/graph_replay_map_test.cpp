// Mapping graph-replayed kernels to the launches that captured them, on the hand-made
// traces of graph_replay_fixtures.h (the expected mapping is worked out there).
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "analyses/graphs/graph_replay_map.h"
#include "analyses/graphs/launch_alignment.h"
#include "graph_replay_fixtures.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "support/test_trace.h"

using namespace sollens;

namespace {

using Loaded = test::TestTrace;
Loaded load(const std::string& json) { return test::load_with_tree(json); }

// The correlation id of the launch each replayed kernel maps to (0: unmapped).
std::vector<int64_t> mapped_correlations(const GraphReplay& replay, const EventStore& source) {
  std::vector<int64_t> out;
  for (int32_t launch : replay.source_launch)
    out.push_back(launch == kUnmapped ? 0 : source.correlation[static_cast<size_t>(launch)]);
  return out;
}

// An eager forward (correlations 11-14, each kernel with its grid) before the replay,
// whose third kernel runs with another grid than the eager one.
std::string eager_then_replay() {
  using namespace test;
  const std::string eager =
      host_event("cpu_op", "aten::mm", 10, 3, mm_args(4096)) + runtime_launch("hipLaunchKernel", 11, 11) +
      gpu_kernel("gemm_A", 100, 10, 11, "[8, 1, 1]") + host_event("cpu_op", "aten::add", 20, 3) +
      runtime_launch("hipLaunchKernel", 21, 12) + gpu_kernel("add_kernel", 110, 5, 12, "[4, 1, 1]") +
      host_event("cpu_op", "aten::mm", 30, 3, mm_args(64)) + runtime_launch("hipLaunchKernel", 31, 13) +
      gpu_kernel("gemm_A", 120, 2, 13, "[1, 1, 1]") + host_event("cpu_op", "aten::relu", 40, 3) +
      runtime_launch("hipLaunchKernel", 41, 14) + gpu_kernel("relu_kernel", 130, 5, 14, "[2, 1, 1]");
  const std::string replay = runtime_launch("hipGraphLaunch", 1000, 99) + gpu_kernel("gemm_A", 1010, 10, 99, "[8, 1, 1]") +
                             gpu_kernel("add_kernel", 1020, 5, 99, "[4, 1, 1]") +
                             gpu_kernel("gemm_A", 1030, 20, 99, "[2, 1, 1]") +
                             gpu_kernel("relu_kernel", 1055, 5, 99, "[2, 1, 1]");
  return test::event_list(test::without_last_comma(eager + replay));
}

}  // namespace

TEST_CASE("graph replay: kernels map to the capture trace's launches by name and order", "[graphs]") {
  const Loaded capture = load(test::capture_trace());
  const Loaded replay = load(test::replay_trace());
  const GraphReplayMap map = map_graph_replays(*replay.store, replay.tree, {capture.store.get(), &capture.tree});
  REQUIRE(map.capture_given);
  REQUIRE(map.replays.size() == 1);
  const GraphReplay& r = map.replays[0];
  CHECK(replay.store->name_of(r.launch) == "hipGraphLaunch");
  CHECK(r.source == ReplaySource::kCaptureTrace);
  // k0..k4 -> launches 1, 2, 4, none (extra_kernel), 5; launch 3 (mul_kernel) was not replayed.
  CHECK(mapped_correlations(r, *capture.store) == std::vector<int64_t>{1, 2, 4, 0, 5});
  CHECK(r.mapped_kernels == 4);
  CHECK(r.kernel_us == Approx(43.0));
  CHECK(r.mapped_us == Approx(40.0));
  // The ops that made them: the launchers above the capture-time launches.
  const uint32_t first = launcher_of_launch(*capture.store, capture.tree, static_cast<uint32_t>(r.source_launch[0]));
  CHECK(capture.store->name_of(first) == "aten::mm");
}

TEST_CASE("graph replay: of two captures of the same kernels, the one launched with the replay's grids", "[graphs]") {
  using namespace test;
  // Two graphs of gemm_A + add_kernel (two batch sizes): the first captured with grids
  // [2, 1, 1] and [1, 1, 1] (launches 1, 2), the second with [8, 1, 1] and [4, 1, 1]
  // (launches 3, 4), which the replayed kernels ran with. Both map every kernel by name;
  // the second has no grid that differs.
  const auto region = [](double at, int first, const char* gemm_grid, const char* add_grid) {
    return host_event("cuda_runtime", "hipStreamBeginCapture", at, 1) + host_event("cpu_op", "aten::mm", at + 10, 3) +
           runtime_launch("hipLaunchKernel", at + 11, first, "gemm_A", gemm_grid) +
           host_event("cpu_op", "aten::add", at + 20, 3) +
           runtime_launch("hipLaunchKernel", at + 21, first + 1, "add_kernel", add_grid) +
           host_event("cuda_runtime", "hipStreamEndCapture", at + 100, 1);
  };
  const Loaded capture =
      load(event_list(without_last_comma(region(0, 1, "[2, 1, 1]", "[1, 1, 1]") + region(200, 3, "[8, 1, 1]", "[4, 1, 1]"))));
  const Loaded replay = load(event_list(without_last_comma(
      runtime_launch("hipGraphLaunch", 1000, 99) + gpu_kernel("gemm_A", 1010, 10, 99, "[8, 1, 1]") +
      gpu_kernel("add_kernel", 1020, 5, 99, "[4, 1, 1]"))));
  const GraphReplayMap map = map_graph_replays(*replay.store, replay.tree, {capture.store.get(), &capture.tree});
  REQUIRE(map.replays.size() == 1);
  CHECK(mapped_correlations(map.replays[0], *capture.store) == std::vector<int64_t>{3, 4});
}

TEST_CASE("graph replay: of two captures of the same kernels, the one of the replay's batch size", "[graphs]") {
  using namespace test;
  // Two captures of gemm_A + add_kernel without grids, inside capture_16_FULL (launches
  // 1, 2) and capture_32_FULL (launches 3, 4); the replay runs inside
  // execute_32_context_0(...)_generation_32(...): batch 32, the second capture.
  const auto region = [](double at, int first, const std::string& mark) {
    return host_event("user_annotation", mark, at, 150) + host_event("cuda_runtime", "hipStreamBeginCapture", at + 1, 1) +
           host_event("cpu_op", "aten::mm", at + 10, 3) + runtime_launch("hipLaunchKernel", at + 11, first, "gemm_A") +
           host_event("cpu_op", "aten::add", at + 20, 3) +
           runtime_launch("hipLaunchKernel", at + 21, first + 1, "add_kernel") +
           host_event("cuda_runtime", "hipStreamEndCapture", at + 100, 1);
  };
  const Loaded capture = load(event_list(without_last_comma(region(0, 1, "capture_16_FULL") + region(200, 3, "capture_32_FULL"))));
  const Loaded replay = load(event_list(without_last_comma(
      host_event("user_annotation", "execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk64sqsq32sqsk64)", 990, 100) +
      runtime_launch("hipGraphLaunch", 1000, 99) + gpu_kernel("gemm_A", 1010, 10, 99) + gpu_kernel("add_kernel", 1020, 5, 99))));
  const GraphReplayMap map = map_graph_replays(*replay.store, replay.tree, {capture.store.get(), &capture.tree});
  REQUIRE(map.replays.size() == 1);
  CHECK(mapped_correlations(map.replays[0], *capture.store) == std::vector<int64_t>{3, 4});
}

TEST_CASE("graph replay: a capture recorded in the same trace maps its replays", "[graphs]") {
  using namespace test;
  const Loaded t = load(event_list(without_last_comma(captured_ops() + replayed_kernels())));
  const GraphReplayMap map = map_graph_replays(*t.store, t.tree);
  REQUIRE(map.replays.size() == 1);
  CHECK_FALSE(map.capture_given);
  CHECK(map.replays[0].source == ReplaySource::kCaptureInTrace);
  CHECK(mapped_correlations(map.replays[0], *t.store) == std::vector<int64_t>{1, 2, 4, 0, 5});
}

TEST_CASE("graph replay: else an eager run of the same kernels, where the grids agree", "[graphs]") {
  const Loaded t = load(eager_then_replay());
  const GraphReplayMap map = map_graph_replays(*t.store, t.tree);
  REQUIRE(map.replays.size() == 1);
  const GraphReplay& r = map.replays[0];
  CHECK(r.source == ReplaySource::kEagerRun);
  // gemm_A, add_kernel and relu_kernel map to the eager launches 11, 12 and 14; the
  // second gemm_A ran with grid [2, 1, 1] where the eager one had [1, 1, 1]: other
  // shapes, so it stays unmapped.
  CHECK(mapped_correlations(r, *t.store) == std::vector<int64_t>{11, 12, 0, 14});
  CHECK(r.other_grid_kernels == 1);
  CHECK(r.mapped_us == Approx(20.0));  // 10 + 5 + 5 of 40 µs
}

TEST_CASE("graph replay: with no capture and no eager run the replay stays unmapped", "[graphs]") {
  const Loaded t = load(test::replay_trace());
  const GraphReplayMap map = map_graph_replays(*t.store, t.tree);
  REQUIRE(map.replays.size() == 1);
  CHECK(map.replays[0].source == ReplaySource::kNone);
  CHECK(map.replays[0].mapped_kernels == 0);
  CHECK(map.replays[0].mapped_us == 0);
}

TEST_CASE("launch alignment: a launch without a kernel name matches any kernel of its kind", "[graphs]") {
  // CUDA capture-time launches carry no kernel name: the order alone maps them, and a
  // memcpy launch only maps a copy.
  const std::vector<std::vector<LaunchItem>> replay{{{0, LaunchKind::kKernel, "a", {}, 1},
                                                     {1, LaunchKind::kMemcpy, "Memcpy DtoD", {}, 2},
                                                     {2, LaunchKind::kKernel, "b", {}, 3}}};
  const std::vector<LaunchItem> source{{10, LaunchKind::kKernel, "", {}, 0},
                                       {11, LaunchKind::kMemcpy, "", {}, 0},
                                       {12, LaunchKind::kKernel, "", {}, 0}};
  const Alignment a = align_launches(replay, source);
  CHECK(a.source_of_kernel == std::vector<int32_t>{0, 1, 2});
  CHECK(a.score.matched == 3);
}

TEST_CASE("launch alignment: each launch goes to the stream whose next kernel it names", "[graphs]") {
  // A graph over two streams: stream 1 replays a (t 1) then b (t 5), stream 2 replays c
  // (t 2). The capture launched a, c, b in that order: a and b pair on stream 1, c on
  // stream 2. Flattened, the kernels are stream 1's then stream 2's: a, b, c.
  const std::vector<std::vector<LaunchItem>> replay{
      {{0, LaunchKind::kKernel, "a", {}, 1}, {1, LaunchKind::kKernel, "b", {}, 5}},
      {{2, LaunchKind::kKernel, "c", {}, 2}}};
  const std::vector<LaunchItem> source{{10, LaunchKind::kKernel, "a", {}, 0},
                                       {11, LaunchKind::kKernel, "c", {}, 0},
                                       {12, LaunchKind::kKernel, "b", {}, 0}};
  const Alignment a = align_launches(replay, source);
  CHECK(a.source_of_kernel == std::vector<int32_t>{0, 2, 1});
}
