#pragma once
// Aligns two sequences of ids with the Wagner–Fischer edit distance (unit cost for
// insert, delete, substitute), backtracking as TraceLens's TraceDiff does: equal ids
// match first, then a deletion, else an insertion. Common prefixes and suffixes are
// matched before the table is built; a middle too large for the table (over
// kMaxCells) is aligned greedily instead (equal ids match; otherwise the nearer next
// occurrence within a short window decides), which is deterministic but not minimal.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sollens {

enum class AlignOp : uint8_t { kMatch, kDelete, kInsert };

struct AlignStep {
  AlignOp op;
  int64_t a = -1;  // index in the first sequence (kMatch, kDelete)
  int64_t b = -1;  // index in the second sequence (kMatch, kInsert)
};

inline constexpr size_t kMaxAlignmentCells = size_t{16} << 20;

std::vector<AlignStep> align_sequences(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);

}  // namespace sollens
