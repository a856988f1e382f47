#include "ingest/file_magic.h"

#include <array>

namespace sollens {

namespace {

struct Magic {
  std::string_view bytes;
  std::string_view kind;
};

// Kinds people open by mistake (a screenshot, a report, an archive of traces).
constexpr std::array<Magic, 6> kMagics{{
    {"\x89PNG", "a PNG image"},
    {"\xFF\xD8\xFF", "a JPEG image"},
    {"GIF8", "a GIF image"},
    {"%PDF", "a PDF document"},
    {"PK", "a zip archive"},
    {"\x1F\x8B", "gzip data (compressed twice?)"},
}};

std::string hex_byte(unsigned char c) {
  const char* hex = "0123456789abcdef";
  return std::string("0x") + hex[c >> 4] + hex[c & 15];
}

// "at byte N" only where blanks came first (at 0 it says nothing).
std::string where(size_t p) { return p ? " at byte " + std::to_string(p) : ""; }

}  // namespace

std::string not_json_reason(std::string_view text, size_t p, bool inflated) {
  const std::string_view head = text.substr(p);
  const std::string what = inflated ? "the gzip file holds " : "this is ";
  for (const Magic& m : kMagics)
    if (head.starts_with(m.bytes)) return what + std::string(m.kind);
  const auto c = static_cast<unsigned char>(text[p]);
  const std::string holder = inflated ? "the gzip file's content" : "the file";
  if (c < 0x20 || c >= 0x80)
    return holder + " is binary data, not text (it starts with byte " + hex_byte(c) + where(p) + ")";
  return holder + " starts with '" + std::string(1, static_cast<char>(c)) + "'" + where(p) +
         " where JSON starts with '{'";
}

}  // namespace sollens
