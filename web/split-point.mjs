// Where a large plain-JSON trace is cut in two for its parallel read (worker.mjs and
// part-worker.mjs): a ',' between two events of traceEvents, near the middle of the file.
// Found in a window of bytes read around the middle, without parsing: a '}' then a ','
// then a '{', with only whitespace between. In a trace written with newlines (Kineto's
// own layout) the candidate must hold a newline, which no JSON string can hold raw, so
// it cannot be inside a name. In a one-line trace any such candidate is taken. Either
// way the core checks it (core/ingest/trace_stream.h, StreamSplit): a candidate inside
// a nested value fails both parts' reads, and the file is then read in one pass.

const CLOSE_BRACE = 0x7d;
const OPEN_BRACE = 0x7b;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const isSpace = (b) => b === 0x20 || b === NEWLINE || b === 0x0d || b === 0x09;

// `bytes`: a Uint8Array of the file from byte `offset`. Returns the file offset of the
// first candidate ',' at or after `target`, or -1 when there is none in `bytes`.
export function findEventSplit(bytes, offset, target) {
  const newlines = bytes.indexOf(NEWLINE) >= 0;
  for (let i = Math.max(0, target - offset); i < bytes.length; i++) {
    if (bytes[i] !== CLOSE_BRACE) continue;
    let j = i + 1;
    let newline = false;
    for (; j < bytes.length && isSpace(bytes[j]); j++) if (bytes[j] === NEWLINE) newline = true;
    if (j >= bytes.length || bytes[j] !== COMMA) continue;
    const comma = j++;
    for (; j < bytes.length && isSpace(bytes[j]); j++) if (bytes[j] === NEWLINE) newline = true;
    if (j >= bytes.length || bytes[j] !== OPEN_BRACE) continue;
    if (newlines && !newline) continue;
    return offset + comma;
  }
  return -1;
}
