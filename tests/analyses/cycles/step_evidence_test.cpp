// Step evidence on synthetic Kineto traces (structure mode): steps the trace marks on
// the CPU side when no ProfilerStep#N exists. Each trace launches every kernel from a
// runtime call with its own correlation id (a graph launch: one id for its replay);
// no kernel name is seen 5 times and no iteration is 100 kernels long, so detection
// alone finds no step. Expected steps follow from how each trace is written.
#include <catch2/catch.hpp>

#include <string>

#include "analyses/cycles/cycles.h"
#include "ingest/trace_reader.h"

using namespace sollens;

namespace {

// Writes events: every kernel 1 µs long at 2 µs per launch, launched 0.5 µs earlier.
struct TraceBuilder {
  std::string events;
  double t = 0;  // CPU time
  int64_t correlation = 1;
  int64_t python_id = 1;

  void event(const std::string& json) { events += (events.empty() ? "" : ",") + json; }
  // Kernels named prefix0..prefix{n−1}, one launch each.
  void launch(const std::string& prefix, int n) {
    for (int k = 0; k < n; ++k) {
      const std::string c = std::to_string(correlation++);
      event(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
            std::to_string(t) + R"(,"dur":0.2,"args":{"correlation":)" + c + "}}");
      kernel(prefix + std::to_string(k), c);
      t += 2;
    }
  }
  void kernel(const std::string& name, const std::string& c) {
    event(R"({"ph":"X","cat":"kernel","name":")" + name + R"(","pid":0,"tid":7,"ts":)" +
          std::to_string(t + 1000.5) + R"(,"dur":1,"args":{"correlation":)" + c +
          R"(,"stream":7,"device":0}})");
  }
  // A CPU span [begin, t) of the given category; python frames get ids.
  void span(const std::string& cat, const std::string& name, double begin, int64_t id = 0, int64_t parent = 0) {
    std::string args;
    if (id) args = R"(,"args":{"Python id":)" + std::to_string(id) +
                   (parent ? R"(,"Python parent id":)" + std::to_string(parent) : std::string()) + "}";
    event(R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
          std::to_string(begin) + R"(,"dur":)" + std::to_string(t - begin + 0.1) + args + "}");
  }
  std::string json() const { return R"({"traceEvents":[)" + events + "]}"; }
};

std::unique_ptr<EventStore> load(const std::string& json) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  return std::move(r.value());
}

const CyclePattern& only_pattern(const CycleReport& report) {
  REQUIRE(report.sequences.size() == 1);
  REQUIRE(report.sequences[0].patterns.size() == 1);
  return report.sequences[0].patterns[0];
}

}  // namespace

TEST_CASE("iterations start at each DistributedDataParallel forward") {
  for (const std::string cat : {"user_annotation", "python_function"}) {
    INFO(cat);
    const std::string name =
        cat == "user_annotation" ? "DistributedDataParallel.forward" : "nn.Module: DistributedDataParallel_0";
    // 5 kernels of an earlier backward, then 3 iterations: a forward of 30 kernels
    // inside the DDP forward, then a backward of 40 outside it (no optimizer step).
    TraceBuilder b;
    b.launch("tail", 5);
    for (int it = 0; it < 3; ++it) {
      const double begin = b.t;
      b.launch("fwd", 30);
      b.span(cat, name, begin);
      b.launch("bwd", 40);
    }
    const auto store = load(b.json());
    const CycleReport report = analyze_cycles(*store);
    const CyclePattern& p = only_pattern(report);
    CHECK(p.outer.starts == std::vector<uint32_t>{5, 75, 145});  // 5 + k·70
    CHECK(p.outer.length == 70);
    CHECK(p.step_source == StepSource::kAnnotations);
    CHECK(p.found_by() == (cat == "user_annotation" ? "annotation DistributedDataParallel.forward"
                                                    : "python frame nn.Module: DistributedDataParallel"));
    CHECK(p.phase == CyclePhase::kStep);
    // uplifter's pipeline has no evidence: nothing.
    CHECK(analyze_cycles(*store, CycleOptions{.structure = false}).patterns() == 0);
  }
}

TEST_CASE("one step per graph launch, layers inside each") {
  // 3 graph launches, each replaying 2 kernels, 6 layers of 5, 2 kernels: 34 a step.
  TraceBuilder g;
  for (int it = 0; it < 3; ++it) {
    const std::string c = std::to_string(100 + it);
    g.event(R"({"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":1,"tid":1,"ts":)" +
            std::to_string(g.t) + R"(,"dur":0.2,"args":{"correlation":)" + c + "}}");
    auto add = [&](const std::string& name) {
      g.kernel(name, c);
      g.t += 2;
    };
    add("embed0");
    add("embed1");
    for (int l = 0; l < 6; ++l)
      for (int k = 0; k < 5; ++k) add("L" + std::to_string(k));
    add("head0");
    add("head1");
    g.t += 50;
  }
  const auto store = load(g.json());
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern& p = only_pattern(report);
  CHECK(p.outer.starts == std::vector<uint32_t>{0, 34, 68});
  CHECK(p.outer.length == 34);
  REQUIRE(p.layer);
  CHECK(p.layer->length == 5);
  CHECK(p.layers_per_outer == 6);
  CHECK(p.layer_offset == 2);
  CHECK(p.found_by() == "graph launches, layers by anchor");
}

TEST_CASE("iterations of the python loop body") {
  // <module> → main → 3 × [train.py(10): step_fn launching 30 kernels,
  // torch/_tensor.py(575): backward launching 40], then a helper of 4 kernels called
  // once: the loop body starts at each step_fn.
  TraceBuilder b;
  const double module_begin = b.t;
  const double main_begin = b.t;
  int64_t id = 10;
  for (int it = 0; it < 3; ++it) {
    double begin = b.t;
    b.launch("fwd", 30);
    b.span("python_function", "train.py(10): step_fn", begin, ++id, 2);
    begin = b.t;
    b.launch("bwd", 40);
    b.span("python_function", "torch/_tensor.py(575): backward", begin, ++id, 2);
  }
  const double helper = b.t;
  b.launch("save", 4);
  b.span("python_function", "train.py(20): save", helper, ++id, 2);
  b.span("python_function", "train.py(30): main", main_begin, 2, 1);
  b.span("python_function", "train.py(40): <module>", module_begin, 1);
  const auto store = load(b.json());
  const CycleReport report = analyze_cycles(*store);
  const CyclePattern& p = only_pattern(report);
  CHECK(p.outer.starts == std::vector<uint32_t>{0, 70, 140});
  CHECK(p.outer.length == 70);  // the last iteration runs to the end (74 kernels)
  CHECK(p.found_by() == "python frame train.py(10): step_fn");
}

TEST_CASE("a helper called twice is not a loop body") {
  // 2 × a helper of 3 kernels, then `rest` kernels. With 60 the repeated frames hold
  // fewer than half of the kernels; with 2 they hold 6 of 8, but iterations of 3 and
  // 5 kernels are shorter than a cycle (min_cycle_length 10).
  for (const int rest : {60, 2}) {
    INFO(rest);
    TraceBuilder b;
    for (int it = 0; it < 2; ++it) {
      const double begin = b.t;
      b.launch("h", 3);
      b.span("python_function", "util.py(5): helper", begin, 10 + it, 1);
    }
    b.launch("rest", rest);
    b.span("python_function", "run.py(1): <module>", 0, 1);
    const auto store = load(b.json());
    CHECK(analyze_cycles(*store).patterns() == 0);
  }
}
