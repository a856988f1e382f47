#pragma once
// The runtime-call names the critical path treats apart, and HTA's shortened names.
#include <string>
#include <string_view>

namespace sollens::hta::cp {

// HTA's BLOCKING_SYNC_CALLS: the last span of such a call weighs 0 in HTA's graph.
bool is_hta_blocking_call(std::string_view name);
// CUDA_RUNTIME_EVENTS: calls that hold the CUDA runtime's lock, one at a time across
// threads; their own span is weighed in full (the lock edges), not as a blocking call.
bool is_runtime_lock_call(std::string_view name);
// get_runtime_launch_events_mask: calls that enqueue GPU work (CUDA, HIP, MTIA, XPU).
bool is_launch_call(std::string_view name);

// How a blocking call waits, for the inferred GPU → CPU edges.
enum class WaitKind { kNone, kDevice, kStream, kEvent, kCopy, kAsyncCopy };
WaitKind wait_kind(std::string_view name);

// hta.utils.shorten_name: template and call arguments removed, then the last word.
std::string shorten_name(std::string_view name);

}  // namespace sollens::hta::cp
