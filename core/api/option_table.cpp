#include "api/option_table.h"

#include <cctype>
#include <sstream>

namespace sollens {

namespace {

constexpr size_t kHelpIndent = 6;
constexpr size_t kHelpWidth = 80;

// `text` broken into lines of at most kHelpWidth columns, each indented kHelpIndent.
std::string wrapped(const std::string& text) {
  const std::string indent(kHelpIndent, ' ');
  std::istringstream words(text);
  std::string out, line, word;
  while (words >> word) {
    if (!line.empty() && kHelpIndent + line.size() + 1 + word.size() > kHelpWidth) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

std::string option_usage(std::string_view flag, std::string_view value_name, std::string_view help,
                         std::string_view default_text) {
  std::string head = "  " + std::string(flag);
  if (!value_name.empty()) head += " " + std::string(value_name);
  std::string text(help);
  if (!default_text.empty()) text += " (default: " + std::string(default_text) + ")";
  return head + "\n" + wrapped(text);
}

std::string option_page_name(std::string_view flag) {
  std::string name;
  bool upper = false;
  for (const char c : flag.substr(flag.find_first_not_of('-'))) {
    if (c == '-') {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name;
}

}  // namespace sollens
