// Known-bad inputs through the API: every diagnostic they produce carries a code the
// catalogue describes, with the severity the catalogue gives it (a load that failed:
// Error; caveats of a load that succeeded: never Error), and report.json counts it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "api/session.h"
#include "base/diagnostics.h"
#include "ingest/trace_reader.h"
#include "writers/diagnostics_report.h"

using namespace sollens;

namespace {

const std::string kEvent =
    R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5})";

bool in_catalogue(Code code) {
  const DiagnosticEntry& entry = describe(code);
  return code != Code::ok && entry.code == code && code_named(entry.id) == code;
}

std::vector<Diagnostic> diagnostics_of(const std::string& text) {
  Session session;
  (void)session.load(PaddedBuffer::copy_of(text));
  REQUIRE(session.loaded());
  return session.diagnostics();
}

}  // namespace

TEST_CASE("diagnostics of readable bad traces: catalogue codes, never Error severity", "[diagnostics]") {
  const struct {
    const char* what;
    std::string text;
    Code expected;
  } cases[] = {
      {"cut inside an event", R"({"traceEvents": [)" + kEvent + R"(, {"ph": "X", "na)", Code::truncated},
      {"no closing bracket", R"({"traceEvents": [)" + kEvent, Code::unclosed_array},
      {"a ts that is a word", R"({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "soon", "dur": 1}, )" +
                                  kEvent + "]}",
       Code::bad_numbers},
      {"an empty event", R"({"traceEvents": [{}, )" + kEvent + "]}", Code::empty_events},
      {"a number among the events", R"({"traceEvents": [1, )" + kEvent + "]}", Code::non_object_events},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const std::vector<Diagnostic> emitted = diagnostics_of(c.text);
    bool found = false;
    for (const Diagnostic& d : emitted) {
      INFO(std::string(code_id(d.code)) + ": " + d.message);
      CHECK(in_catalogue(d.code));
      CHECK(describe(d.code).severity != Severity::Error);
      CHECK(!d.message.empty());
      found = found || d.code == c.expected;
    }
    CHECK(found);
    CHECK(describe(c.expected).severity == Severity::Warning);
    // report.json counts it under its id.
    const std::string json = emitted_diagnostics_json(emitted);
    CHECK(json.find("\"" + std::string(code_id(c.expected)) + "\": 0") == std::string::npos);
  }
}

TEST_CASE("diagnostics of unreadable inputs: an Error code from the catalogue", "[diagnostics]") {
  const struct {
    const char* what;
    std::string text;
    Code expected;
  } cases[] = {
      {"nothing", "   ", Code::file_empty},
      {"words", "these are my notes", Code::not_json},
      {"JSON without traceEvents", R"({"schemaVersion": 1})", Code::not_a_trace},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const auto loaded = load_trace(PaddedBuffer::copy_of(c.text));
    REQUIRE(!loaded.ok());
    INFO(loaded.message());
    CHECK(loaded.code() == c.expected);
    CHECK(in_catalogue(loaded.code()));
    CHECK(describe(loaded.code()).severity == Severity::Error);
  }
}
