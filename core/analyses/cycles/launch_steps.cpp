#include "analyses/cycles/launch_steps.h"

#include "store/event_store.h"

namespace sollens {

void promote_single_launch_layers(const std::vector<int64_t>& launch,
                                  std::vector<CyclePattern>& patterns) {
  for (CyclePattern& p : patterns) {
    if (p.layer || p.outer.repetitions() == 0 || p.outer.end() > launch.size()) continue;
    const int64_t id = launch[p.outer.start];
    if (id < 0 || id == kNoValue) continue;
    bool one_launch = true;
    for (uint32_t i = p.outer.start; i < p.outer.end() && one_launch; ++i) one_launch = launch[i] == id;
    if (!one_launch) continue;
    // The step: every kernel of that launch in this sequence (they are contiguous in
    // a replay; a stray kernel of another launch in between stays inside the span).
    uint32_t first = p.outer.start, last = p.outer.end() - 1;
    for (uint32_t i = 0; i < launch.size(); ++i)
      if (launch[i] == id) {
        if (i < first) first = i;
        if (i > last) last = i;
      }
    Cycle step;
    step.start = first;
    step.length = last - first + 1;
    step.starts = {first};
    p.layer_offset = p.outer.start - first;
    p.layers_per_outer = static_cast<uint32_t>(p.outer.repetitions());
    p.layer = std::move(p.outer);
    p.outer = std::move(step);
    p.step_is_one_launch = true;
  }
}

}  // namespace sollens
