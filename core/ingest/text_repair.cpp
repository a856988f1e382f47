#include "ingest/text_repair.h"

#include <cstdint>

namespace sollens {

size_t repair_invalid_utf8(char* data, size_t size) {
  auto* s = reinterpret_cast<unsigned char*>(data);
  size_t changed = 0;
  size_t i = 0;
  while (i < size) {
    unsigned char c = s[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len != 0 && i + len <= size;
    uint32_t cp = 0;
    if (ok && len > 1) {
      cp = c & (0x7F >> len);
      for (size_t k = 1; k < len && ok; ++k) {
        ok = (s[i + k] & 0xC0) == 0x80;
        cp = (cp << 6) | (s[i + k] & 0x3F);
      }
      // Overlong forms, surrogates and values past U+10FFFF are invalid too.
      static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
      ok = ok && cp >= kMin[len] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    }
    if (ok) {
      i += len;
    } else {
      s[i++] = '?';
      ++changed;
    }
  }
  return changed;
}

size_t repair_control_characters(char* data, size_t size) {
  // Outside strings \t \n \r are whitespace and stay; inside a string every raw
  // control character is invalid JSON and becomes a space. Windows start between
  // events, so string state can be tracked from the first byte.
  size_t changed = 0;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    const unsigned char c = static_cast<unsigned char>(data[i]);
    if (in_string && c == '\\') {
      ++i;  // the escaped character cannot end the string
      continue;
    }
    if (c == '"') in_string = !in_string;
    if (c < 0x20 && (in_string || !(c == '\t' || c == '\n' || c == '\r'))) {
      data[i] = ' ';
      ++changed;
    }
  }
  return changed;
}

}  // namespace sollens
