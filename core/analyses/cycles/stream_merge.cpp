#include "analyses/cycles/stream_merge.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace sollens {

namespace {

size_t covered_kernels(const CyclePattern& p) { return p.outer.repetitions() * p.outer.length; }

const CyclePattern* widest(const std::vector<CyclePattern>& patterns) {
  const CyclePattern* best = nullptr;
  for (const CyclePattern& p : patterns)
    if (!best || covered_kernels(p) > covered_kernels(*best)) best = &p;
  return best;
}

bool every_repetition_spans_streams(const EventStore& store, const KernelSequence& seq, const Cycle& c) {
  for (uint32_t start : c.starts) {
    std::set<int64_t> streams;
    for (uint32_t i = start; i < start + c.length && i < seq.size(); ++i) streams.insert(store.stream[seq.rows[i]]);
    if (streams.size() < 2) return false;
  }
  return !c.starts.empty();
}

// The device's sequence detected, when its loop spans the streams, covers clearly more
// and shows more: another number of repetitions than the widest stream pattern, or
// layers where that one has none (a stream repeating as often, side kernels only
// appended to its loop, already shows it).
bool merged_is_better(const EventStore& store, const SequenceCycles& merged, const CyclePattern* best_stream) {
  const CyclePattern* w = widest(merged.patterns);
  if (!w) return false;
  const bool shows_more = !best_stream || best_stream->outer.repetitions() != w->outer.repetitions() ||
                          (w->layer && !best_stream->layer);
  if (!shows_more) return false;
  const size_t stream_kernels = best_stream ? covered_kernels(*best_stream) : 0;
  return covered_kernels(*w) * 2 >= stream_kernels * 3 && every_repetition_spans_streams(store, merged.sequence, w->outer);
}

}  // namespace

void merge_interleaved_streams(const EventStore& store, const DetectSequence& detect,
                               std::vector<SequenceCycles>& sequences) {
  std::map<StrId, std::vector<size_t>> by_device;
  for (size_t i = 0; i < sequences.size(); ++i)
    if (sequences[i].sequence.size() > 0) by_device[store.pid[sequences[i].sequence.rows[0]]].push_back(i);
  std::vector<KernelSequence> devices;
  std::vector<uint8_t> dropped(sequences.size(), 0);
  for (const auto& [pid, indices] : by_device) {
    if (indices.size() < 2) continue;
    if (devices.empty()) devices = build_kernel_sequences(store, KernelOrder::kStartTimePerDevice);
    const auto device = std::find_if(devices.begin(), devices.end(), [&, pid = pid](const KernelSequence& d) {
      return d.size() > 0 && store.pid[d.rows[0]] == pid;
    });
    if (device == devices.end()) continue;
    const CyclePattern* best_stream = nullptr;
    for (size_t i : indices)
      if (const CyclePattern* w = widest(sequences[i].patterns))
        if (!best_stream || covered_kernels(*w) > covered_kernels(*best_stream)) best_stream = w;
    SequenceCycles merged = detect(std::move(*device));
    if (!merged_is_better(store, merged, best_stream)) continue;
    sequences[indices[0]] = std::move(merged);
    for (size_t k = 1; k < indices.size(); ++k) dropped[indices[k]] = 1;
  }
  size_t kept = 0;
  for (size_t i = 0; i < sequences.size(); ++i) {
    if (dropped[i]) continue;
    if (kept != i) sequences[kept] = std::move(sequences[i]);
    ++kept;
  }
  sequences.resize(kept);
}

}  // namespace sollens
