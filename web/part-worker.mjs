// The second part of a large trace read in two parts at once (started by worker.mjs,
// one per load): its own instance of the core, made from the module the loading worker
// compiled (posted to it: no second download or compile, and the code the browser has
// optimized is shared), reads the file from the split on, in slices, and answers its
// rows encoded for the first part's store (core/ingest/stream_part.h). It ends when it
// has answered, and the loading worker then stops it, which frees its memory. Messages:
// ToPart and FromPart in messages.mjs.
import { failed, instantiate } from './core-module.mjs';
import { FromPart, ToPart, messageRouter } from './messages.mjs';

const SLICE_BYTES = 8 << 20;
const PROGRESS_INTERVAL_MS = 50;

const route = messageRouter(ToPart, {
  [ToPart.READ]: (msg) => read(msg).catch((e) =>
    self.postMessage({ type: FromPart.FAILED, code: '', message: String(e?.message ?? e) })),
});
self.onmessage = (event) => route(event.data);

async function read({ module, blob, split, fileBytes }) {
  const sollens = await instantiate(module);  // a failure is answered by the router's catch
  const session = new sollens.Session();
  try {
    const begun = session.beginStreamPart(fileBytes, split, true);
    if (failed(begun)) return self.postMessage({ type: FromPart.FAILED, ...begun });
    let lastPost = 0;
    // Each slice is read while the one before it is parsed. Slices, not a BYOB reader
    // (reused-buffer-reader.mjs): with the loading worker reading the first part at the
    // same time, Chromium's BYOB reads stalled for good.
    const slice = (offset) => blob.slice(offset, Math.min(offset + SLICE_BYTES, blob.size)).arrayBuffer();
    let next = slice(split);
    for (let offset = split; offset < blob.size;) {
      const chunk = new Uint8Array(await next);
      offset += chunk.byteLength;
      if (offset < blob.size) next = slice(offset);
      const address = session.streamPrepare(chunk.byteLength);
      if (address) sollens.HEAPU8.set(chunk, address);
      if (!address || !session.streamCommit(chunk.byteLength)) break;
      const now = performance.now();
      if (now - lastPost >= PROGRESS_INTERVAL_MS) {
        lastPost = now;
        self.postMessage({ type: FromPart.PROGRESS, read: offset - split, events: session.streamEvents() });
      }
    }
    const finished = session.finishSecondPart();
    if (failed(finished)) return self.postMessage({ type: FromPart.FAILED, ...finished });
    const bytes = session.partBytes().slice();  // a view of wasm memory: copied before anything else runs
    self.postMessage({ type: FromPart.PART, bytes, read: blob.size - split }, [bytes.buffer]);
  } finally {
    session.delete();
  }
}
