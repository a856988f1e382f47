#include "devices/device_identify.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>


namespace sollens {

namespace {

bool has_word_run(std::string_view text, std::string_view pattern) {
  if (pattern.empty()) return false;
  for (size_t pos = text.find(pattern); pos != std::string_view::npos;
       pos = text.find(pattern, pos + 1)) {
    const size_t end = pos + pattern.size();
    if ((pos == 0 || text[pos - 1] == ' ') && (end == text.size() || text[end] == ' ')) return true;
  }
  return false;
}

std::string vendor_of(const DeviceProperties& d, std::string_view name) {
  for (std::string_view w : {"NVIDIA", "TESLA", "GEFORCE", "QUADRO", "RTX"})
    if (has_word_run(name, w)) return "NVIDIA";
  for (std::string_view w : {"AMD", "INSTINCT", "RADEON"})
    if (has_word_run(name, w)) return "AMD";
  if (d.warp_size == 64) return "AMD";  // AMD wavefronts; every NVIDIA GPU has 32
  if (d.warp_size == 32) return "NVIDIA";
  return {};
}

double gib(int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }

std::string describe(const DeviceProperties& d, std::string_view vendor) {
  std::string out = "\"" + d.name + "\" (";
  auto v = [](int64_t x) { return x == kNoValue ? std::string("?") : std::to_string(x); };
  out += "cc " + v(d.compute_major) + "." + v(d.compute_minor) + ", " + v(d.num_sms) +
         (vendor == "AMD" ? " CUs" : vendor == "NVIDIA" ? " SMs" : " SMs/CUs");
  if (d.total_global_mem != kNoValue) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ", %.2f GiB", gib(d.total_global_mem));
    out += buf;
  }
  return out + ")";
}

// Why the keys of `e` rule the device out; empty when they do not. `strict`: every
// key of the entry must be present in the trace (identification without a name).
std::string key_mismatch(const DeviceIdentifyKeys& k, const DeviceProperties& d, bool strict) {
  auto missing = [&](int64_t v) { return v == kNoValue; };
  if (k.cc_major >= 0) {
    if (missing(d.compute_major) || missing(d.compute_minor)) {
      if (strict) return "no compute capability";
    } else if (d.compute_major != k.cc_major || d.compute_minor != k.cc_minor) {
      return "compute capability " + std::to_string(d.compute_major) + "." +
             std::to_string(d.compute_minor) + " is not " + std::to_string(k.cc_major) + "." +
             std::to_string(k.cc_minor);
    }
  }
  if (k.sm_count >= 0) {
    if (missing(d.num_sms)) {
      if (strict) return "no numSms";
    } else if (d.num_sms != k.sm_count) {
      return "numSms " + std::to_string(d.num_sms) + " is not " + std::to_string(k.sm_count);
    }
  }
  if (k.memory_gib_min >= 0 && k.memory_gib_max >= 0) {
    if (missing(d.total_global_mem)) {
      if (strict) return "no totalGlobalMem";
    } else {
      const double g = gib(d.total_global_mem);
      if (g < k.memory_gib_min || g > k.memory_gib_max) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "memory %.2f GiB is outside [%g, %g] GiB", g,
                      k.memory_gib_min, k.memory_gib_max);
        return buf;
      }
    }
  }
  return {};
}

std::string join_ids(const std::vector<const DeviceSpec*>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + v[i]->id;
  return out;
}

const char* kAdvice = "pass --device NAME to choose a GPU, or add it: deviceDB/README.md";

DeviceIdentification finish(const DeviceProperties& d, const std::string& desc,
                            const DeviceSpec* spec, std::string how) {
  DeviceIdentification r;
  r.trace_name = d.name;
  r.spec = spec;
  r.how = std::move(how);
  if (spec->has_peaks()) {
    r.status = DeviceStatus::kIdentified;
  } else {
    r.status = DeviceStatus::kNoPeaks;
    r.notice = "GPU " + desc + " is " + spec->name +
               ", which has no sourced peak figures in the device database: no roofline "
               "columns (" + kAdvice + ")";
  }
  return r;
}

}  // namespace

std::string_view device_status_name(DeviceStatus s) {
  switch (s) {
    case DeviceStatus::kIdentified: return "identified";
    case DeviceStatus::kUserChosen: return "user";
    case DeviceStatus::kNoPeaks: return "no_peaks";
    case DeviceStatus::kUnknown: return "unknown";
    case DeviceStatus::kNoDevices: return "no_devices";
  }
  return "unknown";
}

DeviceIdentification identify_device(const DeviceProperties& d) {
  const std::string name = normalise_device_name(d.name);
  const std::string vendor = vendor_of(d, name);
  const std::string desc = describe(d, vendor);
  const bool generic = std::none_of(name.begin(), name.end(),
                                    [](unsigned char c) { return std::isdigit(c); });
  auto vendor_ok = [&](const DeviceSpec& e) {
    return vendor.empty() || e.identify.vendor.empty() || e.identify.vendor == vendor;
  };

  // 1. By name, verified by the keys the trace has.
  std::vector<const DeviceSpec*> named, kept;
  std::string rejected;
  for (const DeviceSpec& e : device_db()) {
    const DeviceIdentifyKeys& k = e.identify;
    if (!vendor_ok(e)) continue;
    if (std::none_of(k.name_patterns.begin(), k.name_patterns.end(),
                     [&](const std::string& p) { return has_word_run(name, p); }))
      continue;
    if (std::any_of(k.name_excludes.begin(), k.name_excludes.end(),
                    [&](const std::string& p) { return has_word_run(name, p); }))
      continue;
    named.push_back(&e);
    const std::string why = key_mismatch(k, d, false);
    if (why.empty()) kept.push_back(&e);
    else if (rejected.empty()) rejected = e.id + ": " + why;
  }
  if (kept.size() == 1) return finish(d, desc, kept[0], "name " + desc);
  DeviceIdentification r;
  r.trace_name = d.name;
  r.status = DeviceStatus::kUnknown;
  if (kept.size() > 1) {
    r.notice = "GPU " + desc + " could be " + join_ids(kept) + ": not identified, no roofline "
               "columns (" + kAdvice + ")";
    return r;
  }
  // 2. An empty or generic name ("AMD Radeon Graphics"): the keys alone, all of them,
  //    and only for entries where they are unambiguous.
  if (generic) {
    std::vector<const DeviceSpec*> by_keys;
    for (const DeviceSpec& e : device_db())
      if (e.identify.match_without_name && vendor_ok(e) && key_mismatch(e.identify, d, true).empty())
        by_keys.push_back(&e);
    if (by_keys.size() == 1)
      return finish(d, desc, by_keys[0], "compute capability, SM/CU count and memory of " + desc);
    if (by_keys.size() > 1) {
      r.notice = "GPU " + desc + " could be " + join_ids(by_keys) +
                 ": not identified, no roofline columns (" + kAdvice + ")";
      return r;
    }
  }
  if (!named.empty())
    r.notice = "GPU " + desc + " looks like " + join_ids(named) + " by name, but " + rejected +
               ": not identified, no roofline columns (" + kAdvice + ")";
  else
    r.notice = "GPU " + desc + " is not in the device database: no roofline columns (" + kAdvice + ")";
  return r;
}

DeviceIdentification identify_trace_device(const EventStore& store, std::string_view user_device) {
  const auto& devices = store.metadata.devices;
  // The device the GPU events ran on (args.device, else the pid).
  int64_t busiest = kNoValue;
  {
    std::map<int64_t, size_t> counts;
    for (size_t i = 0; i < store.size(); ++i) {
      const Category c = store.category[i];
      if (c != Category::kKernel && c != Category::kGpuMemcpy && c != Category::kGpuMemset) continue;
      int64_t dev = store.device[i];
      if (dev == kNoValue) {
        const std::string_view pid = store.str(store.pid[i]);
        int64_t v;
        auto [p, ec] = std::from_chars(pid.data(), pid.data() + pid.size(), v);
        if (ec == std::errc() && p == pid.data() + pid.size()) dev = v;
      }
      if (dev != kNoValue) ++counts[dev];
    }
    size_t best = 0;
    for (const auto& [dev, n] : counts)
      if (n > best) best = n, busiest = dev;
  }
  int64_t index = devices.empty() ? -1 : 0;
  bool from_events = false;
  for (size_t i = 0; i < devices.size(); ++i)
    if (busiest != kNoValue && devices[i].id == busiest) {
      index = static_cast<int64_t>(i);
      from_events = true;
      break;
    }

  DeviceIdentification r;
  if (!user_device.empty()) {
    r.device_index = index;
    r.from_gpu_events = from_events;
    if (index >= 0) r.trace_name = devices[static_cast<size_t>(index)].name;
    if (const DeviceSpec* spec = find_device(user_device)) {
      r.status = DeviceStatus::kUserChosen;
      r.spec = spec;
      r.how = "--device " + std::string(user_device);
    } else {
      r.status = DeviceStatus::kUnknown;
      r.notice = "unknown device '" + std::string(user_device) + "' (known: " +
                 known_device_names() + ")";
    }
    return r;
  }
  if (devices.empty()) {
    r.status = DeviceStatus::kNoDevices;
    r.notice = std::string("the trace lists no deviceProperties, so its GPU is unknown: no "
                           "roofline columns (") + kAdvice + ")";
    return r;
  }
  r = identify_device(devices[static_cast<size_t>(index)]);
  r.device_index = index;
  r.from_gpu_events = from_events;
  return r;
}

}  // namespace sollens
