// Every error and warning the trace readers emit comes with its catalogue code, the
// same from the reader of a whole text and the reader fed in chunks. Small inline
// inputs, one a row.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "ingest/ingest_test_util.h"
#include "ingest/report_reader.h"
#include "ingest/trace_stream.h"

using namespace sollens;

namespace {

const std::string kEvent = R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2})";

std::string trace_of(const std::string& events) { return R"({"traceEvents":[)" + events + "]}"; }

Result<std::unique_ptr<EventStore>> fed_in_chunks(std::string_view text, size_t chunk) {
  TraceStreamReader reader;
  for (size_t at = 0; at < text.size(); at += chunk) {
    const size_t n = std::min(chunk, text.size() - at);
    char* room = reader.prepare(n);
    REQUIRE(room != nullptr);
    std::memcpy(room, text.data() + at, n);
    if (!reader.commit(n)) break;
  }
  return reader.finish();
}

bool has_code(const EventStore& store, Code code) {
  for (const Diagnostic& w : store.warnings)
    if (w.code == code) return true;
  return false;
}

}  // namespace

TEST_CASE("load errors: each with its code, whole or fed in chunks", "[ingest][codes]") {
  struct Case {
    const char* what;
    std::string text;
    Code code;
  };
  const std::vector<Case> cases = {
      {"no bytes", "", Code::file_empty},
      {"only whitespace", " \n\t ", Code::file_empty},
      {"plain text", "hello, world", Code::not_json},
      {"a PNG image", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), Code::not_json},
      {"JSON without traceEvents", R"({"nodes_x": 1, "other": [1, 2]})", Code::not_a_trace},
      {"traceEvents not an array", R"({"traceEvents": 5})", Code::events_not_an_array},
      {"a malformed event before well-formed ones",
       trace_of(R"({"ph":"X","name":"a" "ts":1},)" + kEvent + "," + kEvent), Code::invalid_json},
      // A gzip header, then a deflate block of the reserved type (BFINAL 1, BTYPE 11).
      {"a gzip stream with a reserved block type", std::string("\x1f\x8b\x08\0\0\0\0\0\0\x03\x07garbage", 18),
#ifdef SOLLENS_HAVE_ZLIB
       Code::gzip_corrupt
#else
       Code::gzip_unsupported
#endif
      },
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const auto whole = test::load(c.text);
    CHECK(whole.code() == c.code);
    CHECK_FALSE(whole.message().empty());
    if (c.text.empty()) continue;  // nothing to feed
    for (size_t chunk : {size_t(1), size_t(7), size_t(4096)}) {
      INFO("chunks of " << chunk);
      const auto fed = fed_in_chunks(c.text, chunk);
      CHECK(fed.code() == c.code);
    }
  }
}

TEST_CASE("a load cancelled by its progress callback: Code::cancelled", "[ingest][codes]") {
  std::string events = kEvent;
  for (int i = 0; i < 200; ++i) events += "," + kEvent;
  IngestOptions options;
  options.window_bytes = 256;
  options.progress = [](size_t, size_t) { return false; };
  const auto whole = load_trace(PaddedBuffer::copy_of(trace_of(events)), options);
  CHECK(whole.code() == Code::cancelled);
  CHECK(whole.message() == "loading was cancelled");
}

TEST_CASE("load warnings: each with its code and words, whole or fed in chunks", "[ingest][codes]") {
  struct Case {
    const char* what;
    std::string text;
    Code code;
    const char* words;
  };
  const std::string launch =
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":1,"args":{"correlation":7}})";
  const std::vector<Case> cases = {
      {"cut inside an event", R"({"traceEvents":[)" + kEvent + R"(,{"ph":"X","na)", Code::truncated,
       "the trace ends inside an event"},
      {"no closing ]", R"({"traceEvents":[)" + kEvent, Code::unclosed_array, "no closing ']'"},
      {"a number among the events", trace_of("1," + kEvent), Code::non_object_events, "are not objects"},
      {"an empty object", trace_of("{}," + kEvent), Code::empty_events, "empty {} events were skipped"},
      {"an empty element", trace_of(kEvent + ",," + kEvent), Code::empty_elements, "empty array elements"},
      {"ts as an object", trace_of(R"({"ph":"X","name":"a","ts":{"us":1},"dur":2})"), Code::bad_numbers,
       "are not numbers"},
      {"invalid UTF-8 in a name", trace_of("{\"ph\":\"X\",\"name\":\"a\xff\",\"ts\":1}"), Code::invalid_utf8,
       "invalid UTF-8"},
      {"a raw control character in a name", trace_of("{\"ph\":\"X\",\"name\":\"a\x01\",\"ts\":1}"),
       Code::control_characters, "raw control characters"},
      {"a duration of 8 days", trace_of(R"({"ph":"X","name":"a","ts":1,"dur":691200000000})"), Code::huge_durations,
       "longer than 7 days"},
      {"invalid UTF-8 in a top-level key", "{\"traceName\":\"t\xff\",\"traceEvents\":[" + kEvent + "]}",
       Code::metadata_repaired, "in the top-level keys"},
      {"cut inside the keys after the events", trace_of(kEvent).substr(0, trace_of(kEvent).size() - 1) +
                                                   R"(,"deviceProperties":[{"id":0,"na)",
       Code::metadata_truncated, ""},
      {"an Execution Trace", R"({"schema":"1.0.1","pid":1,"nodes":[]})", Code::execution_trace,
       "PyTorch Execution Trace"},
      {"a launch without its kernel, cut short", R"({"traceEvents":[)" + launch + R"(,{"ph":"X","na)",
       Code::cut_short_gpu, "no GPU events were read before the cut"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const auto whole = test::load(c.text);
    INFO(whole.message());
    REQUIRE(whole.ok());
    INFO(test::warning_list(*whole.value()));
    const Diagnostic* w = nullptr;
    for (const Diagnostic& d : whole.value()->warnings)
      if (d.code == c.code) w = &d;
    REQUIRE(w != nullptr);
    CHECK_THAT(w->message, Catch::Contains(c.words));
    CHECK(describe(c.code).severity == Severity::Warning);
    const auto fed = fed_in_chunks(c.text, 5);
    REQUIRE(fed.ok());
    CHECK(has_code(*fed.value(), c.code));
  }
}

TEST_CASE("stored report errors: each with its code", "[ingest][codes][report]") {
  struct Case {
    const char* what;
    std::string text;
    Code code;
  };
  const std::vector<Case> cases = {
      {"not JSON", "{\"sheets\": ", Code::report_not_json},
      {"no sheets", R"({"metadata": {"generator": "sollens"}})", Code::report_no_sheets},
      {"a sheet that is not rows", R"({"sheets": {"ops": 5}})", Code::report_bad_sheet},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const Result<StoredReport> r = read_report_json(c.text);
    CHECK(r.code() == c.code);
    CHECK_THAT(r.message(), Catch::Contains("not a report.json"));
  }
  const Result<StoredReport> good =
      read_report_json(R"({"metadata": {"generator": "sollens 1"}, "sheets": {"ops": [{"name": "a", "n": 2}]}})");
  REQUIRE(good.ok());
  CHECK(good->generator == "sollens 1");
  REQUIRE(good->sheets.size() == 1);
  CHECK(good->sheets[0].num_rows() == 1);
}
