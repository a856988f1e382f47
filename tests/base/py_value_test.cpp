// Expected texts are what CPython prints for the same objects (repr / str), written
// out by hand.
#include <catch2/catch.hpp>

#include "base/py_value.h"

using namespace sollens;

TEST_CASE("py value: scalar reprs as CPython") {
  CHECK(repr(PyValue::none()) == "None");
  CHECK(repr(PyValue::boolean(true)) == "True");
  CHECK(repr(PyValue::boolean(false)) == "False");
  CHECK(repr(PyValue::integer(-42)) == "-42");
  CHECK(repr(PyValue::big_integer("123456789012345678901234567890")) == "123456789012345678901234567890");
  CHECK(repr(PyValue::real(1.0)) == "1.0");
  CHECK(repr(PyValue::real(1e-05)) == "1e-05");
  CHECK(repr(PyValue::real(1e300)) == "1e+300");
  CHECK(repr(PyValue::real(-0.0)) == "-0.0");
  CHECK(repr(PyValue::str("it's")) == "\"it's\"");
  CHECK(repr(PyValue::str("a\nb")) == "'a\\nb'");
  CHECK(repr(PyValue::str("héllo")) == "'héllo'");
}

TEST_CASE("py value: containers, 1-tuples and str of a top-level string") {
  const PyValue nested = PyValue::list({PyValue::list({PyValue::integer(2), PyValue::integer(3)}), PyValue::list({}),
                                        PyValue::list({PyValue::integer(4)})});
  CHECK(repr(nested) == "[[2, 3], [], [4]]");
  CHECK(repr(nested.as_tuple()) == "((2, 3), (), (4,))");
  CHECK(str(PyValue::str("float")) == "float");
  CHECK(str(PyValue::list({PyValue::str("float")})) == "['float']");
  const PyValue d = PyValue::dict({PyValue::str("k"), PyValue::list({PyValue::real(2.5), PyValue::none()}),
                                   PyValue::str("it's"), PyValue::boolean(true)});
  CHECK(repr(d) == "{'k': [2.5, None], \"it's\": True}");
  // list_to_tuple does not descend into dicts.
  CHECK(repr(PyValue::list({d}).as_tuple()) == "({'k': [2.5, None], \"it's\": True},)");
}

TEST_CASE("py value: tuple_cell is str(list_to_tuple(v)), empty for None") {
  CHECK(!tuple_cell(PyValue::none()));
  CHECK(tuple_cell(PyValue::str("plain")) == "plain");
  CHECK(tuple_cell(PyValue::list({PyValue::str("float"), PyValue::str("")})) == "('float', '')");
  CHECK(tuple_cell(PyValue::list({})) == "()");
  CHECK(tuple_cell(PyValue::integer(7)) == "7");
}

TEST_CASE("py value: truthiness and int lists") {
  CHECK(!PyValue::none().truthy());
  CHECK(!PyValue::integer(0).truthy());
  CHECK(PyValue::real(0.5).truthy());
  CHECK(!PyValue::str("").truthy());
  CHECK(!PyValue::list({}).truthy());
  CHECK(PyValue::tuple({PyValue::none()}).truthy());
  CHECK(PyValue::big_integer("99999999999999999999").truthy());
  CHECK(int_list(PyValue::list({PyValue::integer(1), PyValue::integer(-2)})) == std::vector<int64_t>{1, -2});
  CHECK(!int_list(PyValue::list({PyValue::integer(1), PyValue::real(2.0)})));
  CHECK(!int_list(PyValue::integer(1)));
  CHECK(repr(int_tuple({512})) == "(512,)");
}

TEST_CASE("py value: an int written as a number or as its decimal text") {
  CHECK(int_value(PyValue::integer(-7)) == -7);
  CHECK(int_value(PyValue::str("4096")) == 4096);
  CHECK(!int_value(PyValue::str("")));
  CHECK(!int_value(PyValue::str("1e-05")));
  CHECK(!int_value(PyValue::str("True")));
  CHECK(!int_value(PyValue::real(3.0)));
  CHECK(!int_value(PyValue::none()));
}
