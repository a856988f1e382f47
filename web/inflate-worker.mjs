// Decompresses a .json.gz on a thread of its own (started by worker.mjs), so that the
// loading worker parses while this one inflates, as the command line does on two
// cores. Its messages: ToInflater and FromInflater in messages.mjs.
// At most IN_FLIGHT_BYTES are sent ahead of what the parser has consumed, so that a
// parser slower than the inflate never holds the decompressed text in its queue.
import { joinBytes } from './bytes.mjs';
import { FromInflater, ToInflater, messageRouter } from './messages.mjs';

const BATCH_BYTES = 1 << 20;
const IN_FLIGHT_BYTES = 16 << 20;

let inFlight = 0;
let wake = null;  // resolves when credit arrives

const route = messageRouter(ToInflater, {
  [ToInflater.INFLATE]: (msg) => inflate(msg.blob),
  [ToInflater.CREDIT]: (msg) => {
    inFlight -= msg.bytes;
    wake?.();
  },
});
self.onmessage = (event) => route(event.data);

async function inflate(blob) {
  inFlight = 0;
  let read = 0;
  let compressedEnded = false;
  const counted = blob.stream().pipeThrough(new TransformStream({
    transform(chunk, controller) {
      read += chunk.byteLength;
      controller.enqueue(chunk);
    },
    flush() {
      compressedEnded = true;
    },
  }));
  const reader = counted.pipeThrough(new DecompressionStream('gzip')).getReader();
  let batch = [];
  let batched = 0;
  const send = async () => {
    if (batched === 0) return;
    const chunk = batch.length === 1 ? batch[0] : joinBytes(batch, batched);
    batch = [];
    batched = 0;
    while (inFlight >= IN_FLIGHT_BYTES) await new Promise((resolve) => { wake = resolve; });
    wake = null;
    inFlight += chunk.byteLength;
    self.postMessage({ type: FromInflater.DATA, chunk, read }, [chunk.buffer]);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      batch.push(value);
      batched += value.byteLength;
      if (batched >= BATCH_BYTES) await send();
    }
    await send();
    self.postMessage({ type: FromInflater.END, read });
  } catch (e) {
    await send();  // what was decompressed before the failure
    self.postMessage({ type: FromInflater.ERROR, message: String(e?.message ?? e), compressedEnded, read });
  }
}
