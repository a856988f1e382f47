#include "analyses/perf/perf_metrics.h"

#include <algorithm>
#include <vector>

#include "base/stats.h"

namespace sollens {

OpMetrics op_metrics(const perf::Count& flops, const std::optional<perf::Count>& bytes, double t_us) {
  OpMetrics m;
  m.gflops = flops.value() / 1e9;
  m.tflops = t_us == 0 ? kPerfNaN : (m.gflops / 1e3) / (t_us / 1e6);
  if (bytes) {
    const double b = bytes->value();
    m.mb = b / (1024 * 1024);
    m.flops_per_byte = b == 0 ? kPerfNaN : (m.gflops * 1e9) / b;
    m.tbs = t_us == 0 ? kPerfNaN : (b / 1e12) / (t_us / 1e6);
  }
  return m;
}

namespace {

struct Counts {
  perf::Count flops;
  std::optional<perf::Count> bytes;
};

Counts counts_of(const perf::Metrics& m, bool corrected) {
  if (!corrected) return {m.flops, m.bytes};
  Counts c{m.flops_corrected ? *m.flops_corrected : m.flops, m.bytes_corrected ? m.bytes_corrected : m.bytes};
  if (m.bytes_corrected_is_none) c.bytes.reset();
  return c;
}

}  // namespace

OpMetrics op_metrics(const perf::Metrics& m, bool corrected, double t_us) {
  const Counts c = counts_of(m, corrected);
  return op_metrics(c.flops, c.bytes, t_us);
}

bool has_correction(const perf::Metrics& m) {
  return m.flops_corrected || m.bytes_corrected || m.bytes_corrected_is_none;
}

OpRoofline op_roofline(const perf::Metrics& m, bool corrected, std::string_view compute_spec,
                       const DeviceSpec* device) {
  OpRoofline r;
  if (!device) return r;
  const Counts c = counts_of(m, corrected);
  RooflineInput in;
  in.gflops = c.flops.value() / 1e9;
  if (c.bytes) in.bytes = c.bytes->value();
  in.compute_spec = compute_spec;
  const RooflineMetrics rm = roofline_metrics(in, device);
  if (!rm.has_roofline) return r;
  r.has = true;
  r.time_us = rm.roofline_time_us;
  r.bound = rm.bound;
  return r;
}

Agg aggregate(std::span<const double> all) {
  std::vector<double> v;
  v.reserve(all.size());
  for (double x : all)
    if (!std::isnan(x)) v.push_back(x);
  Agg a;
  if (v.empty()) return a;
  a.mean = stats::pandas_mean(v);
  a.median = stats::median(v);
  if (auto sd = stats::pandas_std(v)) a.std = *sd;
  a.min = *std::min_element(v.begin(), v.end());
  a.max = *std::max_element(v.begin(), v.end());
  return a;
}

double first_valid(std::span<const double> v) {
  for (double x : v)
    if (!std::isnan(x)) return x;
  return kPerfNaN;
}

}  // namespace sollens
