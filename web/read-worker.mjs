// Reads a trace file on a thread of its own (started by worker.mjs), decompressing a
// .json.gz on the way, so that the loading worker parses while this one reads and
// inflates, as the command line does on two cores. Its messages: ToReader and
// FromReader in messages.mjs.
// At most about IN_FLIGHT_BYTES are sent ahead of what the parser has consumed, so that
// a parser slower than the reading never holds the file's text in its queue.
//
// A .json.gz cut short (a file cut while it was written or copied) must give every byte
// that inflates before the cut, as zlib gives the command line. The browser's
// DecompressionStream errors at the end of such a file, and an errored stream throws
// away the output still queued in it: piped from the file and read only as fast as the
// parser takes it, that was megabytes (a 60 % cut of a 1.2 MB trace lost 6 MB of its
// 26 MB of text). So the compressed bytes are written in here, one piece at a time and
// only while the parser keeps up, and the inflated bytes are taken out as soon as they
// are made; the stream is closed (and may fail) only once all of them are out.
import { joinBytes } from './bytes.mjs';
import { FromReader, ToReader, messageRouter } from './messages.mjs';

const BATCH_BYTES = 1 << 20;
const IN_FLIGHT_BYTES = 16 << 20;

let inFlight = 0;
let wake = null;  // resolves when credit arrives

const route = messageRouter(ToReader, {
  [ToReader.READ]: (msg) => read(msg.blob, Boolean(msg.gzip)),
  [ToReader.CREDIT]: (msg) => {
    inFlight -= msg.bytes;
    wake?.();
  },
});
self.onmessage = (event) => route(event.data);

// Batches pieces of text and posts each batch of BATCH_BYTES to the loading worker, the
// pieces as they came (their buffers transferred): joining them into one array took
// a copy of the whole text into memory never touched before, about 0.6 s of CPU per GB
// in this project's VM, on the core the browser reads the file with.
function sender(progress) {
  let batch = [];
  let batched = 0;
  const flush = () => {
    if (batched === 0) return;
    const chunks = batch;
    batch = [];
    const bytes = batched;
    batched = 0;
    inFlight += bytes;
    try {
      self.postMessage({ type: FromReader.DATA, chunks, read: progress.bytesRead }, chunks.map((c) => c.buffer));
    } catch {
      // A piece whose buffer cannot be transferred: the batch as one copy instead.
      const joined = joinBytes(chunks, bytes);
      self.postMessage({ type: FromReader.DATA, chunks: [joined], read: progress.bytesRead }, [joined.buffer]);
    }
  };
  const add = (piece) => {
    // A piece that shares its buffer with others cannot be transferred alone.
    batch.push(piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength ? piece : piece.slice());
    batched += piece.byteLength;
    if (batched >= BATCH_BYTES) flush();
  };
  return { add, flush };
}

async function credit() {
  while (inFlight >= IN_FLIGHT_BYTES) await new Promise((resolve) => { wake = resolve; });
  wake = null;
}

async function read(blob, gzip) {
  inFlight = 0;
  const progress = { bytesRead: 0, fileEnded: false };
  const send = sender(progress);
  try {
    if (gzip) await inflateInto(blob, progress, send);
    else await copyInto(blob, progress, send);
    send.flush();
    self.postMessage({ type: FromReader.END, read: progress.bytesRead });
  } catch (e) {
    send.flush();  // what was decompressed before the failure
    self.postMessage({ type: FromReader.ERROR, message: String(e?.message ?? e), fileEnded: progress.fileEnded, read: progress.bytesRead });
  }
}

async function copyInto(blob, progress, send) {
  const file = blob.stream().getReader();
  for (;;) {
    await credit();
    const { done, value } = await file.read();
    if (done) break;
    progress.bytesRead += value.byteLength;
    send.add(value);
  }
  progress.fileEnded = true;
}

// Throws the decompression's error once every byte it inflated has been sent.
async function inflateInto(blob, progress, send) {
  const inflate = new DecompressionStream('gzip');
  const input = inflate.writable.getWriter();
  const output = inflate.readable.getReader();
  let failure = null;
  const taking = (async () => {
    try {
      for (;;) {
        const { done, value } = await output.read();
        if (done) return;
        send.add(value);
      }
    } catch (e) {
      failure ??= e;
      // Nothing takes the output any more: end the writing below too, or its next
      // write would wait for room forever.
      input.abort(e).catch(() => {});
    }
  })();
  const file = blob.stream().getReader();
  try {
    for (;;) {
      await credit();
      const { done, value } = await file.read();
      if (done) break;
      progress.bytesRead += value.byteLength;
      await input.write(value);  // resolves once inflated: its output is queued for `taking`
    }
    progress.fileEnded = true;
    // Let `taking` empty the queue before closing: a close that fails (the stream ends
    // early) errors the readable side and drops whatever it still holds.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await input.close();
  } catch (e) {
    failure ??= e;
  }
  await taking;
  if (failure) throw failure;
}
