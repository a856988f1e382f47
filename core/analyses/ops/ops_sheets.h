#pragma once
// The launcher sheets (tracelens-semantics.md §4.3-§4.5): ops_summary_by_category,
// ops_summary and ops_unique_args, from the kernel launchers. TraceLens sorts the
// first two on one key with NumPy's unstable quicksort; ties are ordered exactly as
// it orders them (stats::pandas_argsort_desc), which the cumulative column shows.
#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/process_names.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

// With `recompute_column` (TraceLens --detect_recompute) the launchers are grouped by
// their is_recompute too, and an is_recompute column follows the key columns.
Table ops_summary_by_category_table(const LauncherTable& launchers, bool recompute_column = false);
Table ops_summary_table(const EventStore& store, const LauncherTable& launchers,
                        bool recompute_column = false);
Table ops_unique_args_table(const EventStore& store, const LauncherTable& launchers,
                            const ProcessThreadNames& names, bool recompute_column = false);
// The same, reading the process and thread names first.
Table ops_unique_args_table(const EventStore& store, const LauncherTable& launchers);

}  // namespace sollens
