// json_layout: the string-aware scans used to find traceEvents and cut windows.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "ingest/json_layout.h"

using namespace sollens;
namespace jl = sollens::json_layout;

TEST_CASE("skip_ws skips JSON whitespace only", "[ingest][json_layout]") {
  CHECK(jl::skip_ws(" \t\r\n x", 0) == 5);
  CHECK(jl::skip_ws("x ", 0) == 0);
  CHECK(jl::skip_ws("a  ", 1) == 3);  // runs to the end
  CHECK(jl::skip_ws("\v\f", 0) == 0);  // not JSON whitespace
}

TEST_CASE("skip_string handles escaped quotes and backslashes", "[ingest][json_layout]") {
  // text                  index of the closing quote + 1
  CHECK(jl::skip_string(R"("abc")", 0) == 5);
  CHECK(jl::skip_string(R"("")", 0) == 2);
  CHECK(jl::skip_string(R"("a\"b")", 0) == 6);      // \" does not end the string
  CHECK(jl::skip_string(R"("\"")", 0) == 4);        // only an escaped quote inside
  CHECK(jl::skip_string(R"("a\\")", 0) == 5);       // \\ then the real quote
  CHECK(jl::skip_string(R"("\\")", 0) == 4);        // only an escaped backslash inside
  CHECK(jl::skip_string(R"("a\\\"b")", 0) == 8);    // \\ \" then b then the quote
  CHECK(jl::skip_string(R"("\\\\")", 0) == 6);      // two escaped backslashes
  CHECK(jl::skip_string(R"("a\\\\\"" x)", 0) == 9); // \\ \\ \" then the quote at 8
  CHECK(jl::skip_string(R"("x},{y" ,)", 0) == 7);   // brackets inside do not matter

  // Not at the start of the text: the first quote is at 3.
  CHECK(jl::skip_string(R"(ab:"c\"d"e)", 3) == 9);
  // A backslash before pos is not part of this string.
  CHECK(jl::skip_string(R"(\"x")", 1) == 4);
}

TEST_CASE("skip_string returns npos for unterminated strings", "[ingest][json_layout]") {
  CHECK(jl::skip_string(R"("abc)", 0) == jl::npos);
  CHECK(jl::skip_string(R"("abc\")", 0) == jl::npos);   // the last quote is escaped
  CHECK(jl::skip_string(R"("a\\\")", 0) == jl::npos);   // \\ then \" : still open
  CHECK(jl::skip_string(R"(")", 0) == jl::npos);
}

TEST_CASE("skip_value skips scalars up to the next delimiter", "[ingest][json_layout]") {
  CHECK(jl::skip_value("123,", 0) == 3);
  CHECK(jl::skip_value("-1.5e3 ", 0) == 6);
  CHECK(jl::skip_value("true}", 0) == 4);
  CHECK(jl::skip_value("null]", 0) == 4);
  CHECK(jl::skip_value("42", 0) == 2);
  CHECK(jl::skip_value(R"("s,}]" ,)", 0) == 6);
  CHECK(jl::skip_value("", 0) == jl::npos);
  CHECK(jl::skip_value("1", 5) == jl::npos);
}

TEST_CASE("skip_value skips nested objects and arrays with brackets inside strings",
          "[ingest][json_layout]") {
  const std::string suffix = R"(, "next": 1})";
  const std::string values[] = {
      R"({})",
      R"([])",
      R"({"a":"}]","b":[1,{"c":"[["}]})",
      R"([{"name":"x},{y"},{"name":"}, {"},[[["]"]]]])",
      R"({"q":"\"}\\","r":{"s":["\\\"]"]}})",
      R"({ "deep" : [ { "k" : [ { } , [ ] ] } ] })",
  };
  for (const std::string& v : values) {
    INFO(v);
    const std::string text = v + suffix;
    CHECK(jl::skip_value(text, 0) == v.size());
    // And from an offset inside a larger text.
    const std::string prefixed = R"({"k":)" + text;
    CHECK(jl::skip_value(prefixed, 5) == 5 + v.size());
  }
}

TEST_CASE("skip_value returns npos when a container or string never closes",
          "[ingest][json_layout]") {
  CHECK(jl::skip_value(R"({"a":[1,2})", 0) == jl::npos);
  CHECK(jl::skip_value(R"({"a":"x)", 0) == jl::npos);
  CHECK(jl::skip_value(R"([{"a":"]"})", 0) == jl::npos);  // the ] is inside a string
  CHECK(jl::skip_value("[", 0) == jl::npos);
}

TEST_CASE("find_member finds traceEvents first, last, or reports it absent",
          "[ingest][json_layout]") {
  SECTION("first") {
    const std::string text = R"({"traceEvents":[1],"x":1})";
    auto m = jl::find_member(text, 0, "traceEvents");
    REQUIRE(m.has_value());
    CHECK(m->key_begin == 1);
    CHECK(m->value_begin == 15);  // {"traceEvents": is 15 characters
    CHECK(text[m->value_begin] == '[');
  }
  SECTION("last, after values that contain brackets, quotes and the key itself") {
    const std::string text =
        R"({"schemaVersion":1,"deviceProperties":[{"name":"a]}\"traceEvents\":["},{"id":1}],)"
        R"("meta":{"traceEvents":[]},"s":"traceEvents","traceEvents":  [ ]})";
    const size_t key = text.rfind(R"("traceEvents")");
    auto m = jl::find_member(text, 0, "traceEvents");
    REQUIRE(m.has_value());
    CHECK(m->key_begin == key);
    CHECK(m->value_begin == key + 13 + 1 + 2);  // key, ':', two spaces
    CHECK(text[m->value_begin] == '[');
  }
  SECTION("whitespace everywhere, object not at offset 0") {
    const std::string text = "  {\n \"a\" : 1 ,\r\n\t\"traceEvents\" :\n[ ] }";
    auto m = jl::find_member(text, 2, "traceEvents");
    REQUIRE(m.has_value());
    CHECK(m->key_begin == text.find("\"traceEvents\""));
    CHECK(m->value_begin == text.find('['));
  }
  SECTION("absent") {
    CHECK_FALSE(jl::find_member(R"({"schemaVersion":1,"x":[1,2]})", 0, "traceEvents"));
    CHECK_FALSE(jl::find_member(R"({})", 0, "traceEvents"));
    // Only nested or as a string value: not a member of the top-level object.
    CHECK_FALSE(jl::find_member(R"({"meta":{"traceEvents":[]},"name":"traceEvents"})", 0,
                                "traceEvents"));
    // A key that merely starts or ends with the name.
    CHECK_FALSE(jl::find_member(R"({"traceEventsX":[],"XtraceEvents":[]})", 0, "traceEvents"));
  }
  SECTION("cut short before the key is reached") {
    CHECK_FALSE(jl::find_member(R"({"a":[1,2)", 0, "traceEvents"));
    CHECK_FALSE(jl::find_member(R"({"a":"xyz)", 0, "traceEvents"));
    CHECK_FALSE(jl::find_member(R"({"a")", 0, "traceEvents"));
  }
  SECTION("another key") {
    const std::string text = R"({"nodes":[],"schema":"1.0"})";
    auto m = jl::find_member(text, 0, "schema");
    REQUIRE(m.has_value());
    CHECK(m->key_begin == 12);
    CHECK(m->value_begin == 21);
  }
}

TEST_CASE("next_event_boundary finds a ',' that follows a '}'", "[ingest][json_layout]") {
  //                      0123456789012345
  const std::string two = R"({"a":1}, {"b":2})";
  CHECK(jl::next_event_boundary(two, 0) == 7);
  CHECK(jl::next_event_boundary(two, 6) == 7);  // from the '}' itself
  CHECK(jl::next_event_boundary(two, 7) == 7);  // from the ',' itself: its '}' is before
  CHECK(jl::next_event_boundary(two, 8) == jl::npos);  // '}' at the end, then nothing

  // '}' followed by '}' is skipped; whitespace between '}' and ',' is allowed.
  //                         0         1
  //                         0123456789012345678
  const std::string nested = "{\"a\":{\"x\":1}}  ,{}";
  CHECK(jl::next_event_boundary(nested, 0) == 15);

  const std::string ws = "{}\n\t\r ,{}";
  CHECK(jl::next_event_boundary(ws, 0) == 6);
  CHECK(jl::next_event_boundary(ws, 3) == 6);  // from the whitespace between

  // '}' followed by ']' or by anything but ',' is not a boundary.
  CHECK(jl::next_event_boundary(R"({"a":1}])", 0) == jl::npos);
  CHECK(jl::next_event_boundary(R"({"a":1} x ,)", 0) == jl::npos);
  CHECK(jl::next_event_boundary(R"({"a":1})", 0) == jl::npos);
  CHECK(jl::next_event_boundary("", 0) == jl::npos);
  CHECK(jl::next_event_boundary("},", 5) == jl::npos);  // from past the end

  // Several boundaries: each is found from just past the previous one.
  const std::string three = R"({"a":{}}],{"b":1} ,{"c":2},)";
  const size_t first = jl::next_event_boundary(three, 0);
  CHECK(first == three.find(" ,") + 1);
  const size_t second = jl::next_event_boundary(three, first + 1);
  CHECK(second == three.size() - 1);
  CHECK(jl::next_event_boundary(three, second + 1) == jl::npos);
}

TEST_CASE("scan_to_boundary finds the exact ',' between elements, or the closing ']'",
          "[ingest][json_layout]") {
  const std::string e0 = R"({"a":1})";
  const std::string e1 = R"({"b":"},{","q":"\"],"})";   // brackets, commas, escaped quotes in strings
  const std::string e2 = R"({"c":[1,{"d":2},3]})";      // commas inside nested values
  const std::string text = e0 + "," + e1 + " , " + e2 + "\n]" + R"(,"traceName":"x"})";
  const size_t c0 = e0.size();                       // ',' after e0
  const size_t c1 = c0 + 1 + e1.size() + 1;          // ',' after e1 and a space
  const size_t e2_begin = c1 + 2;
  const size_t close = e2_begin + e2.size() + 1;     // the array's ']'
  REQUIRE(text[c0] == ',');
  REQUIRE(text[c1] == ',');
  REQUIRE(text[close] == ']');

  CHECK(jl::scan_to_boundary(text, 0, 0) == c0);
  CHECK(jl::scan_to_boundary(text, 0, c0) == c0);       // target on the comma itself
  CHECK(jl::scan_to_boundary(text, 0, c0 + 1) == c1);   // skips e1's strings
  CHECK(jl::scan_to_boundary(text, 0, c0 + 5) == c1);   // target inside e1
  CHECK(jl::scan_to_boundary(text, 0, c1 + 1) == close);
  CHECK(jl::scan_to_boundary(text, 0, e2_begin + 7) == close);  // target on e2's inner ','
  CHECK(jl::scan_to_boundary(text, 0, jl::npos) == close);
  CHECK(jl::scan_to_boundary(text, c0 + 1, c0 + 1) == c1);     // starting at e1
  CHECK(jl::scan_to_boundary(text, e2_begin, e2_begin) == close);

  // Elements that are not objects.
  CHECK(jl::scan_to_boundary("5, 6]", 0, 0) == 1);
  CHECK(jl::scan_to_boundary(R"("a,]", null])", 0, 0) == 5);
  CHECK(jl::scan_to_boundary("[1,[2]],3]", 0, 0) == 7);

  // The input ends first: inside an event, inside a string, or before the ']'.
  CHECK(jl::scan_to_boundary(text.substr(0, c1 + 1), 0, c1 + 1) == jl::npos);
  CHECK(jl::scan_to_boundary(text.substr(0, close), 0, c1 + 1) == jl::npos);
  CHECK(jl::scan_to_boundary(R"({"a":"x],)", 0, 0) == jl::npos);
  CHECK(jl::scan_to_boundary(R"({"a":[1,2)", 0, 0) == jl::npos);
  CHECK(jl::scan_to_boundary("", 0, 0) == jl::npos);
}
