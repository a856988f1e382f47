// The time axis's sheets on small traces written here, with the answers worked by hand.
#include <catch2/catch.hpp>

#include <string>
#include <tuple>

#include "analyses/cycles/cycles.h"
#include "analyses/sol/sol_ops.h"
#include "analyses/time_axis/event_detail.h"
#include "analyses/time_axis/range_summary.h"
#include "analyses/time_axis/time_axis.h"
#include "support/test_trace.h"

using namespace sollens;

namespace {

// Thread 10 of pid 1: an op "outer" [1000, 1100) holding "inner" [1010, 1060), which
// launches k1 (launch [1020, 1030), kernel on stream 7 at [1040, 1060)); then a
// launch [1070, 1075) of k2, which starts on stream 8 at 1300: a 225 µs launch delay.
// Linked by correlation id (no flow events). The trace starts at 1000.
const char* kTwoStreams = R"({"traceEvents":[
 {"ph":"X","cat":"cpu_op","name":"outer","pid":1,"tid":10,"ts":1000,"dur":100},
 {"ph":"X","cat":"cpu_op","name":"inner","pid":1,"tid":10,"ts":1010,"dur":50},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":10,"ts":1020,"dur":10,"args":{"correlation":1}},
 {"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":1040,"dur":20,"args":{"correlation":1,"stream":7,"device":0}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":10,"ts":1070,"dur":5,"args":{"correlation":2}},
 {"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":8,"ts":1300,"dur":30,"args":{"correlation":2,"stream":8,"device":0}}
]})";

const Column& col(const Table& t, const char* name) {
  const Column* c = t.find(name);
  REQUIRE(c != nullptr);
  return *c;
}

}  // namespace

TEST_CASE("time axis: lanes in order, with their nesting depths", "[time_axis]") {
  const test::TestTrace tr = test::load_with_tree(kTwoStreams, false);
  const TimeAxis axis = build_time_axis(*tr.store, tr.tree);
  const Table& lanes = axis.lanes;
  REQUIRE(lanes.num_rows() == 4);
  // CPU thread, its launches, then the GPU streams by stream.
  CHECK(col(lanes, "kind").string_at(0) == "cpu");
  CHECK(col(lanes, "label").string_at(0) == "CPU thread 10");
  CHECK(col(lanes, "depths").int_at(0) == 2);  // outer > inner
  CHECK(col(lanes, "kind").string_at(1) == "runtime");
  CHECK(col(lanes, "label").string_at(1) == "launches, thread 10");
  CHECK(col(lanes, "depths").int_at(1) == 1);
  CHECK(col(lanes, "label").string_at(2) == "GPU 0 · stream 7");
  CHECK(col(lanes, "label").string_at(3) == "GPU 0 · stream 8");
  CHECK(col(lanes, "tid").is_null(2));
}

TEST_CASE("time axis: events by lane and start, from the trace's start, with partners both ways", "[time_axis]") {
  const test::TestTrace tr = test::load_with_tree(kTwoStreams, false);
  const TimeAxis axis = build_time_axis(*tr.store, tr.tree);
  CHECK(axis.trace_start_us == 1000);
  const Table& ev = axis.events;
  REQUIRE(ev.num_rows() == 6);
  // sheet row: name, lane, depth, start (ts − 1000), store row
  const char* names[] = {"outer", "inner", "cudaLaunchKernel", "cudaLaunchKernel", "k1", "k2"};
  const int64_t lanes[] = {0, 0, 1, 1, 2, 3};
  const int64_t depths[] = {0, 1, 0, 0, 0, 0};
  const double starts[] = {0, 10, 20, 70, 40, 300};
  const int64_t rows[] = {0, 1, 2, 4, 3, 5};
  for (size_t r = 0; r < 6; ++r) {
    INFO("sheet row " << r);
    CHECK(col(ev, "name").string_at(r) == names[r]);
    CHECK(col(ev, "lane").int_at(r) == lanes[r]);
    CHECK(col(ev, "depth").int_at(r) == depths[r]);
    CHECK(col(ev, "start_us").float_at(r) == starts[r]);
    CHECK(col(ev, "row").int_at(r) == rows[r]);
  }
  CHECK(col(ev, "dur_us").float_at(5) == 30);
  CHECK(col(ev, "kind").string_at(0) == "cpu_op");
  CHECK(col(ev, "kind").string_at(2) == "runtime");
  CHECK(col(ev, "kind").string_at(4) == "kernel");
  CHECK(col(ev, "category").string_at(0) == "");
  // Launch ↔ kernel, both ways, as rows of this sheet.
  const Column& partner = col(ev, "partner");
  CHECK(partner.int_at(2) == 4);
  CHECK(partner.int_at(4) == 2);
  CHECK(partner.int_at(3) == 5);
  CHECK(partner.int_at(5) == 3);
  CHECK(partner.int_at(0) == -1);
  // No SOL efficiencies were given.
  CHECK(col(ev, "sol_efficiency").is_null(4));
  CHECK(axis.sheet_row_of[3] == 4);
}

TEST_CASE("time axis: a launch delay over the cutoff is a span on its kernel's lane", "[time_axis]") {
  const test::TestTrace tr = test::load_with_tree(kTwoStreams, false);
  const TimeAxis axis = build_time_axis(*tr.store, tr.tree);
  const Table& sp = axis.spans;
  // k1 waited 1040 − 1030 = 10 µs (under 100); k2 1300 − 1075 = 225 µs.
  REQUIRE(sp.num_rows() == 1);
  CHECK(col(sp, "kind").string_at(0) == "launch_delay");
  CHECK(col(sp, "label").string_at(0) == "k2");
  CHECK(col(sp, "start_us").float_at(0) == 75);
  CHECK(col(sp, "end_us").float_at(0) == 300);
  CHECK(col(sp, "lane").int_at(0) == 3);
  CHECK(col(sp, "value").float_at(0) == 225);

  TimeAxisInputs lower;
  lower.launch_delay_cutoff_us = 5;  // now both, in time order
  const TimeAxis both = build_time_axis(*tr.store, tr.tree, lower);
  REQUIRE(both.spans.num_rows() == 2);
  CHECK(col(both.spans, "value").float_at(0) == 10);
  lower.max_launch_delays = 1;  // only the longest
  const TimeAxis longest = build_time_axis(*tr.store, tr.tree, lower);
  REQUIRE(longest.spans.num_rows() == 1);
  CHECK(col(longest.spans, "value").float_at(0) == 225);
}

TEST_CASE("time axis: the steps and layers of a two-step pattern, from the trace's start", "[time_axis]") {
  const test::TestTrace tr = test::load_with_tree(kTwoStreams, false);
  // Four kernels: a, b | a, b, at 1000, 1010 (10 µs), 1100, 1120 (5 µs): two steps of
  // one layer of two kernels... a step [1000, 1020), [1100, 1125); layers, one per step.
  CycleReport cycles;
  SequenceCycles sc;
  sc.sequence = make_kernel_sequence({"a", "b", "a", "b"}, {10, 10, 10, 5}, {1000, 1010, 1100, 1120});
  CyclePattern p;
  p.outer.start = 0;
  p.outer.length = 2;
  p.outer.starts = {0, 2};
  p.phase = CyclePhase::kDecode;
  Cycle layer;
  layer.start = 0;
  layer.length = 2;
  layer.starts = {0, 2};
  p.layer = layer;
  p.layers_per_outer = 1;
  sc.patterns.push_back(p);
  cycles.sequences.push_back(sc);
  TimeAxisInputs in;
  in.cycles = &cycles;
  in.launch_delay_cutoff_us = 1e9;  // no launch delays here
  const TimeAxis axis = build_time_axis(*tr.store, tr.tree, in);
  const Table& sp = axis.spans;
  REQUIRE(sp.num_rows() == 5);  // 2 steps, 1 phase, 2 layers
  CHECK(col(sp, "kind").string_at(0) == "step");
  CHECK(col(sp, "label").string_at(0) == "decode step 1");
  CHECK(col(sp, "start_us").float_at(0) == 0);
  CHECK(col(sp, "end_us").float_at(0) == 20);
  CHECK(col(sp, "label").string_at(1) == "decode step 2");
  CHECK(col(sp, "start_us").float_at(1) == 100);
  CHECK(col(sp, "end_us").float_at(1) == 125);
  CHECK(col(sp, "kind").string_at(2) == "phase");
  CHECK(col(sp, "label").string_at(2) == "decode (2 steps)");
  CHECK(col(sp, "start_us").float_at(2) == 0);
  CHECK(col(sp, "end_us").float_at(2) == 125);
  CHECK(col(sp, "lane").int_at(2) == -1);
  CHECK(col(sp, "kind").string_at(3) == "layer");
  CHECK(col(sp, "label").string_at(4) == "layer 1");
}

TEST_CASE("time axis: a range summarised by lane kind, GPU idle and top kernels", "[time_axis]") {
  const test::TestTrace tr = test::load_with_tree(kTwoStreams, false);
  const TimeAxis axis = build_time_axis(*tr.store, tr.tree);
  // [0, 100]: outer [0, 100) on the CPU (inner, nested, not counted again); launches
  // [20, 30) and [70, 75): 15 µs; k1 [40, 60): 20 µs, so the GPU idles 100 − 20 = 80.
  const Table t = range_summary(axis.lanes, axis.events, 0, 100).value();
  const std::string k1_category = col(axis.events, "category").string_at(4);
  REQUIRE(t.num_rows() == 5);  // cpu, gpu, runtime (by kind), GPU idle, top kernel k1
  CHECK(col(t, "section").string_at(0) == "busy");
  CHECK(col(t, "lane_kind").string_at(0) == "cpu");
  CHECK(col(t, "busy_us").float_at(0) == 100);
  CHECK(col(t, "count").int_at(0) == 1);
  CHECK(col(t, "lane_kind").string_at(1) == "gpu");
  CHECK(col(t, "category").string_at(1) == k1_category);
  CHECK(col(t, "busy_us").float_at(1) == 20);
  CHECK(col(t, "share_of_range").float_at(1) == 20);
  CHECK(col(t, "lane_kind").string_at(2) == "runtime");
  CHECK(col(t, "busy_us").float_at(2) == 15);
  CHECK(col(t, "count").int_at(2) == 2);
  CHECK(col(t, "section").string_at(3) == "gpu_idle");
  CHECK(col(t, "busy_us").float_at(3) == 80);
  CHECK(col(t, "count").is_null(3));
  CHECK(col(t, "section").string_at(4) == "top_kernel");
  CHECK(col(t, "name").string_at(4) == "k1");

  // [50, 320]: k1 clipped to [50, 60) = 10 µs, k2 to [300, 320) = 20 µs; idle 270 − 30.
  const Table late = range_summary(axis.lanes, axis.events, 50, 320).value();
  const Column& section = col(late, "section");
  size_t idle = 0, top = 0;
  for (size_t r = 0; r < late.num_rows(); ++r) {
    if (section.string_at(r) == "gpu_idle") idle = r;
    if (section.string_at(r) == "top_kernel" && top == 0) top = r;
  }
  CHECK(col(late, "busy_us").float_at(idle) == 240);
  CHECK(col(late, "name").string_at(top) == "k2");
  CHECK(col(late, "busy_us").float_at(top) == 20);
  CHECK(col(late, "name").string_at(top + 1) == "k1");
  CHECK(col(late, "busy_us").float_at(top + 1) == 10);
  CHECK(range_summary(axis.lanes, axis.events, 10, 10)->num_rows() == 0);
}

TEST_CASE("time axis: an event's details, its enclosing ops and ids", "[time_axis]") {
  const test::TestTrace tr = test::load_with_tree(kTwoStreams, false);
  const EventDetail k1 = event_detail(*tr.store, tr.tree, 3, 1000, nullptr);
  CHECK(k1.name == "k1");
  CHECK(k1.category == "kernel");
  CHECK(k1.start_us == 40);
  CHECK(k1.dur_us == 20);
  // k1 ← its launch ← inner ← outer: the ops outermost first.
  REQUIRE(k1.op_chain.size() == 2);
  CHECK(k1.op_chain[0] == "outer");
  CHECK(k1.op_chain[1] == "inner");
  bool stream = false;
  for (const auto& [key, value] : k1.ids) stream = stream || (key == "stream" && value == 7);
  CHECK(stream);
  CHECK(k1.sol_op == nullptr);
}

TEST_CASE("time axis: a step's value is its SOL latency over its span", "[time_axis]") {
  const test::TestTrace tr = test::load_with_tree(kTwoStreams, false);
  // Two steps of one kernel each: k1 (row 3, [1040, 1060)) and k2 (row 5, [1300, 1330)).
  CycleReport cycles;
  SequenceCycles sc;
  sc.sequence = make_kernel_sequence({"k1", "k2"}, {20, 30}, {1040, 1300});
  sc.sequence.rows = {3, 5};  // the store's rows of those kernels
  CyclePattern p;
  p.outer.length = 1;
  p.outer.starts = {0, 1};
  p.phase = CyclePhase::kStep;
  sc.patterns.push_back(p);
  cycles.sequences.push_back(sc);
  // k1's op estimated at 5 µs, k2's at 15 µs, each op's only kernel.
  SolOps ops;
  ops.op_of_gpu_event.assign(tr.store->size(), -1);
  for (auto [row, estimate, measured] : {std::tuple{3u, 5.0, 20.0}, std::tuple{5u, 15.0, 30.0}}) {
    SolOp op;
    op.kernels = {row};
    op.estimated = true;
    op.roofline.estimate_us = estimate;
    op.measured_us = measured;
    ops.op_of_gpu_event[row] = static_cast<int32_t>(ops.ops.size());
    ops.ops.push_back(op);
  }
  TimeAxisInputs in;
  in.cycles = &cycles;
  in.sol_ops = &ops;
  in.launch_delay_cutoff_us = 1e9;
  const TimeAxis axis = build_time_axis(*tr.store, tr.tree, in);
  const Table& sp = axis.spans;
  REQUIRE(sp.num_rows() == 2);  // a plain step pattern: no phase span
  CHECK(col(sp, "label").string_at(0) == "step 1");
  CHECK(col(sp, "start_us").float_at(0) == 40);
  CHECK(col(sp, "value").float_at(0) == 0.25);  // 5 / 20
  CHECK(col(sp, "label").string_at(1) == "step 2");
  CHECK(col(sp, "value").float_at(1) == 0.5);   // 15 / 30

  in.sol_ops = nullptr;  // without SOL, no values
  const TimeAxis plain = build_time_axis(*tr.store, tr.tree, in);
  CHECK(col(plain.spans, "value").is_null(0));
}
