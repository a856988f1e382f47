// ast.literal_eval on hand-written texts; expected values as Python gives them.
#include <catch2/catch.hpp>

#include "base/python_literal.h"

using namespace sollens;

namespace {

std::string eval_repr(const char* text) {
  const auto v = literal_eval(text);
  return v ? repr(*v) : "raises";
}

}  // namespace

TEST_CASE("literal_eval: scalars, lists, tuples as Python reads them") {
  CHECK(eval_repr("512") == "512");
  CHECK(eval_repr("-3") == "-3");
  CHECK(eval_repr("1e-05") == "1e-05");
  CHECK(eval_repr("True") == "True");
  CHECK(eval_repr("None") == "None");
  CHECK(eval_repr("'abc'") == "'abc'");
  CHECK(eval_repr("[512]") == "[512]");
  CHECK(eval_repr("[1, 2,]") == "[1, 2]");
  CHECK(eval_repr("(1,)") == "(1,)");
  CHECK(eval_repr("(1)") == "1");  // parentheses, not a tuple
  CHECK(eval_repr("()") == "()");
  CHECK(eval_repr(" [ [1, 2], (3, 4) ] ") == "[[1, 2], (3, 4)]");
}

TEST_CASE("literal_eval: texts Python rejects") {
  CHECK(eval_repr("") == "raises");
  CHECK(eval_repr("[1, 2") == "raises");
  CHECK(eval_repr("abc") == "raises");
  CHECK(eval_repr("1 2") == "raises");
  CHECK(eval_repr("'open") == "raises");
}
