#include "writers/json_builder.h"

#include <cassert>
#include <cmath>
#include <utility>

#include "base/json_text.h"
#include "base/number_format.h"

namespace sollens {

JsonBuilder::JsonBuilder(Spacing spacing) : spacing_(spacing) {}

// The separator before a value: none right after its key, a comma between elements.
void JsonBuilder::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (scopes_.empty()) return;
  if (!scopes_.back().empty) out_ += spacing_ == Spacing::kSpaced ? ", " : ",";
  scopes_.back().empty = false;
}

JsonBuilder& JsonBuilder::open(char bracket) {
  before_value();
  out_ += bracket;
  scopes_.push_back({});
  return *this;
}

JsonBuilder& JsonBuilder::close(char bracket) {
  assert(!scopes_.empty() && !after_key_);
  scopes_.pop_back();
  out_ += bracket;
  return *this;
}

JsonBuilder& JsonBuilder::begin_object() { return open('{'); }
JsonBuilder& JsonBuilder::end_object() { return close('}'); }
JsonBuilder& JsonBuilder::begin_array() { return open('['); }
JsonBuilder& JsonBuilder::end_array() { return close(']'); }

JsonBuilder& JsonBuilder::key(std::string_view name) {
  before_value();
  out_ += json_string(name);
  out_ += spacing_ == Spacing::kSpaced ? ": " : ":";
  after_key_ = true;
  return *this;
}

JsonBuilder& JsonBuilder::raw(std::string_view json) {
  before_value();
  out_ += json;
  return *this;
}

JsonBuilder& JsonBuilder::string(std::string_view text) { return raw(json_string(text)); }

JsonBuilder& JsonBuilder::number(double v) { return std::isfinite(v) ? raw(format_python_float(v)) : null(); }

JsonBuilder& JsonBuilder::integer(int64_t v) { return raw(std::to_string(v)); }
JsonBuilder& JsonBuilder::unsigned_integer(uint64_t v) { return raw(std::to_string(v)); }
JsonBuilder& JsonBuilder::boolean(bool v) { return raw(v ? "true" : "false"); }
JsonBuilder& JsonBuilder::null() { return raw("null"); }

JsonBuilder& JsonBuilder::member(std::string_view k, std::string_view text) { return key(k).string(text); }
JsonBuilder& JsonBuilder::member(std::string_view k, const char* text) { return key(k).string(text); }
JsonBuilder& JsonBuilder::member(std::string_view k, const std::string& text) { return key(k).string(text); }
JsonBuilder& JsonBuilder::member(std::string_view k, double v) { return key(k).number(v); }
JsonBuilder& JsonBuilder::member(std::string_view k, int64_t v) { return key(k).integer(v); }
JsonBuilder& JsonBuilder::member(std::string_view k, uint64_t v) { return key(k).unsigned_integer(v); }
JsonBuilder& JsonBuilder::member(std::string_view k, bool v) { return key(k).boolean(v); }
JsonBuilder& JsonBuilder::member_null(std::string_view k) { return key(k).null(); }
JsonBuilder& JsonBuilder::member_raw(std::string_view k, std::string_view json) { return key(k).raw(json); }

std::string JsonBuilder::take() {
  assert(scopes_.empty() && !after_key_);
  return std::exchange(out_, {});
}

}  // namespace sollens
