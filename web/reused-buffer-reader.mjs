// A file (Blob) read into one buffer, filled again for each piece: a BYOB reader of
// blob.stream(). Each piece must be used (copied into wasm memory) before the next is
// read. A reader that hands each piece in a new array (the default one, a slice's
// arrayBuffer(), the file-reading worker's batches) takes memory never touched before
// for the whole file, which in this project's VM costs about 0.6 s of CPU a GB: reading
// so took 1.3 to 2.3 s of CPU off the page's 1 GB load (web/README.md).
const READ_BUFFER_BYTES = 1 << 20;
// Chromium's BYOB reads of a file now and then never settle (about 1 load in 30 to 60
// under load in this project's tests, often the first read after a stream of the same
// file was cancelled). A read that gives nothing for this long is given up: the caller
// reads the file again another way.
export const STALL_MS = 5000;

export class StalledRead extends Error {
  constructor(ms) {
    super(`the browser gave no bytes of the file for ${ms / 1000} s`);
    this.name = 'StalledRead';
  }
}

// {read(), cancel()} as a stream's default reader, whose read() rejects with StalledRead
// (the stream then cancelled) after STALL_MS without an answer; null where the browser's
// file streams have no BYOB reader (they are byte streams in Chromium, Firefox and
// Safari of 2024 on). `stallMs`: for tests.
export function reusedBufferReader(blob, stallMs = STALL_MS) {
  let reader;
  try {
    reader = blob.stream().getReader({ mode: 'byob' });
  } catch {
    return null;
  }
  let buffer = new ArrayBuffer(READ_BUFFER_BYTES);
  return {
    async read() {
      let timer;
      const stalled = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new StalledRead(stallMs)), stallMs);
      });
      try {
        const result = await Promise.race([reader.read(new Uint8Array(buffer)), stalled]);
        if (result.value) buffer = result.value.buffer;  // handed back, to be filled again
        return result;
      } catch (e) {
        if (e instanceof StalledRead) reader.cancel(e).catch(() => {});
        throw e;
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  };
}
