#pragma once
// Per-event metrics of a modeled op (tracelens-semantics.md §6.1) and the pandas
// aggregations the perf sheets and unified_perf_summary apply to them.
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string_view>

#include "analyses/perf/perf_model.h"
#include "analyses/roofline/roofline.h"
#include "table/table.h"

namespace sollens {

inline constexpr double kPerfNaN = std::numeric_limits<double>::quiet_NaN();

struct OpMetrics {
  double gflops = kPerfNaN, mb = kPerfNaN, flops_per_byte = kPerfNaN, tbs = kPerfNaN, tflops = kPerfNaN;
};

// GFLOPS, Data Moved (MB), FLOPS/Byte, TB/s, TFLOPS/s of one event with kernel time t_us.
OpMetrics op_metrics(const perf::Count& flops, const std::optional<perf::Count>& bytes, double t_us);
// TraceLens's counts (corrected = false) or the corrected ones (CORRECTIONS.md).
OpMetrics op_metrics(const perf::Metrics& m, bool corrected, double t_us);
bool has_correction(const perf::Metrics& m);

// The roofline of one evaluation: independent of the kernel time, so computed once per
// distinct op and turned into Pct Roofline per event.
struct OpRoofline {
  bool has = false;
  double time_us = kPerfNaN;
  RooflineBound bound = RooflineBound::kNone;
  double pct(double t_us) const { return !has || t_us == 0 ? kPerfNaN : time_us / t_us * 100; }
};
OpRoofline op_roofline(const perf::Metrics& m, bool corrected, std::string_view compute_spec,
                       const DeviceSpec* device);

// pandas groupby mean / median / std (ddof 1) / min / max, NaN skipped.
struct Agg {
  double mean = kPerfNaN, median = kPerfNaN, std = kPerfNaN, min = kPerfNaN, max = kPerfNaN;
};
Agg aggregate(std::span<const double> values);
// pandas "first": the first non-NaN value.
double first_valid(std::span<const double> values);

inline void push_float_or_null(Column& c, double v) {
  if (std::isnan(v)) c.push_null();
  else c.push_float(v);
}

}  // namespace sollens
