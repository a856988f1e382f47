#include "ingest/cut_short.h"

#include <cstdint>
#include <string_view>
#include <unordered_set>

namespace sollens {

namespace {

// A runtime or driver call that puts work on the GPU: kernel and graph launches
// (cudaLaunchKernel, cuLaunchKernelEx, cudaGraphLaunch, hipLaunchKernel, ...) and
// memory copies and sets (cudaMemcpyAsync, cudaMemsetAsync, hipMemcpyWithStream, ...).
bool launches_gpu_work(std::string_view name) {
  return name.find("Launch") != std::string_view::npos || name.find("Memcpy") != std::string_view::npos ||
         name.find("Memset") != std::string_view::npos;
}

std::string with_commas(size_t n) {
  std::string digits = std::to_string(n);
  for (size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
  return digits;
}

std::string plural(size_t n, const char* one, const char* many) { return with_commas(n) + " " + (n == 1 ? one : many); }

}  // namespace

Diagnostic gzip_truncated_warning() {
  return {Code::gzip_truncated, "the gzip stream ends early: the file is cut short"};
}

bool cut_short(const EventStore& store) {
  for (const Diagnostic& w : store.warnings)
    if (w.code == Code::gzip_truncated || w.code == Code::truncated) return true;
  return false;
}

void add_cut_short_loss(EventStore& store) {
  if (!cut_short(store)) return;
  std::unordered_set<int64_t> on_gpu;
  size_t gpu_events = 0;
  for (size_t i = 0; i < store.size(); ++i) {
    if (!is_gpu_activity(store.category[i])) continue;
    ++gpu_events;
    if (store.correlation[i] != kNoValue) on_gpu.insert(store.correlation[i]);
  }
  size_t launches = 0;
  size_t without_gpu = 0;
  for (size_t i = 0; i < store.size(); ++i) {
    if (!is_runtime(store.category[i]) || store.correlation[i] == kNoValue || !launches_gpu_work(store.name_of(i)))
      continue;
    ++launches;
    if (!on_gpu.contains(store.correlation[i])) ++without_gpu;
  }
  if (without_gpu == 0 && gpu_events > 0) return;
  const std::string why =
      "Kineto writes the GPU events (kernels, memcpy) after the CPU ones, and the file was probably cut while it "
      "was written or copied";
  std::string message;
  if (gpu_events == 0 && launches == 0)
    message = "no GPU events were read before the cut, so there is no GPU timeline (" + why + ")";
  else if (gpu_events == 0)
    message = "no GPU events were read before the cut: the " + plural(launches, "launch", "launches") +
              " read " + (launches == 1 ? "has" : "have") + " no kernel, so there is no GPU timeline (" + why + ")";
  else
    message = plural(without_gpu, "launch", "launches") + " of " + with_commas(launches) +
              (without_gpu == 1 ? " has" : " have") + " no kernel: the GPU timeline covers only the " + plural(gpu_events, "GPU event", "GPU events") +
              " read before the cut (" + why + ")";
  store.warnings.push_back({Code::cut_short_gpu, std::move(message)});
}

}  // namespace sollens
