#include "cli/read_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace sollens::cli {

bool read_file(const std::string& path, PaddedBuffer& out, std::string& error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = path + " is a directory, not a trace file";
    return false;
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    std::fclose(f);
    error = "cannot read the size of " + path + ": " + ec.message();
    return false;
  }
  out = PaddedBuffer(static_cast<size_t>(size));
  const size_t got = size ? std::fread(out.data(), 1, out.size(), f) : 0;
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (failed || got != out.size()) {
    error = "could not read all of " + path;
    return false;
  }
  return true;
}

}  // namespace sollens::cli
