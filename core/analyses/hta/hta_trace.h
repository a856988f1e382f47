#pragma once
// One rank's trace as Holistic Trace Analysis sees it, shared by every HTA analysis:
//   * times: HTA reads a trace whose timestamps are not all whole µs ("ns resolution")
//     with each start rounded up and each end (ts + dur, in doubles) rounded down to a
//     whole µs, dur = end − start (trace_parser.round_down_time_stamps); a trace of whole
//     µs is read as it is;
//   * the rank: distributedInfo's, else 0;
//   * streams: the `stream` arg as a number, else −1;
//   * kernel types: COMMUNICATION (nccl* / gloo names), MEMORY (Memcpy / Memset in the
//     name), else COMPUTATION (hta/utils/utils.py get_kernel_type);
//   * launches: a GPU event's runtime call is the cuda_runtime / cuda_driver event with
//     its correlation id (HTA merges on correlation, never on flows);
//   * the last profiler step: where a trace names two or more ProfilerStep#N, HTA's loader
//     takes the last step to be incomplete and keeps only the host events that start
//     before it, and the GPU-side events (kernels, copies, sets, syncs and annotations on
//     a stream) whose correlation id one of those carries
//     (Trace._filter_irrelevant_gpu_kernels).
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "store/event_store.h"

namespace sollens::hta {

enum class KernelType : uint8_t { kComputation, kCommunication, kMemory };

std::string_view kernel_type_name(KernelType type);  // "COMPUTATION", "COMMUNICATION", "MEMORY"
KernelType kernel_type_of(std::string_view kernel_name);

inline constexpr int32_t kNoLaunch = -1;

class HtaTrace {
 public:
  explicit HtaTrace(const EventStore& store);

  const EventStore& store() const { return store_; }
  int64_t rank() const { return rank_; }
  bool rounds_times() const { return rounds_; }

  // µs, HTA's: computed from the store's at each call (an instruction each) rather than
  // kept, which would be 16 bytes an event for a trace of millions.
  double ts(uint32_t event) const { return rounds_ ? std::ceil(store_.ts[event]) : store_.ts[event]; }
  double end(uint32_t event) const {
    const double end = store_.ts[event] + store_.dur[event];
    return rounds_ ? std::floor(end) : end;
  }
  double dur(uint32_t event) const { return end(event) - ts(event); }
  int64_t stream(uint32_t event) const;  // −1 for an event without a numeric stream

  // Kernels, gpu_memcpy and gpu_memset events, by HTA start then file order.
  const std::vector<uint32_t>& gpu_events() const { return gpu_events_; }
  KernelType kernel_type(uint32_t gpu_event) const { return kernel_types_[gpu_position_[gpu_event]]; }
  // The runtime / driver call with the GPU event's correlation id, else kNoLaunch. Where
  // several share an id, the first in file order.
  int32_t launch_of(uint32_t gpu_event) const;
  // Runtime and driver calls (cuda_runtime, cuda_driver), by HTA start then file order.
  const std::vector<uint32_t>& runtime_events() const { return runtime_events_; }

  // Whether HTA's loader drops the last profiler step, and where that step starts.
  bool drops_last_step() const { return !loaded_.empty(); }
  double last_step_start() const { return last_step_start_; }
  // Whether HTA's loader keeps the row (every row where no step is dropped).
  bool loaded(uint32_t row) const { return loaded_.empty() || loaded_[row] != 0; }

 private:
  const EventStore& store_;
  int64_t rank_ = 0;
  bool rounds_ = false;
  std::vector<uint32_t> gpu_events_;
  std::vector<uint32_t> runtime_events_;
  std::vector<int32_t> launch_;  // per entry of gpu_events_
  std::vector<KernelType> kernel_types_;  // per entry of gpu_events_
  std::vector<uint32_t> gpu_position_;  // store row → index in gpu_events_ (only GPU rows meaningful)
  double last_step_start_ = 0;
  std::vector<uint8_t> loaded_;  // empty: every row kept

  // Rows that are complete events of a kept category, by HTA start then file order.
  std::vector<uint32_t> rows_by_start(bool (*keep)(Category)) const;
  void drop_last_step();
  void type_kernels();
};

}  // namespace sollens::hta
