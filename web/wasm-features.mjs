// What the core's module needs of the browser beyond WebAssembly itself: 128-bit SIMD,
// which its JSON scan uses (Chrome and Edge 91, Firefox 89 and Safari 16.4 on run it).
// Checked before the module is compiled, so that a browser without it is told so rather
// than shown a CompileError.

// The smallest module that uses SIMD: one function, () -> v128, whose body is
// i32.const 0, i8x16.splat.
export const SIMD_PROBE = Uint8Array.of(
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,  // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,        // types: [] -> [v128]
  0x03, 0x02, 0x01, 0x00,                          // functions: one of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b);  // code

export const NO_SIMD_MESSAGE = 'this browser does not run WebAssembly SIMD, which sollens needs '
  + '(Chrome and Edge 91, Firefox 89, Safari 16.4 and later run it); open the page in a newer browser';

// Throws, with NO_SIMD_MESSAGE, where `validate` (WebAssembly.validate) rejects the probe.
export function requireWasmSimd(validate = (bytes) => WebAssembly.validate(bytes)) {
  if (!validate(SIMD_PROBE)) throw new Error(NO_SIMD_MESSAGE);
}
