#include "analyses/ops/kernel_details.h"

#include <algorithm>
#include <cmath>

#include "base/stats.h"
#include "base/number_format.h"
#include "base/python_repr.h"

namespace sollens {

std::vector<KernelPositionStats> summarize_kernel_stats(
    const EventStore& s, std::span<const std::span<const uint32_t>> lists) {
  std::vector<KernelPositionStats> out;
  const std::span<const uint32_t>* tmpl = nullptr;
  for (const auto& l : lists)
    if (!l.empty()) {
      tmpl = &l;
      break;
    }
  if (!tmpl) return out;
  const size_t n = tmpl->size();
  std::vector<std::vector<double>> durations(n);
  for (const auto& l : lists) {
    if (l.size() != n) continue;  // TraceLens warns and skips the row
    for (size_t i = 0; i < n; ++i) durations[i].push_back(s.dur[l[i]]);
  }
  out.resize(n);
  for (size_t i = 0; i < n; ++i) {
    KernelPositionStats& k = out[i];
    const uint32_t e = (*tmpl)[i];
    k.name = s.name_of(e);
    k.stream = s.stream[e];
    const auto& d = durations[i];
    k.count = d.size();
    k.total_us = stats::numpy_sum(d);
    k.mean_us = stats::numpy_mean(d);
    k.median_us = stats::median(d);
    k.std_us = stats::numpy_std(d);
    k.min_us = *std::min_element(d.begin(), d.end());
    k.max_us = *std::max_element(d.begin(), d.end());
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const KernelPositionStats& a, const KernelPositionStats& b) {
                     if (a.total_us != b.total_us) return a.total_us < b.total_us;
                     return a.name < b.name;
                   });
  return out;
}

namespace {

void append_stream(std::string& out, int64_t stream) {
  out += stream == kNoValue ? std::string("None") : std::to_string(stream);
}

}  // namespace

std::string kernel_details_summary_repr(const std::vector<KernelPositionStats>& stats) {
  PythonReprBuilder list(PythonReprBuilder::Kind::kList);
  for (const auto& k : stats) {
    PythonReprBuilder d(PythonReprBuilder::Kind::kDict);
    append_python_str_repr(d.str_key("name"), k.name);
    append_stream(d.str_key("stream"), k.stream);
    d.str_key("count") += std::to_string(k.count);
    d.str_key("total_duration_us") += format_python_float(k.total_us);
    d.str_key("mean_duration_us") += format_python_float(k.mean_us);
    d.str_key("median_duration_us") += format_python_float(k.median_us);
    d.str_key("std_dev_duration_us") += format_python_float(k.std_us);
    d.str_key("min_duration_us") += format_python_float(k.min_us);
    d.str_key("max_duration_us") += format_python_float(k.max_us);
    list.element() += d.finish();
  }
  return list.finish();
}

std::optional<std::string> trunc_kernel_details_repr(const std::vector<KernelPositionStats>& stats) {
  if (stats.empty()) return std::nullopt;
  PythonReprBuilder list(PythonReprBuilder::Kind::kList);
  for (const auto& k : stats) {
    PythonReprBuilder d(PythonReprBuilder::Kind::kDict);
    // Python slices code points; kernel names are ASCII in practice, so cut at a
    // UTF-8 boundary at or after 64 code points.
    std::string_view name = k.name;
    size_t cut = 0, points = 0;
    while (cut < name.size() && points < 64) {
      ++cut;
      while (cut < name.size() && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) ++cut;
      ++points;
    }
    std::string shown(name.substr(0, cut));
    if (cut < name.size()) shown += "...";
    append_python_str_repr(d.str_key("name"), shown);
    append_stream(d.str_key("stream"), k.stream);
    d.str_key("mean_duration_us") += format_python_float(numpy_round(k.mean_us, 2));
    list.element() += d.finish();
  }
  return list.finish();
}

double numpy_round(double x, int decimals) {
  // np.round: rint(x * 10**decimals) / 10**decimals (so 2.645 -> 2.64, unlike
  // Python's correctly rounded round(2.645, 2) == 2.65). The means are np.float64.
  const double f = std::pow(10.0, decimals);
  return std::nearbyint(x * f) / f;
}

}  // namespace sollens
