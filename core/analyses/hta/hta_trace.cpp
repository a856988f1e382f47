#include "analyses/hta/hta_trace.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <unordered_set>

#include "model/flat_index.h"

namespace sollens::hta {

std::string_view kernel_type_name(KernelType type) {
  switch (type) {
    case KernelType::kCommunication: return "COMMUNICATION";
    case KernelType::kMemory: return "MEMORY";
    case KernelType::kComputation: break;
  }
  return "COMPUTATION";
}

KernelType kernel_type_of(std::string_view name) {
  if (name.starts_with("nccl") || name.starts_with("gloo")) return KernelType::kCommunication;
  if (name.find("Memcpy") != std::string_view::npos || name.find("Memset") != std::string_view::npos)
    return KernelType::kMemory;
  return KernelType::kComputation;
}

namespace {

// HTA rounds only when its ts column is floating point: some event's ts is not whole.
bool has_fractional_timestamps(const EventStore& s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (s.ts[i] != std::floor(s.ts[i])) return true;
  return false;
}

}  // namespace

std::vector<uint32_t> HtaTrace::rows_by_start(bool (*keep)(Category)) const {
  const EventStore& s = store_;
  std::vector<uint32_t> rows;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.phase[i] == Phase::kComplete && keep(s.category[i])) rows.push_back(i);
  std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) { return ts(a) < ts(b); });
  return rows;
}

namespace {

// HTA's profiler-step symbols: ^ProfilerStep#(\d+).
bool is_profiler_step(std::string_view name) {
  constexpr std::string_view kPrefix = "ProfilerStep#";
  return name.starts_with(kPrefix) && name.size() > kPrefix.size() &&
         std::isdigit(static_cast<unsigned char>(name[kPrefix.size()]));
}

// GPU-side: what runs on a stream (HTA tells the two apart by the stream arg; HIP runtime
// calls carry one too, "0x0", and HTA's results count them as host events).
bool is_gpu_side(Category c) {
  return is_gpu_activity(c) || c == Category::kCudaSync || c == Category::kGpuUserAnnotation;
}

size_t distinct_profiler_steps(const EventStore& s) {
  std::unordered_set<StrId> names;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.phase[i] == Phase::kComplete && is_profiler_step(s.name_of(i))) names.insert(s.name[i]);
  return names.size();
}

}  // namespace

HtaTrace::HtaTrace(const EventStore& store) : store_(store) {
  if (store.metadata.distributed && store.metadata.distributed->rank != kNoValue)
    rank_ = store.metadata.distributed->rank;
  rounds_ = has_fractional_timestamps(store);
  gpu_events_ = rows_by_start(is_gpu_activity);
  runtime_events_ = rows_by_start(is_runtime);

  FlatIndex<int64_t, IdHash> runtime_by_correlation(runtime_events_.size());
  for (uint32_t i = 0; i < store.size(); ++i)  // file order: the first of a shared id wins
    if (is_runtime(store.category[i]) && store.phase[i] == Phase::kComplete && store.correlation[i] != kNoValue)
      runtime_by_correlation.insert_if_absent(store.correlation[i], i);
  launch_.assign(gpu_events_.size(), kNoLaunch);
  gpu_position_.assign(store.size(), 0);
  for (size_t k = 0; k < gpu_events_.size(); ++k) {
    const uint32_t e = gpu_events_[k];
    gpu_position_[e] = static_cast<uint32_t>(k);
    if (store.correlation[e] == kNoValue) continue;
    if (const std::optional<uint32_t> call = runtime_by_correlation.find(store.correlation[e]))
      launch_[k] = static_cast<int32_t>(*call);
  }
  type_kernels();
  if (distinct_profiler_steps(store) >= 2) drop_last_step();
}

// Once per kernel name: a trace repeats a few hundred names over millions of kernels,
// and each type is two searches through a name of a hundred characters or more.
void HtaTrace::type_kernels() {
  constexpr uint8_t kUnknown = 0xff;
  std::vector<uint8_t> by_name(store_.strings.size(), kUnknown);
  kernel_types_.resize(gpu_events_.size());
  for (size_t k = 0; k < gpu_events_.size(); ++k) {
    const StrId name = store_.name[gpu_events_[k]];
    if (by_name[name] == kUnknown) by_name[name] = static_cast<uint8_t>(kernel_type_of(store_.str(name)));
    kernel_types_[k] = static_cast<KernelType>(by_name[name]);
  }
}

void HtaTrace::drop_last_step() {
  const EventStore& s = store_;
  auto is_host = [&](uint32_t i) { return s.phase[i] == Phase::kComplete && !is_gpu_side(s.category[i]); };
  last_step_start_ = -std::numeric_limits<double>::infinity();
  for (uint32_t i = 0; i < s.size(); ++i)
    if (is_host(i) && is_profiler_step(s.name_of(i))) last_step_start_ = std::max(last_step_start_, ts(i));
  loaded_.assign(s.size(), 1);
  // HTA joins the two sides on correlation with pandas' merge, where a missing id matches
  // a missing id: a GPU-side event without one (an annotation, a sync) stays when a kept
  // host event has none either.
  std::unordered_set<int64_t> host_correlations;
  bool host_without_correlation = false;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!is_host(i)) continue;
    loaded_[i] = ts(i) < last_step_start_;
    if (!loaded_[i]) continue;
    if (s.correlation[i] == kNoValue) host_without_correlation = true;
    else host_correlations.insert(s.correlation[i]);
  }
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.phase[i] == Phase::kComplete && is_gpu_side(s.category[i]))
      loaded_[i] = s.correlation[i] == kNoValue ? host_without_correlation
                                                : host_correlations.contains(s.correlation[i]);
}

int64_t HtaTrace::stream(uint32_t event) const {
  const int64_t s = store_.stream[event];
  return s == kNoValue ? -1 : s;
}

int32_t HtaTrace::launch_of(uint32_t gpu_event) const { return launch_[gpu_position_[gpu_event]]; }

}  // namespace sollens::hta
