#pragma once
// What the hand-computed perf-model tests share: args written as the trace's Python
// literals, the op's registry entry, and a model result's params in one line.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "analyses/perf/model_registry.h"
#include "analyses/perf/models.h"
#include "base/python_literal.h"

namespace sollens::test {

inline PyValue lit(const char* text) {
  auto v = literal_eval(text);
  REQUIRE(v.has_value());
  return *v;
}

// An op's "Input Dims", "Input type", "Input Strides" and "Concrete Inputs" (absent: None).
inline perf::EventArgs event_args(const char* dims, const char* types, const char* strides = nullptr,
                                  const char* concrete = nullptr) {
  perf::EventArgs a;
  a.dims = lit(dims);
  a.types = lit(types);
  if (strides) a.strides = lit(strides);
  if (concrete) a.concrete = lit(concrete);
  return a;
}

inline const perf::PerfModelEntry& registered(const char* op) {
  const perf::PerfModelEntry* e = perf::find_perf_model(op);
  REQUIRE(e != nullptr);
  return *e;
}

inline perf::ModelResult evaluate_op(const char* op, const perf::EventArgs& args,
                                     std::vector<std::string_view> kernels = {}) {
  return perf::evaluate(registered(op).model, {op, args, kernels});
}

// "key=repr;" per param, in the model's order.
inline std::string params_repr(const perf::ModelResult& r) {
  std::string out;
  for (const auto& [k, v] : r.params) out += k + "=" + repr(v) + ";";
  return out;
}

}  // namespace sollens::test
