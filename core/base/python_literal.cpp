#include "base/python_literal.h"

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace sollens {

namespace {

struct LiteralParser {
  std::string_view t;
  size_t p = 0;
  void ws() {
    while (p < t.size() && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n')) ++p;
  }
  std::optional<PyValue> value() {
    ws();
    if (p >= t.size()) return std::nullopt;
    const char c = t[p];
    if (c == '[' || c == '(') {
      const char close = c == '[' ? ']' : ')';
      ++p;
      std::vector<PyValue> items;
      bool trailing_comma = false;
      ws();
      if (p < t.size() && t[p] == close) {
        ++p;
        return c == '[' ? PyValue::list({}) : PyValue::tuple({});
      }
      while (true) {
        auto v = value();
        if (!v) return std::nullopt;
        items.push_back(std::move(*v));
        ws();
        if (p >= t.size()) return std::nullopt;
        if (t[p] == ',') {
          ++p;
          ws();
          trailing_comma = true;
          if (p < t.size() && t[p] == close) {
            ++p;
            break;
          }
          continue;
        }
        if (t[p] == close) {
          ++p;
          trailing_comma = false;
          break;
        }
        return std::nullopt;
      }
      if (c == '(' && items.size() == 1 && !trailing_comma) return std::move(items[0]);
      return c == '[' ? PyValue::list(std::move(items)) : PyValue::tuple(std::move(items));
    }
    if (c == '\'' || c == '"') {
      const size_t end = t.find(c, p + 1);
      if (end == std::string_view::npos) return std::nullopt;
      PyValue v = PyValue::str(t.substr(p + 1, end - p - 1));
      p = end + 1;
      return v;
    }
    for (auto [word, val] : {std::pair{std::string_view("True"), PyValue::boolean(true)},
                             {std::string_view("False"), PyValue::boolean(false)},
                             {std::string_view("None"), PyValue::none()}}) {
      if (t.substr(p, word.size()) == word) {
        p += word.size();
        return val;
      }
    }
    const size_t start = p;
    if (p < t.size() && (t[p] == '-' || t[p] == '+')) ++p;
    bool is_float = false;
    while (p < t.size() && ((t[p] >= '0' && t[p] <= '9') || t[p] == '.' || t[p] == 'e' || t[p] == 'E' ||
                            ((t[p] == '-' || t[p] == '+') && (t[p - 1] == 'e' || t[p - 1] == 'E')))) {
      if (t[p] == '.' || t[p] == 'e' || t[p] == 'E') is_float = true;
      ++p;
    }
    const std::string num(t.substr(start, p - start));
    if (num.empty() || num == "-" || num == "+") return std::nullopt;
    char* end = nullptr;
    if (is_float) {
      const double d = std::strtod(num.c_str(), &end);
      if (end != num.c_str() + num.size()) return std::nullopt;
      return PyValue::real(d);
    }
    const long long i = std::strtoll(num.c_str(), &end, 10);
    if (end != num.c_str() + num.size()) return std::nullopt;
    return PyValue::integer(i);
  }
};

}  // namespace

std::optional<PyValue> literal_eval(std::string_view text) {
  LiteralParser parser{text};
  auto v = parser.value();
  parser.ws();
  if (!v || parser.p != text.size()) return std::nullopt;
  return v;
}

}  // namespace sollens
