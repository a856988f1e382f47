// web/wasm-features.mjs under node: the SIMD probe is a valid module that uses SIMD,
// and a browser that rejects it is told why before the core's module is compiled.
//   node tests/web/wasm_features_test.mjs
import path from 'node:path';
import { checks, repo } from './support/harness.mjs';

const { SIMD_PROBE, NO_SIMD_MESSAGE, requireWasmSimd } = await import(path.join(repo, 'web/wasm-features.mjs'));
const { check, finish } = checks('wasm_features');

check(WebAssembly.validate(SIMD_PROBE), 'node (V8 with SIMD) validates the probe');
// The same module with its result type i32 (0x7f) instead of v128: the body's v128
// then mismatches, so a validator that checks types rejects it: the probe's v128 is
// what is validated.
const mistyped = SIMD_PROBE.slice();
mistyped[14] = 0x7f;
check(!WebAssembly.validate(mistyped), 'the probe with an i32 result is rejected (its body makes a v128)');
let thrown = null;
try { requireWasmSimd(() => false); } catch (e) { thrown = e; }
check(thrown?.message === NO_SIMD_MESSAGE, 'a browser without SIMD gets the message that says so');
let passed = true;
try { requireWasmSimd(); } catch { passed = false; }
check(passed, 'node passes the check');
finish();
