#include "cli/output_files.h"

#include <fstream>
#include <system_error>

#include "cli/diagnostic_lines.h"

namespace sollens::cli {

bool make_output_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!ec) return true;
  print_error(Status(Code::output_unwritable, "cannot create " + dir + ": " + ec.message()));
  return false;
}

bool write_text_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (out) return true;
  print_error(Status(Code::output_unwritable, "cannot write " + path.string()));
  return false;
}

}  // namespace sollens::cli
