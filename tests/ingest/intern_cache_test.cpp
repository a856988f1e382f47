// The decoder reuses the previous event's string id when cat/pid/tid/name repeat;
// escaped strings must still get their own unescaped value.
#include <catch2/catch.hpp>

#include "ingest/ingest_test_util.h"

TEST_CASE("repeated and escaped names intern to the right strings", "[ingest]") {
  // JSON text a\\\\b is a\\b (two backslashes); a\\b is a\b (one).
  const std::string json = R"({"traceEvents":[
    {"ph":"X","cat":"cpu_op","name":"a\\\\b","pid":1,"tid":2,"ts":1,"dur":1},
    {"ph":"X","cat":"cpu_op","name":"a\\b","pid":1,"tid":2,"ts":2,"dur":1},
    {"ph":"X","cat":"cpu_op","name":"a\\b","pid":"1","tid":3,"ts":3,"dur":1},
    {"ph":"X","cat":"kernel","name":"k","pid":1,"tid":3,"ts":4,"dur":1}]})";
  auto r = sollens::test::load(json);
  REQUIRE(r.ok());
  const sollens::EventStore& s = *r.value();
  REQUIRE(s.size() == 4);
  CHECK(s.name_of(0) == "a\\\\b");
  CHECK(s.name_of(1) == "a\\b");
  CHECK(s.name[2] == s.name[1]);
  CHECK(s.str(s.pid[2]) == "1");
  CHECK(s.pid[2] == s.pid[0]);
  CHECK(s.str(s.tid[3]) == "3");
  CHECK(s.str(s.cat[3]) == "kernel");
  CHECK(s.str(s.cat[2]) == "cpu_op");
}
