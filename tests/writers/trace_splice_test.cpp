#include <catch2/catch.hpp>

#include <sstream>

#include "writers/trace_splice.h"

using sollens::write_trace_with_extra_events;

namespace {

std::string spliced(std::string_view trace, std::vector<std::string> extra) {
  std::ostringstream out;
  REQUIRE(write_trace_with_extra_events(trace, extra, out));
  return out.str();
}

}  // namespace

TEST_CASE("trace splice: events go at the end of traceEvents, every other byte kept", "[writers][trace_splice]") {
  const std::string trace =
      R"({"schemaVersion": 1, "deviceProperties": [{"id": 0}], "traceEvents": [{"name": "a]\"[", "ph": "X"}], )"
      R"("traceName": "x]"})";
  CHECK(spliced(trace, {R"({"ph": "C"})"}) ==
        R"({"schemaVersion": 1, "deviceProperties": [{"id": 0}], "traceEvents": [{"name": "a]\"[", "ph": "X"},)"
        "\n"
        R"({"ph": "C"}], "traceName": "x]"})");
}

TEST_CASE("trace splice: an empty events array takes the events without a leading comma", "[writers][trace_splice]") {
  CHECK(spliced(R"({"traceEvents": [ ]})", {"{}", "{}"}) == "{\"traceEvents\": [ \n{},\n{}]}");
}

TEST_CASE("trace splice: the 2021 form, a top-level array", "[writers][trace_splice]") {
  CHECK(spliced(R"([{"ph": "X"}])", {"{}"}) == "[{\"ph\": \"X\"},\n{}]");
}

TEST_CASE("trace splice: a text without an events array is refused", "[writers][trace_splice]") {
  std::ostringstream out;
  CHECK_FALSE(write_trace_with_extra_events(R"({"nodes": []})", {"{}"}, out));
  CHECK_FALSE(write_trace_with_extra_events(R"({"traceEvents": )", {"{}"}, out));
  CHECK_FALSE(write_trace_with_extra_events("", {"{}"}, out));
  CHECK(out.str().empty());
}
