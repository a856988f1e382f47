#include "analyses/cycles/kernel_sequence.h"

#include <algorithm>
#include <numeric>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

#include "analyses/cycles/signature.h"

namespace sollens {

namespace {

// Interns names (by StrId) and their signatures into the sequence's dense ids.
// Lookups use hash maps, but ids are handed out in order of first appearance.
class Interner {
 public:
  explicit Interner(KernelSequence& seq) : seq_(seq) {}
  void add(std::string_view name) {
    auto [it, fresh] = name_ids_.try_emplace(std::string(name), 0u);
    if (fresh) {
      it->second = static_cast<uint32_t>(seq_.names.size());
      seq_.names.emplace_back(name);
      std::string sig = kernel_signature(name);
      auto [sit, sig_fresh] = sig_ids_.try_emplace(sig, 0u);
      if (sig_fresh) {
        sit->second = static_cast<uint32_t>(seq_.signatures.size());
        seq_.signatures.push_back(std::move(sig));
      }
      name_sig_.push_back(sit->second);
    }
    seq_.name.push_back(it->second);
    seq_.sig.push_back(name_sig_[it->second]);
  }

 private:
  KernelSequence& seq_;
  std::unordered_map<std::string, uint32_t> name_ids_;
  std::unordered_map<std::string, uint32_t> sig_ids_;
  std::vector<uint32_t> name_sig_;
};

}  // namespace

std::vector<KernelSequence> build_kernel_sequences(const EventStore& store, KernelOrder order) {
  // Kernels grouped by key, groups in order of first appearance in the file.
  std::vector<std::vector<uint32_t>> groups;
  std::vector<std::string> labels;
  std::map<std::pair<uint64_t, int64_t>, size_t> group_of;  // (pid id, stream) → group
  for (size_t i = 0; i < store.size(); ++i) {
    if (store.category[i] != Category::kKernel || store.phase[i] != Phase::kComplete) continue;
    std::pair<uint64_t, int64_t> key{0, 0};
    std::string label = "all (file order)";
    if (order != KernelOrder::kFileOrder) {
      key.first = store.pid[i];
      label = "pid " + std::string(store.str(store.pid[i]));
      if (order == KernelOrder::kStartTimePerStream) {
        const int64_t stream = store.stream[i];
        const std::string s = stream != kNoValue ? std::to_string(stream)
                                                 : std::string(store.str(store.tid[i]));
        // A stream number, or the tid text's id offset past every stream number.
        key.second = stream != kNoValue ? stream
                                        : std::numeric_limits<int64_t>::min() + store.tid[i] + 1;
        label += " stream " + s;
      }
    }
    auto [it, fresh] = group_of.try_emplace(key, groups.size());
    if (fresh) {
      groups.emplace_back();
      labels.push_back(std::move(label));
    }
    groups[it->second].push_back(static_cast<uint32_t>(i));
  }
  std::vector<KernelSequence> out(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    auto& rows = groups[g];
    if (order != KernelOrder::kFileOrder)
      std::stable_sort(rows.begin(), rows.end(),
                       [&](uint32_t a, uint32_t b) { return store.ts[a] < store.ts[b]; });
    KernelSequence& seq = out[g];
    seq.label = labels[g];
    seq.rows = rows;
    seq.ts.reserve(rows.size());
    seq.dur.reserve(rows.size());
    Interner interner(seq);
    for (uint32_t r : rows) {
      interner.add(store.name_of(r));
      seq.ts.push_back(store.ts[r]);
      seq.dur.push_back(store.dur[r]);
    }
  }
  return out;
}

KernelSequence make_kernel_sequence(const std::vector<std::string>& names,
                                    const std::vector<double>& dur, std::vector<double> ts) {
  KernelSequence seq;
  seq.label = "synthetic";
  Interner interner(seq);
  double t = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    interner.add(names[i]);
    seq.rows.push_back(static_cast<uint32_t>(i));
    seq.dur.push_back(dur[i]);
    if (ts.empty()) {
      seq.ts.push_back(t);
      t += dur[i];
    }
  }
  if (!ts.empty()) seq.ts = std::move(ts);
  return seq;
}

}  // namespace sollens
