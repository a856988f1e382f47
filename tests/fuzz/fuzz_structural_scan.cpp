// The vector stage 1 (ingest/structural_scan.h, here its plain-loop form) against
// simdjson's best kernel for this machine: on any input, the same error and, where
// there is none, the same token offsets. A difference traps.
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "ingest/structural_scan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const simdjson::padded_string text(reinterpret_cast<const char*>(data), size);
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  std::vector<uint32_t> ours(sollens::structural_room(size));
  const sollens::StructuralScan scan = sollens::scan_structurals(bytes, size, ours.data());

  std::unique_ptr<simdjson::internal::dom_parser_implementation> theirs;
  const simdjson::implementation* best = simdjson::get_available_implementations().detect_best_supported();
  if (best->create_dom_parser_implementation(size, 64, theirs) != simdjson::SUCCESS) return 0;
  const auto error = theirs->stage1(bytes, size, simdjson::stage1_mode::regular);
  if (error != scan.error) __builtin_trap();
  if (error != simdjson::SUCCESS) return 0;
  if (theirs->n_structural_indexes != scan.count) __builtin_trap();
  for (uint32_t i = 0; i < scan.count + 3; ++i)
    if (theirs->structural_indexes[i] != ours[i]) __builtin_trap();
  return 0;
}
