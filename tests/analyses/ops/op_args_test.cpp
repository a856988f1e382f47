#include <catch2/catch.hpp>

#include "analyses/ops/op_args.h"
#include "analyses/perf/args_cache.h"
#include "ingest/trace_reader.h"

using namespace sollens;

namespace {

const std::string kThreeOps = R"({"traceEvents":[
    {"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{"External id":1,
     "Input Dims":[[2,3],[],[4]],"Input type":["float",""],"Input Strides":null,
     "Concrete Inputs":["", "1e-05", "[512]"], "extra":{"k":[1,2.5,true,null]}}},
    {"ph":"X","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":3,"dur":1,"args":{
     "Input Dims":[1.0, -0, 123456789012345678901234567890, 1e300, "x\"y"],"Input type":"plain"}},
    {"ph":"X","cat":"cpu_op","name":"c","pid":1,"tid":1,"ts":5,"dur":1}
  ]})";

}  // namespace

TEST_CASE("op args: lists become tuples, Python reprs, None for absent and null") {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(kThreeOps));
  REQUIRE(r.ok());
  OpArgsReader reader(*r.value());
  const OpArgs a = reader.read(0);
  CHECK(a.input_dims == "((2, 3), (), (4,))");
  CHECK(a.input_type == "('float', '')");
  CHECK(!a.input_strides);
  CHECK(a.concrete_inputs == "('', '1e-05', '[512]')");
  const OpArgs b = reader.read(1);
  CHECK(b.input_dims == "(1.0, 0, 123456789012345678901234567890, 1e+300, 'x\"y')");
  CHECK(b.input_type == "plain");  // a top-level string is written as is
  CHECK(!b.concrete_inputs);
  const OpArgs c = reader.read(2);
  CHECK((!c.input_dims && !c.input_type && !c.input_strides && !c.concrete_inputs));
}

// A report reads each op's args once, through the perf models' cache, and hands the
// ops sheets its texts: they must be the ones OpArgsReader renders.
TEST_CASE("op args: the perf models' args cache renders the four Input columns as OpArgsReader does") {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(kThreeOps));
  REQUIRE(r.ok());
  OpArgsReader reader(*r.value());
  perf::ArgsCache cache(*r.value());
  for (uint32_t e = 0; e < 3; ++e) {
    const OpArgs a = reader.read(e);
    const perf::ArgsEntry& entry = cache[cache.intern(e)];
    CHECK(entry.tuple_text[0] == a.input_dims);
    CHECK(entry.tuple_text[1] == a.input_type);
    CHECK(entry.tuple_text[2] == a.input_strides);
    CHECK(entry.tuple_text[3] == a.concrete_inputs);
  }
  int calls = 0;
  const OpArgsSource source = [&calls](uint32_t) {
    ++calls;
    return OpArgs{std::string("from the source"), {}, {}, {}};
  };
  OpArgsLookup shared(*r.value(), source), own(*r.value(), {});
  CHECK(shared(0).input_dims == "from the source");
  CHECK(calls == 1);
  CHECK(own(0).input_dims == "((2, 3), (), (4,))");
}
