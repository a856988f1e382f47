#include "analyses/collectives/collective_events.h"

#include <string>

#include "store/gpu_class.h"
#include "store/raw_args.h"

namespace sollens::collectives {

namespace {

bool contains_ignore_case(std::string_view text, std::string_view lower_needle) {
  for (size_t i = 0; i + lower_needle.size() <= text.size(); ++i) {
    size_t k = 0;
    for (; k < lower_needle.size(); ++k) {
      char c = text[i + k];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
      if (c != lower_needle[k]) break;
    }
    if (k == lower_needle.size()) return true;
  }
  return false;
}

// The args read: the metadata fields, then the two that link a kernel to its launch.
constexpr size_t kCorrelation = kFieldCount, kExternalId = kFieldCount + 1, kKeyCount = kFieldCount + 2;
constexpr std::array<std::string_view, kKeyCount> kArgKeys = [] {
  std::array<std::string_view, kKeyCount> keys{};
  for (size_t f = 0; f < kFieldCount; ++f) keys[f] = kFieldNames[f];
  keys[kCorrelation] = "correlation";
  keys[kExternalId] = "External id";
  return keys;
}();

// Reads one kernel's fields. False when it is not linked (neither `correlation` nor
// `External id` is a non-null value) or the args do not parse.
bool read_args(ArgsReader& reader, uint32_t event, CollectiveEvent& out) {
  std::array<PyValue, kKeyCount> values;
  if (!reader.read(event, kArgKeys, values)) return false;
  for (size_t f = 0; f < kFieldCount; ++f) out.fields[f] = values[f].is_seq() ? values[f].as_tuple() : std::move(values[f]);
  return !values[kCorrelation].is_none() || !values[kExternalId].is_none();
}

std::optional<double> message_mb(const PyValue& nelems, std::optional<int> bytes) {
  if (!bytes) return std::nullopt;
  // Python: nelems * bytes / 1024**2 (an exact int product, then true division).
  if (nelems.kind == PyValue::Kind::kInt) return static_cast<double>(nelems.i * *bytes) / (1024.0 * 1024.0);
  if (nelems.kind == PyValue::Kind::kFloat) return nelems.f * *bytes / (1024.0 * 1024.0);
  return std::nullopt;
}

}  // namespace

std::optional<int> dtype_bytes(std::string_view dtype) {
  struct Size { std::string_view name; int bytes; };
  static constexpr Size kSizes[] = {{"Float", 4}, {"Int", 4},    {"Long", 8},   {"BFloat16", 2}, {"Bool", 1},
                                    {"Byte", 1},  {"Double", 8}, {"Half", 2},   {"Short", 2}};
  for (const Size& s : kSizes)
    if (s.name == dtype) return s.bytes;
  return std::nullopt;
}

std::vector<CollectiveEvent> extract_collective_events(const EventStore& s) {
  std::vector<CollectiveEvent> out;
  ArgsReader reader(s);
  // Names are interned and kernels repeat them: match each distinct name once.
  enum : uint8_t { kUnseen, kNo, kYes };
  std::vector<uint8_t> name_matches(s.strings.size(), kUnseen);
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.category[i] != Category::kKernel || s.str(s.cat[i]) != "kernel") continue;
    const std::string_view name = s.name_of(i);
    uint8_t& match = name_matches[s.name[i]];
    if (match == kUnseen) match = is_collective_kernel_name(name) ? kYes : kNo;
    if (match == kNo) continue;
    CollectiveEvent e;
    e.event = static_cast<uint32_t>(i);
    e.ts = s.ts[i];
    e.dur = s.dur[i];
    if (!read_args(reader, e.event, e)) continue;
    PyValue& collective = e.fields[kCollectiveName];
    // TraceLens's one default custom pattern; it also makes such kernels collectives.
    if (collective.is_none() && contains_ignore_case(name, "cross_device_reduce"))
      collective = PyValue::str("allreduce");
    const PyValue& dtype = e.fields[kDtype];
    const std::optional<int> bytes =
        dtype.kind == PyValue::Kind::kStr ? dtype_bytes(dtype.s) : std::nullopt;
    if (!e.fields[kInMsgNelems].is_none()) {
      e.in_msg_mb = message_mb(e.fields[kInMsgNelems], bytes);
      e.out_msg_mb = message_mb(e.fields[kOutMsgNelems], bytes);
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace sollens::collectives
