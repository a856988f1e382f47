#include "base/python_repr.h"

#include <cstdio>

namespace sollens {

namespace {

// Decodes one UTF-8 code point at s[i]; returns its length (1 for invalid bytes).
size_t decode_utf8(std::string_view s, size_t i, uint32_t& cp) {
  const auto b = static_cast<unsigned char>(s[i]);
  auto cont = [&](size_t k) {
    return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
  };
  if (b < 0x80) { cp = b; return 1; }
  if ((b & 0xE0) == 0xC0 && cont(1)) {
    cp = (b & 0x1Fu) << 6 | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
    return 2;
  }
  if ((b & 0xF0) == 0xE0 && cont(1) && cont(2)) {
    cp = (b & 0x0Fu) << 12 | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6 |
         (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
    return 3;
  }
  if ((b & 0xF8) == 0xF0 && cont(1) && cont(2) && cont(3)) {
    cp = (b & 0x07u) << 18 | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 12 |
         (static_cast<unsigned char>(s[i + 2]) & 0x3Fu) << 6 |
         (static_cast<unsigned char>(s[i + 3]) & 0x3Fu);
    return 4;
  }
  cp = 0xFFFFFFFFu;  // invalid byte
  return 1;
}

// Code points CPython's str.isprintable() rejects that can plausibly occur in kernel
// and op names: C0/C1 controls, DEL, NBSP, soft hyphen, line/paragraph separators.
bool printable(uint32_t cp) {
  if (cp < 0x20 || cp == 0x7F) return false;
  if (cp >= 0x80 && cp <= 0xA0) return false;
  if (cp == 0xAD || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF) return false;
  if (cp >= 0x200B && cp <= 0x200F) return false;
  return true;
}

}  // namespace

void append_python_str_repr(std::string& out, std::string_view s) {
  const bool has_single = s.find('\'') != std::string_view::npos;
  const bool has_double = s.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  out += quote;
  // Most names are printable ASCII with nothing to escape: copy them whole.
  bool plain = true;
  for (char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b > 0x7E || c == '\\' || c == quote) {
      plain = false;
      break;
    }
  }
  if (plain) {
    out.append(s);
    out += quote;
    return;
  }
  for (size_t i = 0; i < s.size();) {
    uint32_t cp;
    const size_t n = decode_utf8(s, i, cp);
    const char c = s[i];
    char buf[16];
    if (cp == 0xFFFFFFFFu) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    } else if (c == '\\' || c == quote) {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (!printable(cp)) {
      if (cp < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", cp);
      else if (cp < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      else std::snprintf(buf, sizeof buf, "\\U%08x", cp);
      out += buf;
    } else {
      out.append(s.data() + i, n);
    }
    i += n;
  }
  out += quote;
}

std::string python_str_repr(std::string_view s) {
  std::string out;
  append_python_str_repr(out, s);
  return out;
}

PythonReprBuilder::PythonReprBuilder(Kind kind) : kind_(kind) {
  out_ = kind == Kind::kTuple ? "(" : kind == Kind::kList ? "[" : "{";
}

std::string& PythonReprBuilder::element() {
  if (count_++) out_ += ", ";
  return out_;
}

std::string& PythonReprBuilder::key() { return element(); }

std::string& PythonReprBuilder::value() {
  out_ += ": ";
  return out_;
}

std::string& PythonReprBuilder::str_key(std::string_view name) {
  append_python_str_repr(key(), name);
  return value();
}

std::string PythonReprBuilder::finish() {
  if (kind_ == Kind::kTuple && count_ == 1) out_ += ',';
  out_ += kind_ == Kind::kTuple ? ")" : kind_ == Kind::kList ? "]" : "}";
  return std::move(out_);
}

}  // namespace sollens
