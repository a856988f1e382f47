// A trace read in two parts at once (the page's two workers): the first part's reader
// fed the text through the ',' at the split, the second's the text from it, and the
// second's encoding appended to the first. Split between any two events, the store is
// the one load_trace makes of the whole text; split anywhere else, one of the parts
// fails (split_missed, or the JSON error of a text that does not start where an event
// does), so the page reads the file again in one pass and never shows a wrong store.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "fixture_texts.h"
#include "generated_events.h"
#include "ingest/json_layout.h"
#include "ingest/trace_stream.h"
#include "store_difference.h"

using namespace sollens;
using sollens::test::compact;
using sollens::test::generate_events;
using sollens::test::join_events;
using sollens::test::kDefaultWindow;
using sollens::test::store_difference;
namespace jl = sollens::json_layout;

namespace {

void feed_part(TraceStreamReader& reader, std::string_view text, size_t chunk) {
  for (size_t at = 0; at < text.size(); at += chunk) {
    const size_t n = std::min(chunk, text.size() - at);
    char* to = reader.prepare(n);
    REQUIRE(to != nullptr);
    std::copy_n(text.data() + at, n, to);
    if (!reader.commit(n)) return;
  }
}

// `text` read in two parts split at byte `at`, each in chunks of `chunk` bytes.
Result<std::unique_ptr<EventStore>> read_split(std::string_view text, size_t at, size_t chunk, size_t window) {
  TraceStreamReader second(compact(window), text.size(), {StreamSplit::Part::kSecond, at});
  feed_part(second, text.substr(at), chunk);
  Result<std::string> encoded = second.finish_part();
  TraceStreamReader first(compact(window), text.size(), {StreamSplit::Part::kFirst, at});
  feed_part(first, text.substr(0, at + 1), chunk);
  if (!encoded.ok()) return encoded.status();
  first.set_second_part(*encoded);
  return first.finish();
}

// The ',' between each two elements of the events array.
std::vector<size_t> event_separators(std::string_view text) {
  const auto member = jl::find_member(text, jl::skip_ws(text, 0), "traceEvents");
  REQUIRE(member);
  std::vector<size_t> out;
  size_t p = jl::skip_ws(text, member->value_begin + 1);
  while (p < text.size() && text[p] != ']') {
    const size_t cut = jl::scan_to_boundary(text, p, p);
    if (cut == jl::npos || text[cut] == ']') break;
    out.push_back(cut);
    p = jl::skip_ws(text, cut + 1);
  }
  return out;
}

// Every `step`-th separator (and the first and last), split there: the whole-text store.
void check_every_split(std::string_view text, size_t step, const std::vector<size_t>& chunks, size_t window) {
  const Result<std::unique_ptr<EventStore>> whole = load_trace(PaddedBuffer::copy_of(text), compact(window));
  REQUIRE(whole.ok());
  const std::vector<size_t> seps = event_separators(text);
  REQUIRE(seps.size() >= 2);
  for (size_t i = 0; i < seps.size(); ++i) {
    if (i % step != 0 && i + 1 != seps.size()) continue;
    for (size_t chunk : chunks) {
      INFO("split at byte " << seps[i] << " (separator " << i << "), chunk " << chunk << ", window " << window);
      const Result<std::unique_ptr<EventStore>> split = read_split(text, seps[i], chunk, window);
      REQUIRE(split.message() == "");
      CHECK(store_difference(*split.value(), *whole.value()) == "");
    }
  }
}

std::string split_test_trace(bool tricky, size_t events = 300) {
  return R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "A"}], "traceEvents": [)" +
         join_events(generate_events(events, tricky)) +
         R"(], "traceName": "gen", "baseTimeNanoseconds": 1700000000000000000})";
}

}  // namespace

TEST_CASE("split read: between any two events, the whole-text store", "[ingest][stream][split]") {
  const bool tricky = GENERATE(false, true);
  INFO("tricky " << tricky);
  const std::string text = split_test_trace(tricky);
  check_every_split(text, 13, {1, 61, size_t(1) << 30}, 64);
  check_every_split(text, 29, {4093}, kDefaultWindow);
}

TEST_CASE("split read: past the reader's first buffer, with faults in either part", "[ingest][stream][split]") {
  const std::string many = join_events(generate_events(40000, true));
  REQUIRE(many.size() > (size_t(6) << 20));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"large", R"({"traceEvents": [)" + many + R"(], "traceName": "big"})"},
      {"missing the closing bracket", R"({"traceEvents": [)" + many},
      {"truncated in the last event", R"({"traceEvents": [)" + many + R"(, {"ph": "X", "name": "b", "ts)"},
      {"empty elements on both sides", R"({"traceEvents": [,)" + many + R"(,, {"ph": "X", "name": "z", "ts": 1},]})"},
      {"events last, keys before", R"({"traceName": "x", "displayTimeUnit": "ms", "traceEvents": [)" + many + "]}"},
  };
  for (const auto& [name, text] : cases) {
    INFO(name);
    const Result<std::unique_ptr<EventStore>> whole = load_trace(PaddedBuffer::copy_of(text), compact(kDefaultWindow));
    REQUIRE(whole.ok());
    const std::vector<size_t> seps = event_separators(text);
    for (size_t at : {seps[seps.size() / 3], seps[seps.size() / 2], seps[seps.size() - 2]}) {
      INFO("split at byte " << at);
      const Result<std::unique_ptr<EventStore>> split = read_split(text, at, 1000003, kDefaultWindow);
      REQUIRE(split.message() == "");
      CHECK(store_difference(*split.value(), *whole.value()) == "");
    }
  }
}

TEST_CASE("split read: a split that is not between two events fails, never a wrong store",
          "[ingest][stream][split]") {
  const std::string text = split_test_trace(true);
  const std::vector<size_t> seps = event_separators(text);
  const size_t array_open = text.find('[', text.find("traceEvents"));
  const size_t array_close = text.rfind(']');
  std::vector<std::pair<std::string, size_t>> misses = {
      {"in the keys before the array", text.find(',')},
      {"the array's '['", array_open},
      {"in the keys after the array", text.find(',', array_close)},
  };
  // Every ',' inside an event (between its members, inside its args).
  for (size_t i = 0; i + 1 < seps.size(); i += 7)
    for (size_t at = text.find(',', seps[i] + 1); at < seps[i + 1]; at = text.find(',', at + 1))
      misses.emplace_back("a ',' inside an event", at);
  // Bytes that are no ',' at all.
  misses.emplace_back("a '{'", seps[5] + text.substr(seps[5]).find('{'));
  misses.emplace_back("inside a name", text.find("name", seps[9]) + 2);
  size_t failed = 0;
  for (const auto& [name, at] : misses) {
    INFO(name << " at byte " << at);
    REQUIRE(at < text.size());
    const Result<std::unique_ptr<EventStore>> split = read_split(text, at, 4093, 64);
    CHECK_FALSE(split.ok());
    failed += !split.ok();
  }
  CHECK(failed == misses.size());
  CHECK(misses.size() > 50);
}

TEST_CASE("split read: the codes of a missed split and of an unreadable second part", "[ingest][stream][split]") {
  const std::string text = split_test_trace(false, 50);
  const std::vector<size_t> seps = event_separators(text);
  SECTION("the split inside the keys after the array: the first part finds the array's end") {
    const size_t at = text.find(',', text.rfind(']'));
    TraceStreamReader first(compact(64), text.size(), {StreamSplit::Part::kFirst, at});
    feed_part(first, text.substr(0, at + 1), 4093);
    first.set_second_part("");
    const Result<std::unique_ptr<EventStore>> r = first.finish();
    CHECK(r.code() == Code::split_missed);
    CHECK_THAT(r.message(), Catch::Matchers::Contains("the events array ends before it"));
  }
  SECTION("a second part that does not start with the ','") {
    TraceStreamReader second(compact(64), text.size(), {StreamSplit::Part::kSecond, seps[3]});
    feed_part(second, text.substr(seps[3] + 1), 4093);
    const Result<std::string> r = second.finish_part();
    CHECK(r.code() == Code::split_missed);
  }
  SECTION("an encoding cut short or damaged is refused, and nothing is appended") {
    TraceStreamReader second(compact(64), text.size(), {StreamSplit::Part::kSecond, seps[10]});
    feed_part(second, text.substr(seps[10]), 4093);
    Result<std::string> encoded = second.finish_part();
    REQUIRE(encoded.ok());
    for (size_t keep : {size_t(0), size_t(8), encoded->size() / 2, encoded->size() - 1}) {
      INFO("kept " << keep << " of " << encoded->size() << " bytes");
      TraceStreamReader first(compact(64), text.size(), {StreamSplit::Part::kFirst, seps[10]});
      feed_part(first, text.substr(0, seps[10] + 1), 4093);
      first.set_second_part(std::string_view(*encoded).substr(0, keep));
      CHECK(first.finish().code() == Code::split_missed);
    }
  }
  SECTION("a whole reader has no part to encode, a second part no store") {
    TraceStreamReader whole(compact(64));
    CHECK(whole.finish_part().code() == Code::split_missed);
    TraceStreamReader second(compact(64), text.size(), {StreamSplit::Part::kSecond, seps[3]});
    CHECK(second.finish().code() == Code::split_missed);
  }
}

TEST_CASE("split read: every fixture trace split at an event boundary near its middle",
          "[ingest][stream][split][fixtures]") {
  size_t checked = 0;
  for (const auto& [path, text] : test::fixture_trace_texts()) {
    const auto member = jl::find_member(text, jl::skip_ws(text, 0), "traceEvents");
    if (!member || text[member->value_begin] != '[') continue;  // an Execution Trace, a legacy array
    const std::vector<size_t> seps = event_separators(text);
    if (seps.size() < 2) continue;
    INFO(path);
    const Result<std::unique_ptr<EventStore>> whole = load_trace(PaddedBuffer::copy_of(text), compact(kDefaultWindow));
    if (!whole.ok()) continue;  // the faulty fixtures: a split read of those fails and reads again
    const Result<std::unique_ptr<EventStore>> split = read_split(text, seps[seps.size() / 2], 1000003, kDefaultWindow);
    REQUIRE(split.message() == "");
    CHECK(store_difference(*split.value(), *whole.value()) == "");
    ++checked;
  }
#ifdef SOLLENS_HAVE_ZLIB
  CHECK(checked > 10);
#else
  CHECK(checked >= 1);  // the one plain-JSON fixture with an events array (gpu_metrics_expected.json)
#endif
}

TEST_CASE("split read: ids past 32 bits in one part only, every value kept in both orders",
          "[ingest][stream][split]") {
  // The store holds ids in 32 bits until one does not fit (store/narrow_column.h); a part
  // widened and a part not must join into the same values as the whole-text load.
  auto events = [](int64_t first_id, int count, int64_t base) {
    std::string out;
    for (int i = 0; i < count; ++i) {
      const std::string id = std::to_string(first_id + i);
      out += R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + std::to_string(base + 10 * i) +
             R"(,"dur":2,"args":{"External id":)" + id + R"(,"stream":-3,"correlation":)" + id + "}},";
    }
    return out;
  };
  const int64_t wide = int64_t(1) << 40;
  for (bool wide_first : {false, true}) {
    INFO("wide ids first: " << wide_first);
    std::string body = events(wide_first ? wide : 5, 40, 100) + events(wide_first ? 5 : wide, 40, 1000);
    body.pop_back();
    const std::string text = R"({"traceEvents": [)" + body + "]}";
    const Result<std::unique_ptr<EventStore>> whole = load_trace(PaddedBuffer::copy_of(text), compact(64));
    REQUIRE(whole.ok());
    const EventStore& s = *whole.value();
    CHECK(s.correlation[0] == (wide_first ? wide : 5));
    CHECK(s.correlation[79] == (wide_first ? 5 : wide) + 39);
    CHECK(s.stream[79] == -3);
    check_every_split(text, 13, {64, size_t(1) << 20}, 64);
  }
}
