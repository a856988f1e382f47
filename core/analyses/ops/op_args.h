#pragma once
// The four shape/type args of a cpu_op, parsed lazily from the event's raw args
// JSON and rendered the way TraceLens renders them in its sheets: lists become
// tuples (`((512,), (141, 512), ())`), strings use Python's repr, a top-level string
// stays as is, and an absent or null value is None (nullopt: an empty CSV cell).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "store/event_store.h"

namespace sollens {

struct OpArgs {
  std::optional<std::string> input_dims;       // args["Input Dims"]
  std::optional<std::string> input_type;       // args["Input type"]
  std::optional<std::string> input_strides;    // args["Input Strides"]
  std::optional<std::string> concrete_inputs;  // args["Concrete Inputs"]
};

// Reuses one simdjson parser for every event it reads.
class OpArgsReader {
 public:
  explicit OpArgsReader(const EventStore& store);
  ~OpArgsReader();
  OpArgsReader(const OpArgsReader&) = delete;
  OpArgsReader& operator=(const OpArgsReader&) = delete;

  // Malformed args read as all-None.
  OpArgs read(uint32_t event);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sollens
