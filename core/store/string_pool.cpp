#include "store/string_pool.h"

#include <cstring>

#include "base/same_bytes.h"

namespace sollens {

namespace {
inline uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}
}  // namespace

uint64_t hash_bytes(std::string_view s) {
  // 8 bytes per step: names can be thousands of characters long.
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ s.size();
  const char* p = s.data();
  size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = mix(h ^ w) + 0x9e3779b97f4a7c15ULL;
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  if (n) std::memcpy(&tail, p, n);  // p may be null for an empty view
  return mix(h ^ tail ^ (uint64_t(n) << 56));
}

StringPool::StringPool() {
  slots_.assign(1024, 0);
  insert(std::string_view(), hash_bytes(std::string_view()), find_slot({}, hash_bytes({})));
}

size_t StringPool::find_slot(std::string_view s, uint64_t hash) const {
  const size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  while (true) {
    uint32_t v = slots_[i];
    if (v == 0) return i;
    StrId id = v - 1;
    if (hashes_[id] == hash && same_bytes(strings_[id], s)) return i;
    i = (i + 1) & mask;
  }
}

StrId StringPool::insert(std::string_view s, uint64_t hash, size_t slot) {
  StrId id = static_cast<StrId>(strings_.size());
  strings_.push_back(s);
  hashes_.push_back(hash);
  slots_[slot] = id + 1;
  if (strings_.size() * 2 > slots_.size()) grow();
  return id;
}

void StringPool::grow() {
  std::vector<uint32_t> bigger(slots_.size() * 2, 0);
  const size_t mask = bigger.size() - 1;
  for (StrId id = 0; id < strings_.size(); ++id) {
    size_t i = hashes_[id] & mask;
    while (bigger[i] != 0) i = (i + 1) & mask;
    bigger[i] = id + 1;
  }
  slots_.swap(bigger);
}

StrId StringPool::intern_stable(std::string_view s) {
  uint64_t h = hash_bytes(s);
  size_t slot = find_slot(s, h);
  if (slots_[slot] != 0) return slots_[slot] - 1;
  return insert(s, h, slot);
}

StrId StringPool::intern(std::string_view s) {
  uint64_t h = hash_bytes(s);
  size_t slot = find_slot(s, h);
  if (slots_[slot] != 0) return slots_[slot] - 1;
  owned_.emplace_back(s);
  return insert(owned_.back(), h, slot);
}

std::optional<StrId> StringPool::find(std::string_view s) const {
  size_t slot = find_slot(s, hash_bytes(s));
  if (slots_[slot] == 0) return std::nullopt;
  return slots_[slot] - 1;
}

size_t StringPool::heap_bytes() const {
  size_t b = strings_.capacity() * sizeof(std::string_view) + hashes_.capacity() * 8 +
             slots_.capacity() * 4;
  for (const auto& s : owned_) b += s.capacity() + sizeof(std::string);
  return b;
}

}  // namespace sollens
