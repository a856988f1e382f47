// ts and dur read to the same double as a correctly rounding strtod, whatever their
// form: Kineto's 3-decimal µs, integer µs, 16-17 digit values past the fast path,
// exponents, negative values and strings.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "ingest/ingest_test_util.h"

// Times up to 9.2e15 us (the int64 nanoseconds of EventStore::ts_ns); a ts past that is
// bad_numbers, read as 0 (tests/ingest/malformed_corpus_test.cpp), while a dur keeps its value.
TEST_CASE("event times equal strtod of their text", "[ingest]") {
  std::vector<std::string> texts = {"0",          "-0",          "1",         "0.5",       "21.953",
                                    "1365627949863.953", "1694128201429795", "9007199254740993",
                                    "9007199254740992.5", "4458677009853.4219",
                                    "1e3",        "2.5E-2",      "-7.125",    "0.001",     "123456789012.3456789"};
  uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 3000; ++i) {  // Kineto-like: 10-14 integer digits, 0-4 decimals
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    std::string t = std::to_string(x % 100000000000000ULL);
    const int decimals = static_cast<int>(x >> 60) % 5;
    if (decimals) t += "." + std::to_string(1000000 + (x >> 20) % 1000000).substr(7 - decimals);
    texts.push_back(t);
  }
  std::string json = R"({"traceEvents":[)";
  for (size_t i = 0; i < texts.size(); ++i)
    json += (i ? "," : "") + std::string(R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":)") +
            texts[i] + R"(,"dur":)" + texts[i] + "}";
  json += R"(,{"ph":"X","cat":"cpu_op","name":"s","pid":1,"tid":1,"ts":"12.5","dur":3}]})";
  auto r = sollens::test::load(json);
  REQUIRE(r.ok());
  REQUIRE(r.value()->size() == texts.size() + 1);
  for (size_t i = 0; i < texts.size(); ++i) {
    INFO(texts[i]);
    const double expected = std::strtod(texts[i].c_str(), nullptr);
    CHECK(r.value()->ts[i] == expected);
    CHECK(r.value()->dur[i] == expected);
    CHECK(std::signbit(r.value()->ts[i]) == std::signbit(expected));
  }
  CHECK(r.value()->ts.back() == 12.5);  // a time as a string
  CHECK(r.value()->dur.back() == 3.0);
}
