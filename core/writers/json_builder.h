#pragma once
// JSON text written in scopes: objects, arrays, keys and values, with the commas and
// spacing placed by the builder, strings escaped once (json_string) and numbers in
// Python's repr digits (format_python_float), so every writer spells JSON alike.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace sollens {

class JsonBuilder {
 public:
  // {"a": 1, "b": [1, 2]} (files, as Python's json.dumps) | {"a":1,"b":[1,2]} (the page)
  enum class Spacing { kSpaced, kCompact };

  explicit JsonBuilder(Spacing spacing = Spacing::kSpaced);

  JsonBuilder& begin_object();
  JsonBuilder& end_object();
  JsonBuilder& begin_array();
  JsonBuilder& end_array();

  JsonBuilder& key(std::string_view name);     // inside an object, before each value
  JsonBuilder& string(std::string_view text);  // escaped once (json_string)
  JsonBuilder& number(double v);               // Python repr digits; NaN and infinities as null
  JsonBuilder& integer(int64_t v);
  JsonBuilder& unsigned_integer(uint64_t v);
  JsonBuilder& boolean(bool v);
  JsonBuilder& null();
  JsonBuilder& raw(std::string_view json);  // a value another writer wrote (a table's rows)

  // Key and value in one call.
  JsonBuilder& member(std::string_view key, std::string_view text);
  // A literal would otherwise convert to bool before string_view.
  JsonBuilder& member(std::string_view key, const char* text);
  JsonBuilder& member(std::string_view key, const std::string& text);
  JsonBuilder& member(std::string_view key, double v);
  JsonBuilder& member(std::string_view key, int64_t v);
  JsonBuilder& member(std::string_view key, uint64_t v);
  JsonBuilder& member(std::string_view key, bool v);
  // Any other integer type (int, unsigned, ...) as an integer, not as a double or bool.
  template <typename T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  JsonBuilder& member(std::string_view key, T v) {
    if constexpr (std::is_signed_v<T>) return member(key, static_cast<int64_t>(v));
    else return member(key, static_cast<uint64_t>(v));
  }
  JsonBuilder& member_null(std::string_view key);
  JsonBuilder& member_raw(std::string_view key, std::string_view json);

  std::string take();  // the text; every scope must be closed

 private:
  void before_value();
  JsonBuilder& open(char bracket);
  JsonBuilder& close(char bracket);

  struct Scope {
    bool empty = true;
  };
  Spacing spacing_;
  std::string out_;
  std::vector<Scope> scopes_;
  bool after_key_ = false;
};

}  // namespace sollens
