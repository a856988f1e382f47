#pragma once
// Speed of light from a trace: every op's roofline estimate against its measured GPU
// time, grouped by layer type, layer instance, function, phase, and per step and layer.
// See README.md here.
#include <optional>
#include <string>
#include <vector>

#include "analyses/cycles/cycles.h"
#include "devices/device_identify.h"
#include "analyses/sol/sol_ops.h"
#include "analyses/sol/sol_steps.h"
#include "analyses/sol/sol_tables.h"
#include "analyses/sol/sol_wall.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct SolReport {
  std::string device;      // the spec's id, or "" when no GPU with peaks
  std::string device_how;  // how it was chosen (identified / user) or why there is none
  double efficiency_factor = 1.0;
  SolOps ops;
  SolTotals totals;
  SolWall wall;                         // the headline: estimates against wall time, idle included
  std::optional<SolStepWall> step_wall;  // the main step, when cycles found one
  Table metrics{"sol_metrics", TableKind::kSpeedOfLight};
  Table by_layer_type{"sol_by_layer_type", TableKind::kSpeedOfLight};
  Table by_layer_instance{"sol_by_layer_instance", TableKind::kSpeedOfLight};
  Table by_module{"sol_by_module", TableKind::kSpeedOfLight};
  Table by_function{"sol_by_function", TableKind::kSpeedOfLight};
  Table by_phase{"sol_by_phase", TableKind::kSpeedOfLight};
  Table by_phase_layer{"sol_by_phase_layer", TableKind::kSpeedOfLight};
  Table by_phase_prefix{"sol_by_phase_prefix", TableKind::kSpeedOfLight};
  Table by_step{"sol_by_step", TableKind::kSpeedOfLight};
  Table top_operations{"sol_top_operations", TableKind::kSpeedOfLight};
  Table unmodeled{"sol_unmodeled", TableKind::kSpeedOfLight};

  // Every table, in the order above (metrics first).
  std::vector<const Table*> tables() const;
  // The same tables moved out, in that order (the report keeps them as sheets).
  std::vector<Table> release_tables();
};

// `tree` should be built with python frames (TreeOptions::include_python) for layer
// types; `cycles` may be null (no by_step rows).
SolReport analyze_sol(const EventStore& store, const TraceTree& tree, const DeviceIdentification& device,
                      const SolOptions& options = {}, const CycleReport* cycles = nullptr);
// The same for a device already chosen (null: no estimates), from the launchers and
// modeled ops the caller already has (sol_ops.h: they may come from a tree without
// python frames).
SolReport analyze_sol(const EventStore& store, const TraceTree& tree, const LauncherTable& launchers,
                      const ModeledOps& modeled, const DeviceSpec* device, const SolOptions& options = {},
                      const CycleReport* cycles = nullptr);

// The Megatron tracker's console report: device, op count and totals, then the top
// rows by layer type, function and phase (estimated, measured, efficiency), and the
// unmodeled time and notes.
std::string sol_console_report(const SolReport& report, size_t top = 10);

}  // namespace sollens
