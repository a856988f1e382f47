#pragma once
// The four shape/type args of a cpu_op, rendered the way TraceLens renders them in its
// sheets: str(list_to_tuple(value)), so lists become tuples (`((512,), (141, 512), ())`),
// strings inside use Python's repr, a top-level string stays as is, and an absent or
// null value is None (nullopt: an empty CSV cell).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/event_store.h"
#include "store/raw_args.h"

namespace sollens {

struct OpArgs {
  std::optional<std::string> input_dims;       // args["Input Dims"]
  std::optional<std::string> input_type;       // args["Input type"]
  std::optional<std::string> input_strides;    // args["Input Strides"]
  std::optional<std::string> concrete_inputs;  // args["Concrete Inputs"]
};

// Where a sheet gets an event's OpArgs from when a report reads args once for all its
// sheets; an empty one: the sheet reads them itself (OpArgsReader).
using OpArgsSource = std::function<OpArgs(uint32_t event)>;

// Renders each distinct args text once: ops repeat the same shapes and types.
class OpArgsReader {
 public:
  explicit OpArgsReader(const EventStore& store);

  // Malformed args read as all-None.
  OpArgs read(uint32_t event);

 private:
  const EventStore& store_;
  ArgsTextIndex index_;
  std::vector<OpArgs> rendered_;  // by ArgsTextIndex id
};

// A sheet's OpArgs: from the report's source where it has one, else read here.
class OpArgsLookup {
 public:
  OpArgsLookup(const EventStore& store, OpArgsSource source) : store_(store), source_(std::move(source)) {}
  OpArgs operator()(uint32_t event);

 private:
  const EventStore& store_;
  OpArgsSource source_;
  std::optional<OpArgsReader> reader_;  // made on first use without a source
};

}  // namespace sollens
