#include "api/capture_trace.h"

#include <chrono>

#include "api/session.h"
#include "base/stopwatch.h"
#include "ingest/trace_reader.h"
#include "model/sglang_op_names.h"

namespace sollens {

Result<LoadStats> LoadedCapture::load(PaddedBuffer bytes, const LoadOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  Result<std::unique_ptr<EventStore>> parsed = load_trace(std::move(bytes), ingest_options(options));
  if (!parsed.ok()) return parsed.status();
  LoadStats stats;
  stats.parse_ms = ms_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  EventStore& store = **parsed;
  if (options.tree.strip_sglang_profiler_suffixes) strip_sglang_profiler_suffixes(store);
  TreeOptions tree_options = options.tree;
  tree_options.include_python = true;
  tree_ = std::make_unique<TraceTree>(TraceTree::build(store, tree_options));
  modeled_ = std::make_unique<ModeledOps>(evaluate_modeled_ops(store, *tree_));
  store_ = std::move(*parsed);
  trace_ = CaptureTrace{store_.get(), tree_.get(), modeled_.get()};
  stats.tree_ms = ms_since(t1);
  return stats;
}

}  // namespace sollens
