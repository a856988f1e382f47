#include "api/capture_trace.h"

#include <chrono>
#include <new>

#include "api/session.h"
#include "base/stopwatch.h"
#include "ingest/trace_reader.h"
#include "model/sglang_op_names.h"

namespace sollens {

LoadOutcome LoadedCapture::load(PaddedBuffer bytes, const LoadOptions& options) {
  LoadOutcome outcome;
  const auto t0 = std::chrono::steady_clock::now();
  LoadResult parsed = load_trace(std::move(bytes), ingest_options(options));
  outcome.parse_ms = ms_since(t0);
  if (parsed.cancelled) {
    outcome.cancelled = true;
    return outcome;
  }
  if (!parsed.store) {
    outcome.error = parsed.error.empty() ? "the capture trace could not be read" : parsed.error;
    return outcome;
  }
  const auto t1 = std::chrono::steady_clock::now();
  if (options.tree.strip_sglang_profiler_suffixes) strip_sglang_profiler_suffixes(*parsed.store);
  try {
    TreeOptions tree_options = options.tree;
    tree_options.include_python = true;
    tree_ = std::make_unique<TraceTree>(TraceTree::build(*parsed.store, tree_options));
    modeled_ = std::make_unique<ModeledOps>(evaluate_modeled_ops(*parsed.store, *tree_));
  } catch (const std::bad_alloc&) {
    outcome.error = "out of memory while modeling the capture trace";
    return outcome;
  }
  store_ = std::move(parsed.store);
  trace_ = CaptureTrace{store_.get(), tree_.get(), modeled_.get()};
  outcome.tree_ms = ms_since(t1);
  outcome.ok = true;
  return outcome;
}

}  // namespace sollens
