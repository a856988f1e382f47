#pragma once
// Window primitives of cycle detection, shared by uplifter's pipeline
// (cycle_detect.cpp) and structure mode (structure_cycles.cpp): occurrence lists,
// spacing checks, canonical alignment and window matching. Internal to this folder.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sollens::cycle_windows {

using Ids = std::vector<uint32_t>;

// Occurrence lists of every id, as one CSR array: O(n + universe).
struct Occurrences {
  std::vector<uint32_t> offset;
  std::vector<uint32_t> pos;
  std::span<const uint32_t> of(uint32_t id) const {
    return {pos.data() + offset[id], offset[id + 1] - offset[id]};
  }
};

inline Occurrences index_occurrences(const Ids& ids, size_t universe) {
  Occurrences o;
  o.offset.assign(universe + 1, 0);
  for (uint32_t id : ids) ++o.offset[id + 1];
  for (size_t i = 0; i < universe; ++i) o.offset[i + 1] += o.offset[i];
  o.pos.resize(ids.size());
  std::vector<uint32_t> fill(o.offset.begin(), o.offset.end() - 1);
  for (size_t i = 0; i < ids.size(); ++i) o.pos[fill[ids[i]]++] = static_cast<uint32_t>(i);
  return o;
}

inline size_t tolerance(size_t length, size_t pct) { return std::max<size_t>(1, length * pct / 100); }

// Every gap after the first within the tolerance of the first (uplifter's spacing check).
inline bool evenly_spaced(std::span<const uint32_t> p, size_t length, size_t pct) {
  const size_t tol = tolerance(length, pct);
  for (size_t i = 2; i < p.size(); ++i) {
    const size_t gap = p[i] - p[i - 1];
    if ((gap > length ? gap - length : length - gap) > tol) return false;
  }
  return true;
}

// Occurrences before the first gap outside the tolerance of `length`.
inline size_t first_run_size(const std::vector<uint32_t>& p, size_t length, size_t pct) {
  const size_t tol = tolerance(length, pct);
  size_t i = 1;
  while (i < p.size()) {
    const size_t gap = p[i] - p[i - 1];
    if ((gap > length ? gap - length : length - gap) > tol) break;
    ++i;
  }
  return i;
}

// The earliest start from which the sequence is still periodic with this length:
// step back while ids[s−1] == ids[s−1+length], never below `floor`, at most length−1.
inline uint32_t align_back(const Ids& ids, uint32_t s, uint32_t length, uint32_t floor) {
  uint32_t a = s;
  while (a > floor && s - a + 1 < length && ids[a - 1] == ids[a - 1 + length]) --a;
  return a;
}

// Stops as soon as too many positions differ; the answer is the full count's.
inline bool windows_match(const Ids& ids, size_t a, size_t b, size_t length, double share) {
  size_t same = 0, differ = 0;
  // The most differing positions that can still match (the estimate is at most 1 over).
  size_t allowed = std::min(length, static_cast<size_t>(static_cast<double>(length) * (1.0 - share)) + 1);
  while (allowed > 0 && static_cast<double>(length - allowed) / static_cast<double>(length) < share)
    --allowed;
  for (size_t j = 0; j < length; ++j) {
    if (ids[a + j] == ids[b + j]) ++same;
    else if (++differ > allowed) return false;
  }
  return static_cast<double>(same) / static_cast<double>(length) >= share;
}

// A layer window at b matching the one at a: `length` kernels at `share`, or, for a
// layer with one extra kernel, `length` + 1 kernels of which one is skipped. Returns
// the kernels taken (0: no match). O(length).
inline size_t layer_window(const Ids& sig, size_t a, size_t b, size_t length, size_t end, double share) {
  if (windows_match(sig, a, b, length, share)) return length;
  // The window must start like the layer, or a window one kernel early would pass.
  if (b + length + 1 > end || sig[a] != sig[b]) return 0;
  // pre: matches of a[0..j) with b[0..j); suf: a[j..L) with b[j+1..L+1).
  size_t suf = 0;
  for (size_t j = 0; j < length; ++j) suf += sig[a + j] == sig[b + j + 1];
  size_t pre = 0, best = suf;
  for (size_t j = 0; j < length; ++j) {
    pre += sig[a + j] == sig[b + j];
    suf -= sig[a + j] == sig[b + j + 1];
    best = std::max(best, pre + suf);
  }
  return static_cast<double>(best) / static_cast<double>(length) >= share ? length + 1 : 0;
}

// How many of the `length` kernels at a are found in order in [b, b_end), skipping at
// most `skip` kernels there in all (kernels an iteration holds beyond the others: a
// warm-up's autotuning). Greedy; a kernel of a not found within the budget takes b's
// next kernel as its (differing) counterpart. O(length + skip).
inline size_t subsequence_matches(const Ids& ids, size_t a, size_t length, size_t b, size_t b_end, size_t skip) {
  size_t found = 0, j = b, skipped = 0;
  for (size_t i = 0; i < length && j < b_end; ++i) {
    size_t k = j;
    while (k < b_end && ids[k] != ids[a + i] && skipped + (k - j) < skip) ++k;
    if (k < b_end && ids[k] == ids[a + i]) {
      skipped += k - j;
      j = k + 1;
      ++found;
    } else {
      ++j;
    }
  }
  return found;
}

// A first or last layer one kernel short (an MLP's last Linear without its activation,
// the first layer's backward without the input's gradient): the `length` − 1 kernels at
// b match the layer at a with one of its kernels left out, at `share`. O(length).
inline bool shorter_window_matches(const Ids& sig, size_t a, size_t b, size_t length, double share) {
  if (length < 2) return false;
  // pre: a[0..j) against b[0..j); suf: a[j+1..L) against b[j..L−1).
  size_t suf = 0;
  for (size_t j = 1; j < length; ++j) suf += sig[a + j] == sig[b + j - 1];
  size_t pre = 0, best = suf;
  for (size_t j = 1; j < length; ++j) {
    pre += sig[a + j - 1] == sig[b + j - 1];
    suf -= sig[a + j] == sig[b + j - 1];
    best = std::max(best, pre + suf);
  }
  return static_cast<double>(best) / static_cast<double>(length - 1) >= share;
}

// A first or last layer that differs: at least half of its kernels (as a multiset)
// are the layer's, and a kernel that occurs once in the layer sits at the same offset
// (e.g. the attention kernel). O(length log length).
inline bool loosely_matches(const Ids& sig, size_t a, size_t b, size_t length) {
  std::vector<uint32_t> x(sig.begin() + a, sig.begin() + a + length);
  std::vector<uint32_t> y(sig.begin() + b, sig.begin() + b + length);
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  size_t common = 0;
  for (size_t i = 0, j = 0; i < length && j < length;) {
    if (x[i] == y[j]) ++common, ++i, ++j;
    else if (x[i] < y[j]) ++i;
    else ++j;
  }
  if (common * 2 < length) return false;
  for (size_t k = 0; k < length; ++k) {
    if (sig[a + k] != sig[b + k]) continue;
    const auto [lo, hi] = std::equal_range(x.begin(), x.end(), sig[a + k]);
    if (hi - lo == 1) return true;
  }
  return false;
}

}  // namespace sollens::cycle_windows
