#include "analyses/diff/sequence_alignment.h"

#include <algorithm>

namespace sollens {

namespace {

// Edit-distance alignment of a[a0, a1) and b[b0, b1), appended to out.
void align_table(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, size_t a0, size_t a1,
                 size_t b0, size_t b1, std::vector<AlignStep>& out) {
  const size_t m = a1 - a0, n = b1 - b0;
  std::vector<uint32_t> dp((m + 1) * (n + 1));
  const auto at = [&](size_t i, size_t j) -> uint32_t& { return dp[i * (n + 1) + j]; };
  for (size_t i = 0; i <= m; ++i) at(i, 0) = static_cast<uint32_t>(i);
  for (size_t j = 0; j <= n; ++j) at(0, j) = static_cast<uint32_t>(j);
  for (size_t i = 1; i <= m; ++i)
    for (size_t j = 1; j <= n; ++j) {
      const uint32_t cost = a[a0 + i - 1] == b[b0 + j - 1] ? 0 : 1;
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
    }
  std::vector<AlignStep> steps;
  size_t i = m, j = n;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && a[a0 + i - 1] == b[b0 + j - 1]) {
      steps.push_back({AlignOp::kMatch, static_cast<int64_t>(a0 + i - 1), static_cast<int64_t>(b0 + j - 1)});
      --i;
      --j;
    } else if (i > 0 && (j == 0 || at(i, j) == at(i - 1, j) + 1)) {
      steps.push_back({AlignOp::kDelete, static_cast<int64_t>(a0 + i - 1), -1});
      --i;
    } else {
      steps.push_back({AlignOp::kInsert, -1, static_cast<int64_t>(b0 + j - 1)});
      --j;
    }
  }
  out.insert(out.end(), steps.rbegin(), steps.rend());
}

// Greedy alignment for middles too large for the table.
void align_greedy(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, size_t i, size_t a1,
                  size_t j, size_t b1, std::vector<AlignStep>& out) {
  constexpr size_t kWindow = 64;
  const auto next = [](const std::vector<uint32_t>& s, size_t from, size_t end, uint32_t id) {
    for (size_t k = from; k < end && k < from + kWindow; ++k)
      if (s[k] == id) return k - from;
    return kWindow;
  };
  while (i < a1 && j < b1) {
    if (a[i] == b[j]) {
      out.push_back({AlignOp::kMatch, static_cast<int64_t>(i++), static_cast<int64_t>(j++)});
      continue;
    }
    const size_t skip_b = next(b, j, b1, a[i]);  // a[i] appears later in b: b[j] was inserted
    const size_t skip_a = next(a, i, a1, b[j]);  // b[j] appears later in a: a[i] was deleted
    if (skip_b < skip_a) out.push_back({AlignOp::kInsert, -1, static_cast<int64_t>(j++)});
    else out.push_back({AlignOp::kDelete, static_cast<int64_t>(i++), -1});
  }
  while (i < a1) out.push_back({AlignOp::kDelete, static_cast<int64_t>(i++), -1});
  while (j < b1) out.push_back({AlignOp::kInsert, -1, static_cast<int64_t>(j++)});
}

}  // namespace

std::vector<AlignStep> align_sequences(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  std::vector<AlignStep> out;
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) {
    out.push_back({AlignOp::kMatch, static_cast<int64_t>(pre), static_cast<int64_t>(pre)});
    ++pre;
  }
  size_t a1 = a.size(), b1 = b.size(), suf = 0;
  while (a1 > pre && b1 > pre && a[a1 - 1] == b[b1 - 1]) {
    --a1;
    --b1;
    ++suf;
  }
  if ((a1 - pre + 1) * (b1 - pre + 1) <= kMaxAlignmentCells) align_table(a, b, pre, a1, pre, b1, out);
  else align_greedy(a, b, pre, a1, pre, b1, out);
  for (size_t k = 0; k < suf; ++k)
    out.push_back({AlignOp::kMatch, static_cast<int64_t>(a1 + k), static_cast<int64_t>(b1 + k)});
  return out;
}

}  // namespace sollens
