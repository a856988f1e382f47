#pragma once
// Errors as values: a Code from the diagnostics catalogue (base/diagnostics.def) with the
// instance's words, and Result<T>, a value or the Status that says why there is none
// (in the manner of simdjson's error_code and simdjson_result). Nothing here throws.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace sollens {

enum class Severity : uint8_t { Error, Warning, Note };

// Every diagnostic's stable code; the enumerators are the catalogue's ids, so that the
// code a user looks up is the name the source uses.
enum class Code : uint16_t {
  ok = 0,
#define SOLLENS_DIAGNOSTIC(id, severity, meaning, action) id,
#include "base/diagnostics.def"
#undef SOLLENS_DIAGNOSTIC
};

// One diagnostic as emitted: its code and this instance's specifics in plain words.
struct Diagnostic {
  Code code = Code::ok;
  std::string message;
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status success() { return {}; }
  bool ok() const { return code_ == Code::ok; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  Diagnostic diagnostic() const { return {code_, message_}; }

 private:
  Code code_ = Code::ok;
  std::string message_;
};

// A T, or the Status that says why there is none. value() on an error is a bug in the
// caller: it stops the program rather than return something made up.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}
  Result(Status error) : status_(std::move(error)) { require(!status_.ok(), "Result from an ok Status"); }
  Result(Code code, std::string message) : Result(Status(code, std::move(message))) {}

  bool ok() const { return value_.has_value(); }
  Code code() const { return status_.code(); }
  const Status& status() const { return status_; }
  const std::string& message() const { return status_.message(); }

  T& value() & { return checked(); }
  const T& value() const& { return const_cast<Result*>(this)->checked(); }
  T&& value() && { return std::move(checked()); }
  T* operator->() { return &checked(); }
  const T* operator->() const { return &const_cast<Result*>(this)->checked(); }
  T& operator*() & { return checked(); }
  const T& operator*() const& { return const_cast<Result*>(this)->checked(); }

 private:
  static void require(bool condition, const char* what) {
    if (condition) return;
    std::fputs("sollens: ", stderr);
    std::fputs(what, stderr);
    std::fputs("\n", stderr);
    std::abort();
  }
  T& checked() {
    require(value_.has_value(), "value() of a Result that holds an error");
    return *value_;
  }

  std::optional<T> value_;
  Status status_;
};

}  // namespace sollens
