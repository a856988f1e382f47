#pragma once
// The CLI's only file input: a whole file into a padded buffer.
#include <string>

#include "store/padded_buffer.h"

namespace sollens::cli {

// On failure returns false and sets `error` to plain words.
bool read_file(const std::string& path, PaddedBuffer& out, std::string& error);

}  // namespace sollens::cli
