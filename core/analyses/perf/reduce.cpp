// Reduce model (tracelens-semantics.md §6.6): aten::sum, mean, max, min, norm, ...
// Quirk kept: TraceLens looks for dim/keepdim among Concrete Inputs as Python ints,
// lists and bools, but Kineto writes them as strings, so every reduction but
// cumsum/cumprod reads as a full one (num_output_elems 1).
// Corrected (CORRECTIONS.md): dim and keepdim parsed from those strings.
#include <algorithm>
#include <set>

#include "analyses/perf/models.h"
#include "base/python_literal.h"

namespace sollens::perf {

namespace {

// Output elements with dim/keepdim read from the Concrete Inputs strings, searched from
// the right as TraceLens searches its values; nullopt when none is found.
std::optional<int64_t> corrected_output_elems(const std::vector<int64_t>& shape, const PyValue& concrete) {
  if (!concrete.is_seq()) return std::nullopt;
  std::optional<std::vector<int64_t>> dims;
  for (size_t k = concrete.size(); k-- > 1;) {
    const PyValue& c = concrete[k];
    if (c.kind != PyValue::Kind::kStr || c.s.empty()) continue;
    auto v = literal_eval(c.s);
    if (!v || v->kind == PyValue::Kind::kBool) continue;
    if (v->kind == PyValue::Kind::kInt) {
      dims = std::vector<int64_t>{v->i};
      break;
    }
    if (v->is_seq()) {
      dims = int_list(*v);
      if (dims) break;
    }
  }
  if (!dims) return std::nullopt;
  const auto rank = static_cast<int64_t>(shape.size());
  if (dims->empty()) return 1;  // dim=[]: every dimension
  std::set<int64_t> reduced;
  for (int64_t d : *dims) reduced.insert(d < 0 ? d + rank : d);
  int64_t n = 1;
  for (int64_t k = 0; k < rank; ++k)
    if (!reduced.count(k)) n *= shape[static_cast<size_t>(k)];
  return n;
}

}  // namespace

ModelResult eval_reduce(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "vector";
  const EventArgs& g = in.args;
  const PyValue& d0 = at(g.dims, 0);
  if (d0.is_none()) {
    r.param("num_input_elems", PyValue::integer(0));
    r.param("num_output_elems", PyValue::integer(0));
    r.param("dtype_in_out", PyValue::tuple({PyValue::none(), PyValue::none()}));
    r.status = Status::kOk;
    for (Metrics* m : {&r.fwd, &r.bwd}) {
      m->status = Status::kOk;
      m->flops = Count::of(0);
    }
    return r;
  }
  auto shape = int_list(d0);
  if (!shape) return r;
  const std::string_view name = in.name;
  const bool scan = name == "aten::cumsum" || name == "aten::cumprod";
  const int64_t n_in = prod(*shape);
  const int64_t n_out = scan ? n_in : 1;
  const PyValue dt_in = at(g.types, 0);
  const PyValue dt_out = g.output_type.is_seq() ? at(g.output_type, 0) : PyValue::none();
  const char* type = name.find("mean") != std::string_view::npos  ? "mean"
                     : name.find("max") != std::string_view::npos ? "max"
                     : name.find("min") != std::string_view::npos ? "min"
                     : name.find("norm") != std::string_view::npos ? "norm"
                                                                   : "sum";
  r.param("num_input_elems", PyValue::integer(n_in));
  r.param("num_output_elems", PyValue::integer(n_out));
  r.param("dtype_in_out", PyValue::tuple({dt_in, dt_out}));
  r.param("reduce_type", PyValue::str(type));
  r.precision_dtype = dt_in;
  r.status = Status::kOk;
  const auto bpe_in = bytes_per_element(dt_in);
  const auto bpe_out = dt_out.is_none() ? bpe_in : bytes_per_element(dt_out);
  std::optional<int64_t> fixed_out = scan ? std::optional<int64_t>(n_in) : corrected_output_elems(*shape, g.concrete);
  for (Metrics* m : {&r.fwd, &r.bwd}) {
    m->status = Status::kOk;
    m->flops = Count::of(n_in);
    if (bpe_in && bpe_out) {
      m->bytes = Count::of(n_in * *bpe_in + n_out * *bpe_out);
      if (fixed_out && *fixed_out != n_out) m->bytes_corrected = Count::of(n_in * *bpe_in + *fixed_out * *bpe_out);
    }
  }
  return r;
}

}  // namespace sollens::perf
