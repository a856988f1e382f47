#include "analyses/hta/critical_path/cp_sync_inference.h"

#include <algorithm>
#include <map>
#include <utility>
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

// Launches grouped by a key (a stream of a process, or a thread), each group by launch time.
template <typename Key>
class LaunchGroups {
 public:
  void add(const Key& key, const Launched& l) { groups_[key].push_back(l); }
  void sort() {
    for (auto& [key, list] : groups_)
      std::stable_sort(list.begin(), list.end(),
                       [](const Launched& a, const Launched& b) { return a.launch_ts < b.launch_ts; });
  }
  // The group's last launch at or before `ts`, or null.
  const Launched* last_before(const Key& key, double ts) const {
    const auto it = groups_.find(key);
    return it == groups_.end() ? nullptr : last_before(it->second, ts);
  }
  static const Launched* last_before(const std::vector<Launched>& list, double ts) {
    const auto it = std::upper_bound(list.begin(), list.end(), ts,
                                     [](double v, const Launched& l) { return v < l.launch_ts; });
    return it == list.begin() ? nullptr : &*(it - 1);
  }
  const std::map<Key, std::vector<Launched>>& groups() const { return groups_; }

 private:
  std::map<Key, std::vector<Launched>> groups_;
};

// A stream runs its work in launch order, so what a call waits for on a stream is the
// stream's last launch before the call.
class WaitFinder {
 public:
  using StreamKey = std::pair<StrId, int64_t>;  // (launching process, stream)
  using ThreadKey = std::pair<StrId, StrId>;    // (pid, tid) of the launching call

  explicit WaitFinder(const CpView& view) : view_(view), s_(view.store()), t_(view.trace()) {
    for (const uint32_t row : view.clipped_rows()) {
      const int64_t call = view.index_correlation(row);
      if (view.stream(row) == -1 || call <= 0 || view.raw_cat(row) == "cuda_sync") continue;
      const auto c = static_cast<uint32_t>(call);
      const Launched l{t_.ts(c), row, c};
      by_stream_.add({s_.pid[c], view.stream(row)}, l);
      by_thread_.add({s_.pid[c], s_.tid[c]}, l);
    }
    by_stream_.sort();
    by_thread_.sort();
  }

  // The GPU event the call waited for, or −1.
  int64_t waited_for(uint32_t call) const {
    const WaitKind kind = wait_kind(s_.name_of(call));
    const int64_t partner = view_.index_correlation(call);
    const bool own_copy = partner > 0 && view_.stream(static_cast<uint32_t>(partner)) > 0 &&
                          view_.raw_cat(static_cast<uint32_t>(partner)) != "cuda_sync";
    if (kind == WaitKind::kAsyncCopy && !(own_copy && pageable_copy(s_.name_of(static_cast<uint32_t>(partner)))))
      return -1;
    int64_t stream = -1;
    if ((kind == WaitKind::kCopy || kind == WaitKind::kAsyncCopy) && own_copy) {
      stream = view_.stream(static_cast<uint32_t>(partner));
    } else if (kind == WaitKind::kStream || kind == WaitKind::kEvent) {
      const Launched* last = by_thread_.last_before({s_.pid[call], s_.tid[call]}, t_.ts(call));
      if (last) stream = view_.stream(last->gpu);
    }
    int64_t best = -1;
    auto consider = [&](int64_t gpu) {
      if (gpu < 0) return;
      const double gpu_end = t_.end(static_cast<uint32_t>(gpu));
      if (gpu_end <= t_.ts(call) || gpu_end > t_.end(call) + kEndTolerance) return;
      if (best < 0 || gpu_end > t_.end(static_cast<uint32_t>(best))) best = gpu;
    };
    if (own_copy) consider(partner);
    for (const auto& [key, list] : by_stream_.groups()) {
      if (key.first != s_.pid[call] || (stream != -1 && key.second != stream)) continue;
      if (const Launched* last = LaunchGroups<StreamKey>::last_before(list, t_.ts(call))) consider(last->gpu);
    }
    return best;
  }

 private:
  const CpView& view_;
  const EventStore& s_;
  const HtaTrace& t_;
  LaunchGroups<StreamKey> by_stream_;
  LaunchGroups<ThreadKey> by_thread_;
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
