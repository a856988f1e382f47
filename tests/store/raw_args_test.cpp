// Hand-written args JSON and the values Python's json.loads gives for it (reprs as
// CPython prints them).
#include <catch2/catch.hpp>

#include <array>

#include "ingest/trace_reader.h"
#include "store/raw_args.h"

using namespace sollens;

namespace {

// One cpu_op per args text ("" for an event without args), in order.
Result<std::unique_ptr<EventStore>> load_with_args(const std::vector<std::string>& args) {
  std::string json = R"({"traceEvents":[)";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) json += ",";
    json += R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":)" + std::to_string(2 * i + 1) +
            R"(,"dur":1)" + (args[i].empty() ? "" : R"(,"args":)" + args[i]) + "}";
  }
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json + "]}"));
  REQUIRE(r.ok());
  REQUIRE(r.value()->size() == args.size());
  return r;
}

std::vector<std::string> reprs(ArgsReader& reader, uint32_t event, std::vector<std::string_view> keys) {
  std::vector<PyValue> values(keys.size());
  reader.read(event, keys, values);
  std::vector<std::string> out;
  for (const PyValue& v : values) out.push_back(repr(v));
  return out;
}

}  // namespace

TEST_CASE("args reader: JSON values as Python values") {
  Result<std::unique_ptr<EventStore>> r = load_with_args({
      R"({"dims": [[2, 3], [], [4]], "none": null, "t": true, "f": false, "s": "x\"y\n\u00e9", "u": "µs"})",
      R"({"floats": [1.0, 2.5E3, 1e-05, 1e300, -0.0], "ints": [-0, 7, 123456789012345678901234567890]})",
      R"({"d": {"k": [1, null], "it's": {}}, "empty": [], "esc": "tab\there"})",
  });
  ArgsReader reader(*r.value());
  CHECK(reprs(reader, 0, {"dims", "none", "t", "f", "s", "u", "absent"}) ==
        std::vector<std::string>{"[[2, 3], [], [4]]", "None", "True", "False", "'x\"y\\né'", "'µs'", "None"});
  // json.loads: anything with . e or E is a float; ints have no size limit; -0 is 0.
  CHECK(reprs(reader, 1, {"floats", "ints"}) ==
        std::vector<std::string>{"[1.0, 2500.0, 1e-05, 1e+300, -0.0]", "[0, 7, 123456789012345678901234567890]"});
  CHECK(reprs(reader, 2, {"d", "empty", "esc"}) ==
        std::vector<std::string>{"{'k': [1, None], \"it's\": {}}", "[]", "'tab\\there'"});
}

TEST_CASE("args reader: keys unescaped, the last of a repeated key, missing and empty args") {
  Result<std::unique_ptr<EventStore>> r = load_with_args({
      R"({"Input\u0020Dims": [1], "a": 1, "a": 2, "n": {"k": 1, "k": 2}})",
      R"({})",
      "",
  });
  ArgsReader reader(*r.value());
  CHECK(reprs(reader, 0, {"Input Dims", "a", "n"}) == std::vector<std::string>{"[1]", "2", "{'k': 2}"});
  std::array<PyValue, 1> value;
  CHECK(reader.read(1, std::vector<std::string_view>{"a"}, value));
  CHECK(value[0].is_none());
  CHECK(!reader.read(2, std::vector<std::string_view>{"a"}, value));
  CHECK(value[0].is_none());
}

TEST_CASE("args reader: raw JSON text of the wanted keys") {
  Result<std::unique_ptr<EventStore>> r = load_with_args({R"({"a" : [1,  2] , "b":"s", "c":null})", ""});
  ArgsReader reader(*r.value());
  const std::vector<std::string_view> keys = {"a", "b", "c", "d"};
  std::vector<std::string_view> raw(keys.size());
  CHECK(reader.find_raw(0, keys, raw));
  CHECK(raw == std::vector<std::string_view>{"[1,  2]", "\"s\"", "null", ""});
  CHECK(!reader.find_raw(1, keys, raw));
  CHECK(raw == std::vector<std::string_view>{"", "", "", ""});
}

TEST_CASE("args text index: one id per distinct text of the wanted keys") {
  Result<std::unique_ptr<EventStore>> r = load_with_args({
      R"({"Input Dims": [[1, 2]], "External id": 1})",
      R"({"Input Dims": [[1, 2]], "External id": 2})",  // other keys do not count
      R"({"Input Dims": [[1,2]]})",                      // other spacing: another text
      "",
      R"({"Input Dims": [[3]]})",
      "",
  });
  ArgsTextIndex index(*r.value(), {"Input Dims"});
  CHECK(index.intern(0) == 0);
  CHECK(index.intern(1) == 0);
  CHECK(index.intern(2) == 1);
  CHECK(index.intern(3) == 2);
  CHECK(index.intern(4) == 3);
  CHECK(index.intern(5) == 2);
  CHECK(index.intern(1) == 0);
  CHECK(index.size() == 4);
  std::array<PyValue, 1> dims;
  index.read(4, dims);
  CHECK(repr(dims[0]) == "[[3]]");
}
