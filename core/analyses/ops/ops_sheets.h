#pragma once
// The launcher sheets (tracelens-semantics.md §4.3-§4.5): ops_summary_by_category,
// ops_summary and ops_unique_args, from the kernel launchers. TraceLens sorts the
// first two on one key with NumPy's unstable quicksort; ties are ordered exactly as
// it orders them (stats::pandas_argsort_desc), which the cumulative column shows.
#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/op_args.h"
#include "analyses/ops/process_names.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

// TraceLens's optional columns of these sheets.
struct OpsSheetOptions {
  // --detect_recompute: launchers grouped by their is_recompute too, shown in an
  // is_recompute column after the key columns.
  bool recompute_column = false;
  // --include_first_occurrence_time: ops_unique_args's first_occurrence_time after
  // operation_count, the group's earliest launcher ts less the earliest of all groups.
  bool first_occurrence_time = false;
  // --group_by_num_kernels: ops_unique_args grouped by each launcher's kernel count too,
  // shown in a num_kernels column after Concrete Inputs (before is_recompute).
  bool num_kernels_column = false;
};

Table ops_summary_by_category_table(const LauncherTable& launchers, const OpsSheetOptions& options = {});
Table ops_summary_table(const EventStore& store, const LauncherTable& launchers,
                        const OpsSheetOptions& options = {});
Table ops_unique_args_table(const EventStore& store, const LauncherTable& launchers,
                            const ProcessThreadNames& names, const OpsSheetOptions& options = {},
                            const OpArgsSource& args = {});
// The same, reading the process and thread names first.
Table ops_unique_args_table(const EventStore& store, const LauncherTable& launchers);

}  // namespace sollens
