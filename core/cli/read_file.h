#pragma once
// The CLI's only file input: a whole file into a padded buffer.
#include <cstdint>
#include <string>

#include "api/trace_bytes.h"
#include "base/status.h"

namespace sollens::cli {

// ok, or file_unreadable saying why (missing, a directory, unreadable). `prefault`: read every
// page of a mapped file up front (fastest); else pages are read as the parser reaches
// them, so that those it is done with can be dropped (release_pages). `mapped`, when
// given, says whether `out` is a mapping of the file (else a copy: a pipe, say).
Status read_file(const std::string& path, PaddedBuffer& out, bool prefault = true, bool* mapped = nullptr);

// Drops the memory pages wholly inside [begin, end) of a file's mapping, which will not
// be read again (read again, they come from the file). Returns where it stopped: the
// start of the page that holds `end`.
const char* release_pages(const char* begin, const char* end);

}  // namespace sollens::cli
