#include "analyses/hta/critical_path/cp_sync_inference.h"

#include <algorithm>
#include <string_view>

#include "analyses/hta/critical_path/cp_names.h"

namespace sollens::hta::cp {

namespace {

// Rounding to whole µs can put a GPU end a microsecond past the call's end.
constexpr double kEndTolerance = 1.0;

struct Launched {
  double launch_ts;  // the runtime call's start
  uint32_t gpu;
  uint32_t call;
};

bool pageable_copy(std::string_view copy_name) { return copy_name.find("Pageable") != std::string_view::npos; }

class WaitFinder {
 public:
  explicit WaitFinder(const CpView& view) : view_(view), s_(view.store()), t_(view.trace()) {
    for (const uint32_t row : view.clipped_rows()) {
      const int64_t call = view.index_correlation(row);
      if (view.stream(row) == -1 || call <= 0 || view.raw_cat(row) == "cuda_sync") continue;
      launched_.push_back({t_.ts(static_cast<uint32_t>(call)), row, static_cast<uint32_t>(call)});
    }
    std::stable_sort(launched_.begin(), launched_.end(),
                     [](const Launched& a, const Launched& b) { return a.launch_ts < b.launch_ts; });
  }

  // The GPU event the call waited for, or −1.
  int64_t waited_for(uint32_t call) const {
    const WaitKind kind = wait_kind(s_.name_of(call));
    const int64_t partner = view_.index_correlation(call);
    const bool own_copy = partner > 0 && view_.stream(static_cast<uint32_t>(partner)) > 0 &&
                          view_.raw_cat(static_cast<uint32_t>(partner)) != "cuda_sync";
    if (kind == WaitKind::kAsyncCopy && !(own_copy && pageable_copy(s_.name_of(static_cast<uint32_t>(partner)))))
      return -1;
    bool any_stream = true;
    int64_t stream = -1;
    if ((kind == WaitKind::kCopy || kind == WaitKind::kAsyncCopy) && own_copy) {
      any_stream = false;
      stream = view_.stream(static_cast<uint32_t>(partner));
    } else if (kind == WaitKind::kStream || kind == WaitKind::kEvent) {
      stream = last_stream_of_thread(call);
      any_stream = stream == -1;
    }
    return latest_end_inside(call, any_stream, stream, own_copy ? partner : -1);
  }

 private:
  auto launched_before(double ts) const {
    return std::upper_bound(launched_.begin(), launched_.end(), ts,
                            [](double v, const Launched& l) { return v < l.launch_ts; });
  }

  int64_t last_stream_of_thread(uint32_t call) const {
    for (auto it = launched_before(t_.ts(call)); it != launched_.begin();) {
      --it;
      if (s_.pid[it->call] == s_.pid[call] && s_.tid[it->call] == s_.tid[call]) return view_.stream(it->gpu);
    }
    return -1;
  }

  int64_t latest_end_inside(uint32_t call, bool any_stream, int64_t stream, int64_t own) const {
    const double start = t_.ts(call), end = t_.end(call) + kEndTolerance;
    int64_t best = -1;
    auto consider = [&](uint32_t gpu) {
      const double gpu_end = t_.end(gpu);
      if (gpu_end <= start || gpu_end > end) return;
      if (best < 0 || gpu_end > t_.end(static_cast<uint32_t>(best))) best = gpu;
    };
    if (own >= 0) consider(static_cast<uint32_t>(own));
    for (auto it = launched_.begin(); it != launched_before(start); ++it) {
      if (s_.pid[it->call] != s_.pid[call]) continue;
      if (!any_stream && view_.stream(it->gpu) != stream) continue;
      consider(it->gpu);
    }
    return best;
  }

  const CpView& view_;
  const EventStore& s_;
  const HtaTrace& t_;
  std::vector<Launched> launched_;
};

bool has_sync_event(const CpView& view, uint32_t call) {
  const int64_t partner = view.index_correlation(call);
  return partner > 0 && view.raw_cat(static_cast<uint32_t>(partner)) == "cuda_sync";
}

}  // namespace

std::vector<GpuWait> infer_gpu_waits(const CpView& view) {
  const EventStore& s = view.store();
  const WaitFinder finder(view);
  std::vector<GpuWait> waits;
  for (const uint32_t row : view.clipped_rows()) {
    const std::string_view cat = view.raw_cat(row);
    if (view.stream(row) != -1 || (cat != "cuda_runtime" && cat != "cuda_driver")) continue;
    if (wait_kind(s.name_of(row)) == WaitKind::kNone || has_sync_event(view, row)) continue;
    const int64_t gpu = finder.waited_for(row);
    if (gpu >= 0) waits.push_back({static_cast<uint32_t>(gpu), row});
  }
  return waits;
}

}  // namespace sollens::hta::cp
