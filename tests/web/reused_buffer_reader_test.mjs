// web/reused-buffer-reader.mjs under node (whose Blob streams have BYOB readers, as
// Chromium's): a file read in pieces into one buffer filled again and again, every
// byte in order, and null where a blob's stream has no BYOB reader.
//   node tests/web/reused_buffer_reader_test.mjs
import path from 'node:path';
import { checks, repo } from './support/harness.mjs';

const { StalledRead, reusedBufferReader } = await import(path.join(repo, 'web/reused-buffer-reader.mjs'));
const { check, finish } = checks('reused buffer reader');

// 3.5 MiB of a pattern that no piece boundary can hide: byte i is (7i + floor(i / 4096)) mod 256.
const size = 3.5 * 2 ** 20;
const content = new Uint8Array(size).map((_, i) => (i * 7 + (i >> 12)) & 255);
const reader = reusedBufferReader(new Blob([content.subarray(0, 2 ** 20), content.subarray(2 ** 20)]));
check(reader !== null, 'node\'s Blob streams have a BYOB reader');
const seen = new Uint8Array(size);
let at = 0;
let pieces = 0;
let bufferBytes = new Set();
for (;;) {
  const { done, value } = await reader.read();
  if (done) break;
  seen.set(value, at);
  at += value.byteLength;
  pieces += 1;
  bufferBytes.add(value.buffer.byteLength);
}
check(at === size, `every byte read: ${at} of ${size}`);
check(seen.every((b, i) => b === content[i]), 'the bytes in the file\'s order');
check(pieces >= 4, `in pieces of at most 1 MiB: ${pieces}`);
check(bufferBytes.size === 1 && bufferBytes.has(2 ** 20), 'each piece a view of the one 1 MiB buffer, handed back and filled again');

// A blob whose stream has only a default reader (an older browser's): null, so the
// caller reads it as before.
const plain = { stream: () => new ReadableStream({ pull(c) { c.close(); } }) };
check(reusedBufferReader(plain) === null, 'no BYOB reader: null');

const cancelled = reusedBufferReader(new Blob([content]));
await cancelled.read();
await cancelled.cancel();
check((await cancelled.read()).done === true, 'a cancelled read ends');
// A read that never settles (as Chromium's now and then): given up after the stall
// time with StalledRead, and the stream cancelled, so that the page reads the file
// another way instead of waiting for ever.
let cancelledWith = null;
const stuck = { stream: () => ({ getReader: () => ({ read: () => new Promise(() => {}), cancel: async (why) => { cancelledWith = why; } }) }) };
const t0 = performance.now();
const stuckReader = reusedBufferReader(stuck, 50);
const outcome = await stuckReader.read().then(() => 'settled', (e) => e);
check(outcome instanceof StalledRead, `a read with no answer rejects with StalledRead (${outcome?.message ?? outcome})`);
check(performance.now() - t0 >= 45 && performance.now() - t0 < 2000, 'after the stall time given (50 ms here)');
check(cancelledWith instanceof StalledRead, 'and the stalled stream is cancelled');
finish();
