// Errors as values at the API: each failing path answers its catalogue code (Status /
// Result, the page's JSON {"error": {"code", "message"}}), a standard-library exception
// stops at the edge as out_of_memory or internal_error, and Session::diagnostics()
// gathers every caveat of the loaded trace.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <new>
#include <sstream>
#include <stdexcept>

#include "api/api_guard.h"
#include "api/api_test_traces.h"
#include "api/compare.h"
#include "api/page_session.h"
#include "api/session.h"
#include "api/time_axis.h"

using namespace sollens;

namespace {

void fill(PageSession& page, const std::string& text) {
  std::memcpy(page.allocate(text.size()), text.data(), text.size());
}

bool has_code(const std::vector<Diagnostic>& diagnostics, Code code) {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [code](const Diagnostic& d) { return d.code == code; });
}

}  // namespace

TEST_CASE("guarded: a standard-library exception becomes a Status; a value passes through", "[errors]") {
  const Result<int> value = guarded("adding", []() -> Result<int> { return 42; });
  REQUIRE(value.ok());
  CHECK(*value == 42);

  const Result<int> no_memory = guarded("building the report", []() -> Result<int> { throw std::bad_alloc(); });
  CHECK(no_memory.code() == Code::out_of_memory);
  CHECK(no_memory.message() == "out of memory while building the report");

  const Status too_long = guarded("growing", []() -> Status { throw std::length_error("vector::reserve"); });
  CHECK(too_long.code() == Code::out_of_memory);

  const Status other = guarded("reading", []() -> Status { throw std::runtime_error("odd"); });
  CHECK(other.code() == Code::internal_error);
  CHECK(other.message() == "unexpected failure while reading: odd");

  const Status error_value = guarded("reading", []() -> Status { return Status(Code::not_json, "no"); });
  CHECK(error_value.code() == Code::not_json);
}

TEST_CASE("Session loads: each failure answers its code and leaves nothing loaded", "[errors]") {
  Session session;
  CHECK(test::load_text(session, "").code() == Code::file_empty);
  CHECK(test::load_text(session, R"({"traceEvents": 5})").code() == Code::events_not_an_array);
  REQUIRE(test::load_text(session, test::one_gemm_trace()).ok());

  const Result<LoadStats> capture = session.load_capture(PaddedBuffer::copy_of("not JSON at all"));
  CHECK(capture.code() == Code::not_json);
  CHECK(session.capture() == nullptr);

  const Result<LoadStats> et = session.load_execution_trace(PaddedBuffer::copy_of(test::one_gemm_trace()));
  CHECK(et.code() == Code::et_is_kineto);
  CHECK_FALSE(session.has_execution_trace());
  CHECK(session.loaded());  // a failed Execution Trace keeps the Kineto trace

  CHECK(test::load_text(session, "this is not JSON").code() == Code::not_json);
  CHECK_FALSE(session.loaded());
}

TEST_CASE("Session::diagnostics: the ingest's warnings and the tree's findings, with codes", "[errors]") {
  Session session;
  CHECK(session.diagnostics().empty());
  const std::string whole = test::one_gemm_trace();
  REQUIRE(test::load_text(session, whole.substr(0, whole.size() * 3 / 4)).ok());
  const std::vector<Diagnostic> cut = session.diagnostics();
  REQUIRE_FALSE(session.warnings().empty());
  for (const Diagnostic& w : session.warnings()) {
    INFO(w.message);
    CHECK(has_code(cut, w.code));
  }
  CHECK((has_code(cut, Code::truncated) || has_code(cut, Code::unclosed_array)));
  // Every finding of the trace's info (tree findings included) is there, in order.
  const std::vector<Diagnostic> info = session.info().warnings;
  REQUIRE(cut.size() >= info.size());
  for (size_t i = 0; i < info.size(); ++i) CHECK(cut[i].code == info[i].code);
  for (const Diagnostic& d : cut) CHECK(d.code != Code::ok);
}

TEST_CASE("Stored reports and run names: their codes", "[errors]") {
  CHECK(read_stored_report("not JSON").code() == Code::report_not_json);
  CHECK(read_stored_report(R"({"sheets": 3})").code() == Code::report_no_sheets);
  CHECK(check_compare_tags({"main", "pr"}).ok());
  CHECK(check_compare_tags({"main", "main"}).code() == Code::bad_run_names);
  CHECK(check_compare_tags({"", "pr"}).code() == Code::bad_run_names);
}

TEST_CASE("Trimmed trace text: a backwards range and a text with no events, by code", "[errors]") {
  std::ostringstream out;
  CHECK(write_trimmed_trace_text(test::one_gemm_trace(), 10, 5, out).code() == Code::bad_range);
  CHECK(write_trimmed_trace_text(R"({"nodes": []})", 0, 5, out).code() == Code::not_a_trace);
  CHECK(write_trimmed_trace_text(test::one_gemm_trace(), 0, 1e9, out).ok());
}

TEST_CASE("PageSession: every refusal carries its code", "[errors][page]") {
  PageSession page;
  CHECK(page.event_detail(0) == R"({"error":{"code":"no_trace_loaded","message":"no trace is loaded"}})");
  CHECK(page.build_time_axis("") == R"({"error":{"code":"no_trace_loaded","message":"no trace is loaded"}})");
  CHECK(page.trim_buffer(0, 1).code() == Code::no_trace_loaded);
  CHECK(page.load_capture().code() == Code::no_trace_loaded);
  CHECK(page.finish_stream().code() == Code::no_trace_loaded);

  fill(page, test::one_gemm_trace());
  REQUIRE(page.load().ok());
  CHECK(page.event_detail(0).starts_with(R"({"error":{"code":"time_axis_not_built",)"));
  CHECK(page.range_summary(0, 1).starts_with(R"({"error":{"code":"time_axis_not_built",)"));
  CHECK(page.build_report({"--no-xlsx"}).starts_with(R"({"error":{"code":"unknown_option",)"));
  CHECK(page.build_report({"--topk-short-kernels", "many"}).starts_with(R"({"error":{"code":"bad_option_value",)"));
  CHECK(page.build_sol("no-such-gpu", 1).starts_with(R"({"error":{"code":"unknown_device",)"));
  CHECK(page.build_cycles("all", "sideways").starts_with(R"({"error":{"code":"bad_option_value",)"));

  REQUIRE(page.build_time_axis("").find(R"("sheets":[)") != std::string::npos);
  CHECK(page.event_detail(-1).starts_with(R"({"error":{"code":"bad_range",)"));
  CHECK(page.range_summary(5, 5).starts_with(R"({"error":{"code":"bad_range",)"));
  fill(page, test::one_gemm_trace());
  CHECK(page.trim_buffer(10, 5).code() == Code::bad_range);
  fill(page, R"({"nodes": []})");
  CHECK(page.trim_buffer(0, 5).code() == Code::not_a_trace);
  fill(page, test::one_gemm_trace());
  REQUIRE(page.trim_buffer(0, 1e9).ok());
  CHECK_FALSE(page.trimmed().empty());
}
