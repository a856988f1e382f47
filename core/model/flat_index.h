#pragma once
// A flat open-addressing map from a 64-bit key (or a (pid, tid, link) triple) to an
// event row, for link indexes (the tree's, HTA's by correlation): up to millions of
// entries built once and probed once each, where std::unordered_map spends most of its
// time allocating nodes. insert_or_assign overwrites ("the last event wins"),
// insert_if_absent keeps the first ("the first in file order wins").
#include <cstdint>
#include <optional>
#include <vector>

namespace sollens {

template <class Key, class Hash>
class FlatIndex {
 public:
  explicit FlatIndex(size_t expected = 0) { rehash(capacity_for(expected)); }

  void insert_or_assign(const Key& key, uint32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
    Slot& s = slots_[find_slot(key)];
    if (!s.used) {
      s.used = true;
      s.key = key;
      ++size_;
    }
    s.value = value;
  }
  // true when the key was new (and now maps to `value`).
  bool insert_if_absent(const Key& key, uint32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
    Slot& s = slots_[find_slot(key)];
    if (s.used) return false;
    s.used = true;
    s.key = key;
    s.value = value;
    ++size_;
    return true;
  }
  bool contains(const Key& key) const { return slots_[find_slot(key)].used; }
  std::optional<uint32_t> find(const Key& key) const {
    const Slot& s = slots_[find_slot(key)];
    if (!s.used) return std::nullopt;
    return s.value;
  }

 private:
  struct Slot {
    Key key{};
    uint32_t value = 0;
    bool used = false;
  };
  static size_t capacity_for(size_t n) {
    size_t c = 16;
    while (c < n * 2) c *= 2;
    return c;
  }
  size_t find_slot(const Key& key) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash{}(key) & mask;; i = (i + 1) & mask)
      if (!slots_[i].used || slots_[i].key == key) return i;
  }
  void rehash(size_t capacity) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(capacity, Slot{});
    for (const Slot& s : old)
      if (s.used) slots_[find_slot(s.key)] = s;
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

// Fibonacci hashing with a final fold: keys are ids and counters, often sequential.
struct IdHash {
  size_t operator()(int64_t k) const {
    const uint64_t h = static_cast<uint64_t>(k) * 0x9e3779b97f4a7c15ULL;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

}  // namespace sollens
