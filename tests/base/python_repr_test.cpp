#include <catch2/catch.hpp>

#include "base/python_repr.h"

using namespace sollens;

TEST_CASE("python str repr: quotes and escapes as CPython") {
  CHECK(python_str_repr("abc") == "'abc'");
  CHECK(python_str_repr("it's") == "\"it's\"");
  CHECK(python_str_repr("a'b\"c") == "'a\\'b\"c'");
  CHECK(python_str_repr("a\\b\n\t") == "'a\\\\b\\n\\t'");
  CHECK(python_str_repr(std::string("\x01", 1)) == "'\\x01'");
  CHECK(python_str_repr("µs") == "'µs'");
  CHECK(python_str_repr("\xc2\xa0") == "'\\xa0'");
}

TEST_CASE("python container reprs: 1-tuples, empty tuples, lists, dicts") {
  PythonReprBuilder one(PythonReprBuilder::Kind::kTuple);
  one.element() += "512";
  CHECK(one.finish() == "(512,)");
  CHECK(PythonReprBuilder(PythonReprBuilder::Kind::kTuple).finish() == "()");
  PythonReprBuilder list(PythonReprBuilder::Kind::kList);
  list.element() += "'GEMM'";
  list.element() += "'other'";
  CHECK(list.finish() == "['GEMM', 'other']");
  PythonReprBuilder d(PythonReprBuilder::Kind::kDict);
  d.key() += "'a'";
  d.value() += "None";
  d.key() += "'b'";
  d.value() += "1.5";
  CHECK(d.finish() == "{'a': None, 'b': 1.5}");
}
