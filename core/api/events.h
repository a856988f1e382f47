#pragma once
// The trace's events shaped like PyTorch's profiler result (KinetoEvent, event_tree):
// name, start/end/duration in ns, device type and index, correlation id, input shapes,
// Python stack, and the event tree (parent / children). Views into a Session: valid
// while it keeps the trace it was taken from.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

enum class DeviceType : uint8_t { kCpu, kGpu };  // kGpu: kernels, GPU memcpy and memset

class Event {
 public:
  Event(const EventStore& store, const TraceTree& tree, uint32_t row)
      : store_(&store), tree_(&tree), row_(row) {}

  uint32_t row() const { return row_; }  // its index in traceEvents (TraceLens's UID)
  std::string_view name() const { return store_->name_of(row_); }
  std::string_view category() const { return store_->str(store_->cat[row_]); }
  int64_t start_ns() const { return store_->ts_ns(row_); }
  int64_t duration_ns() const;
  int64_t end_ns() const { return start_ns() + duration_ns(); }
  DeviceType device_type() const;
  int64_t device_index() const;    // args.device of a GPU event; -1 on the CPU or unknown
  int64_t correlation_id() const;  // args.correlation; 0 when none
  // args["Input Dims"]: one list of sizes per input (empty for a non-tensor input);
  // empty when the event has none.
  std::vector<std::vector<int64_t>> input_shapes() const;
  // The enclosing python_function frames, innermost first; empty unless the session
  // was loaded with TreeOptions::include_python.
  std::vector<std::string_view> stack() const;
  std::optional<Event> parent() const;
  std::vector<Event> children() const;

 private:
  const EventStore* store_;
  const TraceTree* tree_;
  uint32_t row_;
};

// The complete ("X") events of a trace, in file order.
class EventView {
 public:
  EventView(const EventStore& store, const TraceTree& tree);
  size_t size() const { return rows_.size(); }
  Event operator[](size_t i) const { return {*store_, *tree_, rows_[i]}; }
  // The tops of the event tree: placed host events with no parent, in file order.
  std::vector<Event> roots() const;

 private:
  const EventStore* store_;
  const TraceTree* tree_;
  std::vector<uint32_t> rows_;
};

}  // namespace sollens
