#pragma once
// SGLang's kernel-shape profiler names its wrapped launchers
// `sglang_profiler::<module>_<fn>_<n>`, the `_<n>` differing per call site (layer).
// TraceLens's pseudo-op pass (--enable_pseudo_ops) first renames such cpu_ops to their
// base name, so that they group together and match their perf models.
#include <optional>
#include <string_view>

#include "store/event_store.h"

namespace sollens {

// The name without its `_<digits>` suffix when it is `sglang_profiler::X_<digits>` with
// X not empty (TraceLens's `^(sglang_profiler::.+?)_\d+$`); nullopt otherwise.
std::optional<std::string_view> sglang_profiler_base_name(std::string_view name);

// Renames every event of each such name to its base name, where the first event of that
// name in the trace's order is a cpu_op (as TraceLens checks the name's first UID).
void strip_sglang_profiler_suffixes(EventStore& store);

}  // namespace sollens
