#pragma once
// One table-driven reader and help text for every command's options: each *_flags.def
// line becomes an OptionSpec (SOLLENS_OPTION_SPEC), read by read_option and listed by
// options_usage, so an option's flag, value and help are written once.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "api/option_kinds.h"

namespace sollens {

enum class OptionRead : uint8_t {
  kTaken,    // the option (and its value, if it takes one) was read
  kNotMine,  // not one of the table's flags
  kRefused,  // one of them, but its value is missing or wrong: the problem says why
};

template <typename Options>
struct OptionSpec {
  std::string_view flag;
  std::string_view value_name;  // "" for a switch
  std::string_view help;
  bool takes_value = false;
  // Reads the word after the flag (null: none follows) into `options`: ok when taken,
  // else why not (`options` unchanged).
  Status (*read)(Options& options, std::string_view flag, const std::string* word) = nullptr;
  std::string (*default_text)() = nullptr;  // the default as help shows it; "" for none
};

// One .def line as an OptionSpec of `Options`, whose member `field` the kind fills.
#define SOLLENS_OPTION_SPEC(Options, flag, field, Kind, value_name, help)                                \
  OptionSpec<Options> {                                                                                    \
    flag, Kind::kTakesValue ? value_name : "", help, Kind::kTakesValue,                                    \
        [](Options& options, std::string_view f, const std::string* word) {                                \
          return Kind::read(f, word, options.field);                                                       \
        },                                                                                                 \
        [] { return Kind::text(Options{}.field); }                                                         \
  }

// Reads args[i] when it is one of `specs`' flags, moving i past its value. kRefused
// sets `problem` (its message without "sollens: ").
template <typename Options>
OptionRead read_option(std::span<const OptionSpec<Options>> specs, const std::vector<std::string>& args, size_t& i,
                       Options& options, Status& problem) {
  const auto spec = std::find_if(specs.begin(), specs.end(),
                                 [&](const OptionSpec<Options>& s) { return s.flag == args[i]; });
  if (spec == specs.end()) return OptionRead::kNotMine;
  const std::string* word = spec->takes_value && i + 1 < args.size() ? &args[i + 1] : nullptr;
  problem = spec->read(options, spec->flag, word);
  if (!problem.ok()) return OptionRead::kRefused;
  if (spec->takes_value) ++i;
  return OptionRead::kTaken;
}

// "  --flag VALUE\n      help (default: X)\n", the help wrapped to 80 columns.
std::string option_usage(std::string_view flag, std::string_view value_name, std::string_view help,
                         std::string_view default_text);

template <typename Options>
std::string options_usage(std::span<const OptionSpec<Options>> specs) {
  std::string out;
  for (const OptionSpec<Options>& spec : specs)
    out += option_usage(spec.flag, spec.value_name, spec.help, spec.default_text());
  return out;
}

// The name the page gives an option: its flag in camelCase ("--include-unlinked":
// "includeUnlinked").
std::string option_page_name(std::string_view flag);

}  // namespace sollens
