#pragma once
// Writing a command's outputs: the folder and whole text files, with the message a user
// sees when either fails (the caller then exits with 3).
#include <filesystem>
#include <string>
#include <string_view>

namespace sollens::cli {

// Creates `dir` (and its parents); false after printing why it could not be.
bool make_output_dir(const std::string& dir);
// Writes `text` as the whole file; false after printing that it could not be written.
bool write_text_file(const std::filesystem::path& path, std::string_view text);

}  // namespace sollens::cli
