// PageSession: the JSON and the table handles the web page reads.
#include <catch2/catch.hpp>

#include <cstring>

#include "api/api_test_traces.h"
#include "api/page_session.h"
#include "writers/csv_writer.h"

using namespace sollens;

namespace {

void fill(PageSession& page, const std::string& text) {
  std::memcpy(page.allocate(text.size()), text.data(), text.size());
}

}  // namespace

TEST_CASE("PageSession: nothing loaded") {
  PageSession page;
  CHECK(page.build_report("", false, false) == R"({"error":"no trace is loaded"})");
  CHECK(page.build_cycles("all", "stream") == R"({"error":"no trace is loaded"})");
  CHECK(page.info_json() == "{}");
  CHECK(page.warnings_json() == "[]");
  CHECK(page.event_count() == 0);
  CHECK(PageSession::device_names_json().find(R"(","H100_SXM5_80GB",")") != std::string::npos);
}

TEST_CASE("PageSession: the buffer grows keeping its bytes, and loads what was written") {
  PageSession page;
  const std::string text = test::one_gemm_trace();
  const size_t half = text.size() / 2;
  std::memcpy(page.allocate(half), text.data(), half);
  uint8_t* moved = page.grow(text.size() + 100);
  std::memcpy(moved + half, text.data() + half, text.size() - half);
  page.set_size(text.size());
  CHECK(page.capacity() == text.size());
  CHECK(page.load() == "");
  CHECK(page.event_count() == 7);
}

TEST_CASE("PageSession: load errors in words; cancel") {
  PageSession page;
  fill(page, "this is not JSON");
  CHECK_FALSE(page.load().empty());
  fill(page, test::repeating_kernels_trace(1000));
  LoadOptions options;
  options.progress = [](size_t, size_t) { return false; };
  CHECK(page.load(options) == "cancelled");
}

TEST_CASE("PageSession: report tables by handle, described and encoded") {
  PageSession page;
  fill(page, test::one_gemm_trace());
  REQUIRE(page.load() == "");
  CHECK(page.build_report("no-such-gpu", false, false).find(R"({"error":"unknown device 'no-such-gpu')") == 0);
  const std::string described = page.build_report("", false, false);
  // The first table kept gets handle 1: the gpu_timeline sheet, with its three columns.
  CHECK(described.find(R"("sheets":[{"id":1,"name":"gpu_timeline","kind":"timeline","rows":8,"columns":[{"name":"type","type":"string","unit":""},{"name":"time ms","type":"float","unit":"ms"},{"name":"percent","type":"float","unit":"%"}]})") !=
        std::string::npos);
  const Report report = page.session().report();
  CHECK(page.sheet_csv(1) == to_csv(report.sheets[0]));
  CHECK(page.sheet_csv(1) == page.gpu_timeline_csv());
  const EncodedColumn* types = page.tables().encoded(1, 0);
  REQUIRE(types);
  CHECK(types->dictionary_json ==
        R"(["computation_time","exposed_comm_time","exposed_memcpy_time","busy_time","idle_time","total_time","total_comm_time","total_memcpy_time"])");
  CHECK(types->codes == std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7});
  const EncodedColumn* times = page.tables().encoded(1, 1);
  REQUIRE(times);
  // The kernel runs 10.125 µs of a 10.125 µs GPU span: computation and total both 0.010125 ms.
  CHECK(times->numbers[0] == Approx(0.010125));
  CHECK(times->numbers[5] == Approx(0.010125));
  CHECK(page.tables().encoded(1, 3) == nullptr);
  CHECK(page.tables().encoded(999, 0) == nullptr);
}

TEST_CASE("PageSession: cycles words; no order is the CLI's default, per device and stream") {
  PageSession page;
  fill(page, test::repeating_kernels_trace(20, true));
  REQUIRE(page.load() == "");
  CHECK(page.build_cycles("all", "sideways") == R"({"error":"order is device, stream or file"})");
  CHECK(page.build_cycles("most", "stream") == R"({"error":"mode is all, llm or uplifter"})");
  // The summary, kernel count and preambles: what comes before the first handle.
  const auto described = [&page](const char* order) {
    const std::string json = page.build_cycles("all", order);
    return json.substr(0, json.find("\"id\":"));
  };
  const std::string by_default = described("");
  CHECK(by_default.find(R"({"summary":)") == 0);
  CHECK(by_default.find(R"("kernels":400,)") != std::string::npos);  // 20 steps of 10, and 200 z
  CHECK(by_default == described("stream"));
  CHECK(by_default != described("device"));
}

TEST_CASE("PageSession: SOL tables by handle, layer types from the module frames") {
  PageSession page;
  CHECK(page.build_sol("", 1.0) == R"({"error":"no trace is loaded"})");
  // one_gemm_trace's aten::mm (bf16 here), inside nn.Module Linear_0 inside Block_0:
  // the op belongs to its innermost module only, and its measured time is its one
  // kernel's dur, 10.125 µs.
  const std::string trace =
      R"({"traceEvents":[)" +
      test::complete_event("python_function", "nn.Module: Block_0", "2", "190") + "," +
      test::complete_event("python_function", "nn.Module: Linear_0", "5", "150") + "," +
      test::complete_event("cpu_op", "aten::mm", "10", "50.5",
                           R"({"External id":7,"Input Dims":[[2,3],[3,4]],"Input type":["c10::BFloat16","c10::BFloat16"]})") +
      "," +
      test::complete_event("cuda_runtime", "cudaLaunchKernel", "15", "5", R"({"External id":7,"correlation":42})") +
      "," + test::flow_event('s', 42, 1, 1) + "," + test::flow_event('f', 42, 0, 7) + "," +
      test::complete_event("kernel", "gemm", "60.25", "10.125",
                           R"({"External id":7,"correlation":42,"device":0,"stream":7})", 0, 7) +
      "]}";
  fill(page, trace);
  REQUIRE(page.load() == "");
  CHECK(page.build_sol("no-such-gpu", 1.0).find(R"({"error":"unknown device 'no-such-gpu')") == 0);
  CHECK(page.build_sol("H100_SXM5_80GB", 0).find(R"({"error":)") == 0);
  CHECK(page.build_sol("H100_SXM5_80GB", 1.5).find(R"({"error":)") == 0);

  const std::string sol = page.build_sol("H100_SXM5_80GB", 0.8);
  CHECK(sol.find(R"("solDevice":"H100_SXM5_80GB","efficiencyFactor":0.8,"moduleFrames":true,)") != std::string::npos);
  CHECK(sol.find(R"("sol/total_ops": 1,)") != std::string::npos);
  // The handles follow the tables' order: metrics first, by_layer_type second.
  const auto handle_of = [&sol](const std::string& name) {
    const size_t at = sol.find(R"(,"name":")" + name + "\"");
    REQUIRE(at != std::string::npos);
    const size_t id = sol.rfind(R"({"id":)", at);
    return std::stoi(sol.substr(id + 6));
  };
  const int32_t by_layer_type = handle_of("sol_by_layer_type");
  CHECK(handle_of("sol_metrics") + 1 == by_layer_type);
  const Table* layers = page.tables().table(by_layer_type);
  REQUIRE(layers);
  REQUIRE(layers->num_rows() == 1);
  CHECK(layers->column(0).string_at(0) == "Linear");
  CHECK(layers->find("count")->int_at(0) == 1);
  CHECK(layers->find("measured_time_ms")->float_at(0) == Approx(0.010125).epsilon(1e-12));
  // Memory-bound: A 2×3, B 3×4 and C 2×4 in bf16 are 26 × 2 = 52 bytes, at the H100's
  // 3.35 TB/s derated by 0.8 (the 48 FLOP take far less at 989.4 TFLOPS × 0.8).
  CHECK(layers->find("estimated_time_ms")->float_at(0) == Approx(52 / (3.35e12 * 0.8) * 1e3).epsilon(1e-9));
  CHECK(page.sheet_csv(by_layer_type).rfind("layer_type,", 0) == 0);

  // Recomputed: the previous SOL tables are let go, the report's stay.
  const std::string report = page.build_report("", false, false);
  const int32_t timeline = std::stoi(report.substr(report.find(R"("sheets":[{"id":)") + 16));
  const std::string again = page.build_sol("H100_SXM5_80GB", 1.0);
  CHECK(again.find(R"("efficiencyFactor":1.0,)") != std::string::npos);
  CHECK(page.tables().table(by_layer_type) == nullptr);
  CHECK(page.tables().table(timeline) != nullptr);
}
