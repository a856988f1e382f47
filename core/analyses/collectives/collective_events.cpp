#include "analyses/collectives/collective_events.h"

#include <simdjson.h>

#include <string>

#include "base/gpu_class.h"
#include "store/raw_args.h"

namespace sollens::collectives {

namespace od = simdjson::ondemand;
using simdjson::error_code;
using simdjson::SUCCESS;

namespace {

error_code read_value(od::value v, ArgValue& out) {
  od::json_type type;
  if (auto e = v.type().get(type)) return e;
  switch (type) {
    case od::json_type::null: out = ArgValue::none(); return SUCCESS;
    case od::json_type::boolean: {
      bool b;
      if (auto e = v.get_bool().get(b)) return e;
      out = ArgValue::boolean(b);
      return SUCCESS;
    }
    case od::json_type::string: {
      std::string_view s;
      if (auto e = v.get_string().get(s)) return e;
      out = ArgValue::str(s);
      return SUCCESS;
    }
    case od::json_type::number: {
      const std::string_view token = trim_json_token(v.raw_json_token());
      if (token.find_first_of(".eE") != std::string_view::npos) {
        double d;
        if (auto e = v.get_double().get(d)) return e;
        out = ArgValue::real(d);
        return SUCCESS;
      }
      int64_t i;
      if (v.get_int64().get(i) == SUCCESS) out = ArgValue::integer(i);
      else out = ArgValue::other(std::string(token));  // beyond int64: a Python big int
      return SUCCESS;
    }
    default: {
      std::string repr;
      if (auto e = append_python_repr(v, repr, true)) return e;
      out = ArgValue::other(std::move(repr));
      return SUCCESS;
    }
  }
}

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

int field_of(std::string_view key) {
  for (int f = 0; f < kFieldCount; ++f)
    if (kFieldNames[f] == key) return f;
  return -1;
}

// Parses one kernel's args. False when it is not linked (neither `correlation` nor
// `External id` is a non-null value) or the args do not parse.
bool read_args(od::parser& parser, const EventStore& s, uint32_t event, CollectiveEvent& out) {
  if (!s.has_args(event)) return false;
  const std::string_view json = s.args_json(event);
  od::document doc;
  if (parser.iterate(padded_input_view(s, json)).get(doc)) return false;
  od::object object;
  if (doc.get_object().get(object)) return false;
  bool linked = false;
  for (auto field_result : object) {
    od::field field;
    if (std::move(field_result).get(field)) return false;
    std::string_view key;
    if (field.unescaped_key(false).get(key)) return false;
    od::value value = field.value();
    if (key == "correlation" || key == "External id") {
      bool is_null = false;
      if (value.is_null().get(is_null)) return false;
      linked |= !is_null;
      continue;
    }
    const int f = field_of(key);
    // A repeated key: the last one wins, as in Python's json.
    if (f >= 0 && read_value(value, out.fields[f])) return false;
  }
  return linked;
}

std::optional<double> message_mb(const ArgValue& nelems, std::optional<int> bytes) {
  if (!bytes) return std::nullopt;
  // Python: nelems * bytes / 1024**2 (an exact int product, then true division).
  if (nelems.kind == ArgValue::Kind::kInt) return static_cast<double>(nelems.i * *bytes) / (1024.0 * 1024.0);
  if (nelems.kind == ArgValue::Kind::kFloat) return nelems.f * *bytes / (1024.0 * 1024.0);
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
  od::parser parser;
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
    if (!read_args(parser, s, e.event, e)) continue;
    ArgValue& collective = e.fields[kCollectiveName];
    // TraceLens's one default custom pattern; it also makes such kernels collectives.
    if (collective.is_none() && contains_ignore_case(name, "cross_device_reduce"))
      collective = ArgValue::str("allreduce");
    const ArgValue& dtype = e.fields[kDtype];
    const std::optional<int> bytes =
        dtype.kind == ArgValue::Kind::kStr ? dtype_bytes(dtype.text) : std::nullopt;
    if (!e.fields[kInMsgNelems].is_none()) {
      e.in_msg_mb = message_mb(e.fields[kInMsgNelems], bytes);
      e.out_msg_mb = message_mb(e.fields[kOutMsgNelems], bytes);
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace sollens::collectives
