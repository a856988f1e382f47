// Cycle detection from a Kineto trace: kernels of two devices and two streams written
// in a scrambled file order are put back in start-time order per device; per-repetition
// wall-clock span, busy and idle time; the tables.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "analyses/cycles/cycles.h"
#include "synthetic.h"
#include "ingest/trace_reader.h"
#include "writers/json_writer.h"

using namespace sollens;

namespace {

struct K {
  int pid, stream;
  std::string name;
  double ts, dur;
};

// Per device and step s (T = 1000·s µs): embed [T, T+5] on stream 7; 4 layers × 10
// kernels layer_k0..layer_k9, 10 µs each back to back from T+10; lm_head [T+410, T+430];
// allreduce on stream 8 [T+410.5, T+460.5]; sampler [T+430, T+434].
std::vector<K> steps(int pid, int n_steps) {
  std::vector<K> out;
  for (int s = 0; s < n_steps; ++s) {
    const double t = 1000.0 * s;
    out.push_back({pid, 7, "embed", t, 5});
    for (int l = 0; l < 4; ++l)
      for (int k = 0; k < 10; ++k)
        out.push_back({pid, 7, "layer_k" + std::to_string(k), t + 10 + 100 * l + 10 * k, 10});
    out.push_back({pid, 7, "lm_head", t + 410, 20});
    out.push_back({pid, 8, "nccl_allreduce", t + 410.5, 50});
    out.push_back({pid, 7, "sampler", t + 430, 4});
  }
  return out;
}

std::string trace_of(const std::vector<K>& kernels) {
  std::string ev;
  char buf[64];
  for (const auto& k : kernels) {
    std::snprintf(buf, sizeof buf, "%.3f", k.ts);
    std::string ts = buf;
    std::snprintf(buf, sizeof buf, "%.3f", k.dur);
    ev += R"({"ph":"X","cat":"kernel","name":")" + k.name + R"(","pid":)" + std::to_string(k.pid) +
          R"(,"tid":)" + std::to_string(k.stream) + R"(,"ts":)" + ts + R"(,"dur":)" + buf +
          R"(,"args":{"stream":)" + std::to_string(k.stream) + R"(,"device":)" +
          std::to_string(k.pid) + "}},";
  }
  // A CPU op and a memcpy: not kernels, not in any sequence.
  ev += R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":1,"ts":0,"dur":5},)";
  ev += R"({"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":7,"ts":1,"dur":1})";
  return R"({"traceEvents":[)" + ev + "]}";
}

// Two devices × 8 steps, written in a scrambled (but fixed) order.
std::string scrambled_trace() {
  std::vector<K> all = steps(0, 8);
  const auto other = steps(1, 8);
  all.insert(all.end(), other.begin(), other.end());
  // Fisher–Yates with a fixed LCG: the same order on every run and platform.
  uint32_t lcg = 2024;
  for (size_t i = all.size() - 1; i > 0; --i) {
    lcg = lcg * 1664525u + 1013904223u;
    std::swap(all[i], all[(lcg >> 8) % (i + 1)]);
  }
  return trace_of(all);
}

CycleOptions per_device() {
  CycleOptions opt = cycles_test::uplifter_options();
  opt.order = KernelOrder::kStartTimePerDevice;
  return opt;
}

std::unique_ptr<EventStore> load(const std::string& json) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  return std::move(r.value());
}

}  // namespace

TEST_CASE("Start-time order per device recovers each device's steps and layers") {
  const auto store = load(scrambled_trace());
  const CycleReport report = analyze_cycles(*store, per_device());
  REQUIRE(report.sequences.size() == 2);
  CHECK(report.kernels == 704);
  for (const auto& sc : report.sequences) {
    INFO(sc.sequence.label);
    REQUIRE(sc.sequence.size() == 352);
    REQUIRE(sc.patterns.size() == 1);
    const CyclePattern& p = sc.patterns[0];
    CHECK(sc.sequence.names[p.anchor] == "embed");
    CHECK(p.outer.start == 0);
    CHECK(p.outer.length == 44);  // embed + 40 + lm_head, allreduce, sampler
    CHECK(p.outer.repetitions() == 8);
    REQUIRE(p.layer);
    CHECK(p.layer_offset == 1);
    CHECK(p.layer->length == 10);
    CHECK(p.layers_per_outer == 4);
    CHECK(p.layer->repetitions() == 32);

    const auto reps = repetition_statistics(sc.sequence, p.outer);
    REQUIRE(reps.size() == 8);
    for (size_t s = 0; s < reps.size(); ++s) {
      const double t = 1000.0 * static_cast<double>(s);
      CHECK(reps[s].start_us == Approx(t));
      CHECK(reps[s].end_us == Approx(t + 460.5));
      CHECK(reps[s].span_us == Approx(460.5));
      CHECK(reps[s].busy_us == Approx(455.5));  // [T, T+5] ∪ [T+10, T+460.5]
      CHECK(reps[s].idle_us == Approx(5.0));
      CHECK(reps[s].kernel_time_us == Approx(5 + 400 + 20 + 50 + 4));
      if (s + 1 < reps.size()) CHECK(*reps[s].to_next_us == Approx(1000.0));
    }
    CHECK_FALSE(reps.back().to_next_us);
    const auto layer_reps = repetition_statistics(sc.sequence, *p.layer);
    for (const auto& r : layer_reps) {
      CHECK(r.span_us == Approx(100.0));
      CHECK(r.idle_us == Approx(0.0).margin(1e-9));
    }
  }
  CHECK(report.sequences[0].sequence.label != report.sequences[1].sequence.label);
}

TEST_CASE("uplifter's file order does not see the steps of a scrambled trace") {
  const auto store = load(scrambled_trace());
  CycleOptions opt;
  opt.order = KernelOrder::kFileOrder;
  const CycleReport report = analyze_cycles(*store, opt);
  REQUIRE(report.sequences.size() == 1);
  CHECK(report.sequences[0].sequence.size() == 704);
  for (const auto& p : report.sequences[0].patterns) CHECK(p.outer.length != 44);
}

TEST_CASE("Default per-stream order: the compute stream alone, the allreduce stream apart") {
  const auto store = load(scrambled_trace());
  const CycleReport report = analyze_cycles(*store);
  REQUIRE(report.sequences.size() == 4);
  size_t compute = 0;
  for (const auto& sc : report.sequences) {
    if (sc.sequence.size() == 8) {  // 8 allreduces: too short for a cycle
      CHECK(sc.patterns.empty());
      continue;
    }
    ++compute;
    REQUIRE(sc.sequence.size() == 43 * 8);
    REQUIRE(sc.patterns.size() == 1);
    CHECK(sc.patterns[0].outer.length == 43);
    CHECK(sc.patterns[0].outer.repetitions() == 8);
  }
  CHECK(compute == 2);
}

TEST_CASE("Tables: cycles, positions, repetitions, outside-layers, LLM view") {
  const auto store = load(scrambled_trace());
  const CycleReport report = analyze_cycles(*store, per_device());
  const Table cycles = cycles_table(report);
  // Two devices × (outer + layer).
  REQUIRE(cycles.num_rows() == 4);
  const Column* level = cycles.find("level");
  const Column* reps = cycles.find("repetitions");
  const Column* per_outer = cycles.find("layers_per_outer");
  const Column* outside = cycles.find("kernels_outside_layers");
  const Column* idle = cycles.find("avg_idle_us");
  const Column* phase = cycles.find("phase");
  REQUIRE((level && reps && per_outer && outside && idle && phase));
  CHECK(level->string_at(0) == "outer");
  CHECK(level->string_at(1) == "layer");
  CHECK(reps->int_at(0) == 8);
  CHECK(reps->int_at(1) == 32);
  CHECK(per_outer->int_at(1) == 4);
  CHECK(outside->int_at(0) == 4);  // embed, lm_head, allreduce, sampler
  CHECK(idle->float_at(0) == Approx(5.0));
  CHECK(phase->string_at(0) == "decode");

  const auto& sc = report.sequences[0];
  const CycleStatistics st = position_statistics(sc.sequence, *sc.patterns[0].layer);
  const Table positions = cycle_positions_table(st, "cycle_1");
  REQUIRE(positions.num_rows() == 10);
  CHECK(positions.column(0).name() == "index");
  CHECK(positions.column(7).name() == "pct_of_cycle");
  CHECK(positions.find("pct_of_cycle")->float_at(3) == Approx(10.0));  // 10 of 100 µs
  CHECK(cycle_positions_preamble(st) ==
        "# Cycle Statistics\n# Iterations,32\n# Kernels per cycle,10\n"
        "# Avg cycle time (us),100.000\n# Total time (us),3200.000\n\n");

  const Table out = outside_layers_table(sc.sequence, sc.patterns[0], "outside");
  REQUIRE(out.num_rows() == 4);
  CHECK(out.find("kernel_name")->string_at(0) == "embed");
  CHECK(out.find("where")->string_at(0) == "before_layers");
  CHECK(out.find("kernel_name")->string_at(2) == "nccl_allreduce");
  CHECK(out.find("where")->string_at(3) == "after_layers");
  CHECK(out.find("avg_duration_us")->float_at(2) == Approx(50.0));

  const Table llm = cycles_llm_table(report);
  REQUIRE(llm.num_rows() == 2);
  CHECK(llm.find("phase")->string_at(0) == "decode");
  CHECK(llm.find("steps")->int_at(0) == 8);
  CHECK(llm.find("layers_per_step")->int_at(0) == 4);
  CHECK(llm.find("avg_step_latency_us")->float_at(0) == Approx(460.5));
  CHECK(llm.find("avg_step_period_us")->float_at(0) == Approx(1000.0));
  CHECK(llm.find("avg_layer_latency_us")->float_at(0) == Approx(100.0));
  CHECK(llm.find("avg_outside_layers_kernel_time_us")->float_at(0) == Approx(79.0));

  CHECK(cycles_summary(report) ==
        "2 repeating patterns in 704 kernels: decode (pid 0) 8 x 44 kernels, 4 layers of 10; "
        "decode (pid 1) 8 x 44 kernels, 4 layers of 10");
}
