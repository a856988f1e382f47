#pragma once
// In-place repairs that let a parse go on where real traces break the JSON rules
// (pytorch/pytorch#130622: raw control characters; HTA PR #324: invalid UTF-8).
// Both keep the length, so byte offsets stay true. Each returns the bytes changed.
#include <cstddef>

namespace sollens {

size_t repair_invalid_utf8(char* data, size_t size);        // invalid sequences → '?'
size_t repair_control_characters(char* data, size_t size);  // bytes < 0x20 → ' '

}  // namespace sollens
