// Malformed Kineto traces: a named table of inputs, each with the diagnostic it must
// give (a catalogue code, base/diagnostics.def) and how many events must survive, loaded
// through ingest (load_trace) and through Session::load. Also every prefix of a small
// valid trace (and of its gzip, natively). Each expectation is read off the input as
// written here, not off what the reader returned.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#ifdef SOLLENS_HAVE_ZLIB
#include <zlib.h>
#endif

#include "malformed_load.h"

using namespace sollens;
using sollens::test::LoadSummary;
using sollens::test::load_through_ingest;
using sollens::test::load_through_session;

namespace {

constexpr long kError = -1;  // the load must fail

struct MalformedCase {
  const char* name;
  std::string bytes;
  std::vector<std::string_view> codes;  // catalogue ids: each among the diagnostics, or the error's code
  long events;              // events the store must hold, or kError
};

std::string event(std::string_view name, std::string_view ts = "10", std::string_view dur = "5",
                  std::string_view more = "") {
  return R"({"ph": "X", "cat": "cpu_op", "name": ")" + std::string(name) + R"(", "pid": 1, "tid": 1, "ts": )" +
         std::string(ts) + R"(, "dur": )" + std::string(dur) + std::string(more) + "}";
}

std::string trace_of(const std::vector<std::string>& events) {
  std::string s = R"({"schemaVersion": 1, "traceEvents": [)";
  for (size_t i = 0; i < events.size(); ++i) s += (i ? ",\n" : "\n") + events[i];
  return s + "\n]}";
}

std::string one(std::string_view name, std::string_view ts, std::string_view dur, std::string_view more = "") {
  return trace_of({event(name, ts, dur, more), event("after")});
}

std::string nested(size_t depth, char open, char close, std::string_view inner = "0") {
  std::string s;
  s.reserve(depth * 6 + inner.size());
  for (size_t i = 0; i < depth; ++i) s += open == '{' ? std::string(R"({"a":)") : std::string(1, open);
  s += inner;
  s.append(depth, close);
  return s;
}

std::string deep_args_event(char open) {
  const std::string args = open == '[' ? R"({"x": )" + nested(100000, '[', ']') + "}" : nested(100000, '{', '}');
  return event("deep", "10", "5", R"(, "args": )" + args);
}

std::vector<MalformedCase> corpus() {
  const std::string seven_days_and_one = "604800000001";
  return {
      {"control character in a name", one("a\x01" "b", "10", "5"), {"control_characters"}, 2},
      {"invalid UTF-8 in a name", one("a\xff" "b", "10", "5"), {"invalid_utf8"}, 2},
      // RFC 8259 lets a reader ignore a byte order mark; sollens does, without a word.
      {"a UTF-8 byte order mark before the document", "\xEF\xBB\xBF" + trace_of({event("a")}), {}, 1},
      {"a trailing {} after the document", trace_of({event("a"), event("b")}) + "{}", {"trailing_content"}, 2},
      {"the events array lacks its ]", R"({"traceEvents": [)" + event("a") + "," + event("b") + "}",
       {"unclosed_array"}, 2},
      {"ts NaN as a literal", one("a", "NaN", "5"), {"bad_numbers"}, 2},
      {"ts Infinity as a literal", one("a", "Infinity", "5"), {"bad_numbers"}, 2},
      {"dur -Infinity as a literal", one("a", "10", "-Infinity"), {"bad_numbers"}, 2},
      {"ts \"NaN\" as a string", one("a", "\"NaN\"", "5"), {"bad_numbers"}, 2},
      {"dur \"Infinity\" as a string", one("a", "10", "\"Infinity\""), {"bad_numbers"}, 2},
      {"ts 1e300", one("a", "1e300", "5"), {"bad_numbers"}, 2},
      {"dur 1e300", one("a", "10", "1e300"), {"huge_durations"}, 2},
      {"a negative duration", one("a", "10", "-5"), {"negative_durations"}, 2},
      {"a day-long duration (no diagnostic)", one("a", "10", "86400000000"), {}, 2},
      {"a duration of 7 days and 1 us", one("a", "10", seven_days_and_one), {"huge_durations"}, 2},
      {"ts as a numeric string (read as its number)", one("a", "\"12.5\"", "5"), {}, 2},
      {"ts as an object", one("a", "{\"us\": 10}", "5"), {"bad_numbers"}, 2},
      // An event of no known phase, as Chrome's viewer takes one: kept, counted by none.
      {"ph as a number", trace_of({R"({"ph": 88, "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1})", event("b")}),
       {}, 2},
      {"args as an array (read as no args)", one("a", "10", "5", R"(, "args": [1, 2, 3])"), {}, 2},
      {"traceEvents as an object", R"({"traceEvents": {"a": 1}})", {"events_not_an_array"}, kError},
      {"ts past INT64 (an integer of 20 digits)", one("a", "99999999999999999999", "5"), {"bad_numbers"}, 2},
      {"dur past INT64", one("a", "10", "99999999999999999999"), {"huge_durations"}, 2},
      {"pid past INT64 (kept as its text)",
       trace_of({R"({"ph": "X", "name": "a", "pid": 99999999999999999999, "tid": 1, "ts": 1, "dur": 1})"}), {}, 1},
      {"correlation past INT64 (read as none)", one("a", "10", "5", R"(, "args": {"correlation": 99999999999999999999})"), {}, 2},
      // args are kept as bytes and parsed (depth-limited) only when an analysis needs them.
      {"args nested 100 000 arrays deep", trace_of({deep_args_event('['), event("b")}), {}, 2},
      {"args nested 100 000 objects deep", trace_of({deep_args_event('{'), event("b")}), {}, 2},
      // The legacy form (a top-level array): its one element is not an event.
      {"the document nested 100 000 arrays deep", nested(100000, '[', ']'), {"non_object_events"}, 1},
      {"the document nested 100 000 objects deep", nested(100000, '{', '}'), {"not_a_trace"}, kError},
  };
}

std::string codes_of(const std::vector<std::string_view>& codes) {
  std::string s;
  for (std::string_view c : codes) s += std::string(s.empty() ? "" : ", ") + std::string(c);
  return s.empty() ? "(none)" : s;
}

// The catalogue's code for an id; a test of a code not in the catalogue fails.
Code catalogue_code(std::string_view id) {
  const std::optional<Code> code = code_named(id);
  INFO("the catalogue (base/diagnostics.def) has no code " << id);
  REQUIRE(code.has_value());
  return *code;
}

void check_case(const MalformedCase& c, const LoadSummary& got) {
  INFO("expected " << (c.events == kError ? "an error" : std::to_string(c.events) + " events") << " with "
                   << codes_of(c.codes));
  INFO("got " << got.describe());
  if (c.events == kError) {
    CHECK_FALSE(got.loaded);
    CHECK_FALSE(got.error_text.empty());
    if (got.error_has_code) {
      REQUIRE(c.codes.size() == 1);
      CHECK(got.error == catalogue_code(c.codes.front()));
    }
    return;
  }
  REQUIRE(got.loaded);
  CHECK(got.events == static_cast<size_t>(c.events));
  for (std::string_view id : c.codes) CHECK(got.has(catalogue_code(id)));
  if (c.codes.empty()) CHECK(got.diagnostics.empty());
}

}  // namespace

TEST_CASE("malformed corpus: each input gives its diagnostic and the events that survive", "[malformed][ingest]") {
  for (const MalformedCase& c : corpus()) {
    DYNAMIC_SECTION(c.name) {
      SECTION("through load_trace") { check_case(c, load_through_ingest(c.bytes)); }
      SECTION("through Session::load") { check_case(c, load_through_session(c.bytes)); }
    }
  }
}

// ---------------------------------------------------------------------------------
// Every prefix of a small valid trace: metadata before and after traceEvents, a CPU op,
// its launch and the kernel it launched (one correlation), a metadata event.

namespace {

struct SmallTrace {
  std::string text;
  std::vector<size_t> event_ends;  // offset just past each event's closing brace
  std::vector<std::string> names;
};

SmallTrace small_trace() {
  const std::vector<std::pair<std::string, std::string>> events = {
      {"aten::mm", R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 8, "args": {"External id": 3}})"},
      {"cudaLaunchKernel", R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 11, "dur": 2, "args": {"External id": 3, "correlation": 7}})"},
      {"sm90_gemm", R"({"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 14, "dur": 3, "args": {"External id": 3, "correlation": 7, "stream": 7, "device": 0}})"},
      {"process_name", R"({"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}})"},
  };
  SmallTrace t;
  t.text = R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
"traceEvents": [
)";
  for (size_t i = 0; i < events.size(); ++i) {
    if (i) t.text += ",\n";
    t.text += events[i].second;
    t.event_ends.push_back(t.text.size());
    t.names.push_back(events[i].first);
  }
  t.text += R"(
], "displayTimeUnit": "ms", "baseTimeNanoseconds": 1700000000000000000, "traceName": "small.json"})";
  return t;
}

size_t complete_before(const SmallTrace& t, size_t cut) {
  size_t n = 0;
  while (n < t.event_ends.size() && t.event_ends[n] <= cut) ++n;
  return n;
}

bool says_cut_short(const LoadSummary& s) {
  return s.has(Code::truncated) || s.has(Code::unclosed_array) || s.has(Code::metadata_truncated);
}

// A load of a cut trace: an error with words (and a code where errors carry one), or
// the complete events before the cut and a diagnostic that says the trace is cut short.
void check_cut(const SmallTrace& t, size_t cut, const LoadSummary& got) {
  INFO("cut at byte " << cut << " of " << t.text.size() << ": ..." << t.text.substr(cut > 30 ? cut - 30 : 0, cut > 30 ? 30 : cut));
  INFO("got " << got.describe());
  if (!got.loaded) {
    CHECK_FALSE(got.error_text.empty());
    if (got.error_has_code) CHECK(got.error != Code::ok);
    return;
  }
  CHECK(got.events == complete_before(t, cut));
  CHECK(says_cut_short(got));
}

}  // namespace

TEST_CASE("malformed corpus: a trace cut at every byte", "[malformed][ingest][truncation]") {
  const SmallTrace t = small_trace();
  REQUIRE(load_through_ingest(t.text).events == 4);
  REQUIRE(load_through_ingest(t.text).diagnostics.empty());
  size_t errors = 0, partial = 0;
  for (size_t cut = 0; cut < t.text.size(); ++cut) {
    const std::string_view prefix(t.text.data(), cut);
    const LoadSummary through_ingest = load_through_ingest(prefix);
    check_cut(t, cut, through_ingest);
    const LoadSummary through_session = load_through_session(prefix);
    check_cut(t, cut, through_session);
    CHECK(through_session.loaded == through_ingest.loaded);
    (through_ingest.loaded ? partial : errors) += 1;
  }
  // Every cut after the first event is a partial store (checked below); before it,
  // cuts in the keys before traceEvents are errors.
  CHECK(partial >= t.text.size() - t.event_ends[0]);
  CHECK(errors >= t.text.find("\"traceEvents\""));
}

TEST_CASE("malformed corpus: a trace cut after its first event keeps the first ones, in order", "[malformed][ingest][truncation]") {
  // Once an event is complete a store is sound: these cuts must not be errors.
  const SmallTrace t = small_trace();
  for (size_t cut = t.event_ends[0]; cut < t.text.size(); ++cut) {
    const auto r = load_trace(PaddedBuffer::copy_of(std::string_view(t.text.data(), cut)));
    INFO("cut at byte " << cut << ": " << r.message());
    REQUIRE(r.ok());
    const EventStore& store = **r;
    for (size_t i = 0; i < store.size(); ++i) CHECK(store.name_of(i) == t.names[i]);
    // deviceProperties come before traceEvents: read whatever follows is cut.
    CHECK(store.metadata.devices.size() == 1);
  }
}

#ifdef SOLLENS_HAVE_ZLIB
namespace {

std::string gzip(std::string_view text) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

TEST_CASE("malformed corpus: the gzip of a trace cut at every 7th byte", "[malformed][ingest][truncation][gzip]") {
  const SmallTrace t = small_trace();
  const std::string gz = gzip(t.text);
  REQUIRE(load_through_ingest(gz).events == 4);
  for (size_t cut = 0; cut < gz.size(); cut += 7) {
    const std::string_view prefix(gz.data(), cut);
    for (const LoadSummary& got : {load_through_ingest(prefix), load_through_session(prefix)}) {
      INFO("gzip cut at byte " << cut << " of " << gz.size() << "; got " << got.describe());
      if (!got.loaded) {
        CHECK_FALSE(got.error_text.empty());
        if (got.error_has_code) CHECK(got.error != Code::ok);
        continue;
      }
      CHECK(got.has(Code::gzip_truncated));
      CHECK(got.events <= 4);
    }
  }
}
#endif

// ---------------------------------------------------------------------------------
// Cases that need more than a count: which of two keys wins, very long values.

namespace {

const EventStore& loaded_store(const Result<std::unique_ptr<EventStore>>& r) {
  INFO(r.message());
  REQUIRE(r.ok());
  return **r;
}

}  // namespace

TEST_CASE("malformed corpus: of duplicate keys in an event, the last one wins", "[malformed][ingest]") {
  // sollens reads an event's members in order and each assignment replaces the one
  // before (RFC 8259 leaves duplicates to the reader; JavaScript's JSON.parse, which
  // the page's other readers use, also keeps the last).
  const std::string text = trace_of(
      {R"({"ph": "B", "name": "first", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "ph": "X", "name": "second", "ts": 3, "dur": 4})"});
  const auto r = load_trace(PaddedBuffer::copy_of(text));
  const EventStore& s = loaded_store(r);
  REQUIRE(s.size() == 1);
  CHECK(s.name_of(0) == "second");
  CHECK(s.phase[0] == Phase::kComplete);
  CHECK(s.ts[0] == 3.0);
  CHECK(s.dur[0] == 4.0);
  CHECK(s.warnings.empty());
}

TEST_CASE("malformed corpus: a name of 64 KiB is kept whole", "[malformed][ingest]") {
  const std::string name(size_t(64) << 10, 'n');
  const auto r = load_trace(PaddedBuffer::copy_of(trace_of({event(name), event("after")})));
  const EventStore& s = loaded_store(r);
  REQUIRE(s.size() == 2);
  CHECK(s.name_of(0) == name);
  CHECK(s.name_of(1) == "after");
  CHECK(s.warnings.empty());
}

TEST_CASE("malformed corpus: args of 10 million elements", "[malformed][ingest]") {
  // 10 million array elements are 20 MB of JSON, which simdjson indexes at 4 bytes per
  // structural character (80 MB more): well inside the wasm test build's memory (it
  // grows to emscripten's default 2 GiB), so the case is the same there. The args are
  // kept as bytes, not parsed, so the events stay whole.
  constexpr size_t kElements = 10'000'000;
  std::string args = R"(, "args": {"big": [)";
  args.reserve(args.size() + 2 * kElements + 8);
  for (size_t i = 0; i < kElements; ++i) args += i ? ",0" : "0";
  args += "]}";
  const auto r = load_trace(PaddedBuffer::copy_of(trace_of({event("a", "10", "5", args), event("after")})));
  const EventStore& s = loaded_store(r);
  REQUIRE(s.size() == 2);
  CHECK(s.name_of(1) == "after");
  CHECK(s.args_json(0).size() == args.size() - std::string_view(R"(, "args": )").size());
  CHECK(s.warnings.empty());
}

TEST_CASE("malformed corpus: args nested 100 000 deep are refused when read, not overflowed", "[malformed][ingest]") {
  for (char open : {'[', '{'}) {
    Session session;
    const std::string text = trace_of({deep_args_event(open), event("b")});
    (void)session.load(PaddedBuffer::copy_of(text));
    REQUIRE(session.loaded());
    const EventView events = session.events();
    REQUIRE(events.size() == 2);
    for (size_t i = 0; i < events.size(); ++i) {
      CHECK(events[i].input_shapes().empty());
      CHECK(events[i].correlation_id() == 0);
    }
  }
}
