// text_repair: in-place, length-keeping repairs of invalid UTF-8 and raw control
// characters. Every invalid byte becomes one '?', and the count is of bytes changed.
#include <catch2/catch.hpp>

#include <string>

#include "ingest/text_repair.h"

using namespace sollens;

namespace {

struct Repaired {
  std::string text;
  size_t changed;
};

Repaired utf8(std::string s) {
  size_t n = repair_invalid_utf8(s.data(), s.size());
  return {s, n};
}

Repaired control(std::string s) {
  size_t n = repair_control_characters(s.data(), s.size());
  return {s, n};
}

}  // namespace

TEST_CASE("valid UTF-8 is left untouched", "[ingest][text_repair]") {
  const std::string valid[] = {
      "",
      "plain ascii {\"a\":1}",
      "\xC3\xA9",                      // é U+00E9
      "\xE2\x82\xAC",                  // € U+20AC
      "\xF0\x9F\x98\x80",              // 😀 U+1F600
      "\xC2\x80",                      // U+0080, smallest 2-byte
      "\xDF\xBF",                      // U+07FF, largest 2-byte
      "\xE0\xA0\x80",                  // U+0800, smallest 3-byte
      "\xED\x9F\xBF",                  // U+D7FF, just below the surrogates
      "\xEE\x80\x80",                  // U+E000, just above the surrogates
      "\xEF\xBF\xBF",                  // U+FFFF
      "\xF0\x90\x80\x80",              // U+10000, smallest 4-byte
      "\xF4\x8F\xBF\xBF",              // U+10FFFF, the largest code point
      "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 end",
  };
  for (const std::string& s : valid) {
    INFO(s);
    Repaired r = utf8(s);
    CHECK(r.changed == 0);
    CHECK(r.text == s);
  }
}

TEST_CASE("invalid UTF-8 bytes each become '?' and are counted", "[ingest][text_repair]") {
  struct Case {
    const char* what;
    std::string in;
    std::string out;
    size_t changed;
  };
  const Case cases[] = {
      {"lone continuation byte", "a\x80" "b", "a?b", 1},
      {"two lone continuation bytes", "\xBF\x80", "??", 2},
      {"truncated 2-byte sequence at the end", "ab\xC3", "ab?", 1},
      {"truncated 2-byte sequence before ASCII", "\xC3" "A", "?A", 1},
      {"truncated 3-byte sequence (2 of 3 bytes)", "\xE2\x82" "x", "??x", 2},
      {"truncated 3-byte sequence at the end", "ab\xE2\x82", "ab??", 2},
      {"truncated 4-byte sequence (3 of 4 bytes)", "\xF0\x9F\x98!", "??" "?!", 3},
      {"truncated 4-byte sequence at the end", "\xF0\x9F", "??", 2},
      {"overlong 2-byte '/'", "\xC0\xAF", "??", 2},
      {"overlong 2-byte NUL", "\xC1\xBF", "??", 2},
      {"overlong 3-byte", "\xE0\x80\xAF", "???", 3},
      {"overlong 4-byte", "\xF0\x80\x80\xAF", "????", 4},
      {"high surrogate U+D800", "\xED\xA0\x80", "???", 3},
      {"low surrogate U+DFFF", "\xED\xBF\xBF", "???", 3},
      {"code point above U+10FFFF", "\xF4\x90\x80\x80", "????", 4},
      {"5-byte lead byte", "\xF8\x88\x80\x80\x80", "?????", 5},
      {"0xFE and 0xFF", "x\xFE\xFFy", "x??y", 2},
      {"valid neighbours are kept", "\xC3\xA9\x80\xC3\xA9", "\xC3\xA9?\xC3\xA9", 1},
      {"a lead byte followed by a new lead byte", "\xC3\xC3\xA9", "?\xC3\xA9", 1},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    Repaired r = utf8(c.in);
    CHECK(r.text == c.out);
    CHECK(r.text.size() == c.in.size());  // offsets stay true
    CHECK(r.changed == c.changed);
  }
}

TEST_CASE("repair_invalid_utf8 works on a sub-range only", "[ingest][text_repair]") {
  std::string s = "\x80" "ab\x80" "cd\x80";
  // Only bytes [1, 5) are looked at: one invalid byte there.
  CHECK(repair_invalid_utf8(s.data() + 1, 4) == 1);
  CHECK(s == "\x80" "ab?cd\x80");
  // A sequence cut by the end of the range is invalid within the range.
  std::string t = "x\xC3\xA9";
  CHECK(repair_invalid_utf8(t.data(), 2) == 1);
  CHECK(t == "x?\xA9");
}

TEST_CASE("raw control characters become spaces", "[ingest][text_repair]") {
  Repaired r = control(std::string("a\x01" "b\x1F" "c\x00" "d", 7));
  CHECK(r.text == "a b c d");
  CHECK(r.changed == 3);

  // Tab, newline and carriage return are JSON whitespace outside strings: kept.
  Repaired ws = control("x\ty\nz\r");
  CHECK(ws.text == "x\ty\nz\r");
  CHECK(ws.changed == 0);
  // Inside a string they are invalid JSON: spaces, counted.
  Repaired in = control("{\"n\": \"a\tb\nc\"}\n");
  CHECK(in.text == "{\"n\": \"a b c\"}\n");
  CHECK(in.changed == 2);

  // Printable ASCII, DEL and UTF-8 bytes are not control characters.
  const std::string keep = "{\"k\": \"v\x7F \xC3\xA9\"}";
  Repaired k = control(keep);
  CHECK(k.text == keep);
  CHECK(k.changed == 0);

  // Every value below 0x20 except the three whitespace bytes is counted.
  std::string all;
  for (int c = 0; c < 0x20; ++c) all.push_back(static_cast<char>(c));
  Repaired a = control(all);
  std::string expected(0x20, ' ');
  expected['\t'] = '\t';
  expected['\n'] = '\n';
  expected['\r'] = '\r';
  CHECK(a.text == expected);
  CHECK(a.changed == 0x20 - 3);
}

TEST_CASE("control-character repair follows string state across escapes",
          "[ingest][text_repair]") {
  // The tab after an escaped quote is still inside the string: replaced, counted.
  Repaired escaped_quote = control("{\"n\": \"a\\\"b\tc\"}\t,");
  CHECK(escaped_quote.text == "{\"n\": \"a\\\"b c\"}\t,");
  CHECK(escaped_quote.changed == 1);
  // An escaped backslash does not escape the closing quote: the tab after it is
  // whitespace outside the string and stays.
  Repaired escaped_backslash = control("{\"n\": \"a\\\\\"}\t,{\"m\": \"x\ny\"}");
  CHECK(escaped_backslash.text == "{\"n\": \"a\\\\\"}\t,{\"m\": \"x y\"}");
  CHECK(escaped_backslash.changed == 1);
}
