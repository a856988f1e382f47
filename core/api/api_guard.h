#pragma once
// The API's edge: the core returns errors as values, and the only exceptions left are
// the standard library's (an allocation that fails). Each Session / PageSession entry
// point that allocates runs its work through guarded(), which turns such an exception
// into the Status a caller reads, so that none crosses into a front end (the wasm build
// would abort on it).
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "base/status.h"

namespace sollens {

// The exception being handled as a Status: out_of_memory for std::bad_alloc and
// std::length_error (a container asked to grow past what it can hold), else
// internal_error. `doing` names the work, e.g. "building the report".
inline Status status_of_exception(std::string_view doing) {
  const std::string during = doing.empty() ? std::string() : " while " + std::string(doing);
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return Status(Code::out_of_memory, "out of memory" + during);
  } catch (const std::length_error&) {
    return Status(Code::out_of_memory, "out of memory" + during + " (a table or buffer past its largest size)");
  } catch (const std::exception& e) {
    return Status(Code::internal_error, "unexpected failure" + during + ": " + e.what());
  } catch (...) {
    return Status(Code::internal_error, "unexpected failure" + during);
  }
}

// body() (returning a Status or a Result<T>), or the Status of the exception it threw.
template <class Body>
auto guarded(std::string_view doing, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (...) {
    return status_of_exception(doing);
  }
}

}  // namespace sollens
