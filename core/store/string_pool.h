#pragma once
// Interns strings so every distinct name, category or id text is stored once and
// compared as a 32-bit id. Strings that live in memory owned elsewhere for at least
// as long as the pool (the trace's input buffer) are referenced, not copied.
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sollens {

using StrId = uint32_t;
inline constexpr StrId kEmptyStr = 0;  // id of "" in every pool

class StringPool {
 public:
  StringPool();

  // Interns a string that will stay valid (unchanged) as long as this pool.
  StrId intern_stable(std::string_view s);
  // Interns a string of unknown lifetime: copied when first seen.
  StrId intern(std::string_view s);

  std::optional<StrId> find(std::string_view s) const;
  std::string_view view(StrId id) const { return strings_[id]; }
  size_t size() const { return strings_.size(); }
  size_t heap_bytes() const;

 private:
  StrId insert(std::string_view s, uint64_t hash, size_t slot);
  size_t find_slot(std::string_view s, uint64_t hash) const;
  void grow();

  std::vector<std::string_view> strings_;
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> slots_;  // open addressing: id + 1, 0 = empty
  std::deque<std::string> owned_;
};

uint64_t hash_bytes(std::string_view s);

}  // namespace sollens
