#include "cli/output_files.h"

#include <fstream>
#include <iostream>
#include <system_error>

namespace sollens::cli {

bool make_output_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!ec) return true;
  std::cerr << "sollens: cannot create " << dir << ": " << ec.message() << "\n";
  return false;
}

bool write_text_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (out) return true;
  std::cerr << "sollens: cannot write " << path.string() << "\n";
  return false;
}

}  // namespace sollens::cli
