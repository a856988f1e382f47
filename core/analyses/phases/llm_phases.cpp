#include "analyses/phases/llm_phases.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "store/raw_args.h"

namespace sollens {

namespace {

enum class Evidence : uint8_t { kEmbedding, kAttention, kGemm, kGraphLaunch };

struct EvidenceOp {
  uint32_t event;
  Evidence kind;
};

bool is_attention(std::string_view name) {
  if (name.find("backward") != std::string_view::npos) return false;
  return name.starts_with("aten::scaled_dot_product_attention") || name.starts_with("aten::_scaled_dot_product_");
}

bool is_gemm(std::string_view name) {
  return name == "aten::linear" || name == "aten::mm" || name == "aten::addmm" || name == "aten::matmul";
}

bool is_graph_launch(const EventStore& s, uint32_t e) {
  return is_runtime(s.category[e]) && s.name_of(e).ends_with("GraphLaunch");
}

std::optional<Evidence> evidence_kind(std::string_view name) {
  if (name == "aten::embedding") return Evidence::kEmbedding;
  if (is_attention(name)) return Evidence::kAttention;
  if (is_gemm(name)) return Evidence::kGemm;
  return std::nullopt;
}

// Input `arg`'s dims from "Input Dims"; empty when absent or not a list of ints.
std::vector<int64_t> input_dims(ArgsReader& reader, uint32_t event, size_t arg) {
  static constexpr std::array<std::string_view, 1> kKeys{"Input Dims"};
  std::array<PyValue, 1> values;
  std::vector<int64_t> out;
  if (!reader.read(event, kKeys, values)) return out;
  const PyValue& all = values[0];
  if (all.kind != PyValue::Kind::kList || arg >= all.items.size()) return out;
  const PyValue& dims = all.items[arg];
  if (dims.kind != PyValue::Kind::kList) return out;
  for (const PyValue& d : dims.items) {
    if (d.kind != PyValue::Kind::kInt) return {};
    out.push_back(d.i);
  }
  return out;
}

int64_t product(const std::vector<int64_t>& dims, size_t count) {
  int64_t p = 1;
  for (size_t i = 0; i < count && i < dims.size(); ++i) p *= dims[i];
  return p;
}

// Rows of a GEMM's output: M of aten::mm / addmm, the leading dims of linear / matmul.
int64_t gemm_rows(ArgsReader& reader, uint32_t event, std::string_view name) {
  const bool addmm = name == "aten::addmm";
  const std::vector<int64_t> a = input_dims(reader, event, addmm ? 1 : 0);
  if (a.size() < 2) return 0;
  return product(a, a.size() - 1);
}

// What one forward's ops say, before it is classified.
struct ForwardShapes {
  LlmForward forward;
  bool has_attention = false;
  bool short_query = false, long_query = false;  // attentions of each kind seen
  int64_t indices_len = 0;                       // the embedding indices' last dim (2-D and up)
  bool gemm_read = false;
  bool graph = false;  // a graph replay: no shapes, decode after an eager prefill
};

void read_attention(ArgsReader& reader, uint32_t event, ForwardShapes& f) {
  // Every SDPA variant takes query, key, value as [B, H, S, D].
  const std::vector<int64_t> q = input_dims(reader, event, 0), k = input_dims(reader, event, 1);
  f.has_attention = true;
  if (q.size() != 4 || k.size() != 4) return;
  if (f.forward.query_len == 0) {
    f.forward.query_len = q[2];
    f.forward.kv_len = k[2];
  }
  (q[2] <= kMaxDecodeQueryLen ? f.short_query : f.long_query) = true;
}

void read_embedding(ArgsReader& reader, uint32_t event, ForwardShapes& f) {
  const std::vector<int64_t> indices = input_dims(reader, event, 1);
  if (indices.empty()) return;
  f.forward.tokens = product(indices, indices.size());
  if (indices.size() >= 2) f.indices_len = indices.back();
}

// A launch on the CPU thread (µs) and the kernels it ran.
struct Launch {
  double ts;
  uint32_t kernels;
};

uint32_t kernels_between(const std::vector<Launch>& launches, double begin, double end) {
  auto it = std::lower_bound(launches.begin(), launches.end(), begin,
                             [](const Launch& l, double t) { return l.ts < t; });
  uint32_t n = 0;
  for (; it != launches.end() && it->ts < end; ++it) n += it->kernels;
  return n;
}

// A graph replay is a decode forward after an eager forward with a phase (the prefill
// engines run eagerly before replaying captured decode steps) when it replays about as
// many kernels as that forward did: the same layers. A diffusion model's text encoder
// followed by a replayed denoiser is not (FLUX.1: 188 eager kernels, 1327 replayed).
bool replays_decode(uint32_t replay_kernels, uint32_t eager_kernels) {
  return eager_kernels > 0 && replay_kernels * 2 >= eager_kernels && replay_kernels <= eager_kernels * 2;
}

LlmPhase classify(const ForwardShapes& f, uint32_t kernels, uint32_t eager_kernels) {
  if (f.graph) return replays_decode(kernels, eager_kernels) ? LlmPhase::kDecode : LlmPhase::kNone;
  if (f.short_query && f.long_query) return LlmPhase::kMixed;
  const LlmForward& w = f.forward;
  if (w.query_len <= 0 || w.kv_len <= 0) return LlmPhase::kNone;
  if (w.kv_len > w.query_len) return w.query_len <= kMaxDecodeQueryLen ? LlmPhase::kDecode : LlmPhase::kChunkedPrefill;
  return w.query_len > kMaxDecodeQueryLen ? LlmPhase::kPrefill : LlmPhase::kNone;
}

// A prefill candidate is a prefill only when a forward over a cache follows it.
void confirm_prefills(std::vector<LlmForward>& thread_forwards) {
  bool cache_after = false;
  for (auto it = thread_forwards.rbegin(); it != thread_forwards.rend(); ++it) {
    if (it->phase == LlmPhase::kPrefill && !cache_after) it->phase = LlmPhase::kNone;
    if (it->phase == LlmPhase::kDecode || it->phase == LlmPhase::kChunkedPrefill || it->phase == LlmPhase::kMixed)
      cache_after = true;
  }
}

// The forwards of one thread from its evidence ops in time order.
std::vector<LlmForward> thread_forwards(const EventStore& s, ArgsReader& reader, const std::vector<EvidenceOp>& ops,
                                        const std::vector<Launch>& launches) {
  std::vector<ForwardShapes> shapes;
  for (const EvidenceOp& op : ops) {
    const bool graph = op.kind == Evidence::kGraphLaunch;
    if (graph || (op.kind == Evidence::kEmbedding && (shapes.empty() || shapes.back().has_attention))) {
      ForwardShapes f;
      f.forward.pid = s.pid[op.event];
      f.forward.tid = s.tid[op.event];
      f.forward.begin = s.ts[op.event];
      f.graph = graph;
      shapes.push_back(f);
    }
    if (shapes.empty() || graph) continue;
    ForwardShapes& f = shapes.back();
    if (op.kind == Evidence::kEmbedding && f.forward.tokens == 0) read_embedding(reader, op.event, f);
    if (op.kind == Evidence::kAttention) read_attention(reader, op.event, f);
    if (op.kind == Evidence::kGemm && !f.gemm_read) {
      f.gemm_read = true;
      if (f.forward.tokens == 0) f.forward.tokens = gemm_rows(reader, op.event, s.name_of(op.event));
    }
  }
  std::vector<LlmForward> out;
  uint32_t eager_kernels = 0;  // kernels of the last eager forward with a phase
  for (size_t i = 0; i < shapes.size(); ++i) {
    LlmForward w = shapes[i].forward;
    w.end = i + 1 < shapes.size() ? shapes[i + 1].forward.begin : std::numeric_limits<double>::infinity();
    const uint32_t kernels = kernels_between(launches, w.begin, w.end);
    w.phase = classify(shapes[i], kernels, eager_kernels);
    if (!shapes[i].graph && w.phase != LlmPhase::kNone) eager_kernels = kernels;
    if (w.query_len == 0) w.query_len = shapes[i].indices_len;
    out.push_back(w);
  }
  confirm_prefills(out);
  return out;
}

}  // namespace

const LlmForward* LlmPhases::forward_at(StrId pid, StrId tid, double ts) const {
  const auto thread_less = [](const LlmForward& a, const LlmForward& b) {
    return std::tie(a.pid, a.tid) < std::tie(b.pid, b.tid);
  };
  LlmForward key;
  key.pid = pid;
  key.tid = tid;
  const auto [lo, hi] = std::equal_range(forwards.begin(), forwards.end(), key, thread_less);
  auto it = std::upper_bound(lo, hi, ts, [](double t, const LlmForward& f) { return t < f.begin; });
  if (it == lo) return nullptr;
  --it;
  return ts < it->end ? &*it : nullptr;
}

bool LlmPhases::any() const {
  return std::any_of(forwards.begin(), forwards.end(), [](const LlmForward& f) { return f.phase != LlmPhase::kNone; });
}

namespace {

using Thread = std::pair<StrId, StrId>;

std::unordered_map<int64_t, uint32_t> kernels_per_correlation(const EventStore& s) {
  std::unordered_map<int64_t, uint32_t> kernels;
  for (uint32_t e = 0; e < s.size(); ++e)
    if (s.category[e] == Category::kKernel && s.correlation[e] != kNoValue) ++kernels[s.correlation[e]];
  return kernels;
}

// Per CPU thread, its launches that ran kernels, by time.
std::map<Thread, std::vector<Launch>> launches_by_thread(const EventStore& s,
                                                         const std::unordered_map<int64_t, uint32_t>& kernels) {
  std::map<Thread, std::vector<Launch>> out;
  for (uint32_t e = 0; e < s.size(); ++e) {
    if (!is_runtime(s.category[e]) || s.correlation[e] == kNoValue) continue;
    const auto it = kernels.find(s.correlation[e]);
    if (it != kernels.end()) out[{s.pid[e], s.tid[e]}].push_back({s.ts[e], it->second});
  }
  for (auto& [thread, l] : out)
    std::stable_sort(l.begin(), l.end(), [](const Launch& a, const Launch& b) { return a.ts < b.ts; });
  return out;
}

}  // namespace

LlmPhases infer_llm_phases(const EventStore& s) {
  std::map<Thread, std::vector<EvidenceOp>> by_thread;
  bool any_attention = false;
  for (uint32_t e = 0; e < s.size(); ++e) {
    if (is_graph_launch(s, e)) {
      by_thread[{s.pid[e], s.tid[e]}].push_back({e, Evidence::kGraphLaunch});
      continue;
    }
    if (s.category[e] != Category::kCpuOp || s.phase[e] != Phase::kComplete) continue;
    const std::optional<Evidence> kind = evidence_kind(s.name_of(e));
    if (!kind) continue;
    any_attention |= *kind == Evidence::kAttention;
    by_thread[{s.pid[e], s.tid[e]}].push_back({e, *kind});
  }
  LlmPhases out;
  if (!any_attention) return out;  // no S_q, no S_kv: nothing to tell phases by
  const std::unordered_map<int64_t, uint32_t> kernels = kernels_per_correlation(s);
  const std::map<Thread, std::vector<Launch>> launches = launches_by_thread(s, kernels);
  const std::vector<Launch> none;
  ArgsReader reader(s);
  for (auto& [thread, ops] : by_thread) {
    // A replay of one kernel is a captured helper, not a forward.
    std::erase_if(ops, [&](const EvidenceOp& op) {
      if (op.kind != Evidence::kGraphLaunch) return false;
      const auto k = kernels.find(s.correlation[op.event]);
      return k == kernels.end() || k->second < 2;
    });
    const auto l = launches.find(thread);
    // Outer ops first where two start together (SDPA and the backend op it calls).
    std::stable_sort(ops.begin(), ops.end(), [&](const EvidenceOp& a, const EvidenceOp& b) {
      return s.ts[a.event] < s.ts[b.event] || (s.ts[a.event] == s.ts[b.event] && s.dur[a.event] > s.dur[b.event]);
    });
    std::vector<LlmForward> fw = thread_forwards(s, reader, ops, l == launches.end() ? none : l->second);
    out.forwards.insert(out.forwards.end(), fw.begin(), fw.end());
  }
  return out;
}

std::string_view llm_phase_name(LlmPhase phase) {
  switch (phase) {
    case LlmPhase::kPrefill: return "prefill";
    case LlmPhase::kChunkedPrefill: return "chunked_prefill";
    case LlmPhase::kDecode: return "decode";
    case LlmPhase::kMixed: return "mixed";
    case LlmPhase::kNone: break;
  }
  return "";
}

}  // namespace sollens
