#include <catch2/catch.hpp>

#include "store/gpu_class.h"
#include "analyses/timeline/gpu_timeline.h"
#include "ingest/trace_reader.h"

using namespace sollens;

namespace {

// One launch per GPU event, linked by ac2g flows through the correlation id.
std::string trace_with(const std::vector<std::tuple<std::string, std::string, double, double>>& gpu) {
  std::string ev;
  int corr = 1;
  for (const auto& [cat, name, ts, dur] : gpu) {
    std::string c = std::to_string(corr++);
    ev += R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
          std::to_string(ts - 1) + R"(,"dur":0.5,"args":{"correlation":)" + c + "}},";
    ev += R"({"ph":"s","cat":"ac2g","name":"ac2g","id":)" + c + R"(,"pid":1,"tid":1,"ts":0},)";
    ev += R"({"ph":"f","cat":"ac2g","name":"ac2g","id":)" + c + R"(,"pid":0,"tid":7,"ts":0,"bp":"e"},)";
    ev += R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":0,"tid":7,"ts":)" +
          std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) +
          R"(,"args":{"correlation":)" + c + R"(,"stream":7}},)";
  }
  ev.pop_back();
  return R"({"traceEvents":[)" + ev + "]}";
}

GpuTimeline timeline_of(const std::string& json, GpuTimelineOptions opts = {}) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  TraceTree tree = TraceTree::build(*r.value());
  return compute_gpu_timeline(*r.value(), tree, opts);
}

}  // namespace

TEST_CASE("classes: memcpy by category or ROCm copy kernel, comm by name, rest compute") {
  CHECK(classify_gpu_event(Category::kGpuMemcpy, "Memcpy HtoD") == GpuClass::kMemcpy);
  CHECK(classify_gpu_event(Category::kKernel, "MEMORY_COPY_DEVICE_TO_HOST") == GpuClass::kMemcpy);
  CHECK(classify_gpu_event(Category::kKernel, "__amd_rocclr_copyBufferRectAligned.kd") ==
        GpuClass::kMemcpy);
  CHECK(classify_gpu_event(Category::kKernel, "__amd_rocclr_copyBufferX") == GpuClass::kComputation);
  CHECK(classify_gpu_event(Category::kKernel, "ncclDevKernel_AllReduce") == GpuClass::kCommunication);
  CHECK(classify_gpu_event(Category::kKernel, "RCCL_kernel") == GpuClass::kCommunication);
  CHECK(classify_gpu_event(Category::kKernel, "cross_device_reduce_1stage") ==
        GpuClass::kCommunication);
  // TraceLens quirk kept: custom all-reduce kernels count as computation.
  CHECK(classify_gpu_event(Category::kKernel, "multimem_all_reduce_kernel") ==
        GpuClass::kComputation);
  CHECK(classify_gpu_event(Category::kGpuMemset, "Memset (Device)") == GpuClass::kComputation);
}

TEST_CASE("timeline by hand: compute 0-10, comm 5-20, memcpy 18-30, idle 30-40, compute 40-45") {
  const auto t = timeline_of(trace_with({{"kernel", "gemm", 100, 10},
                                         {"kernel", "ncclAllReduce", 105, 15},
                                         {"gpu_memcpy", "Memcpy DtoH", 118, 12},
                                         {"kernel", "relu", 140, 5}}));
  CHECK(t.events == 4);
  CHECK(t.total_us == Approx(45));
  CHECK(t.computation_us == Approx(15));    // 10 + 5
  CHECK(t.total_comm_us == Approx(15));
  CHECK(t.exposed_comm_us == Approx(10));   // 10-20
  CHECK(t.total_memcpy_us == Approx(12));
  CHECK(t.exposed_memcpy_us == Approx(10)); // 20-30
  CHECK(t.busy_us == Approx(35));           // 0-30 and 40-45
  CHECK(t.idle_us == Approx(10));
  CHECK(t.computation_us + t.exposed_comm_us + t.exposed_memcpy_us + t.idle_us ==
        Approx(t.total_us));
}

TEST_CASE("overlapping kernels on one stream count once") {
  const auto t = timeline_of(trace_with({{"kernel", "a", 0, 10}, {"kernel", "b", 8, 4}}));
  CHECK(t.busy_us == Approx(12));
  CHECK(t.total_us == Approx(12));
}

TEST_CASE("unlinked kernels are left out unless asked for") {
  std::string json = trace_with({{"kernel", "a", 0, 10}});
  json.insert(json.size() - 2,
              R"(,{"ph":"X","cat":"kernel","name":"orphan","pid":0,"tid":7,"ts":50,"dur":5,"args":{"correlation":999}})");
  CHECK(timeline_of(json).busy_us == Approx(10));
  GpuTimelineOptions all;
  all.include_unlinked = true;
  CHECK(timeline_of(json, all).busy_us == Approx(15));
  CHECK(timeline_of(json, all).total_us == Approx(55));
}

TEST_CASE("no GPU events: zeros and an empty percent column") {
  const auto t = timeline_of(R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2}]})");
  CHECK(t.total_us == 0);
  Table table = gpu_timeline_table(t);
  REQUIRE(table.num_rows() == 8);
  CHECK(table.column(2).is_null(0));
}

TEST_CASE("micro/macro idle: gaps under the threshold are micro, the rest macro") {
  // Busy 100-110, 112-120, 150-160, 163-170: gaps 2, 30, 3 µs; threshold 5 µs.
  GpuTimelineOptions options;
  options.micro_idle_threshold_us = 5;
  const auto t = timeline_of(trace_with({{"kernel", "a", 100, 10},
                                         {"kernel", "b", 112, 8},
                                         {"kernel", "c", 150, 10},
                                         {"kernel", "d", 163, 7}}),
                             options);
  REQUIRE(t.micro_idle_us);
  CHECK(*t.micro_idle_us == Approx(5));   // 2 + 3
  CHECK(*t.macro_idle_us == Approx(30));
  CHECK(t.idle_us == Approx(35));
  const Table table = gpu_timeline_table(t);
  REQUIRE(table.num_rows() == 9);
  CHECK(table.column(0).string_at(4) == "micro_idle_time");
  CHECK(table.column(0).string_at(5) == "macro_idle_time");
  CHECK(table.column(1).float_at(5) == Approx(0.030));
  CHECK(table.column(0).string_at(6) == "total_time");
  // Without a threshold: one idle_time row.
  CHECK(gpu_timeline_table(timeline_of(trace_with({{"kernel", "a", 0, 10}}))).num_rows() == 8);
}
