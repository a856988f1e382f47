#include "analyses/perf/gemm_params.h"

#include <cmath>
#include <regex>

namespace sollens::perf {

namespace {

// (transA, transB) from a ROCm Tensile or an NVIDIA nvjet kernel name.
std::optional<std::pair<bool, bool>> parse_transpose(std::string_view k) {
  static const std::regex tensile("C[a-z]{3}_A([a-z]{3})_B([a-z]{3})");
  std::match_results<std::string_view::const_iterator> m;
  if (std::regex_search(k.begin(), k.end(), m, tensile)) {
    const std::string a = m[1].str(), b = m[2].str();
    std::optional<bool> ta, tb;
    if (a == "lik") ta = true;
    else if (a == "ilk") ta = false;
    if (b == "jlk") tb = true;
    else if (b == "ljk") tb = false;
    if (ta && tb) return std::make_pair(*ta, *tb);
  }
  if (k.starts_with("nvjet")) {
    const size_t u = k.rfind('_');
    if (u != std::string_view::npos && k.size() - u - 1 >= 2) {
      const std::string_view s = k.substr(u + 1);
      auto flag = [](char c) -> std::optional<bool> {
        if (c == 'T') return true;
        if (c == 'N') return false;
        return std::nullopt;
      };
      auto a = flag(s[0]), b = flag(s[1]);
      if (a && b) return std::make_pair(*a, *b);
    }
  }
  return std::nullopt;
}

}  // namespace

void add_gemm_tail_params(ModelResult& r, std::span<const std::string_view> kernel_names) {
  if (!r.find_param("B")) r.param("B", PyValue::integer(1));
  for (std::string_view k : kernel_names)
    if (auto t = parse_transpose(k)) {
      r.param("transpose", PyValue::tuple({PyValue::boolean(t->first), PyValue::boolean(t->second)}));
      return;
    }
}

int64_t gemm_flops(int64_t M, int64_t N, int64_t K, bool bias) { return 2 * M * N * K + (bias ? M * N : 0); }

Bpe bpe_of(const PyValue& dtype) {
  const auto b = bytes_per_element(dtype);
  return b ? Bpe(static_cast<double>(*b)) : std::nullopt;
}

std::optional<Count> gemm_bytes(int64_t M, int64_t N, int64_t K, bool bias, Bpe a, Bpe b, Bpe bias_bpe, Bpe out,
                                int64_t batch) {
  if (!a || !b || !bias_bpe || !out) return std::nullopt;
  auto integral = [](double x) { return std::floor(x) == x; };
  if (integral(*a) && integral(*b) && integral(*bias_bpe) && integral(*out)) {
    auto i = [](double x) { return static_cast<int64_t>(x); };
    return Count::of(batch * (M * K * i(*a) + K * N * i(*b) + M * N * i(*out) + (bias ? N : 0) * i(*bias_bpe)));
  }
  const double per_batch = static_cast<double>(M * K) * *a + static_cast<double>(K * N) * *b +
                           static_cast<double>(M * N) * *out + static_cast<double>(bias ? N : 0) * *bias_bpe;
  return Count::real(static_cast<double>(batch) * per_batch);
}

}  // namespace sollens::perf
