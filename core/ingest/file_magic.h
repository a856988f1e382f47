#pragma once
// What a file that is not JSON is, in words a user recognizes: the common kinds by
// their first bytes (a PNG or JPEG image, a PDF, a zip archive, gzip inside gzip),
// else the first character or, for binary data, its byte value. Both readers (Kineto
// traces and Execution Traces) say it the same way.
#include <cstddef>
#include <string>
#include <string_view>

namespace sollens {

// The words after "not JSON: " for a text whose first non-blank byte, at p, is not
// '{' or '['. inflated: the text came out of a gzip file (then that is said too).
std::string not_json_reason(std::string_view text, size_t p, bool inflated);

}  // namespace sollens
