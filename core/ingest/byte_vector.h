#pragma once
// Sixteen bytes compared at once: WebAssembly's 128-bit SIMD where the build has it
// (-msimd128), plain loops elsewhere (the native builds, which run it only in tests
// and fuzzing: natively simdjson scans with its own AVX2 kernel).
#include <cstdint>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#else
#include <cstring>
#endif

namespace sollens::bytes16 {

#if defined(__wasm_simd128__)

struct Vec {
  v128_t v;
};

inline Vec load(const uint8_t* p) { return {wasm_v128_load(p)}; }
inline Vec splat(uint8_t c) { return {wasm_i8x16_splat(static_cast<int8_t>(c))}; }
inline Vec equal(Vec a, Vec b) { return {wasm_i8x16_eq(a.v, b.v)}; }
inline Vec below(Vec a, Vec b) { return {wasm_u8x16_lt(a.v, b.v)}; }  // unsigned
inline Vec operator|(Vec a, Vec b) { return {wasm_v128_or(a.v, b.v)}; }
inline Vec operator&(Vec a, Vec b) { return {wasm_v128_and(a.v, b.v)}; }
// table[index[i]] for each byte; every index below 16.
inline Vec lookup(Vec table, Vec index) { return {wasm_i8x16_swizzle(table.v, index.v)}; }
inline bool any(Vec a) { return wasm_v128_any_true(a.v); }
// One bit per byte, from each byte's high bit (lane 0 is bit 0).
inline uint16_t high_bits(Vec a) { return static_cast<uint16_t>(wasm_i8x16_bitmask(a.v)); }

#else

struct Vec {
  uint8_t b[16];
};

inline Vec load(const uint8_t* p) {
  Vec r;
  std::memcpy(r.b, p, 16);
  return r;
}
inline Vec splat(uint8_t c) {
  Vec r;
  std::memset(r.b, c, 16);
  return r;
}
inline Vec equal(Vec a, Vec b) {
  Vec r;
  for (int i = 0; i < 16; ++i) r.b[i] = a.b[i] == b.b[i] ? 0xFF : 0;
  return r;
}
inline Vec below(Vec a, Vec b) {
  Vec r;
  for (int i = 0; i < 16; ++i) r.b[i] = a.b[i] < b.b[i] ? 0xFF : 0;
  return r;
}
inline Vec operator|(Vec a, Vec b) {
  Vec r;
  for (int i = 0; i < 16; ++i) r.b[i] = a.b[i] | b.b[i];
  return r;
}
inline Vec operator&(Vec a, Vec b) {
  Vec r;
  for (int i = 0; i < 16; ++i) r.b[i] = a.b[i] & b.b[i];
  return r;
}
inline Vec lookup(Vec table, Vec index) {
  Vec r;
  for (int i = 0; i < 16; ++i) r.b[i] = table.b[index.b[i] & 15];
  return r;
}
inline bool any(Vec a) {
  uint8_t m = 0;
  for (int i = 0; i < 16; ++i) m |= a.b[i];
  return m != 0;
}
inline uint16_t high_bits(Vec a) {
  uint16_t m = 0;
  for (int i = 0; i < 16; ++i) m |= static_cast<uint16_t>((a.b[i] >> 7) << i);
  return m;
}

#endif

}  // namespace sollens::bytes16
