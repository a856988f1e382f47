#pragma once
// Structure mode, per-stream order: a loop whose kernels alternate between two streams
// of one device (compute and a side stream) is one loop, though each stream alone
// holds only its half, too short or too broken to repeat. Where a device's kernels in
// time order (all its streams) repeat over clearly more kernels than any one of its
// streams does — the widest pattern covers at least 1.5 times the kernels and shows
// more: another number of repetitions than the widest stream pattern, or layers where
// it has none (side kernels merely appended to a loop one stream already shows add
// nothing) — and every repetition holds kernels of two or more streams, that device's
// stream sequences are replaced by its device sequence. A side stream that only joins the loop here and
// there (DDP's all-reduces, one copy kernel) adds too few kernels to pass.
// Costs one more detection per device with two or more streams.
#include <functional>
#include <vector>

#include "analyses/cycles/cycles.h"
#include "store/event_store.h"

namespace sollens {

using DetectSequence = std::function<SequenceCycles(KernelSequence)>;

void merge_interleaved_streams(const EventStore& store, const DetectSequence& detect,
                               std::vector<SequenceCycles>& sequences);

}  // namespace sollens
