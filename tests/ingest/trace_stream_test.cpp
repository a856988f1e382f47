// The reader fed in chunks gives the store load_trace makes from the whole text (with
// compact_input, as it keeps only what the store needs), wherever the chunks are cut:
// the same rows, strings, args, metadata and warnings, and the same errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "fixture_texts.h"
#include "generated_events.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_stream.h"
#include "ingest_test_util.h"
#include "store_difference.h"

using namespace sollens;
using sollens::test::generate_events;
using sollens::test::join_events;
using sollens::test::kDefaultWindow;
using sollens::test::compact;
using sollens::test::store_difference;

namespace {

// `text` through the stream reader in chunks of `chunk` bytes.
Result<std::unique_ptr<EventStore>> stream(std::string_view text, size_t chunk, IngestOptions options, size_t expected) {
  TraceStreamReader reader(std::move(options), expected);
  for (size_t at = 0; at < text.size(); at += chunk) {
    const size_t n = std::min(chunk, text.size() - at);
    char* to = reader.prepare(n);
    REQUIRE(to != nullptr);
    std::copy_n(text.data() + at, n, to);
    if (!reader.commit(n)) break;
  }
  return reader.finish();
}
Result<std::unique_ptr<EventStore>> stream(std::string_view text, size_t chunk, size_t window, size_t expected = 0) {
  return stream(text, chunk, compact(window), expected);
}

// Streams `text` with each chunk size and window, comparing with the whole-text load.
void check_same_as_whole(std::string_view text, const std::vector<size_t>& chunks,
                         const std::vector<size_t>& windows) {
  for (size_t window : windows) {
    const Result<std::unique_ptr<EventStore>> whole = load_trace(PaddedBuffer::copy_of(text), compact(window));
    for (size_t chunk : chunks) {
      INFO("window " << window << ", chunk " << chunk);
      const Result<std::unique_ptr<EventStore>> streamed = stream(text, chunk, window, chunk % 2 ? 0 : text.size());
      CHECK(streamed.message() == whole.message());
      CHECK(streamed.code() == whole.code());
      REQUIRE(streamed.ok() == whole.ok());
      if (whole.ok()) CHECK(store_difference(*streamed.value(), *whole.value()) == "");
    }
  }
}

const std::vector<size_t> kSmallChunks = {1, 7, 64, 4093, size_t(1) << 30};
const std::vector<size_t> kWindows = {64, kDefaultWindow};

std::string generated_trace(bool tricky) {
  return R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "A"}], "traceEvents": [)" +
         join_events(generate_events(300, tricky)) +
         R"(], "traceName": "gen", "baseTimeNanoseconds": 1700000000000000000})";
}

}  // namespace

TEST_CASE("stream: generated events, any chunks and windows, the whole-text store", "[ingest][stream]") {
  const bool tricky = GENERATE(false, true);
  INFO("tricky " << tricky);
  check_same_as_whole(generated_trace(tricky), kSmallChunks, kWindows);
}

TEST_CASE("stream: the forms and faults of the whole-text reader, the same warnings and errors",
          "[ingest][stream]") {
  const std::string events = join_events(generate_events(120, true));
  const std::string trace = generated_trace(true);
  std::vector<std::pair<std::string, std::string>> cases = {
      {"legacy top-level array", "[" + events + "]"},
      {"legacy array unclosed", "[" + events},
      {"byte order mark", "\xEF\xBB\xBF" + trace},
      {"events last", R"({"traceName": "x", "traceEvents": [)" + events + "]}"},
      {"empty elements", R"({"traceEvents": [,{"ph": "X", "name": "a", "ts": 1},, {"ph": "X", "name": "b", "ts": 2},]})"},
      {"empty array", R"({"traceEvents": [], "traceName": "e"})"},
      {"truncated inside an event", trace.substr(0, trace.size() / 2)},
      {"missing the closing bracket", R"({"traceEvents": [)" + events},
      {"cut in the keys after the events", trace.substr(0, trace.size() - 20)},
      {"malformed event", R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1}, {"ph": "X", "name": "b" "ts": 2}, {"ph": "X", "name": "c", "ts": 3}]})"},
      {"unescaped quote", R"({"traceEvents": [{"ph": "X", "name": "a"b", "ts": 1}, {"ph": "X", "name": "c", "ts": 3}]})"},
      {"invalid UTF-8 and a raw tab", "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\xff\xfe\tb\", \"ts\": 1}]}"},
      {"an Execution Trace", R"({"schema": "1.0.1", "pid": 1, "nodes": [{"id": 1, "name": "[pytorch|profiler|execution_trace|process]"}]})"},
      {"no traceEvents", R"({"a": 1, "b": [1, 2]})"},
      {"traceEvents not an array", R"({"traceEvents": {"a": 1}})"},
      {"not JSON", "PK\x03\x04 zip"},
      {"only whitespace", "   \n\t "},
      {"a huge event", R"({"traceEvents": [{"ph": "X", "name": ")" + std::string(size_t(9) << 20, 'n') +
                           R"(", "ts": 1}, {"ph": "X", "name": "b", "ts": 2}]})"},
  };
  // Past the reader's first buffer, so that its offsets are counted from a later start.
  const std::string many = join_events(generate_events(40000, true));
  REQUIRE(many.size() > (size_t(6) << 20));
  cases.emplace_back("late malformed event", R"({"traceEvents": [)" + many + R"(, {"ph": "X", "name": "b" "ts": 2}]})");
  cases.emplace_back("late truncation", R"({"traceEvents": [)" + many + R"(, {"ph": "X", "name": "b", "ts)");
  cases.emplace_back("late unescaped quote", R"({"traceEvents": [)" + many +
                                                 R"(, {"ph": "X", "name": "a"b", "ts": 1}, {"ph": "X", "name": "c", "ts": 3}]})");
  for (const auto& [name, text] : cases) {
    INFO(name);
    const bool huge = text.size() > (size_t(1) << 20);
    check_same_as_whole(text, huge ? std::vector<size_t>{65536, 1000003} : kSmallChunks, kWindows);
  }
}

TEST_CASE("stream: an empty input and a failed load", "[ingest][stream]") {
  TraceStreamReader empty;
  const Result<std::unique_ptr<EventStore>> nothing = empty.finish();
  CHECK(nothing.code() == Code::file_empty);
  CHECK(nothing.message() == "the file is empty");

  TraceStreamReader broken(compact(64));
  const std::string text = R"({"traceEvents": [{"ph": "X", "name": "a" "ts": 1}, {"ph": "X", "name": "b", "ts": 2}, )";
  char* to = broken.prepare(text.size());
  std::copy(text.begin(), text.end(), to);
  CHECK_FALSE(broken.commit(text.size()));  // known at once: no need to read on
  CHECK_FALSE(broken.commit(0));
  CHECK(broken.prepare(10) == nullptr);
  const Result<std::unique_ptr<EventStore>> r = broken.finish();
  CHECK(r.code() == Code::invalid_json);
  CHECK_THAT(r.message(), Catch::Matchers::Contains("invalid JSON in traceEvents") &&
                          Catch::Matchers::Contains("(byte 17)"));
}

TEST_CASE("stream: progress after each window, and cancelling", "[ingest][stream]") {
  const std::string text = generated_trace(false);
  IngestOptions options = compact(256);
  size_t calls = 0, last_bytes = 0;
  options.progress = [&](size_t bytes, size_t) {
    CHECK(bytes >= last_bytes);
    last_bytes = bytes;
    return ++calls < 3;
  };
  TraceStreamReader reader(options);
  char* to = reader.prepare(text.size());
  std::copy(text.begin(), text.end(), to);
  CHECK_FALSE(reader.commit(text.size()));
  CHECK(calls == 3);
  const Result<std::unique_ptr<EventStore>> r = reader.finish();
  CHECK(r.code() == Code::cancelled);
}

TEST_CASE("stream: the memory held is the store and a window, not the text", "[ingest][stream]") {
  // 40 000 events of about 150 bytes: 6 MB of text, more than the reader's first buffer.
  std::string text = R"({"traceEvents": [)";
  for (int i = 0; i < 40000; ++i) {
    if (i) text += ",\n";
    text += R"({"ph": "X", "cat": "cpu_op", "name": "aten::op)" + std::to_string(i % 50) +
            R"(", "pid": 1, "tid": 2, "ts": )" + std::to_string(i * 10) + R"(, "dur": 5, "args": {"Ev Idx": 1}})";
  }
  text += "]}";
  const Result<std::unique_ptr<EventStore>> r = stream(text, 65536, kDefaultWindow);
  REQUIRE(r.ok());
  CHECK(r.value()->size() == 40000);
  CHECK(r.value()->input_bytes == text.size());
  // What is kept of the text is each event's args object alone.
  CHECK(r.value()->input.size() == 40000 * std::string_view(R"({"Ev Idx": 1})").size());
}

TEST_CASE("stream: the room reserved ahead for args and not used is given back", "[ingest][stream]") {
  // The first 5 000 events carry args of 200 bytes, the last 35 000 none: the reader
  // projects the args of the rest from its first 4 MB (room for about five times what
  // comes), and the finished store keeps only what came.
  std::string text = R"({"traceEvents": [)";
  const std::string long_value(180, 'x');
  for (int i = 0; i < 40000; ++i) {
    if (i) text += ",\n";
    text += R"({"ph": "X", "cat": "cpu_op", "name": "aten::op", "pid": 1, "tid": 2, "ts": )" + std::to_string(i * 10) +
            R"(, "dur": 5)" + (i < 5000 ? R"(, "args": {"Input type": [")" + long_value + R"("]})" : std::string()) + "}";
  }
  text += "]}";
  IngestOptions give_back_any = compact(kDefaultWindow);
  give_back_any.shrink_spare_column_bytes = 0;
  const Result<std::unique_ptr<EventStore>> r = stream(text, 65536, give_back_any, text.size());
  REQUIRE(r.ok());
  const PaddedBuffer& args = r.value()->input;
  CHECK(args.size() == 5000 * (long_value.size() + std::string_view(R"({"Input type": [""]})").size()));
  CHECK(args.capacity() == args.size() + PaddedBuffer::kPadding);
  // The columns, reserved ahead for the rows projected, keep only the rows that came.
  CHECK(r.value()->capacity() == r.value()->size());
  CHECK(r.value()->heap_bytes() - r.value()->strings.heap_bytes() - r.value()->names.capacity() * sizeof(NameRecord) ==
        r.value()->size() * (sizeof(Phase) + sizeof(Category) + 4 * sizeof(StrId) + 2 * sizeof(double) + 9 * sizeof(uint32_t) + 4 + 1));
}

TEST_CASE("stream: column room below the threshold is kept, not copied to give it back", "[ingest][stream]") {
  // 40 000 rows of 75 bytes reserved ahead with a tenth to spare: a few hundred KB, far
  // below the default 64 MiB, so the columns are not copied; with a threshold of 1 byte
  // they are.
  std::string text = R"({"traceEvents": [)";
  for (int i = 0; i < 40000; ++i) {
    if (i) text += ",\n";
    text += R"({"ph": "X", "cat": "cpu_op", "name": "aten::op", "pid": 1, "tid": 2, "ts": )" + std::to_string(i * 10) +
            R"(, "dur": 5})";
  }
  text += "]}";
  const Result<std::unique_ptr<EventStore>> kept = stream(text, 65536, kDefaultWindow, text.size());
  REQUIRE(kept.ok());
  REQUIRE(kept.value()->size() == 40000);
  CHECK(kept.value()->capacity() > kept.value()->size());
  CHECK(kept.value()->spare_column_bytes() > 0);
  CHECK(kept.value()->spare_column_bytes() < IngestOptions{}.shrink_spare_column_bytes);
  IngestOptions low = compact(kDefaultWindow);
  low.shrink_spare_column_bytes = 1;
  const Result<std::unique_ptr<EventStore>> shrunk = stream(text, 65536, low, text.size());
  REQUIRE(shrunk.ok());
  CHECK(shrunk.value()->capacity() == shrunk.value()->size());
  CHECK(shrunk.value()->spare_column_bytes() == 0);
}

TEST_CASE("stream: every fixture trace, the whole-text store", "[ingest][stream][fixtures]") {
  size_t checked = 0;
  for (const auto& [path, text] : test::fixture_trace_texts()) {
    INFO(path);
    check_same_as_whole(text, {65536, 1000003}, {kDefaultWindow});
    ++checked;
  }
#ifdef SOLLENS_HAVE_ZLIB
  CHECK(checked > 10);
#else
  CHECK(checked >= 2);  // the fixtures kept as plain JSON
#endif
}
