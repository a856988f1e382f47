#pragma once
// The kinds of value an option takes, named in the `type` column of the *_flags.def
// lists. Each kind says what C++ value it fills (Value), whether the option reads the
// next word (kTakesValue), how that word is read and what a refused or missing one is
// told (read: ok when taken, else bad_option_value, unknown_device or bad_run_names with
// the message without the "sollens: " prefix), and
// how its default reads in a command's help (text: "" shows none).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/cycles/kernel_sequence.h"
#include "analyses/diff/gate.h"
#include "analyses/diff/table_compare.h"
#include "base/status.h"
#include "model/link_mode.h"

namespace sollens {

// How cycles are detected and shown: every pattern (structure detection), the LLM view
// (prefill / decode), or uplifter's own pipeline and tables, for comparison.
enum class CycleMode : uint8_t { kAll, kLlm, kUplifter };

// Which stretch of the trace HTA's critical path covers (--critical-path).
struct CriticalPathScope {
  bool enabled = true;                      // "none": no critical-path sheets
  std::string annotation = "ProfilerStep";  // "": the whole trace
  // The annotation's occurrence, from 0 (HTA's instance_id); negative: 1 where the
  // annotation occurs twice or more, else 0 (HTA advises against the first step).
  int64_t instance = -1;
};

// `word` is the word after the flag, or null when none follows.
#define SOLLENS_OPTION_KIND(Name, ValueType, takes_value)                           \
  struct Name {                                                                      \
    using Value = ValueType;                                                         \
    static constexpr bool kTakesValue = takes_value;                                 \
    static Status read(std::string_view flag, const std::string* word, Value& out);      \
    static std::string text(const Value& value);                                     \
  }

SOLLENS_OPTION_KIND(Switch, bool, false);                        // present: true
SOLLENS_OPTION_KIND(Text, std::string, true);                    // any word ("needs a value")
SOLLENS_OPTION_KIND(DirectoryPath, std::string, true);           // "needs a directory"
SOLLENS_OPTION_KIND(FilePath, std::string, true);                // "needs a file"
SOLLENS_OPTION_KIND(CaptureTracePath, std::string, true);        // "needs the graph-capture trace"
SOLLENS_OPTION_KIND(DeviceName, std::string, true);              // a device database name, any case
SOLLENS_OPTION_KIND(EfficiencyFactor, double, true);             // in (0, 1]
SOLLENS_OPTION_KIND(PositiveMicroseconds, std::optional<double>, true);
SOLLENS_OPTION_KIND(WholeMicroseconds, int64_t, true);           // as argparse's type=int
SOLLENS_OPTION_KIND(HistogramBins, int64_t, true);               // 1 to 1000000
SOLLENS_OPTION_KIND(WholeRows, std::optional<int64_t>, true);    // negative: all but the last -N
SOLLENS_OPTION_KIND(Megabytes, uint64_t, true);                  // a positive number of MB, kept in bytes
SOLLENS_OPTION_KIND(LinkChoice, LinkMode, true);                 // flows | correlation | auto
SOLLENS_OPTION_KIND(CycleModeChoice, CycleMode, true);           // all | llm | uplifter
SOLLENS_OPTION_KIND(KernelOrderChoice, KernelOrder, true);       // stream | device | file
SOLLENS_OPTION_KIND(RunNames, CompareTags, true);                // A,B
SOLLENS_OPTION_KIND(GateList, std::vector<GateExpr>, true);      // each use adds one threshold
SOLLENS_OPTION_KIND(Microseconds, double, true);                 // a number >= 0
SOLLENS_OPTION_KIND(Share, double, true);                        // in (0, 1]
SOLLENS_OPTION_KIND(PositiveCount, int64_t, true);               // a whole number >= 1
SOLLENS_OPTION_KIND(OperatorName, std::string, true);            // a non-empty word
SOLLENS_OPTION_KIND(CriticalPathChoice, CriticalPathScope, true);  // ANNOTATION[:INDEX] | all | "" | none

#undef SOLLENS_OPTION_KIND

// The words each choice takes, for messages.
inline constexpr const char* kCycleModeWords = "all, llm or uplifter";
inline constexpr const char* kKernelOrderWords = "device, stream or file";

// --critical-path's word: "none", "all" or "" (the whole trace), ANNOTATION or
// ANNOTATION:INDEX (INDEX a whole number >= 0; a "::" inside a name such as aten::mm is
// part of the name). nullopt for a malformed INDEX.
std::optional<CriticalPathScope> parse_critical_path(std::string_view word);

// "all" | "llm" | "uplifter"; nullopt for anything else.
std::optional<CycleMode> parse_cycle_mode(std::string_view word);
// "device" | "stream" | "file"; "" is the default (per device and stream). nullopt
// for anything else.
std::optional<KernelOrder> parse_kernel_order(std::string_view word);

}  // namespace sollens
