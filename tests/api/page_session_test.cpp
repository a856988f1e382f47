// PageSession: the JSON and the table handles the web page reads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "api/api_test_traces.h"
#include "api/page_session.h"
#include "ingest/gzip.h"
#include "support/et_builder.h"
#include "support/golden_fixtures.h"
#include "writers/csv_writer.h"

using namespace sollens;

namespace {

void fill(PageSession& page, const std::string& text) {
  std::memcpy(page.allocate(text.size()), text.data(), text.size());
}

// The handle of the table `name` in a description's "sheets".
int32_t handle_of(const std::string& described, const std::string& name) {
  const size_t at = described.find(R"(,"name":")" + name + "\"");
  REQUIRE(at != std::string::npos);
  const size_t id = described.rfind(R"({"id":)", at);
  return std::stoi(described.substr(id + 6));
}

// x[4,8] → linear(W1[16,8], b1) → relu → linear(W2[2,16], b2) → y[4,2], float32.
std::string linear_relu_linear_et() {
  const char* linear = "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor";
  const char* relu = "aten::relu(Tensor self) -> Tensor";
  using test::et_tensor;
  return test::et_flat({
      {2, 1, "aten::linear", linear,
       {et_tensor(10, 11, {4, 8}), et_tensor(20, 21, {16, 8}), et_tensor(22, 23, {16})},
       {et_tensor(30, 31, {4, 16})}},
      {3, 1, "aten::relu", relu, {et_tensor(30, 31, {4, 16})}, {et_tensor(32, 33, {4, 16})}},
      {4, 1, "aten::linear", linear,
       {et_tensor(32, 33, {4, 16}), et_tensor(24, 25, {2, 16}), et_tensor(26, 27, {2})},
       {et_tensor(34, 35, {4, 2})}},
  });
}

}  // namespace

TEST_CASE("PageSession: nothing loaded") {
  PageSession page;
  CHECK(page.build_report() == R"({"error":{"code":"no_trace_loaded","message":"no trace is loaded"}})");
  CHECK(page.build_cycles("all", "stream") == R"({"error":{"code":"no_trace_loaded","message":"no trace is loaded"}})");
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
  CHECK(page.load().ok());
  CHECK(page.event_count() == 7);
}

TEST_CASE("PageSession: load errors with their codes; cancel") {
  PageSession page;
  fill(page, "this is not JSON");
  const Status not_json = page.load();
  CHECK(not_json.code() == Code::not_json);
  CHECK_FALSE(not_json.message().empty());
  fill(page, test::repeating_kernels_trace(1000));
  LoadOptions options;
  options.progress = [](size_t, size_t) { return false; };
  CHECK(page.load(options).code() == Code::cancelled);
}

TEST_CASE("PageSession: report tables by handle, described and encoded") {
  PageSession page;
  fill(page, test::one_gemm_trace());
  REQUIRE(page.load().ok());
  CHECK(page.build_report({"--device", "no-such-gpu"}).find(R"({"error":{"code":"unknown_device","message":"unknown device 'no-such-gpu')") == 0);
  const std::string described = page.build_report();
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
  REQUIRE(page.load().ok());
  CHECK(page.build_cycles("all", "sideways") == R"({"error":{"code":"bad_option_value","message":"order is device, stream or file"}})");
  CHECK(page.build_cycles("most", "stream") == R"({"error":{"code":"bad_option_value","message":"mode is all, llm or uplifter"}})");
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
  CHECK(page.build_sol("", 1.0) == R"({"error":{"code":"no_trace_loaded","message":"no trace is loaded"}})");
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
  REQUIRE(page.load().ok());
  CHECK(page.build_sol("no-such-gpu", 1.0).find(R"({"error":{"code":"unknown_device","message":"unknown device 'no-such-gpu')") == 0);
  CHECK(page.build_sol("H100_SXM5_80GB", 0).find(R"({"error":{"code":"bad_option_value",)") == 0);
  CHECK(page.build_sol("H100_SXM5_80GB", 1.5).find(R"({"error":{"code":"bad_option_value",)") == 0);

  const std::string sol = page.build_sol("H100_SXM5_80GB", 0.8);
  INFO(sol.substr(0, 2000));
  // sol.json's members, with the same spellings, then the sheets.
  CHECK(sol.rfind(R"({"device":"H100_SXM5_80GB","device_identification":{"status": "user", )", 0) == 0);
  CHECK(sol.find(R"(},"efficiency_factor":0.8,"module_frames":true,"notes":[)") != std::string::npos);
  CHECK(sol.find(R"("sol/total_ops":1,)") != std::string::npos);
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
  const std::string report = page.build_report();
  const int32_t timeline = std::stoi(report.substr(report.find(R"("sheets":[{"id":)") + 16));
  const std::string again = page.build_sol("H100_SXM5_80GB", 1.0);
  CHECK(again.find(R"("efficiency_factor":1.0,)") != std::string::npos);
  CHECK(page.tables().table(by_layer_type) == nullptr);
  CHECK(page.tables().table(timeline) != nullptr);
}

TEST_CASE("PageSession: recompute columns on request, from the python frames") {
  // tests/fixtures/synthetic/activation_checkpointing.json: mm and relu, recomputed
  // under checkpoint.py's recompute_fn, then the backward mm. Kernel times: mm 10 + 20 µs
  // and relu 2 µs outside recompute; mm 10 µs and relu 2 µs inside.
  PageSession page;
  fill(page, test::read_text(test::fs::path(SOLLENS_FIXTURES_DIR) / "synthetic" / "activation_checkpointing.json"));
  REQUIRE(page.load().ok());
  const std::string plain = page.build_report();
  CHECK(plain.find("is_recompute") == std::string::npos);
  const Table* summary = page.tables().table(handle_of(plain, "ops_summary"));
  REQUIRE(summary);
  CHECK(summary->num_rows() == 2);

  const std::string split = page.build_report({"--detect-recompute"});
  summary = page.tables().table(handle_of(split, "ops_summary"));
  REQUIRE(summary);
  REQUIRE(summary->num_rows() == 4);
  CHECK(summary->column(1).name() == "is_recompute");
  CHECK(summary->find("name")->string_at(1) == "aten::mm");
  CHECK(summary->find("is_recompute")->int_at(1) == 1);
  CHECK(summary->find("total_direct_kernel_time_sum")->float_at(1) == Approx(10));
  CHECK(summary->find("total_direct_kernel_time_sum")->float_at(0) == Approx(30));
  const Table* timeline = page.tables().table(handle_of(split, "gpu_timeline"));
  REQUIRE(timeline);
  CHECK(timeline->num_rows() == 16);  // the 8 types once for the rest, once for recompute
  // The overview's timeline stays the whole trace's: 8 rows, busy 10+2+10+2+20 = 44 µs.
  const std::string whole = page.gpu_timeline_json(false);
  CHECK(whole.find(R"("type":"busy_time","time ms":0.044,)") != std::string::npos);
}

TEST_CASE("PageSession: Solar of an Execution Trace, alone and beside a Kineto trace") {
  PageSession page;
  CHECK(page.build_solar("") == R"({"error":{"code":"no_trace_loaded","message":"no Execution Trace is loaded"}})");
  fill(page, test::one_gemm_trace());
  const Status kineto = page.load_execution_trace();
  CHECK(kineto.code() == Code::et_is_kineto);
  CHECK(kineto.message().find("this is a Kineto trace") == 0);
  CHECK_FALSE(page.has_execution_trace());

  fill(page, linear_relu_linear_et());
  REQUIRE(page.load_execution_trace().ok());
  // No device and no Kineto trace: no SOL times, and the document says why.
  const std::string alone = page.build_solar("");
  CHECK(alone.find(R"("perf": null, "perf_notice": "no device)") != std::string::npos);
  CHECK(alone.find(R"("measured":false)") != std::string::npos);
  CHECK(page.build_solar("no-such-gpu").find(R"({"error":{"code":"unknown_device","message":"unknown device 'no-such-gpu')") == 0);

  const std::string on_a100 = page.build_solar("A100_SXM4_80GB");
  CHECK(on_a100.find(R"("perf": {"definition": )") != std::string::npos);
  const Table* nodes = page.tables().table(handle_of(on_a100, "solar_nodes"));
  REQUIRE(nodes);
  CHECK(nodes->num_rows() == 3);
  CHECK(nodes->find("measured_gpu_us") == nullptr);
  // The two [4,16] float tensors between the ops: each 256 B written and 256 B read.
  const Table* intermediates = page.tables().table(handle_of(on_a100, "solar_intermediates"));
  REQUIRE(intermediates);
  REQUIRE(intermediates->num_rows() == 2);
  CHECK(intermediates->find("bytes_removed")->float_at(0) == 512);

  // Beside a Kineto trace: measured (whether or not anything links), its tables replace
  // the previous ones, and the report's stay.
  fill(page, test::one_gemm_trace());
  REQUIRE(page.load().ok());
  REQUIRE(page.has_execution_trace());
  const std::string report = page.build_report();
  const int32_t timeline = handle_of(report, "gpu_timeline");
  const std::string beside = page.build_solar("");
  CHECK(beside.find(R"("measured":true)") != std::string::npos);
  CHECK(beside.find(R"("link": {"method": )") != std::string::npos);
  CHECK(page.tables().table(handle_of(on_a100, "solar_nodes")) == nullptr);
  CHECK(page.tables().table(handle_of(beside, "solar_nodes"))->find("measured_gpu_us") != nullptr);
  CHECK(page.tables().table(timeline) != nullptr);
}

namespace {

// Every sheet of the report, as CSV, in order.
std::vector<std::string> report_csvs(PageSession& page) {
  const std::string described = page.build_report();
  std::vector<std::string> csvs;
  for (size_t at = described.find(R"({"id":)"); at != std::string::npos; at = described.find(R"({"id":)", at + 1))
    csvs.push_back(page.sheet_csv(std::stoi(described.substr(at + 6))));
  return csvs;
}

std::vector<std::string> texts_to_stream() {
  std::vector<std::string> texts = {test::one_gemm_trace(), test::repeating_kernels_trace(40, true)};
#ifdef SOLLENS_HAVE_ZLIB  // a real trace, from its .json.gz fixture
  const Result<Gunzipped> bert = gunzip(
      test::read_text(test::kTraces / "tracelens-h100-bert-small" / "gaunernst_bert-small-uncased__1016001.json.gz"));
  REQUIRE(bert.ok());
  texts.emplace_back(bert->data.view());
#endif
  return texts;
}

}  // namespace

TEST_CASE("PageSession: a trace fed in chunks gives the report of the whole text") {
  for (const std::string& text : texts_to_stream()) {
    PageSession whole, streamed;
    fill(whole, text);
    REQUIRE(whole.load().ok());
    REQUIRE(streamed.begin_stream(text.size()).ok());
    for (size_t at = 0; at < text.size(); at += 4093) {
      const size_t n = std::min<size_t>(4093, text.size() - at);
      std::memcpy(streamed.stream_prepare(n), text.data() + at, n);
      REQUIRE(streamed.stream_commit(n));
    }
    // Events are parsed as they come, before the end, once the text spans windows.
    if (text.size() > 2 * IngestOptions{}.window_bytes) CHECK(streamed.stream_events() > 0);
    REQUIRE(streamed.finish_stream().ok());
    CHECK(streamed.event_count() == whole.event_count());
    CHECK(streamed.warnings_json() == whole.warnings_json());
    const std::vector<std::string> expected = report_csvs(whole);
    CHECK(expected.size() > 3);
    CHECK(report_csvs(streamed) == expected);
  }
}

TEST_CASE("PageSession: a streamed load that fails says why and leaves nothing loaded") {
  PageSession page;
  fill(page, test::one_gemm_trace());
  REQUIRE(page.load().ok());
  REQUIRE(page.begin_stream(0).ok());
  CHECK(page.event_count() == 0);  // the previous trace is freed
  const std::string text = "PK\x03\x04 not a trace";
  std::memcpy(page.stream_prepare(text.size()), text.data(), text.size());
  CHECK_FALSE(page.stream_commit(text.size()));
  const Status zip = page.finish_stream();
  CHECK(zip.code() == Code::not_json);
  CHECK(zip.message().find("not JSON: this is a zip archive; expected a Kineto trace") == 0);
  CHECK(page.build_report() == R"({"error":{"code":"no_trace_loaded","message":"no trace is loaded"}})");
  const Status none = page.finish_stream();
  CHECK(none.code() == Code::no_trace_loaded);
  CHECK(none.message() == "no trace is being read");
}

namespace {

// name → {kind, CSV} of every sheet a description lists, in its order.
struct DescribedSheet {
  std::string name, kind, csv;
  bool operator==(const DescribedSheet&) const = default;
};
std::vector<DescribedSheet> described_sheets(const PageSession& page, const std::string& described) {
  std::vector<DescribedSheet> sheets;
  for (size_t at = described.find(R"({"id":)"); at != std::string::npos; at = described.find(R"({"id":)", at + 1)) {
    const auto text_after = [&](const std::string& key) {
      const size_t from = described.find(key, at) + key.size();
      return described.substr(from, described.find('"', from) - from);
    };
    sheets.push_back({text_after(R"("name":")"), text_after(R"("kind":")"),
                      page.sheet_csv(std::stoi(described.substr(at + 6)))});
  }
  return sheets;
}

}  // namespace

TEST_CASE("PageSession: the HTA sheets asked after a report without them are the report's own") {
  std::vector<std::string> texts = {
      test::read_text(test::fs::path(SOLLENS_FIXTURES_DIR) / "synthetic" / "activation_checkpointing.json")};
#ifdef SOLLENS_HAVE_ZLIB
  const Result<Gunzipped> bert = gunzip(
      test::read_text(test::kTraces / "tracelens-h100-bert-small" / "gaunernst_bert-small-uncased__1016001.json.gz"));
  REQUIRE(bert.ok());
  texts.emplace_back(bert->data.view());
#endif
  const std::vector<std::vector<std::string>> asked = {{}, {"--detect-recompute", "--hta-kernel-gap-us", "5"}};
  for (const std::string& text : texts) {
    PageSession page;
    CHECK(page.build_hta() == R"({"error":{"code":"no_trace_loaded","message":"no trace is loaded"}})");
    fill(page, text);
    REQUIRE(page.load().ok());
    for (const std::vector<std::string>& words : asked) {
      const std::vector<DescribedSheet> whole = described_sheets(page, page.build_report(words));
      std::vector<std::string> without_words = words;
      without_words.push_back("--no-hta");
      const std::vector<DescribedSheet> first = described_sheets(page, page.build_report(without_words));
      const std::string hta = page.build_hta(words);
      CHECK(hta.starts_with(R"({"ms":)"));
      const std::vector<DescribedSheet> after = described_sheets(page, hta);
      // The report without them, then them: the whole report's sheets, the verdict last.
      std::vector<DescribedSheet> joined = first;
      REQUIRE(!joined.empty());
      CHECK(joined.back().name == "verdict");
      joined.insert(joined.end() - 1, after.begin(), after.end());
      CHECK(joined == whole);
      CHECK(after.size() >= 10);
      CHECK(std::all_of(after.begin(), after.end(), [](const DescribedSheet& s) { return s.kind == "hta"; }));
      CHECK(std::none_of(first.begin(), first.end(), [](const DescribedSheet& s) { return s.kind == "hta"; }));
    }
    // Kept with the report's tables: a new report lets them go.
    const std::string hta = page.build_hta();
    const int32_t handle = std::stoi(hta.substr(hta.find(R"({"id":)") + 6));
    CHECK(page.tables().table(handle) != nullptr);
    page.build_report({"--no-hta"});
    CHECK(page.tables().table(handle) == nullptr);
    CHECK(page.build_hta({"--no-hta"}).ends_with(R"(,"sheets":[]})"));
    CHECK(page.build_hta({"--hta-kernel-gap-us", "soon"}).starts_with(R"({"error":{"code":"bad_option_value",)"));
  }
}
