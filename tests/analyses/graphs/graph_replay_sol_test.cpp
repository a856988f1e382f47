// SOL of graph-replayed kernels (analyses/sol/sol_graph_ops.h) on the hand-made capture
// and replay traces of graph_replay_fixtures.h, on the H100 SXM5 (sol_cases.h: bf16
// dense 989.4 TFLOPS, 3.35 TB/s):
//   k0 gemm_A  -> the captured aten::mm 4096 (in Linear_0, so the forward pass):
//                 compute-bound, kBigMmUs
//   k2 gemm_A  -> the captured aten::mm 64: memory-bound, kSmallMmUs
//   k1, k4     -> aten::add, aten::relu recorded without shapes: no estimate
//   k3         -> not captured: stays with the hipGraphLaunch, unmodeled.
// Replayed kernel time 43 µs: mapped 40 µs (93.0 %), estimated the two mm kernels,
// 10 + 20 = 30 µs (69.8 %), unmapped 3 µs (7.0 %).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>

#include "analyses/perf/modeled_ops.h"
#include "devices/device_db.h"
#include "analyses/sol/sol_graph_ops.h"
#include "analyses/sol/sol_ops.h"
#include "graph_replay_fixtures.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"

using namespace sollens;

namespace {

struct Loaded {
  std::unique_ptr<EventStore> store;
  std::unique_ptr<TraceTree> tree;
  std::unique_ptr<ModeledOps> modeled;
};

Loaded load(const std::string& json) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  TreeOptions options;
  options.include_python = true;
  auto tree = std::make_unique<TraceTree>(TraceTree::build(*r.value(), options));
  auto modeled = std::make_unique<ModeledOps>(evaluate_modeled_ops(*r.value(), *tree));
  return {std::move(r.value()), std::move(tree), std::move(modeled)};
}

const SolOp& op_of_kernel(const SolOps& ops, const EventStore& s, const std::string& kernel, size_t nth = 0) {
  for (uint32_t g = 0; g < s.size(); ++g) {
    if (s.category[g] != Category::kKernel || s.name_of(g) != kernel) continue;
    if (nth-- > 0) continue;
    const int32_t i = ops.op_of_gpu_event[g];
    REQUIRE(i >= 0);
    return ops.ops[static_cast<size_t>(i)];
  }
  FAIL("no kernel " << kernel);
  throw;
}

bool has_note(const SolOps& ops, const std::string& part) {
  return std::any_of(ops.notes.begin(), ops.notes.end(),
                     [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("graph replay sol: replayed kernels are estimated as the captured ops", "[graphs][sol]") {
  const Loaded capture = load(test::capture_trace());
  const Loaded replay = load(test::replay_trace());
  const DeviceSpec* h100 = find_device("H100_SXM5_80GB");
  REQUIRE(h100 != nullptr);
  const CaptureTrace captured{capture.store.get(), capture.tree.get(), capture.modeled.get()};
  SolOptions options;
  options.capture = &captured;
  const SolOps ops = collect_sol_ops(*replay.store, *replay.tree, h100, options);
  const EventStore& s = *replay.store;

  const SolOp& big = op_of_kernel(ops, s, "gemm_A", 0);
  CHECK(big.function == "aten::mm");
  REQUIRE(big.estimated);
  CHECK(big.roofline.compute_us == Approx(test::kBigMmUs));
  CHECK(big.measured_us == Approx(10.0));
  CHECK(big.layer_type == "Linear");  // from the capture trace's nn.Module frame
  CHECK(big.pass == "forward");       // in a module where it was captured
  CHECK(big.phase == "decode");       // the replay's annotation
  const SolOp& small = op_of_kernel(ops, s, "gemm_A", 1);
  CHECK(small.function == "aten::mm");
  REQUIRE(small.estimated);
  CHECK(small.roofline.memory_us == Approx(test::kSmallMmUs));
  CHECK(small.measured_us == Approx(20.0));
  CHECK(op_of_kernel(ops, s, "add_kernel").function == "aten::add");
  CHECK(op_of_kernel(ops, s, "relu_kernel").function == "aten::relu");
  const SolOp& rest = op_of_kernel(ops, s, "extra_kernel");
  CHECK(rest.function == "hipGraphLaunch");
  CHECK_FALSE(rest.estimated);
  CHECK(rest.kernels.size() == 1);
  CHECK(has_note(ops, "1 graph replay (5 kernels, 0.04 ms) mapped from the capture trace: 93.0 % of their kernel "
                      "time mapped to the ops captured, 69.8 % estimated, 7.0 % unmapped"));
}

TEST_CASE("graph replay sol: an unmapped replay is named in the notes, its time unmodeled", "[graphs][sol]") {
  const Loaded replay = load(test::replay_trace());
  const SolOps ops = collect_sol_ops(*replay.store, *replay.tree, find_device("H100_SXM5_80GB"));
  const SolOp& all = op_of_kernel(ops, *replay.store, "gemm_A");
  CHECK(all.function == "hipGraphLaunch");
  CHECK(all.kernels.size() == 5);
  CHECK_FALSE(all.estimated);
  CHECK(has_note(ops, "1 graph replay (5 kernels, 0.04 ms) stayed unmapped (hipGraphLaunch at 1000.000 us)"));
  CHECK(has_note(ops, "it is unmodeled, not slow"));
}

TEST_CASE("graph replay sol: each replay of a graph gets its own ops", "[graphs][sol]") {
  using namespace test;
  // The same five kernels replayed twice, by launches with correlations 99 and 98, 1000 µs apart.
  std::string second;
  for (const auto& [name, ts, dur] : {std::tuple<const char*, double, double>{"gemm_A", 2010, 10}, {"add_kernel", 2020, 5},
                                      {"gemm_A", 2030, 20}, {"extra_kernel", 2050, 3}, {"relu_kernel", 2055, 5}})
    second += gpu_kernel(name, ts, dur, 98);
  const Loaded capture = load(capture_trace());
  const Loaded replay =
      load(event_list(without_last_comma(replayed_kernels() + runtime_launch("hipGraphLaunch", 2000, 98) + second)));
  const CaptureTrace captured{capture.store.get(), capture.tree.get(), capture.modeled.get()};
  SolOptions options;
  options.capture = &captured;
  const SolOps ops = collect_sol_ops(*replay.store, *replay.tree, find_device("H100_SXM5_80GB"), options);
  const SolOp& first_big = op_of_kernel(ops, *replay.store, "gemm_A", 0);
  const SolOp& second_big = op_of_kernel(ops, *replay.store, "gemm_A", 2);
  CHECK(&first_big != &second_big);
  CHECK(second_big.function == "aten::mm");
  CHECK(second_big.kernels.size() == 1);
  CHECK(second_big.roofline.compute_us == Approx(kBigMmUs));
  CHECK(replay.store->ts[second_big.event] == Approx(2000.0));  // the second launch
  // 86 µs replayed, 80 mapped (93.0 %), 60 estimated (69.8 %).
  CHECK(has_note(ops, "2 graph replays (10 kernels, 0.09 ms) mapped from the capture trace: 93.0 %"));
}
