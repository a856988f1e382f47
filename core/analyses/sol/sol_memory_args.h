#pragma once
// Reading what the SOL-only memory models need from an op's recorded args: element
// counts and sizes of tensors and tensor lists, Concrete Inputs as numbers, and the
// MemoryWork of a rule (sol_memory_ops.h).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/perf/event_args.h"

namespace sollens {

// What a SOL-only memory model counts for one op.
struct MemoryWork {
  bool ok = false;
  std::string why_not;  // when !ok
  double flops = 0;
  double bytes = 0;
  std::string compute_spec;  // "vector_<dtype>" of the data it moves ("" for integers)
  std::string rule;          // the rule in words, for the op's note
};

}  // namespace sollens

namespace sollens::sol_memory {

MemoryWork failed(std::string why);
// read + written bytes, the FLOPs and the Compute Spec "vector_<dtype>" ("" for none).
MemoryWork work(double read, double written, double flops, const PyValue& dtype, std::string rule);

// A Concrete Inputs entry as a number; nullopt when it is not one (ints: base's int_value).
std::optional<double> concrete_number(const PyValue& v);
// "[3, 3]" (or a list) → its ints; a single int → one entry; empty when unreadable.
std::vector<int64_t> concrete_ints(const PyValue& v);

// Elements of a recorded tensor (a 0-dim tensor has one); nullopt when not recorded.
std::optional<double> elements(const PyValue& dims);

struct Tensor {
  double n = 0;   // elements
  int64_t b = 0;  // bytes per element
  double bytes() const { return n * static_cast<double>(b); }
};
// TraceLens's element sizes, and bool (a mask) as the byte it is.
std::optional<int64_t> element_bytes(const PyValue& dtype);
// The tensor argument k: its shape and a sized dtype recorded ("Scalar"s are not tensors).
std::optional<Tensor> tensor_at(const perf::EventArgs& a, size_t k);

// The element size of a tensor list, whose dtype Kineto writes as "TensorList", from
// its kernels' names; nullopt when none says it.
std::optional<int64_t> list_element_size(std::span<const std::string_view> kernel_names);
// Total elements of each tensor list argument, in order; nullopt when a list's shapes
// were not recorded (the profiler leaves long lists out).
std::optional<std::vector<double>> list_elements(const perf::EventArgs& a);

}  // namespace sollens::sol_memory
