// torch.compile's Triton kernel ops (triton_poi_*, triton_red_*, triton_per_*), which
// TraceLens models from the op's own args, without an inductor cache:
//   xnumel, rnumel  the integer Concrete Inputs (others, such as an epsilon, are skipped):
//                   a pointwise op's last one is xnumel (rnumel 1); a reduction's
//                   (red/per) last two are xnumel, rnumel.
//   fused_ops       the aten ops spelled in the name (triton_fused_ops.h).
//   flops           (Σ FLOPs per element of the fused ops) · xnumel · rnumel, a float.
//   bytes           Σ prod(shape)·bpe over the tensor args (dtype not Scalar, shape not
//                   empty) with bpe from the c10 spelled dtypes (0 for any other), plus,
//                   for a pointwise op, the first tensor's bpe · xnumel (its output).
//   Compute Spec    "vector_" + the first tensor dtype with a known bpe, lower-cased
//                   without "c10::" (vector_bfloat16), "" when none.
// Without Concrete Inputs, Input Dims or Input type there is nothing to read (TraceLens
// would look for the inductor cache: not modeled).
#include <algorithm>
#include <cctype>
#include <string>

#include "analyses/perf/models.h"
#include "analyses/perf/triton_fused_ops.h"

namespace sollens::perf {

namespace {

int64_t c10_bytes_per_element(std::string_view dtype) {
  if (dtype == "c10::BFloat16" || dtype == "c10::Half") return 2;
  if (dtype == "c10::Float" || dtype == "c10::Int") return 4;
  if (dtype == "c10::Double" || dtype == "c10::Long") return 8;
  if (dtype == "c10::Byte" || dtype == "c10::Char") return 1;
  return 0;
}

// Python's int(text) for the decimal integers Kineto writes; nullopt: ValueError.
std::optional<int64_t> python_int(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  int64_t v = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return negative ? -v : v;
}

}  // namespace

ModelResult eval_triton_compiled(const ModelInput& in) {
  ModelResult r;
  r.bwd.status = Status::kNotImplemented;
  const EventArgs& g = in.args;
  if (!g.concrete.is_seq() || g.concrete.size() == 0 || !g.dims.is_seq() || g.dims.size() == 0 ||
      !g.types.is_seq() || g.types.size() == 0) {
    r.status = Status::kNotImplemented;  // no inductor cache to fall back on
    return r;
  }
  std::vector<int64_t> scalars;
  for (size_t k = 0; k < g.concrete.size(); ++k) {
    const PyValue& v = g.concrete[k];
    if (v.kind == PyValue::Kind::kStr && v.s.empty()) continue;
    const auto x = v.kind == PyValue::Kind::kStr ? python_int(v.s) : std::nullopt;
    if (x) scalars.push_back(*x);
  }
  const bool reduction = in.name.starts_with("triton_red_") || in.name.starts_with("triton_per_");
  int64_t xnumel = 0, rnumel = 1;
  if (reduction && scalars.size() >= 2) {
    xnumel = scalars[scalars.size() - 2];
    rnumel = scalars.back();
  } else if (!scalars.empty()) {
    xnumel = scalars.back();
  } else {
    r.status = Status::kNotImplemented;
    return r;
  }
  std::string names;
  int64_t flops_per_element = 0;
  for (std::string_view op : fused_aten_ops(in.name)) {
    names += (names.empty() ? "aten." : ", aten.") + std::string(op);
    flops_per_element += fused_op_flops_per_element(op);
  }
  double bytes = 0;
  int64_t first_bpe = -1;
  std::optional<std::string> dtype;
  const size_t n = std::min(g.dims.size(), g.types.size());
  for (size_t k = 0; k < n; ++k) {
    const PyValue& t = g.types[k];
    const auto shape = int_list(g.dims[k]);
    if ((t.kind == PyValue::Kind::kStr && t.s == "Scalar") || !g.dims[k].truthy()) continue;
    const int64_t bpe = t.kind == PyValue::Kind::kStr ? c10_bytes_per_element(t.s) : 0;
    if (first_bpe < 0) first_bpe = bpe;
    if (!dtype && bpe > 0) {
      std::string d = t.s.substr(t.s.rfind("::") == std::string::npos ? 0 : t.s.rfind("::") + 2);
      for (char& c : d) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      dtype = d;
    }
    if (shape) bytes += static_cast<double>(prod(*shape) * bpe);
  }
  if (!reduction && first_bpe >= 0) bytes += static_cast<double>(first_bpe * xnumel);

  r.param("fused_ops", PyValue::str(names));
  r.param("xnumel", PyValue::integer(xnumel));
  r.param("rnumel", PyValue::integer(rnumel));
  r.maf_type = "vector";
  r.precision = dtype;
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::real(static_cast<double>(flops_per_element * xnumel * rnumel));
  r.fwd.bytes = Count::real(bytes);
  return r;
}

}  // namespace sollens::perf
