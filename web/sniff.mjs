// Which kind of trace a file holds, told from its content, not its name: a PyTorch
// Execution Trace's top-level object has "nodes" (and no "traceEvents"), a Kineto
// trace's has "traceEvents". Only the first bytes are read (decompressed on the way
// when the file is gzip): both keys come early in the files PyTorch writes. A .sollens
// file (a report saved from a share link, share.mjs) starts with its magic bytes "SLNS".

const SNIFF_BYTES = 1 << 20;  // of (decompressed) text, at most

// 'et' | 'kineto' | 'sollens' | 'unknown' (anything else: opened as a Kineto trace, whose
// reader then says what is wrong with it).
export async function traceKind(blob) {
  try {
    if (isSollensHead(new Uint8Array(await blob.slice(0, SOLLENS_MAGIC.length).arrayBuffer()))) return 'sollens';
    return topLevelKind(await headText(blob));
  } catch {
    return 'unknown';
  }
}

const SOLLENS_MAGIC = [0x53, 0x4c, 0x4e, 0x53];  // "SLNS" (share.mjs's MAGIC)
export const isSollensHead = (head) => SOLLENS_MAGIC.every((b, i) => head[i] === b);

// The kind from the text's first top-level key among "nodes" and "traceEvents".
export function topLevelKind(text) {
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return 'unknown';
      if (depth === 1 && nextNonSpace(text, end + 1) === ':') {
        const key = text.slice(i + 1, end);
        if (key === 'nodes') return 'et';
        if (key === 'traceEvents') return 'kineto';
      }
      i = end + 1;
      continue;
    }
    if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') depth -= 1;
    i += 1;
  }
  return 'unknown';
}

// The index of the quote closing the string opened at `start`, or -1 past the text.
function stringEnd(text, start) {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function nextNonSpace(text, from) {
  for (let i = from; i < text.length; i++) if (!/\s/.test(text[i])) return text[i];
  return '';
}

async function headText(blob) {
  const head = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  // A gzip stream cut short fails only after handing on what it holds.
  let stream = blob.slice(0, SNIFF_BYTES).stream();
  if (gzip) stream = stream.pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < SNIFF_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // the end of a cut gzip prefix: keep what came out
  } finally {
    reader.cancel().catch(() => {});
  }
  return text;
}
