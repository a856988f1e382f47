// GroupedGEMM models (tracelens-semantics.md §6.8): primus_turbo grouped GEMMs with a
// fixed K (X (M, K) @ W (G, K, N)) and with a K per group. Two arg layouts each: the
// compact `_impl` one and the zipped per-group shape lists. Backward raises
// NotImplementedError for both registered classes, so they get no bwd rows; their
// bwd category (GroupedGEMM_bwd) still labels linked backward ops.
#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {

using Pair = std::pair<int64_t, int64_t>;

bool positive_int(const PyValue& v) { return v.is_int() && v.i > 0; }

// Every (rows, cols) pair of positive ints in a nested list, depth first.
void collect_2d_shapes(const PyValue& v, std::vector<Pair>& out) {
  if (!v.is_seq()) return;
  if (v.size() == 2 && positive_int(v[0]) && positive_int(v[1])) {
    out.emplace_back(v[0].i, v[1].i);
    return;
  }
  for (const PyValue& item : v.items) collect_2d_shapes(item, out);
}

// The zipped layout [[(M_i, K_i)…], [(K_i, N_i)…]]: nullopt unless both sides hold the
// same number of shapes.
std::optional<std::pair<std::vector<Pair>, std::vector<Pair>>> zipped_shapes(const PyValue& dims) {
  if (!dims.is_seq() || dims.size() < 2 || !dims[0].is_seq() || !dims[1].is_seq()) return std::nullopt;
  std::vector<Pair> lhs, rhs;
  collect_2d_shapes(dims[0], lhs);
  collect_2d_shapes(dims[1], rhs);
  if (lhs.empty() || lhs.size() != rhs.size()) return std::nullopt;
  return std::make_pair(lhs, rhs);
}

struct FixedK {
  int64_t M, K, N, G;
};

// Compact [[M, K], [G, K, N]] or [[M, K], [G, N, K]].
std::optional<FixedK> compact_fixed_k(const PyValue& dims) {
  if (!dims.is_seq() || dims.size() < 2) return std::nullopt;
  const PyValue &a = dims[0], &b = dims[1];
  if (!a.is_seq() || !b.is_seq() || a.size() < 2 || b.size() != 3 || !positive_int(a[0]) || !positive_int(a[1]))
    return std::nullopt;
  for (const PyValue& x : b.items)
    if (!positive_int(x)) return std::nullopt;
  const int64_t M = a[0].i, K = a[1].i, G = b[0].i;
  if (b[1].i == K) return FixedK{M, K, b[2].i, G};
  if (b[2].i == K) return FixedK{M, K, b[1].i, G};
  return std::nullopt;
}

// Zipped with one K and one N for every group.
std::optional<FixedK> zipped_fixed_k(const PyValue& dims) {
  const auto z = zipped_shapes(dims);
  if (!z) return std::nullopt;
  const auto& [lhs, rhs] = *z;
  const int64_t K = lhs[0].second, N = rhs[0].second;
  int64_t M = 0;
  for (size_t i = 0; i < lhs.size(); ++i) {
    if (lhs[i].second != K || rhs[i].first != K || rhs[i].second != N) return std::nullopt;
    M += lhs[i].first;
  }
  return FixedK{M, K, N, static_cast<int64_t>(lhs.size())};
}

// Per group ((M_i, K_i), (K_i, N_i)): compact [[M, K], [M, N]] is one group.
std::optional<std::vector<std::pair<Pair, Pair>>> variable_k_groups(const PyValue& dims) {
  if (dims.is_seq() && dims.size() >= 2) {
    const PyValue &a = dims[0], &b = dims[1];
    if (a.is_seq() && b.is_seq() && a.size() == 2 && b.size() == 2 && positive_int(a[0]) && positive_int(a[1]) &&
        positive_int(b[0]) && positive_int(b[1]))
      return std::vector<std::pair<Pair, Pair>>{{{a[0].i, a[1].i}, {a[1].i, b[1].i}}};
  }
  const auto z = zipped_shapes(dims);
  if (!z) return std::nullopt;
  std::vector<std::pair<Pair, Pair>> groups;
  for (size_t i = 0; i < z->first.size(); ++i) {
    if (z->first[i].second != z->second[i].first) return std::nullopt;
    groups.emplace_back(z->first[i], z->second[i]);
  }
  return groups;
}

// bpe_in from Input type[0], bpe_out from [1] (else bpe_in); None where unknown.
struct GroupBpe {
  std::optional<int64_t> in, out;
};
GroupBpe group_bpe(const EventArgs& g) {
  const PyValue& t0 = at(g.types, 0);
  GroupBpe b;
  if (!t0.is_none()) b.in = bytes_per_element(t0);
  const PyValue& t1 = g.types.is_seq() && g.types.size() > 1 ? g.types[1] : t0;
  b.out = t1.is_none() ? b.in : bytes_per_element(t1);
  return b;
}

PyValue optional_int(const std::optional<int64_t>& v) { return v ? PyValue::integer(*v) : PyValue::none(); }

ModelResult new_result(const EventArgs& g) {
  ModelResult r;
  r.maf_type = "matrix";
  r.precision_dtype = at(g.types, 0);
  r.bwd.status = Status::kNotImplemented;
  return r;
}

void mkng_params(ModelResult& r, int64_t M, int64_t K, int64_t N, int64_t G, const GroupBpe& b) {
  r.param("M", PyValue::integer(M));
  r.param("K", PyValue::integer(K));
  r.param("N", PyValue::integer(N));
  r.param("G", PyValue::integer(G));
  r.param("bpe_in", optional_int(b.in));
  r.param("bpe_out", optional_int(b.out));
}

// flops = 2·M·K·N; bytes = (M·K + G·K·N)·bpe_in + M·N·bpe_out (an unknown bpe raises).
ModelResult fixed_k(const ModelInput& in) {
  const EventArgs& g = in.args;
  auto s = compact_fixed_k(g.dims);
  if (!s) s = zipped_fixed_k(g.dims);
  if (!s) return ModelResult{};  // ValueError
  const GroupBpe b = group_bpe(g);
  ModelResult r = new_result(g);
  mkng_params(r, s->M, s->K, s->N, s->G, b);
  r.status = Status::kOk;
  if (!b.in || !b.out) {
    r.fwd.status = Status::kError;  // None · int
    return r;
  }
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(2 * s->M * s->K * s->N);
  r.fwd.bytes = Count::of((s->M * s->K + s->G * s->K * s->N) * *b.in + s->M * s->N * *b.out);
  return r;
}

// Σ_i 2·M_i·K_i·N_i and Σ_i (M_i·K_i + K_i·N_i)·bpe_in + M_i·N_i·bpe_out (None with an
// unknown bpe); M sums the groups, K and N are the first group's.
ModelResult variable_k(const ModelInput& in) {
  const EventArgs& g = in.args;
  const auto groups = variable_k_groups(g.dims);
  if (!groups || groups->empty()) return ModelResult{};  // ValueError
  const GroupBpe b = group_bpe(g);
  int64_t M = 0, flops = 0, bytes = 0;
  std::vector<PyValue> pairs;
  for (const auto& [a, w] : *groups) {
    M += a.first;
    flops += 2 * a.first * a.second * w.second;
    if (b.in && b.out) bytes += (a.first * a.second + a.second * w.second) * *b.in + a.first * w.second * *b.out;
    pairs.push_back(PyValue::tuple({PyValue::tuple({PyValue::integer(a.first), PyValue::integer(a.second)}),
                                    PyValue::tuple({PyValue::integer(w.first), PyValue::integer(w.second)})}));
  }
  ModelResult r = new_result(g);
  mkng_params(r, M, groups->front().first.second, groups->front().second.second, static_cast<int64_t>(groups->size()), b);
  r.param("group_pairs", PyValue::list(std::move(pairs)));
  r.status = Status::kOk;
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(flops);
  if (b.in && b.out) r.fwd.bytes = Count::of(bytes);
  return r;
}

}  // namespace

ModelResult eval_grouped_gemm(Model m, const ModelInput& in) {
  return m == Model::kPrimusGroupedGemmVariableK ? variable_k(in) : fixed_k(in);
}

}  // namespace sollens::perf
