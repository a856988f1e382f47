// A file (Blob) read into one buffer, filled again for each piece: a BYOB reader of
// blob.stream(). Each piece must be used (copied into wasm memory) before the next is
// read. A reader that hands each piece in a new array (the default one, a slice's
// arrayBuffer(), the file-reading worker's batches) takes memory never touched before
// for the whole file, which in this project's VM costs about 0.6 s of CPU a GB: reading
// so took 1.3 to 2.3 s of CPU off the page's 1 GB load (web/README.md).
const READ_BUFFER_BYTES = 1 << 20;

// {read(), cancel()} as a stream's default reader; null where the browser's file streams
// have no BYOB reader (they are byte streams in Chromium, Firefox and Safari of 2024 on).
export function reusedBufferReader(blob) {
  let reader;
  try {
    reader = blob.stream().getReader({ mode: 'byob' });
  } catch {
    return null;
  }
  let buffer = new ArrayBuffer(READ_BUFFER_BYTES);
  return {
    async read() {
      const result = await reader.read(new Uint8Array(buffer));
      if (result.value) buffer = result.value.buffer;  // handed back, to be filled again
      return result;
    },
    cancel: (reason) => reader.cancel(reason),
  };
}
