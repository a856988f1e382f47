#include "analyses/sol/sol_comm.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "analyses/collectives/collective_events.h"
#include "analyses/ops/kernel_launchers.h"
#include "store/gpu_class.h"
#include "base/py_value.h"

namespace sollens {

namespace {

using collectives::CollectiveEvent;
using collectives::CollectiveKind;

std::optional<int64_t> whole_number(const PyValue& v) {
  if (v.kind == PyValue::Kind::kInt) return v.i;
  if (v.kind == PyValue::Kind::kFloat && std::fabs(v.f) < 1e15 && v.f == std::floor(v.f))
    return static_cast<int64_t>(v.f);
  if (v.kind == PyValue::Kind::kStr) {
    int64_t n = 0;
    const char* end = v.s.data() + v.s.size();
    const auto [ptr, ec] = std::from_chars(v.s.data(), end, n);
    if (ec == std::errc() && ptr == end) return n;
  }
  return std::nullopt;
}

std::string text_of(const PyValue& v) { return v.kind == PyValue::Kind::kStr ? v.s : str(v); }

// The op's estimate from the record_param_comms fields Kineto copies onto the kernel.
void estimate_collective(SolOp& op, const CollectiveEvent* e, const DeviceSpec* device, double factor) {
  if (!e) {
    op.no_estimate = "collective without record_param_comms fields: message size unknown";
    return;
  }
  const PyValue& name = e->fields[collectives::kCollectiveName];
  const CollectiveKind kind = collectives::collective_kind(name.kind == PyValue::Kind::kStr ? name.s : "");
  if (kind == CollectiveKind::kUnknown) {
    op.no_estimate = "collective kind '" + text_of(name) + "' not modeled";
    return;
  }
  const std::optional<int64_t> n = whole_number(e->fields[collectives::kGroupSize]);
  if (!n || *n < 1) {
    op.no_estimate = "group size unknown";
    return;
  }
  const std::optional<double>& mb = collectives::full_message_is_output(kind) ? e->out_msg_mb : e->in_msg_mb;
  if (!mb) {
    op.no_estimate = "message size unknown (dtype '" + text_of(e->fields[collectives::kDtype]) + "')";
    return;
  }
  const double message_bytes = *mb * 1024.0 * 1024.0;  // the fields' nelems · dtype bytes
  op.bytes = message_bytes * collectives::bus_bandwidth_factor(kind, *n).value_or(0);
  if (!device) {
    op.no_estimate = "no GPU with known peaks";
    return;
  }
  op.roofline = communication_estimate(kind, *n, message_bytes, *device, factor);
  op.estimated = op.roofline.ok;
  if (!op.estimated) op.no_estimate = op.roofline.why_not;
}

std::string function_of(const EventStore& s, const CollectiveEvent* e, std::optional<uint32_t> launcher,
                        uint32_t kernel) {
  if (e && e->fields[collectives::kCollectiveName].kind == PyValue::Kind::kStr)
    return e->fields[collectives::kCollectiveName].s;
  return std::string(s.name_of(launcher ? *launcher : kernel));
}

}  // namespace

LinkRate group_link_rate(const DeviceSpec& device, int64_t n) {
  LinkRate r;
  if (!device.scale_up_link) {
    r.why_not = "no link bandwidth for " + device.id + " in deviceDB";
    return r;
  }
  const ScaleUpLink& link = *device.scale_up_link;
  if (n > link.gpus) {
    r.why_not = "group of " + std::to_string(n) + " spans nodes (the " + link.name + " domain is " +
                std::to_string(link.gpus) + " GPUs): network bandwidth is not in deviceDB";
    return r;
  }
  r.gbps = link.mesh ? static_cast<double>(std::min(n - 1, link.links)) * link.link_gbps_per_direction
                     : link.gbps_per_direction;
  if (!(r.gbps > 0)) r.why_not = "group of one: nothing crosses a link";
  return r;
}

RooflineEstimate communication_estimate(CollectiveKind kind, int64_t n, double message_bytes, const DeviceSpec& device,
                                        double factor) {
  RooflineEstimate r;
  const std::optional<double> bus_factor = collectives::bus_bandwidth_factor(kind, n);
  if (!bus_factor) {
    r.why_not = "collective kind not modeled";
    return r;
  }
  if (!(*bus_factor > 0) || !(message_bytes > 0)) {
    r.why_not = n == 1 ? "group of one: nothing crosses a link" : "empty message";
    return r;
  }
  const LinkRate rate = group_link_rate(device, n);
  if (!(rate.gbps > 0)) {
    r.why_not = rate.why_not;
    return r;
  }
  r.link_gbps = rate.gbps * factor;
  r.communication_us = message_bytes * *bus_factor / (r.link_gbps * 1e9) * 1e6;
  r.estimate_us = r.communication_us;
  r.bound = SolBound::kCommunication;
  r.ok = true;
  return r;
}

void add_communication_ops(const EventStore& s, const TraceTree& tree, const DeviceSpec* device,
                           const SolOptions& options, SolOps& out) {
  const std::vector<CollectiveEvent> events = collectives::extract_collective_events(s);
  std::unordered_map<uint32_t, const CollectiveEvent*> fields_of;
  for (const CollectiveEvent& e : events) fields_of.emplace(e.event, &e);
  for (uint32_t g : tree.gpu_events) {
    if (out.op_of_gpu_event[g] >= 0 || !is_collective_kernel_name(s.name_of(g))) continue;
    const auto it = fields_of.find(g);
    const CollectiveEvent* e = it == fields_of.end() ? nullptr : it->second;
    const std::optional<uint32_t> launcher = launcher_of_gpu_event(s, tree, g);
    out.op_of_gpu_event[g] = static_cast<int32_t>(out.ops.size());
    SolOp& op = out.ops.emplace_back();
    op.event = launcher ? *launcher : g;
    op.kernels = {g};
    op.measured_us = s.dur[g];
    op.function = function_of(s, e, launcher, g);
    op.category = "communication";
    op.communication = true;
    estimate_collective(op, e, device, options.efficiency_factor);
  }
}

}  // namespace sollens
