#include "analyses/hta/critical_path/cp_names.h"

#include <algorithm>
#include <array>

namespace sollens::hta::cp {

namespace {

template <size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

bool is_hta_blocking_call(std::string_view name) {
  static constexpr std::array<std::string_view, 6> kNames = {
      "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery",
      "cudaEventSynchronize",  "cudaMemcpy",            "cudaMemcpyAsync"};
  return one_of(name, kNames);
}

bool is_runtime_lock_call(std::string_view name) {
  return name == "cudaHostAlloc" || name == "cudaLaunchKernel" || name == "cudaMemcpyAsync";
}

bool is_launch_call(std::string_view name) {
  static constexpr std::array<std::string_view, 28> kNames = {
      "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx", "cudaMemcpyAsync",
      "cudaMemsetAsync", "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel",
      "hipExtModuleLaunchKernel", "hipMemsetAsync", "hipMemcpyAsync", "hipMemcpyWithStream",
      "urEnqueueUSMFill", "urEnqueueUSMFill2D", "urEnqueueUSMMemcpy", "urEnqueueUSMMemcpy2D",
      "urEnqueueKernelLaunch", "urEnqueueKernelLaunchExp", "urEnqueueKernelLaunchCustomExp",
      "urEnqueueKernelLaunchWithArgsExp", "urEnqueueCooperativeKernelLaunchExp", "urEnqueueMemBufferFill",
      "urEnqueueMemBufferRead", "urEnqueueMemBufferWrite", "urEnqueueMemBufferCopy", "urUSMHostAlloc",
      "urUSMSharedAlloc", "urUSMDeviceAlloc"};
  return one_of(name, kNames);
}

WaitKind wait_kind(std::string_view name) {
  static constexpr std::array<std::string_view, 4> kDevice = {"cudaDeviceSynchronize", "hipDeviceSynchronize",
                                                              "cuCtxSynchronize", "cudaThreadSynchronize"};
  static constexpr std::array<std::string_view, 3> kStream = {"cudaStreamSynchronize", "hipStreamSynchronize",
                                                              "cuStreamSynchronize"};
  static constexpr std::array<std::string_view, 3> kEvent = {"cudaEventSynchronize", "hipEventSynchronize",
                                                             "cuEventSynchronize"};
  // Copies that return only when the copy is done.
  static constexpr std::array<std::string_view, 9> kCopy = {
      "cudaMemcpy", "cudaMemcpy2D", "cudaMemcpyFromSymbol", "hipMemcpy",    "hipMemcpy2D",
      "hipMemcpyWithStream", "hipMemcpyDtoH", "cuMemcpyDtoH", "cuMemcpyDtoH_v2"};
  // Copies that may block (to or from pageable host memory): decided by their copy's name.
  static constexpr std::array<std::string_view, 4> kAsyncCopy = {"cudaMemcpyAsync", "hipMemcpyAsync",
                                                                 "cuMemcpyDtoHAsync", "cuMemcpyDtoHAsync_v2"};
  if (one_of(name, kDevice)) return WaitKind::kDevice;
  if (one_of(name, kStream)) return WaitKind::kStream;
  if (one_of(name, kEvent)) return WaitKind::kEvent;
  if (one_of(name, kCopy)) return WaitKind::kCopy;
  if (one_of(name, kAsyncCopy)) return WaitKind::kAsyncCopy;
  return WaitKind::kNone;
}

std::string shorten_name(std::string_view name) {
  std::string stack;
  stack.reserve(name.size());
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '-' && i + 1 < name.size() && name[i + 1] == '>') {  // "->" is dropped first
      ++i;
      continue;
    }
    if (c == '>' || c == ')') {
      const char open = c == '>' ? '<' : '(';
      while (!stack.empty() && stack.back() != open) stack.pop_back();
      if (!stack.empty()) stack.pop_back();
    } else {
      stack.push_back(c);
    }
  }
  const size_t space = stack.rfind(' ');
  return space == std::string::npos ? stack : stack.substr(space + 1);
}

}  // namespace sollens::hta::cp
