#pragma once
// Python repr() of the values TraceLens writes into CSV cells: str (quote choice and
// escapes as CPython does them), int, float, None, True/False, and the tuple / list /
// dict containers built from them. Numbers inside containers use the same float repr
// as the CSV writer (format_python_float).
#include <cstdint>
#include <string>
#include <string_view>

namespace sollens {

// repr(s) for a UTF-8 string: 'abc', "it's", 'a\\nb', non-printables as \xNN.
std::string python_str_repr(std::string_view s);
void append_python_str_repr(std::string& out, std::string_view s);

// Builds a container repr element by element: "(", "[", "{" with the right
// separators, the trailing comma of 1-tuples and "()" for an empty tuple.
class PythonReprBuilder {
 public:
  enum class Kind : uint8_t { kTuple, kList, kDict };
  explicit PythonReprBuilder(Kind kind);
  // Next element (tuple/list) or next key (dict: call key() then a value).
  std::string& element();
  std::string& key();    // dict key slot: write the key repr into the returned string
  std::string& value();  // dict value slot after key()
  // A dict entry with a str key: writes repr(name) and returns the value slot.
  std::string& str_key(std::string_view name);
  std::string finish();

 private:
  Kind kind_;
  size_t count_ = 0;
  std::string out_;
};

}  // namespace sollens
