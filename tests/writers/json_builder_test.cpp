// The JSON builder: separators, both spacings, escapes, numbers as Python writes them.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "writers/json_builder.h"

using namespace sollens;

TEST_CASE("json builder: nested objects and arrays, spaced") {
  JsonBuilder json;
  json.begin_object()
      .member("name", "H100")
      .key("peaks")
      .begin_array()
      .number(0.5)
      .integer(2)
      .begin_object()
      .end_object()
      .end_array()
      .key("empty")
      .begin_array()
      .end_array()
      .member("ok", true)
      .member_null("none")
      .end_object();
  CHECK(json.take() == R"({"name": "H100", "peaks": [0.5, 2, {}], "empty": [], "ok": true, "none": null})");
}

TEST_CASE("json builder: the same text compact") {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_object().member("a", 1).key("b").begin_array().boolean(false).null().end_array().end_object();
  CHECK(json.take() == R"({"a":1,"b":[false,null]})");
}

TEST_CASE("json builder: keys and strings escaped once") {
  JsonBuilder json;
  json.begin_object().member("a\"b", "x\\y\n\x01").end_object();
  CHECK(json.take() == "{\"a\\\"b\": \"x\\\\y\\n\\u0001\"}");
}

TEST_CASE("json builder: UTF-8 passes through") {
  JsonBuilder json;
  json.begin_object().member("µs", std::string("tab\t")).end_object();
  CHECK(json.take() == "{\"µs\": \"tab\\t\"}");
}

TEST_CASE("json builder: floats in Python repr, non-finite as null") {
  JsonBuilder json;
  json.begin_array()
      .number(0.1)
      .number(1e-05)
      .number(1e+16)
      .number(3.0)
      .number(-2.5)
      .number(std::nan(""))
      .number(std::numeric_limits<double>::infinity())
      .number(-std::numeric_limits<double>::infinity())
      .end_array();
  CHECK(json.take() == "[0.1, 1e-05, 1e+16, 3.0, -2.5, null, null, null]");
}

TEST_CASE("json builder: integers of every width stay integers") {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  const int small = -3;
  const unsigned count = 7;
  const uint64_t big = 18446744073709551615ULL;  // size_t is 32 bits in wasm32
  json.begin_object()
      .member("int", small)
      .member("unsigned", count)
      .member("int64", int64_t{-9007199254740993})
      .member("uint64", big)
      .member("double", 2.0)
      .end_object();
  CHECK(json.take() ==
        R"({"int":-3,"unsigned":7,"int64":-9007199254740993,"uint64":18446744073709551615,"double":2.0})");
}

TEST_CASE("json builder: raw values sit where a value goes") {
  JsonBuilder json;
  json.begin_object().member_raw("rows", "[\n{\"a\":1}\n]").key("more").raw("{}").end_object();
  CHECK(json.take() == "{\"rows\": [\n{\"a\":1}\n], \"more\": {}}");
}

TEST_CASE("json builder: a bare value and take empties the builder") {
  JsonBuilder json;
  json.string("x");
  CHECK(json.take() == "\"x\"");
  json.begin_array().integer(1).end_array();
  CHECK(json.take() == "[1]");
}
