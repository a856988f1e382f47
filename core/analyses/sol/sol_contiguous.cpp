#include "analyses/sol/sol_contiguous.h"

#include <vector>

#include "analyses/perf/models.h"

namespace sollens {

namespace {

// Row-major strides of one input's dims; [] for a scalar, None or a tensor list.
PyValue contiguous_strides(const PyValue& dims) {
  const auto shape = int_list(dims);
  if (!shape) return PyValue::list({});
  std::vector<PyValue> strides(shape->size());
  int64_t step = 1;
  for (size_t k = shape->size(); k-- > 0;) {
    strides[k] = PyValue::integer(step);
    step *= (*shape)[k];
  }
  return PyValue::list(std::move(strides));
}

}  // namespace

std::optional<perf::ModelResult> elementwise_assuming_contiguous(const ModelEval& eval,
                                                                 const ModeledOps& modeled) {
  if (!eval.entry) return std::nullopt;
  const perf::Model m = eval.entry->model;
  if (m != perf::Model::kUnary && m != perf::Model::kBinary) return std::nullopt;
  perf::EventArgs args = modeled.args[eval.args].args;
  if (!args.strides.is_none() || !args.dims.is_seq()) return std::nullopt;
  std::vector<PyValue> strides;
  for (size_t i = 0; i < args.dims.size(); ++i) strides.push_back(contiguous_strides(args.dims[i]));
  args.strides = PyValue::list(std::move(strides));
  perf::ModelResult r = eval.entry->evaluate(m, perf::ModelInput{eval.entry->name, args, {}});
  if (r.status != perf::Status::kOk || r.fwd.status != perf::Status::kOk) return std::nullopt;
  return r;
}

}  // namespace sollens
