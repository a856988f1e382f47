#include "api/option_kinds.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "api/compare.h"
#include "base/number_format.h"
#include "devices/device_db.h"

namespace sollens {

namespace {

// A whole decimal integer (sign allowed), as TraceLens's argparse type=int reads one.
std::optional<int64_t> parse_integer(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// A number as strtod reads one, the whole word.
std::optional<double> parse_number(const std::string* word) {
  if (!word || word->empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(word->c_str(), &end);
  if (*end != '\0') return std::nullopt;
  return v;
}

std::string needs(std::string_view flag, std::string_view what) {
  return std::string(flag) + " needs " + std::string(what);
}

// A word read as it is; `what` the message when none follows.
Status read_word(std::string_view flag, const std::string* word, std::string& out, std::string_view what) {
  if (!word) return Status(Code::bad_option_value, needs(flag, what));
  out = *word;
  return {};
}

std::string_view kernel_order_word(KernelOrder order) {
  switch (order) {
    case KernelOrder::kStartTimePerDevice: return "device";
    case KernelOrder::kFileOrder: return "file";
    default: return "stream";
  }
}

}  // namespace

std::optional<CriticalPathScope> parse_critical_path(std::string_view word) {
  CriticalPathScope scope;
  if (word == "none") {
    scope.enabled = false;
    return scope;
  }
  if (word.empty() || word == "all") {
    scope.annotation.clear();
    return scope;
  }
  const size_t colon = word.rfind(':');
  const bool has_index = colon != std::string_view::npos && (colon == 0 || word[colon - 1] != ':');
  if (!has_index) {
    scope.annotation = std::string(word);
    return scope;
  }
  const std::string_view index = word.substr(colon + 1);
  // Digits only: no sign, so that "-1" and "+1" are refused rather than read.
  const bool digits = !index.empty() && index.find_first_not_of("0123456789") == std::string_view::npos;
  const std::optional<int64_t> instance = digits ? parse_integer(index) : std::nullopt;
  if (!instance || colon == 0) return std::nullopt;
  scope.annotation = std::string(word.substr(0, colon));
  scope.instance = *instance;
  return scope;
}

std::optional<CycleMode> parse_cycle_mode(std::string_view word) {
  if (word == "all") return CycleMode::kAll;
  if (word == "llm") return CycleMode::kLlm;
  if (word == "uplifter") return CycleMode::kUplifter;
  return std::nullopt;
}

std::optional<KernelOrder> parse_kernel_order(std::string_view word) {
  if (word == "stream" || word.empty()) return KernelOrder::kStartTimePerStream;
  if (word == "device") return KernelOrder::kStartTimePerDevice;
  if (word == "file") return KernelOrder::kFileOrder;
  return std::nullopt;
}

Status Switch::read(std::string_view, const std::string*, bool& out) {
  out = true;
  return {};
}
std::string Switch::text(const bool&) { return ""; }

Status Text::read(std::string_view flag, const std::string* word, std::string& out) {
  return read_word(flag, word, out, "a value");
}
std::string Text::text(const std::string& value) { return value; }

Status DirectoryPath::read(std::string_view flag, const std::string* word, std::string& out) {
  return read_word(flag, word, out, "a directory");
}
std::string DirectoryPath::text(const std::string& value) { return value; }

Status FilePath::read(std::string_view flag, const std::string* word, std::string& out) {
  return read_word(flag, word, out, "a file");
}
std::string FilePath::text(const std::string& value) { return value; }

Status CaptureTracePath::read(std::string_view flag, const std::string* word, std::string& out) {
  return read_word(flag, word, out, "the graph-capture trace");
}
std::string CaptureTracePath::text(const std::string& value) { return value; }

Status DeviceName::read(std::string_view flag, const std::string* word, std::string& out) {
  const std::string known = " (known, case-insensitive: " + known_device_names() + ")";
  if (!word) return Status(Code::bad_option_value, needs(flag, "a GPU name") + known);
  if (!find_device(*word))
    return Status(Code::unknown_device, "unknown device '" + *word + "' for " + std::string(flag) + known);
  out = *word;
  return {};
}
std::string DeviceName::text(const std::string& value) { return value; }

Status EfficiencyFactor::read(std::string_view flag, const std::string* word, double& out) {
  const std::optional<double> f = parse_number(word);
  if (!f || !(*f > 0 && *f <= 1)) return Status(Code::bad_option_value, needs(flag, "a factor in (0, 1], e.g. 0.8"));
  out = *f;
  return {};
}
std::string EfficiencyFactor::text(const double& value) { return format_python_float(value); }

Status PositiveMicroseconds::read(std::string_view flag, const std::string* word, std::optional<double>& out) {
  const std::optional<double> us = parse_number(word);
  if (!us || !(*us > 0)) return Status(Code::bad_option_value, needs(flag, "a positive number of microseconds"));
  out = us;
  return {};
}
std::string PositiveMicroseconds::text(const std::optional<double>& value) {
  return value ? format_python_float(*value) : "";
}

Status WholeMicroseconds::read(std::string_view flag, const std::string* word, int64_t& out) {
  const std::optional<int64_t> us = word ? parse_integer(*word) : std::nullopt;
  if (!us) return Status(Code::bad_option_value, needs(flag, "a whole number of microseconds"));
  out = *us;
  return {};
}
std::string WholeMicroseconds::text(const int64_t& value) { return std::to_string(value); }

Status HistogramBins::read(std::string_view flag, const std::string* word, int64_t& out) {
  const std::optional<int64_t> bins = word ? parse_integer(*word) : std::nullopt;
  if (!bins || *bins < 1 || *bins > 1000000) return Status(Code::bad_option_value, needs(flag, "a number of bins from 1 to 1000000"));
  out = *bins;
  return {};
}
std::string HistogramBins::text(const int64_t& value) { return std::to_string(value); }

Status WholeRows::read(std::string_view flag, const std::string* word, std::optional<int64_t>& out) {
  const std::optional<int64_t> rows = word ? parse_integer(*word) : std::nullopt;
  if (!rows) return Status(Code::bad_option_value, needs(flag, "a whole number of rows"));
  out = rows;
  return {};
}
std::string WholeRows::text(const std::optional<int64_t>& value) { return value ? std::to_string(*value) : ""; }

Status Megabytes::read(std::string_view flag, const std::string* word, uint64_t& out) {
  const std::optional<double> mb = parse_number(word);
  if (!mb || !(*mb > 0)) return Status(Code::bad_option_value, needs(flag, "a positive number of megabytes"));
  out = static_cast<uint64_t>(*mb * 1e6);
  return {};
}
std::string Megabytes::text(const uint64_t& value) { return value ? format_python_float(value / 1e6) : ""; }

Status LinkChoice::read(std::string_view flag, const std::string* word, LinkMode& out) {
  const std::optional<LinkMode> mode = word ? link_mode_from_name(*word) : std::nullopt;
  if (!mode) return Status(Code::bad_option_value, std::string(flag) + " is flows, correlation or auto" + (word ? ", not '" + *word + "'" : ""));
  out = *mode;
  return {};
}
std::string LinkChoice::text(const LinkMode& value) { return std::string(link_mode_name(value)); }

Status CycleModeChoice::read(std::string_view flag, const std::string* word, CycleMode& out) {
  if (!word) return Status(Code::bad_option_value, needs(flag, "a value"));
  const std::optional<CycleMode> mode = parse_cycle_mode(*word);
  if (!mode) return Status(Code::bad_option_value, std::string(flag) + " is " + kCycleModeWords + ", not '" + *word + "'");
  out = *mode;
  return {};
}
std::string CycleModeChoice::text(const CycleMode& value) {
  return value == CycleMode::kLlm ? "llm" : value == CycleMode::kUplifter ? "uplifter" : "all";
}

Status KernelOrderChoice::read(std::string_view flag, const std::string* word, KernelOrder& out) {
  if (!word) return Status(Code::bad_option_value, needs(flag, "a value"));
  // On the command line the default is named, never given as an empty word.
  const std::optional<KernelOrder> order = word->empty() ? std::nullopt : parse_kernel_order(*word);
  if (!order) return Status(Code::bad_option_value, std::string(flag) + " is " + kKernelOrderWords + ", not '" + *word + "'");
  out = *order;
  return {};
}
std::string KernelOrderChoice::text(const KernelOrder& value) { return std::string(kernel_order_word(value)); }

Status RunNames::read(std::string_view flag, const std::string* word, CompareTags& out) {
  if (!word) return Status(Code::bad_option_value, needs(flag, "a value"));
  const size_t comma = word->find(',');
  CompareTags tags;
  if (comma != std::string::npos) tags = {word->substr(0, comma), word->substr(comma + 1)};
  if (comma == std::string::npos || !check_compare_tags(tags).ok())
    return Status(Code::bad_run_names, std::string(flag) + " takes two different names without '::', as A,B");
  out = tags;
  return {};
}
std::string RunNames::text(const CompareTags& value) { return value.baseline + "," + value.variant; }

Status GateList::read(std::string_view flag, const std::string* word, std::vector<GateExpr>& out) {
  if (!word) return Status(Code::bad_option_value, needs(flag, "a value"));
  Result<GateExpr> gate = parse_gate(*word);
  if (!gate.ok()) return gate.status();
  out.push_back(std::move(gate).value());
  return {};
}
std::string GateList::text(const std::vector<GateExpr>&) { return ""; }

Status Microseconds::read(std::string_view flag, const std::string* word, double& out) {
  const std::optional<double> us = parse_number(word);
  if (!us || !(*us >= 0) || std::isinf(*us)) return Status(Code::bad_option_value, needs(flag, "a number of microseconds >= 0"));
  out = *us;
  return {};
}
// Whole microseconds as an integer (HTA's defaults are ints), else as Python prints them.
std::string Microseconds::text(const double& value) {
  return value == std::floor(value) && std::fabs(value) < 1e15 ? std::to_string(static_cast<int64_t>(value))
                                                                : format_python_float(value);
}

Status Share::read(std::string_view flag, const std::string* word, double& out) {
  const std::optional<double> share = parse_number(word);
  if (!share || !(*share > 0 && *share <= 1)) return Status(Code::bad_option_value, needs(flag, "a share in (0, 1], e.g. 0.8"));
  out = *share;
  return {};
}
std::string Share::text(const double& value) { return format_python_float(value); }

Status PositiveCount::read(std::string_view flag, const std::string* word, int64_t& out) {
  const std::optional<int64_t> n = word ? parse_integer(*word) : std::nullopt;
  if (!n || *n < 1) return Status(Code::bad_option_value, needs(flag, "a whole number >= 1"));
  out = *n;
  return {};
}
std::string PositiveCount::text(const int64_t& value) { return std::to_string(value); }

Status OperatorName::read(std::string_view flag, const std::string* word, std::string& out) {
  if (!word || word->empty()) return Status(Code::bad_option_value, needs(flag, "an operator name, e.g. aten::linear"));
  out = *word;
  return {};
}
std::string OperatorName::text(const std::string& value) { return value; }

Status CriticalPathChoice::read(std::string_view flag, const std::string* word, CriticalPathScope& out) {
  const std::optional<CriticalPathScope> scope = word ? parse_critical_path(*word) : std::nullopt;
  if (!scope)
    return Status(Code::bad_option_value, needs(flag, "ANNOTATION[:INDEX], INDEX a whole number >= 0 (or all, or none)") +
           (word ? ", not '" + *word + "'" : ""));
  out = *scope;
  return {};
}
std::string CriticalPathChoice::text(const CriticalPathScope& value) {
  if (!value.enabled) return "none";
  if (value.annotation.empty()) return "all";
  return value.instance < 0 ? value.annotation : value.annotation + ":" + std::to_string(value.instance);
}

}  // namespace sollens
