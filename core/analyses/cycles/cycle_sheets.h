#pragma once
// Every cycles table of a report, in the order `sollens cycles` writes them and the
// page lists them: one place that names them, for the CLI and the wasm module.
#include <string>
#include <vector>

#include "analyses/cycles/cycles.h"
#include "table/table.h"

namespace sollens {

enum class CycleSheetMode : uint8_t {
  kAll,  // "cycles", then per pattern k: cycle_k (positions), cycle_k_repetitions and,
         // with a layer, cycle_k_outer, cycle_k_layer_repetitions, cycle_k_outside_layers
  kLlm,  // "cycles_llm", then per phase: prefill / decode (positions), <phase>_steps,
         // <phase>_outside_layers (a second device with phases gets an _s<i> suffix)
};

struct CycleSheet {
  Table table;
  std::string preamble;  // uplifter's "# Cycle Statistics" block for positions tables
};

std::vector<CycleSheet> cycle_sheets(const CycleReport& report, CycleSheetMode mode);

}  // namespace sollens
