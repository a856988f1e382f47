#pragma once
// The step annotation an op lies in, for the inference attention models: the innermost
// user_annotation on the op's thread whose span holds the op's start and whose name is
// a serving step annotation (iteration_annotation.h). Annotations that are not steps
// (a torch.compile graph call, a collective) are looked through.
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "store/event_store.h"

namespace sollens::perf {

class StepAnnotations {
 public:
  explicit StepAnnotations(const EventStore& store);
  // The annotation event, or nullopt.
  std::optional<uint32_t> of(uint32_t event) const;

 private:
  struct Span {
    double start, end;
    uint32_t event;
  };
  const EventStore& store_;
  std::unordered_map<uint64_t, std::vector<Span>> by_thread_;  // by start, longer first
};

}  // namespace sollens::perf
