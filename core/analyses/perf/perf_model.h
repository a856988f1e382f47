#pragma once
// The perf-model interface (tracelens-semantics.md §6): a model reads one event's args
// into TraceLens's parameter dict and gives FLOPs and bytes as exact integers (or a
// float where TraceLens divides), forward and, where the model has one, backward.
// Where a TraceLens formula is wrong (CORRECTIONS.md) the corrected count is kept too.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyses/perf/event_args.h"

namespace sollens::perf {

// An exact FLOP or byte count: a Python int, or a float after a true division.
struct Count {
  bool is_float = false;
  int64_t i = 0;
  double d = 0;
  static Count of(int64_t v) { return {false, v, 0}; }
  static Count real(double v) { return {true, 0, v}; }
  double value() const { return is_float ? d : static_cast<double>(i); }
  bool operator==(const Count& o) const { return is_float == o.is_float && i == o.i && d == o.d; }
};

// TraceLens's outcome of evaluating a model: NotImplementedError and other exceptions
// both skip the event (the second with a warning upstream).
enum class Status : uint8_t { kOk, kNotImplemented, kError };

struct Metrics {
  Status status = Status::kNotImplemented;
  Count flops;
  std::optional<Count> bytes;  // nullopt: None (an unknown bytes-per-element)
  // Corrected counts (CORRECTIONS.md); nullopt where TraceLens's value is right.
  std::optional<Count> flops_corrected;
  std::optional<Count> bytes_corrected;
  bool bytes_corrected_is_none = false;
};

struct ModelResult {
  Status status = Status::kError;  // of the parameter parsing
  std::vector<std::pair<std::string, PyValue>> params;  // param_details, in insertion order
  Metrics fwd;  // flops() / bytes()
  Metrics bwd;  // flops_bwd() / bytes_bwd() (the bwd sheets)
  std::string_view maf_type;  // "matrix", "vector" or "" (None)
  PyValue precision_dtype;    // the dtype Compute Spec's precision comes from (None: none)
  std::optional<std::string> precision;  // a precision taken as is, not from precision_dtype

  void param(std::string key, PyValue v) { params.emplace_back(std::move(key), std::move(v)); }
  const PyValue* find_param(std::string_view key) const {
    for (const auto& [k, v] : params)
      if (k == key) return &v;
    return nullptr;
  }
};

// What a model reads: the event's name and args, its kernels' names (GEMM's
// transpose flags come from the first kernel name that parses) and, for the inference
// attention models, the step annotation it lies in ("": none; TraceLens reads None).
struct ModelInput {
  std::string_view name;
  const EventArgs& args;
  std::span<const std::string_view> kernel_names;
  std::string_view annotation = {};
  // The args of the forward op a backward model takes its params from (models.h
  // forward_op_of); null: none found.
  const EventArgs* forward_args = nullptr;
};

// name2bpe (lower-cased lookup); nullopt: None.
std::optional<int64_t> bytes_per_element(const PyValue& dtype);
// Compute Spec: f"{maf_type}_{torch_dtype_map(dtype)}", "" when either is None.
std::string compute_spec(const ModelResult& r);

// Helpers for the model files.
inline const PyValue& at(const PyValue& seq, size_t k) {
  static const PyValue kNone;
  return seq.is_seq() && k < seq.size() ? seq[k] : kNone;
}
int64_t prod(const std::vector<int64_t>& v);
// Python's a // b.
inline int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}
// args["Input type"][k]; nullptr where Python's index would raise.
inline const PyValue* type_at(const EventArgs& g, size_t k) {
  return g.types.is_seq() && k < g.types.size() ? &g.types[k] : nullptr;
}
// Element k of the shape in Input Dims slot `slot`, as an int; nullopt where Python
// would raise or the element is not an int.
inline std::optional<int64_t> dim(const EventArgs& g, size_t slot, size_t k) {
  const PyValue& shape = at(g.dims, slot);
  if (!shape.is_seq() || k >= shape.size() || !shape[k].is_int()) return std::nullopt;
  return shape[k].i;
}

}  // namespace sollens::perf
