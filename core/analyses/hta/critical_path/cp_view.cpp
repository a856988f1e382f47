#include "analyses/hta/critical_path/cp_view.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

#include "model/flat_index.h"

namespace sollens::hta::cp {

namespace {

// A row of HTA's table before any filtering: it drops events without dur or cat and
// the "Trace" span.
bool in_hta_table(const EventStore& s, uint32_t row) {
  if (s.phase[row] != Phase::kComplete) return false;
  const std::string_view cat = s.str(s.cat[row]);
  return !cat.empty() && cat != "Trace";
}

}  // namespace

CpView::CpView(const HtaTrace& trace, const HtaOptions& options, bool gpu_stream_zero)
    : trace_(trace), gpu_stream_zero_(gpu_stream_zero) {
  const size_t n = store().size();
  kept_.assign(n, 0);
  clipped_.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) kept_[i] = in_hta_table(store(), i) ? 1 : 0;
  read_streams();
  for (uint32_t i = 0; i < n && !stream_zero_gpu_events_; ++i)
    stream_zero_gpu_events_ = kept_[i] && stream(i) == 0 && is_gpu_activity(store().category[i]);
  compute_index_correlation();
  keep_hta_rows();
  choose_window(options);
  clip();
}

namespace {

// Whether the event's args give "stream" as a JSON string.
bool stream_is_text(std::string_view args) {
  constexpr std::string_view kKey = "\"stream\"";
  for (size_t at = args.find(kKey); at != std::string_view::npos; at = args.find(kKey, at + 1)) {
    size_t i = at + kKey.size();
    while (i < args.size() && (args[i] == ' ' || args[i] == '\t' || args[i] == '\n' || args[i] == '\r')) ++i;
    if (i >= args.size() || args[i] != ':') continue;
    ++i;
    while (i < args.size() && (args[i] == ' ' || args[i] == '\t' || args[i] == '\n' || args[i] == '\r')) ++i;
    return i < args.size() && args[i] == '"';
  }
  return false;
}

}  // namespace

void CpView::read_streams() {
  const EventStore& s = store();
  stream_.reserve(s.size());
  for (uint32_t i = 0; i < s.size(); ++i) {
    const bool text = s.stream[i] != kNoValue && s.has_args(i) && stream_is_text(s.args_json(i));
    stream_.push_back(text ? -1 : trace_.stream(i));
  }
}

bool CpView::gpu_side(uint32_t row) const {
  return stream(row) > 0 || (gpu_stream_zero_ && stream(row) == 0 && is_gpu_activity(store().category[row]));
}

int64_t CpView::correlation(uint32_t row) const {
  const int64_t c = store().correlation[row];
  return c == kNoValue ? kNoCorrelation : c;
}

// transform_correlation_to_index: CPU events (stream −1) and GPU events (stream > 0)
// sharing a correlation point at each other; where several share one, the last in file
// order wins (pandas' .loc assignment over the merged pairs).
void CpView::compute_index_correlation() {
  const size_t n = store().size();
  index_corr_.assign(n, -1);
  FlatIndex<int64_t, IdHash> last_cpu(n / 8), last_gpu(n / 8);
  for (uint32_t i = 0; i < n; ++i) {
    if (!kept_[i]) continue;
    const int64_t c = correlation(i);
    if (c == kNoCorrelation) continue;
    // min(c, 0) as HTA writes it; a negative id below int32's range reads the same (< 0)
    index_corr_[i] = static_cast<int32_t>(std::max<int64_t>(std::min<int64_t>(c, 0), INT32_MIN));
    if (stream(i) == -1) last_cpu.insert_or_assign(c, i);
    else if (gpu_side(i)) last_gpu.insert_or_assign(c, i);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (!kept_[i] || correlation(i) == kNoCorrelation) continue;
    const int64_t c = correlation(i);
    if (stream(i) == -1) {
      const std::optional<uint32_t> g = last_gpu.find(c);
      if (g && last_cpu.contains(c)) index_corr_[i] = static_cast<int32_t>(*g);
    } else if (gpu_side(i)) {
      if (const std::optional<uint32_t> p = last_cpu.find(c)) index_corr_[i] = static_cast<int32_t>(*p);
    }
  }
}

// HTA's last-step filter (HtaTrace::loaded), and with it the rows on a stream that are
// not GPU-side here (stream 0 outside the inferred view), which HTA's join drops.
void CpView::keep_hta_rows() {
  if (!trace_.drops_last_step()) return;
  for (uint32_t i = 0; i < store().size(); ++i)
    if (kept_[i] && (!trace_.loaded(i) || (stream(i) != -1 && !gpu_side(i)))) kept_[i] = 0;
}

void CpView::choose_window(const HtaOptions& options) {
  const EventStore& s = store();
  annotation = options.critical_path_annotation;
  std::vector<uint32_t> occurrences;
  size_t cpu_occurrences = 0;
  if (!annotation.empty()) {
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!kept_[i] || s.name_of(i).find(annotation) == std::string_view::npos) continue;
      occurrences.push_back(i);
      if (s.category[i] != Category::kGpuUserAnnotation) ++cpu_occurrences;
    }
    if (occurrences.empty()) note = "annotation '" + annotation + "' not in the trace: the whole trace";
  }
  if (occurrences.empty()) {
    annotation.clear();
    window_start = std::numeric_limits<double>::infinity();
    window_end = -std::numeric_limits<double>::infinity();
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!kept_[i]) continue;
      window_start = std::min(window_start, trace_.ts(i));
      window_end = std::max(window_end, trace_.end(i));
    }
    return;
  }
  int64_t wanted = options.critical_path_instance;
  if (wanted < 0) wanted = cpu_occurrences >= 2 ? 1 : 0;
  if (wanted >= static_cast<int64_t>(occurrences.size())) {
    note = "instance " + std::to_string(wanted) + " of '" + annotation + "' not in the trace: the last one";
    wanted = static_cast<int64_t>(occurrences.size()) - 1;
  }
  instance = wanted;
  annotation_event = occurrences[static_cast<size_t>(wanted)];
  window_start = trace_.ts(annotation_event);
  window_end = trace_.end(annotation_event);
}

// CPU events that start in the window (and last), and the GPU events whose runtime call
// is one of them; "Stream Wait Event" syncs always.
void CpView::clip() {
  const EventStore& s = store();
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!kept_[i] || stream(i) != -1) continue;
    const double ts = trace_.ts(i);
    if (ts < window_start || ts > window_end || trace_.dur(i) <= 0) continue;
    clipped_[i] = 1;
    const int64_t partner = index_corr_[i];
    if (partner > 0 && kept_[partner] && stream(static_cast<uint32_t>(partner)) != -1) clipped_[partner] = 1;
  }
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (kept_[i] && stream(i) != -1 && s.name_of(i) == "Stream Wait Event") clipped_[i] = 1;
    if (clipped_[i]) clipped_rows_.push_back(i);
  }
}

}  // namespace sollens::hta::cp
