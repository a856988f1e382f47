#include "ingest/structural_scan.h"

#include <bit>
#include <cstring>

#include "ingest/byte_vector.h"

namespace sollens {
namespace {

constexpr size_t kBlock = 64;

// One 64-byte block, a bit per byte (bit i is byte i).
struct BlockBits {
  uint64_t quote = 0, backslash = 0, whitespace = 0, op = 0, control = 0;
  bool non_ascii = false;
};

uint64_t lane_bits(uint16_t bits, int lane) { return uint64_t(bits) << (16 * lane); }

// Tables indexed by a byte's low four bits. A byte is whitespace when it equals its
// entry, and an operator when it equals its entry with bit 0x20 set: '[' and ']' are
// '{' and '}' without that bit, so one entry finds each pair (and 0x0C and 0x1A join
// ',' and ':', see classify). The other entries can match no byte (a low four bits of
// their own, or no bit 0x20).
constexpr uint8_t kWhitespaceByNibble[16] = {' ', 0, 1, 1, 1, 1, 1, 1, 1, '\t', '\n', 1, 1, '\r', 1, 1};
constexpr uint8_t kOperatorByNibble[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0};

BlockBits classify(const uint8_t* p) {
  using namespace bytes16;
  const Vec whitespace_table = load(kWhitespaceByNibble), operator_table = load(kOperatorByNibble);
  const Vec low_nibble = splat(0x0F), bit5 = splat(0x20), quote = splat('"'), backslash = splat('\\');
  Vec v[4], control[4], backslashes[4], escapes = splat(0), controls = splat(0), high = splat(0);
  BlockBits b;
  for (int lane = 0; lane < 4; ++lane) {
    v[lane] = load(p + 16 * lane);
    const Vec nibble = v[lane] & low_nibble;
    control[lane] = below(v[lane], bit5);
    // The form feed 0x0C and 0x1A count as ',' and ':' so, as in simdjson's own kernels
    // (the text is not JSON either way, and the index stays theirs to the entry).
    const Vec op = equal(lookup(operator_table, nibble), v[lane] | bit5);
    const Vec ws = equal(lookup(whitespace_table, nibble), v[lane]);
    backslashes[lane] = equal(v[lane], backslash);
    b.quote |= lane_bits(high_bits(equal(v[lane], quote)), lane);
    b.op |= lane_bits(high_bits(op), lane);
    b.whitespace |= lane_bits(high_bits(ws), lane);
    escapes = escapes | backslashes[lane];
    controls = controls | control[lane];
    high = high | v[lane];
  }
  // Backslashes and bytes below 0x20 (a newline, mostly) are in few blocks.
  if (any(escapes))
    for (int lane = 0; lane < 4; ++lane) b.backslash |= lane_bits(high_bits(backslashes[lane]), lane);
  if (any(controls))
    for (int lane = 0; lane < 4; ++lane) b.control |= lane_bits(high_bits(control[lane]), lane);
  b.non_ascii = high_bits(high) != 0;
  return b;
}

// The bytes a backslash escapes. `carry`: the previous block's last byte escapes this
// block's first; set for the next block. Traces have few backslashes, so the loop
// runs once per escaping backslash, usually never.
uint64_t escaped_bits(uint64_t backslash, bool& carry) {
  uint64_t escaped = carry ? 1 : 0;
  carry = false;
  uint64_t escapers = backslash & ~escaped;
  while (escapers) {
    const int i = std::countr_zero(escapers);
    if (i == 63) {
      carry = true;
      break;
    }
    escaped |= uint64_t(2) << i;      // the byte after it
    escapers &= ~(uint64_t(3) << i);  // which is escaped, so escapes nothing
  }
  return escaped;
}

// Bit i becomes the XOR of bits 0..i: quote positions to inside-string runs.
uint64_t running_xor(uint64_t x) {
  for (int shift = 1; shift < 64; shift *= 2) x ^= x << shift;
  return x;
}

// UTF-8 validity (Unicode's table of well-formed byte sequences), fed only the blocks
// that are not plain ASCII.
class Utf8Check {
 public:
  void feed(const uint8_t* p, size_t n) {
    for (size_t i = 0; i < n && !bad_; ++i) next(p[i]);
  }
  bool pending() const { return need_ != 0; }
  bool valid() const { return !bad_ && need_ == 0; }

 private:
  void next(uint8_t c) {
    if (need_) {
      if (c < lo_ || c > hi_) {
        bad_ = true;
        return;
      }
      --need_;
      lo_ = 0x80;
      hi_ = 0xBF;
      return;
    }
    if (c < 0x80) return;
    if (c >= 0xC2 && c <= 0xDF) expect(1, 0x80, 0xBF);
    else if (c == 0xE0) expect(2, 0xA0, 0xBF);  // no overlong forms
    else if (c == 0xED) expect(2, 0x80, 0x9F);  // no surrogates
    else if (c >= 0xE1 && c <= 0xEF) expect(2, 0x80, 0xBF);
    else if (c == 0xF0) expect(3, 0x90, 0xBF);
    else if (c >= 0xF1 && c <= 0xF3) expect(3, 0x80, 0xBF);
    else if (c == 0xF4) expect(3, 0x80, 0x8F);  // nothing above U+10FFFF
    else bad_ = true;
  }
  void expect(uint8_t need, uint8_t lo, uint8_t hi) {
    need_ = need;
    lo_ = lo;
    hi_ = hi;
  }

  uint8_t need_ = 0, lo_ = 0x80, hi_ = 0xBF;
  bool bad_ = false;
};

class Scanner {
 public:
  explicit Scanner(uint32_t* out) : out_(out), next_(out) {}

  void block(const uint8_t* p, uint32_t base) {
    const BlockBits b = classify(p);
    const uint64_t quote = b.quote & ~escaped_bits(b.backslash, escape_carry_);
    const uint64_t in_string = running_xor(quote) ^ in_string_;
    in_string_ = 0 - (in_string >> 63);
    // A string's bytes after its opening quote, the closing quote included.
    const uint64_t string_tail = in_string ^ quote;
    const uint64_t scalar = ~(b.op | b.whitespace);
    // A token starts at a scalar byte that does not follow one; a closing quote does
    // not count, so '"a"true' still marks the 't' (and stage 2 rejects it).
    const uint64_t unquoted_scalar = scalar & ~quote;
    const uint64_t follows_scalar = (unquoted_scalar << 1) | after_scalar_;
    after_scalar_ = unquoted_scalar >> 63;
    control_in_string_ |= (b.control & string_tail) != 0;
    if (b.non_ascii || utf8_.pending()) utf8_.feed(p, kBlock);
    write(base, (b.op | (scalar & ~follows_scalar)) & ~string_tail);
  }

  StructuralScan finish(uint32_t len) {
    StructuralScan r;
    r.count = uint32_t(next_ - out_);
    next_[0] = len;
    next_[1] = len;
    next_[2] = 0;
    if (in_string_) r.error = simdjson::UNCLOSED_STRING;
    else if (control_in_string_) r.error = simdjson::UNESCAPED_CHARS;
    else if (r.count == 0) r.error = simdjson::EMPTY;
    else if (!utf8_.valid()) r.error = simdjson::UTF8_ERROR;
    return r;
  }

 private:
  // Eight offsets a step, without a branch per bit: the entries past the block's count
  // are scratch that the next block or finish() overwrites (structural_room has room).
  void write(uint32_t base, uint64_t bits) {
    const int count = std::popcount(bits);
    for (int i = 0; i < count; i += 8) {
      for (int j = 0; j < 8; ++j) {
        next_[i + j] = base + uint32_t(std::countr_zero(bits));
        bits &= bits - 1;
      }
    }
    next_ += count;
  }

  uint32_t* const out_;
  uint32_t* next_;
  uint64_t in_string_ = 0;    // all ones while the text so far ends inside a string
  uint64_t after_scalar_ = 0;  // 1 when it ends with an unquoted scalar byte
  bool escape_carry_ = false;
  bool control_in_string_ = false;
  Utf8Check utf8_;
};

}  // namespace

size_t structural_room(size_t len) { return (len + kBlock - 1) / kBlock * kBlock + 16; }

StructuralScan scan_structurals(const uint8_t* text, size_t len, uint32_t* out) {
  Scanner scanner(out);
  size_t at = 0;
  for (; at + kBlock <= len; at += kBlock) scanner.block(text + at, uint32_t(at));
  if (at < len) {
    // The last bytes, padded with spaces: the bytes past len are not the text's.
    uint8_t last[kBlock];
    std::memset(last, ' ', kBlock);
    std::memcpy(last, text + at, len - at);
    scanner.block(last, uint32_t(at));
  }
  return scanner.finish(uint32_t(len));
}

}  // namespace sollens
