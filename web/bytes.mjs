// Byte arrays read in pieces, joined into one.
export function joinBytes(chunks, total = chunks.reduce((n, c) => n + c.byteLength, 0)) {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
