#pragma once
// The serving framework's step annotation (a user_annotation around one engine step)
// read as TraceLens's inference attention models read it: the context (prefill) and
// generation (decode) request aggregates Σsq, Σsk, Σsq², Σsq·sk. Formats, tried in
// TraceLens's order, each matched at the start of the name:
//   vLLM detailed  execute_<n>_context_<n>(sq…sk…sqsq…sqsk…)_generation_<n>(sq…sk…sqsq…sqsk…)
//   vLLM native    execute_context_<n>(<n>)_generation_<n>(<n>)            (no aggregates)
//   SGLang detailed step[EXTEND|DECODE|MIXED … c_sq=… c_sqsq=… g_sk=… …]
//   SGLang native  step[EXTEND bs=<n> toks=<n>], step[DECODE bs=<n>]
//   ATOM           prefill[bs=… tok=… sqsq=… sqsk=… sk=…], decode[…]  (aggregates only
//                  when both sqsq= and sqsk= are there)
#include <cstdint>
#include <optional>
#include <string_view>

namespace sollens::perf {

// Σ aggregates of the context (c_) and generation (g_) requests of one step. The
// SGLang native EXTEND reconstruction divides (toks²/bs), so c_sqsq and c_sqsk may be
// floats there.
struct ChunkStats {
  int64_t c_sq = 0, c_sk = 0;
  double c_sqsq = 0, c_sqsk = 0;
  bool c_products_are_float = false;
  int64_t g_sq = 0, g_sk = 0, g_sqsq = 0, g_sqsk = 0;
  // SGLang native DECODE: the per-request KV length is not in the annotation.
  bool kv_unknown = false;
};

// True when `name` is one of the formats above (the step annotation an attention op
// is tagged with).
bool is_iteration_annotation(std::string_view name);

// TraceLens's chunk statistics of an annotation; nullopt where it raises
// NotImplementedError (no format, no aggregates, or an EXTEND without a token count).
std::optional<ChunkStats> chunk_stats(std::string_view annotation);

}  // namespace sollens::perf
