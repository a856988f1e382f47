#pragma once
// LLM phases from the data, where no annotation names them: each forward of a
// generation loop is prefill, decode or chunked prefill by the shapes of its own ops.
//   tokens      the embedding's indices (numel), else the first GEMM's M
//   query_len   S_q of the forward's first attention (SDPA), else the indices' last dim
//   kv_len      S_kv of that attention
// A forward starts at an aten::embedding that follows an attention on its thread (the
// token and position embeddings of one forward stay one), and ends where the next
// starts (the sampling after it is part of its step). Classification:
//   decode           query_len ≤ kMaxDecodeQueryLen over a longer KV (speculative tokens
//                    included); a static cache (kv_len constant) is still decode
//   chunked_prefill  query_len > kMaxDecodeQueryLen over a longer KV (a cache exists)
//   mixed            attentions of both kinds in one forward (prefill and decode batched)
//   prefill          query_len > kMaxDecodeQueryLen with kv_len = query_len: it starts a
//                    cache — named only when a decode or chunked prefill follows on its
//                    thread, so an encoder or a training forward is never "prefill"
// O(events) plus one args read per embedding, attention and first GEMM.
#include <cstdint>
#include <string_view>
#include <vector>

#include "store/event_store.h"

namespace sollens {

enum class LlmPhase : uint8_t { kNone, kPrefill, kChunkedPrefill, kDecode, kMixed };
// "prefill", "chunked_prefill", "decode", "mixed"; "" for kNone.
std::string_view llm_phase_name(LlmPhase phase);

inline constexpr int64_t kMaxDecodeQueryLen = 8;  // up to 8 speculative tokens per step

struct LlmForward {
  StrId pid = kEmptyStr, tid = kEmptyStr;  // its CPU thread
  double begin = 0, end = 0;               // CPU µs; the last forward's end is +inf
  int64_t tokens = 0;                      // 0 when unknown
  int64_t query_len = 0, kv_len = 0;       // 0 when unknown
  LlmPhase phase = LlmPhase::kNone;
};

struct LlmPhases {
  std::vector<LlmForward> forwards;  // by thread, then begin
  // The forward whose CPU span holds `ts` on the thread, or null.
  const LlmForward* forward_at(StrId pid, StrId tid, double ts) const;
  // Forwards with a phase (not kNone).
  bool any() const;
};

LlmPhases infer_llm_phases(const EventStore& store);

}  // namespace sollens
