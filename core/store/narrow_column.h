#pragma once
// A column of 64-bit ids held in 32 bits while every value fits, and in 64 from the
// first value that does not. Correlation ids, external ids, streams, devices, sequence
// numbers and args offsets are small numbers on every trace seen, yet none is bounded
// by the format: half the memory in the common case, every value kept in all cases.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace sollens {

// How T's values map to 32 bits: `encode` gives false for a value that needs 64.
// Signed ids keep an absent value (the type's least) as 0 and values -1 .. 2^32 - 3
// as value + 2; unsigned ones (offsets) keep 0 .. 2^32 - 1 as they are.
template <typename T>
struct NarrowCode;

template <>
struct NarrowCode<int64_t> {
  static constexpr int64_t kAbsent = std::numeric_limits<int64_t>::min();
  static bool encode(int64_t v, uint32_t& out) {
    if (v == kAbsent) return out = 0, true;
    if (v < -1 || v > int64_t(UINT32_MAX) - 2) return false;
    out = static_cast<uint32_t>(v + 2);
    return true;
  }
  static int64_t decode(uint32_t u) { return u == 0 ? kAbsent : int64_t(u) - 2; }
};

template <>
struct NarrowCode<uint64_t> {
  static bool encode(uint64_t v, uint32_t& out) {
    if (v > UINT32_MAX) return false;
    out = static_cast<uint32_t>(v);
    return true;
  }
  static uint64_t decode(uint32_t u) { return u; }
};

template <typename T>
class NarrowColumn {
  using Code = NarrowCode<T>;

 public:
  using value_type = T;

  size_t size() const { return wide_ ? wide_values_.size() : narrow_.size(); }
  bool empty() const { return size() == 0; }
  size_t capacity() const { return wide_ ? wide_values_.capacity() : narrow_.capacity(); }
  size_t heap_bytes() const { return narrow_.capacity() * sizeof(uint32_t) + wide_values_.capacity() * sizeof(T); }
  size_t used_bytes() const { return size() * (wide_ ? sizeof(T) : sizeof(uint32_t)); }
  bool is_wide() const { return wide_; }

  T operator[](size_t i) const { return wide_ ? wide_values_[i] : Code::decode(narrow_[i]); }

  // Once per event per column while a trace is read: the common case stays small
  // enough to inline, the widening is out of line.
  void push_back(T v) {
    uint32_t code;
    if (!wide_ && Code::encode(v, code)) [[likely]]
      narrow_.push_back(code);
    else
      push_back_wide(v);
  }
  void set(size_t i, T v) {
    uint32_t code;
    if (!wide_ && Code::encode(v, code)) [[likely]]
      narrow_[i] = code;
    else
      set_wide(i, v);
  }
  void reserve(size_t n) { wide_ ? wide_values_.reserve(n) : narrow_.reserve(n); }
  // New rows hold the absent value (code 0 in both encodings).
  void resize(size_t n) { wide_ ? wide_values_.resize(n, Code::decode(0)) : narrow_.resize(n, 0); }
  void shrink_to_fit() { wide_ ? wide_values_.shrink_to_fit() : narrow_.shrink_to_fit(); }
  // Appends `other`'s values, then frees `other`.
  void append(NarrowColumn&& other) {
    reserve(size() + other.size());
    if (!wide_ && !other.wide_) {
      narrow_.insert(narrow_.end(), other.narrow_.begin(), other.narrow_.end());
    } else {
      for (size_t i = 0; i < other.size(); ++i) push_back(other[i]);
    }
    other = NarrowColumn();
  }

  friend bool operator==(const NarrowColumn& a, const NarrowColumn& b) {
    if (a.size() != b.size()) return false;
    if (!a.wide_ && !b.wide_) return a.narrow_ == b.narrow_;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

 private:
  [[gnu::noinline]] void push_back_wide(T v) {
    if (!wide_) widen();
    wide_values_.push_back(v);
  }
  [[gnu::noinline]] void set_wide(size_t i, T v) {
    if (!wide_) widen();
    wide_values_[i] = v;
  }
  // Every value so far moves to 64 bits, with the room reserved so far.
  void widen() {
    wide_values_.reserve(std::max(narrow_.capacity(), narrow_.size() + 1));
    for (uint32_t code : narrow_) wide_values_.push_back(Code::decode(code));
    std::vector<uint32_t>().swap(narrow_);
    wide_ = true;
  }

  bool wide_ = false;
  std::vector<uint32_t> narrow_;
  std::vector<T> wide_values_;
};

}  // namespace sollens
