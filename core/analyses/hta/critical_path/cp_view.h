#pragma once
// The events HTA's critical path reads: HTA's trace table (complete events with a
// category; where the trace has two or more ProfilerStep#N names, only the CPU events
// before the last step and the GPU events they launched), HTA's index_correlation, and
// the events clipped to the annotation's window.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/hta/critical_path/critical_path.h"
#include "analyses/hta/hta_options.h"
#include "analyses/hta/hta_trace.h"
#include "store/narrow_column.h"

namespace sollens::hta::cp {

inline constexpr int64_t kNoCorrelation = -1;

class CpView {
 public:
  // gpu_stream_zero: GPU events on stream 0 (ROCm's default stream) are GPU events too;
  // HTA counts only streams above 0 and leaves them unlaunched.
  CpView(const HtaTrace& trace, const HtaOptions& options, bool gpu_stream_zero = false);

  const HtaTrace& trace() const { return trace_; }
  const EventStore& store() const { return trace_.store(); }
  bool kept(uint32_t row) const { return kept_[row] != 0; }
  bool clipped(uint32_t row) const { return clipped_[row] != 0; }
  // Clipped rows in file order.
  const std::vector<uint32_t>& clipped_rows() const { return clipped_rows_; }
  // HTA's stream: the numeric stream arg, else −1; a text one (ROCm's runtime calls write
  // "0x0") reads as −1 too, where HtaTrace parses its hex.
  int64_t stream(uint32_t row) const { return stream_[row]; }
  // HTA's index_correlation: −1 no correlation, 0 no partner, else the partner's row.
  int64_t index_correlation(uint32_t row) const { return index_corr_[row]; }
  int64_t correlation(uint32_t row) const;  // HTA's: −1 when absent
  std::string_view raw_cat(uint32_t row) const { return store().str(store().cat[row]); }
  // Whether HTA's table has a GPU event on stream 0: only then does a view with
  // gpu_stream_zero differ from one without (the other can be used in its place).
  bool has_stream_zero_gpu_events() const { return stream_zero_gpu_events_; }

  std::string annotation;  // "" = whole trace
  int64_t instance = -1;
  uint32_t annotation_event = 0;
  double window_start = 0, window_end = 0;
  std::string note;

 private:
  bool gpu_side(uint32_t row) const;  // HTA's stream > 0, or a stream-0 GPU event where asked
  void read_streams();
  void compute_index_correlation();
  void keep_hta_rows();
  void choose_window(const HtaOptions& options);
  void clip();

  const HtaTrace& trace_;
  bool gpu_stream_zero_ = false;
  bool stream_zero_gpu_events_ = false;
  std::vector<uint8_t> kept_, clipped_;
  std::vector<int32_t> index_corr_;  // a row fits: the tree's parents are int32_t too
  NarrowColumn<int64_t> stream_;
  std::vector<uint32_t> clipped_rows_;
};

struct CpGraphCache;

// The path over a view already built (the sheets compute HTA's and the inferred one);
// cache: what the graphs of one view share (null: nothing shared).
CriticalPath critical_path(const CpView& view, bool infer_gpu_waits, CpGraphCache* cache = nullptr);

}  // namespace sollens::hta::cp
