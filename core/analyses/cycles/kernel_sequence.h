#pragma once
// The kernel sequences cycle detection runs on: GPU kernels (cat kernel, ph X, graph
// replays included, linked to a launch or not), one sequence per device and stream
// (or per device) ordered by start time; uplifter's file order is kept as an option
// for comparison. Names and
// signatures become dense ids numbered in order of first appearance, so nothing
// downstream depends on hash-map order.
#include <cstdint>
#include <string>
#include <vector>

#include "store/event_store.h"

namespace sollens {

enum class KernelOrder : uint8_t {
  kStartTimePerDevice,  // one sequence per GPU pid, by (ts, file row)
  kStartTimePerStream,  // default: one sequence per (pid, stream), by (ts, file row)
  kFileOrder,           // uplifter: all kernels of the trace, as the file lists them
};

struct KernelSequence {
  std::string label;           // "pid 0", "pid 0 stream 7" or "all (file order)"
  std::vector<uint32_t> rows;  // store rows, in sequence order
  std::vector<uint32_t> name;  // dense name id per kernel
  std::vector<uint32_t> sig;   // dense kernel_signature id per kernel
  std::vector<double> ts;      // µs
  std::vector<double> dur;     // µs
  std::vector<std::string> names;       // name id → kernel name
  std::vector<std::string> signatures;  // sig id → signature
  size_t size() const { return rows.size(); }
};

std::vector<KernelSequence> build_kernel_sequences(const EventStore& store, KernelOrder order);

// A sequence from plain names, durations and start times (tests, benchmarks). When ts
// is empty, kernels run back to back from 0.
KernelSequence make_kernel_sequence(const std::vector<std::string>& names,
                                    const std::vector<double>& dur, std::vector<double> ts = {});

}  // namespace sollens
