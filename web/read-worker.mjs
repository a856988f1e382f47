// Reads a trace file on a thread of its own (started by worker.mjs), decompressing a
// .json.gz on the way, so that the loading worker parses while this one reads and
// inflates, as the command line does on two cores. Its messages: ToReader and
// FromReader in messages.mjs.
// At most IN_FLIGHT_BYTES are sent ahead of what the parser has consumed, so that a
// parser slower than the reading never holds the file's text in its queue.
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

async function read(blob, gzip) {
  inFlight = 0;
  let bytesRead = 0;
  let fileEnded = false;
  const counted = blob.stream().pipeThrough(new TransformStream({
    transform(chunk, controller) {
      bytesRead += chunk.byteLength;
      controller.enqueue(chunk);
    },
    flush() {
      fileEnded = true;
    },
  }));
  const reader = (gzip ? counted.pipeThrough(new DecompressionStream('gzip')) : counted).getReader();
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
    self.postMessage({ type: FromReader.DATA, chunk, read: bytesRead }, [chunk.buffer]);
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
    self.postMessage({ type: FromReader.END, read: bytesRead });
  } catch (e) {
    await send();  // what was decompressed before the failure
    self.postMessage({ type: FromReader.ERROR, message: String(e?.message ?? e), fileEnded, read: bytesRead });
  }
}
