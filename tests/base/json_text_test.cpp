// JSON string escapes.
#include <catch2/catch.hpp>

#include "base/json_text.h"

using namespace sollens;

TEST_CASE("json text: string escapes") {
  CHECK(json_string("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(json_string("\n\t\x01") == "\"\\n\\t\\u0001\"");
  CHECK(json_string("µs") == "\"µs\"");
}
