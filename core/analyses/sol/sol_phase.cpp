#include "analyses/sol/sol_phase.h"

#include <algorithm>
#include <map>
#include <optional>

namespace sollens {

namespace {

uint64_t thread_key(const EventStore& s, uint32_t e) {
  return (static_cast<uint64_t>(s.pid[e]) << 32) | s.tid[e];
}

bool is_step_mark(std::string_view name) { return name.starts_with("ProfilerStep#"); }

}  // namespace

PhaseLookup::PhaseLookup(const EventStore& s) : store_(s), llm_(infer_llm_phases(s)) {
  for (uint32_t e = 0; e < s.size(); ++e) {
    if (s.category[e] != Category::kUserAnnotation || s.phase[e] != Phase::kComplete) continue;
    if (is_step_mark(s.name_of(e))) continue;
    by_thread_[thread_key(s, e)].push_back({s.ts[e], s.t_end(e), e});
  }
  for (auto& [key, spans] : by_thread_)
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
      return a.start < b.start || (a.start == b.start && (a.end > b.end || (a.end == b.end && a.event < b.event)));
    });
}

std::string_view PhaseLookup::phase_of(uint32_t event) const {
  const std::string_view annotated = annotation_of(event);
  if (annotated != kNoPhase) return annotated;
  const LlmForward* f = llm_.forward_at(store_.pid[event], store_.tid[event], store_.ts[event]);
  return f && f->phase != LlmPhase::kNone ? llm_phase_name(f->phase) : kNoPhase;
}

std::string_view PhaseLookup::annotation_of(uint32_t event) const {
  const auto it = by_thread_.find(thread_key(store_, event));
  if (it == by_thread_.end()) return kNoPhase;
  const double t = store_.ts[event];
  const std::vector<Span>& spans = it->second;
  // The latest-starting span that holds t is the innermost one (annotations nest).
  auto hi = std::upper_bound(spans.begin(), spans.end(), t, [](double v, const Span& sp) { return v < sp.start; });
  while (hi != spans.begin()) {
    --hi;
    if (hi->end > t || (hi->end == t && hi->start == t)) return store_.name_of(hi->event);
  }
  return kNoPhase;
}

namespace {

struct PhaseTokens {
  int64_t forwards = 0, tokens = 0;
};

}  // namespace

void add_phase_token_columns(Table& by_phase, const EventStore& s) {
  std::map<std::string_view, PhaseTokens> by_name;
  for (const LlmForward& f : infer_llm_phases(s).forwards) {
    if (f.phase == LlmPhase::kNone) continue;
    PhaseTokens& p = by_name[llm_phase_name(f.phase)];
    ++p.forwards;
    p.tokens += f.tokens;
  }
  const Column* wall = by_phase.find("wall_time_ms");
  std::vector<std::optional<double>> wall_ms(by_phase.num_rows());
  for (size_t r = 0; wall && r < by_phase.num_rows(); ++r)
    if (!wall->is_null(r)) wall_ms[r] = wall->float_at(r);
  const Column& key = by_phase.column(0);
  std::vector<const PhaseTokens*> row_tokens(by_phase.num_rows(), nullptr);
  for (size_t r = 0; r < by_phase.num_rows(); ++r) {
    const auto it = by_name.find(key.string_at(r));
    if (it != by_name.end()) row_tokens[r] = &it->second;
  }
  Column& forwards = by_phase.add_column("forwards", ColumnType::kInt);
  Column& tokens = by_phase.add_column("tokens", ColumnType::kInt);
  Column& rate = by_phase.add_column("tokens_per_s", ColumnType::kFloat);  // per second of wall time
  for (size_t r = 0; r < row_tokens.size(); ++r) {
    const PhaseTokens* p = row_tokens[r];
    if (!p) {
      forwards.push_null();
      tokens.push_null();
      rate.push_null();
      continue;
    }
    forwards.push_int(p->forwards);
    if (p->tokens > 0) tokens.push_int(p->tokens);
    else tokens.push_null();  // graph replays: no shapes
    if (p->tokens > 0 && wall_ms[r] && *wall_ms[r] > 0) rate.push_float(static_cast<double>(p->tokens) / (*wall_ms[r] / 1000));
    else rate.push_null();
  }
}

}  // namespace sollens
