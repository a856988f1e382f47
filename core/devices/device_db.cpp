#include "devices/device_db.h"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <utility>

namespace sollens {

namespace {

constexpr std::array<std::string_view, kPeakKeyCount> kPeakNames = {
    "fp64_vector", "fp64_matrix", "fp32_vector", "fp32_matrix", "tf32", "fp16",
    "bf16",        "fp8",         "fp6",         "fp4",         "int8"};

// What is wrong with one entry (its first problem), as it is read.
struct EntryCheck {
  std::string id;
  std::string problem;
  void broken(std::string_view what) {
    if (problem.empty()) problem = "deviceDB entry '" + id + "': " + std::string(what);
  }
};

std::optional<double> opt_number(simdjson::dom::element e) {
  double d;
  if (!e.get_double().get(d)) return d;  // get_double accepts integers too
  return std::nullopt;                   // null or absent
}

std::optional<double> array_number(simdjson::dom::array a, size_t i) {
  simdjson::dom::element e;
  if (a.at(i).get(e)) return std::nullopt;
  return opt_number(e);
}

std::optional<double> field_number(simdjson::dom::object o, std::string_view key) {
  simdjson::dom::element e;
  if (o.at_key(key).get(e)) return std::nullopt;
  return opt_number(e);
}

std::string field_string(simdjson::dom::object o, std::string_view key) {
  std::string_view s;
  if (o.at_key(key).get_string().get(s)) return {};
  return std::string(s);
}

std::vector<std::string> field_strings(simdjson::dom::object o, std::string_view key) {
  std::vector<std::string> out;
  simdjson::dom::array a;
  if (o.at_key(key).get_array().get(a)) return out;
  for (auto v : a) {
    std::string_view s;
    if (!v.get_string().get(s)) out.emplace_back(s);
  }
  return out;
}

}  // namespace

std::string normalise_device_name(std::string_view s) {
  std::string out;
  bool gap = false;
  for (unsigned char c : s) {
    if (std::isalnum(c)) {
      if (gap && !out.empty()) out += ' ';
      gap = false;
      out += static_cast<char>(std::toupper(c));
    } else {
      gap = true;
    }
  }
  return out;
}

namespace {

void read_peaks(simdjson::dom::object o, std::string_view key,
                std::array<std::optional<double>, kPeakKeyCount>& out, EntryCheck& check) {
  simdjson::dom::object peaks;
  if (o.at_key(key).get_object().get(peaks)) return;
  for (auto [k, v] : peaks) {
    auto it = std::find(kPeakNames.begin(), kPeakNames.end(), k);
    if (it == kPeakNames.end()) {
      check.broken("unknown peak key '" + std::string(k) + "'");
      continue;
    }
    const auto value = opt_number(v);
    if (value && !(*value > 0)) check.broken("peak '" + std::string(k) + "' is not positive");
    out[static_cast<size_t>(it - kPeakNames.begin())] = value;
  }
}

ScaleUpLink read_link(simdjson::dom::object o, EntryCheck& check) {
  ScaleUpLink l;
  l.name = field_string(o, "name");
  const std::string topology = field_string(o, "topology");
  if (topology != "switch" && topology != "mesh") check.broken("scale_up_link topology is not switch or mesh");
  l.mesh = topology == "mesh";
  l.gpus = static_cast<int64_t>(field_number(o, "gpus").value_or(0));
  l.links = static_cast<int64_t>(field_number(o, "links").value_or(0));
  l.link_gbps_per_direction = field_number(o, "link_GBps_per_direction").value_or(0);
  l.gbps_per_direction = field_number(o, "GBps_per_direction").value_or(0);
  if (l.gpus < 2 || l.links < 1 || !(l.link_gbps_per_direction > 0) ||
      l.gbps_per_direction != static_cast<double>(l.links) * l.link_gbps_per_direction)
    check.broken("scale_up_link needs gpus >= 2, links >= 1 and GBps_per_direction = links x link_GBps_per_direction");
  return l;
}

Result<DeviceSpec> parse_entry(std::string_view text) {
  simdjson::dom::parser parser;
  simdjson::dom::object o;
  if (parser.parse(simdjson::padded_string(text)).get(o))
    return Status(Code::device_db_entry_invalid, "deviceDB: an embedded file is not a JSON object");
  DeviceSpec d;
  d.id = field_string(o, "id");
  if (d.id.empty()) return Status(Code::device_db_entry_invalid, "deviceDB: an entry has no id");
  EntryCheck check{d.id, {}};
  d.name = field_string(o, "name");
  d.aliases = field_strings(o, "aliases");
  d.vendor = field_string(o, "vendor");
  d.arch = field_string(o, "arch");
  d.variant = field_string(o, "variant");
  if (auto n = field_number(o, "devices_per_package")) d.devices_per_package = static_cast<int>(*n);
  if (d.devices_per_package < 1) check.broken("devices_per_package < 1");
  read_peaks(o, "dense_tflops", d.dense_tflops, check);
  read_peaks(o, "sparse_tflops", d.sparse_tflops, check);
  simdjson::dom::object mem;
  if (!o.at_key("memory").get_object().get(mem)) {
    d.mem_bw_tbps = field_number(mem, "bandwidth_TBps");
    d.mem_gb = field_number(mem, "size_GB");
    d.mem_type = field_string(mem, "type");
    d.l2_mb = field_number(mem, "l2_MB");
    d.llc_mb = field_number(mem, "llc_MB");
    d.l2_bw_tbps = field_number(mem, "l2_bandwidth_TBps");
  }
  if (auto n = field_number(o, "sm_or_cu")) d.sm_or_cu = static_cast<int64_t>(*n);
  d.boost_clock_mhz = field_number(o, "boost_clock_MHz");
  d.tdp_w = field_number(o, "tdp_W");
  d.confidence = field_string(o, "confidence");
  d.sources = field_strings(o, "sources");
  d.notes = field_string(o, "notes");
  if (d.has_peaks() && !(d.mem_bw_tbps && *d.mem_bw_tbps > 0))
    check.broken("peaks without a memory bandwidth");

  simdjson::dom::object id;
  if (!o.at_key("identify").get_object().get(id)) {
    DeviceIdentifyKeys& k = d.identify;
    k.vendor = field_string(id, "vendor");
    for (const auto& p : field_strings(id, "name_patterns")) k.name_patterns.push_back(normalise_device_name(p));
    for (const auto& p : field_strings(id, "name_excludes")) k.name_excludes.push_back(normalise_device_name(p));
    k.gfx = field_string(id, "gfx");
    simdjson::dom::array cc;
    if (!id.at_key("compute_capability").get_array().get(cc) && cc.size() == 2) {
      k.cc_major = static_cast<int64_t>(array_number(cc, 0).value_or(-1));
      k.cc_minor = static_cast<int64_t>(array_number(cc, 1).value_or(-1));
    }
    if (auto n = field_number(id, "sm_count")) k.sm_count = static_cast<int64_t>(*n);
    simdjson::dom::array mem_range;
    if (!id.at_key("memory_gib").get_array().get(mem_range) && mem_range.size() == 2) {
      k.memory_gib_min = array_number(mem_range, 0).value_or(-1);
      k.memory_gib_max = array_number(mem_range, 1).value_or(-1);
    }
    bool b = false;
    if (!id.at_key("match_without_name").get_bool().get(b)) k.match_without_name = b;
    if (k.name_patterns.empty() && !k.match_without_name)
      check.broken("no name_patterns and not match_without_name: it can never be identified");
  }
  simdjson::dom::object link;
  if (!o.at_key("scale_up_link").get_object().get(link)) d.scale_up_link = read_link(link, check);
  simdjson::dom::object arch;
  if (!o.at_key("tracelens_arch").get_object().get(arch)) {
    d.tracelens_mem_bw_gbps = field_number(arch, "mem_bw_gbps");
    simdjson::dom::object maf;
    if (!arch.at_key("max_achievable_tflops").get_object().get(maf))
      for (auto [k, v] : maf)
        if (auto x = opt_number(v)) d.tracelens_maf_tflops.emplace_back(std::string(k), *x);
  }
  if (!check.problem.empty()) return Status(Code::device_db_entry_invalid, check.problem);
  return d;
}

struct LoadedDb {
  std::vector<DeviceSpec> devices;
  std::vector<Diagnostic> problems;
};

// Every entry that reads whole; the others (a build defect the device tests catch) are
// left out and named in problems, so that no GPU is matched to a half-read entry.
LoadedDb load_all() {
  LoadedDb db;
  for (std::string_view text : device_db_json_texts()) {
    Result<DeviceSpec> entry = parse_entry(text);
    if (entry.ok()) db.devices.push_back(std::move(*entry));
    else db.problems.push_back(entry.status().diagnostic());
  }
  std::vector<DeviceSpec>& all = db.devices;
  std::sort(all.begin(), all.end(), [](const DeviceSpec& a, const DeviceSpec& b) { return a.id < b.id; });
  for (size_t i = 1; i < all.size(); ++i)
    if (all[i].id == all[i - 1].id)
      db.problems.push_back({Code::device_db_entry_invalid, "deviceDB entry '" + all[i].id + "': duplicate id"});
  all.erase(std::unique(all.begin(), all.end(), [](const DeviceSpec& a, const DeviceSpec& b) { return a.id == b.id; }),
            all.end());
  return db;
}

const LoadedDb& loaded_db() {
  static const LoadedDb db = load_all();  // thread-safe, once
  return db;
}

std::string squash(std::string_view s) {  // lookup form: alphanumerics, upper case
  std::string out;
  for (unsigned char c : s)
    if (std::isalnum(c)) out += static_cast<char>(std::toupper(c));
  return out;
}

}  // namespace

std::string_view peak_key_name(PeakKey key) { return kPeakNames[static_cast<size_t>(key)]; }

bool DeviceSpec::has_peaks() const {
  return std::any_of(dense_tflops.begin(), dense_tflops.end(),
                     [](const std::optional<double>& v) { return v.has_value(); });
}

std::optional<double> DeviceSpec::device_dense_tflops(PeakKey key) const {
  const auto& v = dense_tflops[static_cast<size_t>(key)];
  if (!v) return std::nullopt;
  return *v / devices_per_package;
}

std::optional<double> DeviceSpec::device_mem_bw_tbps() const {
  if (!mem_bw_tbps) return std::nullopt;
  return *mem_bw_tbps / devices_per_package;
}

std::optional<double> DeviceSpec::device_l2_bytes() const {
  if (!l2_mb) return std::nullopt;
  return *l2_mb * 1e6 / devices_per_package;
}

std::optional<double> DeviceSpec::device_l2_bw_tbps() const {
  if (!l2_bw_tbps) return std::nullopt;
  return *l2_bw_tbps / devices_per_package;
}

const std::vector<DeviceSpec>& device_db() { return loaded_db().devices; }

const std::vector<Diagnostic>& device_db_problems() { return loaded_db().problems; }

const DeviceSpec* find_device(std::string_view name) {
  const std::string want = squash(name);
  if (want.empty()) return nullptr;
  for (const DeviceSpec& d : device_db()) {
    if (!d.has_peaks()) continue;
    if (squash(d.id) == want) return &d;
    for (const auto& a : d.aliases)
      if (squash(a) == want) return &d;
  }
  return nullptr;
}

std::string known_device_names() {
  std::string out;
  for (const DeviceSpec& d : device_db()) {
    if (!d.has_peaks()) continue;
    if (!out.empty()) out += ", ";
    out += d.id;
    if (!d.aliases.empty()) {
      out += " (";
      for (size_t i = 0; i < d.aliases.size(); ++i) out += (i ? ", " : "") + d.aliases[i];
      out += ")";
    }
  }
  return out;
}

}  // namespace sollens
