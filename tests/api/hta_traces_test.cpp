// The traces HTA writes for Perfetto UI, through the api as `sollens report
// --counters-trace` / `--critical-path-trace` writes them.
#include <catch2/catch.hpp>

#include <sstream>

#include "api/api_test_traces.h"
#include "api/hta_traces.h"

using namespace sollens;

namespace {

// One launch at 10 µs (3 µs) of a kernel at 20 µs (5 µs) on stream 7; whole µs.
const char* kTrace = R"T({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 1, "ts": 8, "dur": 7, "args": {}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 3, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 20, "dur": 5, "args": {"correlation": 1, "stream": 7}}
]})T";

}  // namespace

TEST_CASE("counters trace: the trace's text, then HTA's queue length track") {
  Session session;
  REQUIRE(test::load_text(session, kTrace).ok());
  std::ostringstream out;
  CHECK(write_counters_trace(session, out).ok());
  const std::string written = out.str();
  const std::string original(kTrace);
  const size_t last_event_end = original.find("\"stream\": 7}}") + 13;
  CHECK(written.substr(0, last_event_end) == original.substr(0, last_event_end));
  // The launch at 10 enqueues the kernel (1), its start at 20 dequeues it (0).
  CHECK(written.find(R"("name":"Queue Length","pid":0,"ts":10,"id":7,"args":{"Queue Length":1})") != std::string::npos);
  CHECK(written.find(R"("name":"Queue Length","pid":0,"ts":20,"id":7,"args":{"Queue Length":0})") != std::string::npos);
}

TEST_CASE("critical-path trace: the path overlaid, or why not") {
  Session session;
  REQUIRE(test::load_text(session, kTrace).ok());
  ReportRequest request;
  REQUIRE(read_report_words({"--critical-path", "none"}, request).ok());
  std::ostringstream none;
  const Status no_path = write_critical_path_trace(session, request, none);
  CHECK(no_path.code() == Code::conflicting_options);
  CHECK(no_path.message() == "--critical-path none leaves no path to overlay");
  CHECK(none.str().empty());

  REQUIRE(read_report_words({"--critical-path", "all"}, request).ok());
  std::ostringstream out;
  CHECK(write_critical_path_trace(session, request, out).ok());
  const std::string written = out.str();
  CHECK(written.starts_with(R"T({"traceEvents": [)T"));
  CHECK(written.size() > std::string(kTrace).size());
  CHECK(written.find("critical_path") != std::string::npos);
  // The written trace loads again, with more events than the original.
  Session again;
  REQUIRE(test::load_text(again, written).ok());
  CHECK(again.event_count() > session.event_count());
}
