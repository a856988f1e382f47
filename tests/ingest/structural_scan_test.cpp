// The vector stage 1 against simdjson's own: the same token offsets and the same
// errors. Natively the reference is simdjson's best kernel for this CPU (AVX-512, AVX2
// or SSE4.2), whose errors ours must match on any text; in the WebAssembly build it is
// simdjson's scalar fallback, which reports some malformed texts differently (it
// checks UTF-8 only inside strings), so there the comparison is on valid JSON.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "fixture_texts.h"
#include "generated_events.h"
#include "ingest/structural_scan.h"
#include "ingest/vector_scan_parser.h"
#include "store_difference.h"

using namespace sollens;

namespace {

struct ScanOutput {
  simdjson::error_code error;
  std::vector<uint32_t> offsets;  // the tokens', then len, len, 0
};

ScanOutput scan_ours(std::string_view text) {
  const simdjson::padded_string padded(text);
  std::vector<uint32_t> out(structural_room(text.size()));
  const StructuralScan scan = scan_structurals(reinterpret_cast<const uint8_t*>(padded.data()), text.size(), out.data());
  out.resize(scan.count + 3);
  return {scan.error, out};
}

const simdjson::implementation& scan_reference() {
  return *simdjson::get_available_implementations().detect_best_supported();
}

ScanOutput scan_simdjsons(std::string_view text) {
  std::unique_ptr<simdjson::internal::dom_parser_implementation> parser;
  REQUIRE(scan_reference().create_dom_parser_implementation(text.size(), 1024, parser) == simdjson::SUCCESS);
  const simdjson::padded_string padded(text);
  const auto error = parser->stage1(reinterpret_cast<const uint8_t*>(padded.data()), text.size(),
                                    simdjson::stage1_mode::regular);
  std::vector<uint32_t> out(parser->structural_indexes.get(),
                            parser->structural_indexes.get() + parser->n_structural_indexes + 3);
  return {error, out};
}

bool scan_reference_is_vector() { return scan_reference().name() != "fallback"; }

// Under AddressSanitizer the plain-loop scan and the two loads of the largest fixtures
// (owlv2's 55.6 MB above all) took a minute, and they hold no case the others lack.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kLargestScanText = size_t(8) << 20;
#else
constexpr size_t kLargestScanText = ~size_t(0);
#endif

// Read once for the three cases that use them (inflating owlv2 is the slow part). The
// WebAssembly build reads no gzip, so two generated traces of events with "},{" and "}]"
// in their strings and nested args stand beside the fixtures there too.
const std::vector<std::pair<std::string, std::string>>& scan_fixture_texts() {
  static const auto texts = [] {
    auto all = test::fixture_trace_texts();
    std::erase_if(all, [](const auto& fixture) { return fixture.second.size() > kLargestScanText; });
    for (const bool tricky : {false, true})
      all.emplace_back(tricky ? "generated, tricky" : "generated",
                       "{\"traceEvents\": [" + test::join_events(test::generate_events(3000, tricky)) + "]}");
    return all;
  }();
  return texts;
}

void scan_same_as_simdjson(std::string_view text, bool exact_errors) {
  const ScanOutput a = scan_ours(text), b = scan_simdjsons(text);
  INFO("text of " << text.size() << " bytes: " << std::string(text.substr(0, 120)));
  if (!exact_errors && b.error != simdjson::SUCCESS) return;
  REQUIRE(simdjson::error_message(a.error) == std::string(simdjson::error_message(b.error)));
  if (a.error == simdjson::SUCCESS) REQUIRE(a.offsets == b.offsets);
}

// Valid JSON of nested values whose strings hold escapes (runs of backslashes,
// escaped quotes), multi-byte UTF-8 and JSON's own punctuation.
void scan_random_json(std::mt19937& rng, std::string& out, int depth) {
  static const std::vector<std::string> pieces = {
      "a", "\\\\", "\\\"", "\\n", "\\u00e9", "},{", "]", ":", ",", " ", "\xc3\xa9", "\xe2\x82\xac",
      "\xf0\x9f\x98\x80", "\\\\\\\"", "x\\/y"};
  switch (rng() % (depth > 4 ? 4 : 6)) {
    case 0: out += std::to_string(int(rng() % 100000) - 500) + (rng() % 2 ? ".25e-3" : ""); break;
    case 1: out += rng() % 2 ? "true" : "null"; break;
    case 2:
    case 3: {
      out += '"';
      for (int n = rng() % 12; n > 0; --n) out += pieces[rng() % pieces.size()];
      out += '"';
      break;
    }
    case 4: {
      out += "[ ";
      for (int n = rng() % 4; n > 0; --n) {
        scan_random_json(rng, out, depth + 1);
        if (n > 1) out += rng() % 2 ? "," : " ,\n\t";
      }
      out += "]";
      break;
    }
    default: {
      out += "{";
      for (int n = rng() % 4; n > 0; --n) {
        out += "\"k" + std::to_string(n) + (rng() % 2 ? "\\\\" : "") + "\" : ";
        scan_random_json(rng, out, depth + 1);
        if (n > 1) out += ",\r\n";
      }
      out += "}";
    }
  }
}

// Selects a simdjson implementation for the parsers created in its scope.
class ActiveSimdjson {
 public:
  explicit ActiveSimdjson(const simdjson::implementation& chosen) : before_(simdjson::get_active_implementation()) {
    simdjson::get_active_implementation() = &chosen;
  }
  ~ActiveSimdjson() { simdjson::get_active_implementation() = before_; }

 private:
  const simdjson::implementation* before_;
};

}  // namespace

TEST_CASE("structural scan: token offsets and errors worked by hand") {
  // [1, "x\"y", true] : '[' 0, '1' 1, ',' 2, '"' 4 (the escaped quote at 7 and the
  // closing one at 9 are inside), ',' 10, 't' 12, ']' 16; then len 17 twice and 0.
  ScanOutput s = scan_ours(R"([1, "x\"y", true])");
  CHECK(s.error == simdjson::SUCCESS);
  CHECK(s.offsets == std::vector<uint32_t>{0, 1, 2, 4, 10, 12, 16, 17, 17, 0});
  // "\\" ends the string: two backslashes escape each other, so the quote at 4 closes
  // it and ':' at 5 is an operator.
  s = scan_ours(R"({"\\":1})");
  CHECK(s.offsets == std::vector<uint32_t>{0, 1, 5, 6, 7, 8, 8, 0});
  // A scalar's later bytes are not tokens; 'e' and '-' inside 2.5e-3 neither.
  s = scan_ours("[2.5e-3,-7]");
  CHECK(s.offsets == std::vector<uint32_t>{0, 1, 7, 8, 10, 11, 11, 0});
  CHECK(scan_ours(R"(["abc)").error == simdjson::UNCLOSED_STRING);
  CHECK(scan_ours(R"(["a\"])").error == simdjson::UNCLOSED_STRING);
  CHECK(scan_ours("[\"a\tb\"]").error == simdjson::UNESCAPED_CHARS);
  CHECK(scan_ours("[1]\t").error == simdjson::SUCCESS);  // a tab outside strings is whitespace
  // A form feed outside strings is no JSON; simdjson's vector kernels index it as an
  // operator (it is ',' with bit 0x20 cleared), and so does the scan: '[' 0, '1' 1,
  // 0x0C 2, '2' 3 (it follows no scalar), ']' 4. Found by fuzz_structural_scan.
  s = scan_ours("[1\f2]");
  CHECK(s.offsets == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 5, 0});
  s = scan_ours("[1\x1a" "2]");  // 0x1A likewise, as ':'
  CHECK(s.offsets == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 5, 0});
  CHECK(scan_ours(" \n ").error == simdjson::EMPTY);
  CHECK(scan_ours("").error == simdjson::EMPTY);
  CHECK(scan_ours("[\"\xc3\"]").error == simdjson::UTF8_ERROR);          // cut short
  CHECK(scan_ours("[\"\xed\xa0\x80\"]").error == simdjson::UTF8_ERROR);  // a surrogate
  CHECK(scan_ours("[\"\xf4\x90\x80\x80\"]").error == simdjson::UTF8_ERROR);  // past U+10FFFF
  CHECK(scan_ours("[\"\xc0\xaf\"]").error == simdjson::UTF8_ERROR);          // overlong
  CHECK(scan_ours("[\"\xf0\x9f\x98\x80\"]").error == simdjson::SUCCESS);
}

TEST_CASE("structural scan: escapes and strings across 64-byte blocks") {
  // A run of n backslashes ending just before a block edge, then a quote: the quote is
  // escaped when n is odd. Padding moves the run across every position of the edge.
  for (int pad = 50; pad < 70; ++pad) {
    for (int n = 1; n <= 5; ++n) {
      const std::string text = "[\"" + std::string(pad, 'a') + std::string(n, '\\') + "\"" +
                               (n % 2 ? "\"" : "") + ",1]";
      INFO("pad " << pad << ", " << n << " backslashes");
      // The closing quote: after the run, or one further when the run escapes a quote.
      const uint32_t close = 2 + pad + n + n % 2;
      const uint32_t len = close + 4;
      const ScanOutput s = scan_ours(text);
      REQUIRE(s.error == simdjson::SUCCESS);
      REQUIRE(s.offsets == std::vector<uint32_t>{0, 1, close + 1, close + 2, close + 3, len, len, 0});
    }
  }
}

TEST_CASE("structural scan: as simdjson's own on every fixture trace") {
  for (const auto& [path, text] : scan_fixture_texts()) {
    INFO(path);
    scan_same_as_simdjson(text, scan_reference_is_vector());
  }
}

TEST_CASE("structural scan: as simdjson's own on random valid JSON") {
  std::mt19937 rng(20261207);
  for (int i = 0; i < 4000; ++i) {
    std::string text;
    scan_random_json(rng, text, 0);
    text.insert(0, std::string(rng() % 64, ' '));  // every alignment
    REQUIRE(scan_ours(text).error == simdjson::SUCCESS);
    scan_same_as_simdjson(text, true);
  }
}

TEST_CASE("structural scan: as simdjson's own on windows and damaged texts") {
  if (!scan_reference_is_vector()) return;  // the fallback differs on malformed text (above)
  std::mt19937 rng(7);
  static const char damage[] = "\"\\{}[],: \t\n\x01\x80\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xed\xa0\x80\xc0\xff";
  for (const auto& [path, text] : scan_fixture_texts()) {
    INFO(path);
    if (text.empty()) continue;
    for (int k = 0; k < 300; ++k) {
      std::string window = text.substr(rng() % text.size(), rng() % 3000);
      scan_same_as_simdjson(window, true);
      if (window.empty()) continue;
      for (int z = 0; z < 3; ++z) window[rng() % window.size()] = damage[rng() % (sizeof damage - 1)];
      scan_same_as_simdjson(window, true);
    }
  }
}

TEST_CASE("vector scan parser: every fixture loads as with simdjson's own stage 1") {
  for (const auto& fixture : scan_fixture_texts()) {
    const std::string& text = fixture.second;  // a plain name: lambdas capture it
    INFO(fixture.first);
    Result<std::unique_ptr<EventStore>> with_ours = [&] {
      ActiveSimdjson scope(vector_scan_implementation());
      return test::load(text);
    }();
    Result<std::unique_ptr<EventStore>> with_simdjsons = [&] {
      ActiveSimdjson scope(scan_reference());
      return test::load(text);
    }();
    REQUIRE(with_ours.ok() == with_simdjsons.ok());
    if (!with_ours.ok()) {
      CHECK(with_ours.status().message() == with_simdjsons.status().message());
      continue;
    }
    CHECK(test::store_difference(**with_ours, **with_simdjsons) == "");
  }
}

TEST_CASE("vector scan parser: DOM parses and On-Demand unescapes through simdjson's fallback") {
  ActiveSimdjson scope(vector_scan_implementation());
  simdjson::dom::parser dom;
  simdjson::dom::element doc;
  REQUIRE(dom.parse(simdjson::padded_string(std::string_view(R"({"a":[1,"b\u00e9"]})"))).get(doc) == simdjson::SUCCESS);
  std::string_view b;
  REQUIRE(doc["a"].at(1).get(b) == simdjson::SUCCESS);
  CHECK(b == "b\xc3\xa9");

  simdjson::ondemand::parser on_demand;
  const simdjson::padded_string text(std::string_view(R"({"k":"x\"y\\z","n":12})"));
  simdjson::ondemand::document od;
  REQUIRE(on_demand.iterate(text).get(od) == simdjson::SUCCESS);
  std::string_view k;
  REQUIRE(od["k"].get(k) == simdjson::SUCCESS);
  CHECK(k == "x\"y\\z");
  int64_t n = 0;
  REQUIRE(od["n"].get(n) == simdjson::SUCCESS);
  CHECK(n == 12);
}

TEST_CASE("vector scan parser: DOM document streams find their documents through simdjson's fallback") {
  // parse_many reads where the fallback's stage 2 stopped from the parser it was given:
  // each document's offset and text must be those of simdjson's own parser.
  const simdjson::padded_string text(std::string_view(R"([1, 2] {"a": "x\"y"}  3 "four" {"b": [5]})"));
  auto documents = [&](const simdjson::implementation& chosen) {
    ActiveSimdjson scope(chosen);
    simdjson::dom::parser dom;
    std::vector<std::pair<size_t, std::string>> found;
    simdjson::dom::document_stream stream;
    REQUIRE(dom.parse_many(text, 32).get(stream) == simdjson::SUCCESS);
    for (auto it = stream.begin(); it != stream.end(); ++it) {
      REQUIRE((*it).error() == simdjson::SUCCESS);
      found.emplace_back(it.current_index(), std::string(it.source()));
    }
    return found;
  };
  const auto ours = documents(vector_scan_implementation());
  CHECK(ours.size() == 5);
  CHECK(ours == documents(scan_reference()));
}
