// Helpers for the share-link tests: a link's document as JSON, whatever its format, and
// format 2's document (gzip'd JSON, what links were before format 3; the page still
// reads them), so that hostile links can be written as small edits of a real one.
//   linkDocument(url)  -> the document (format 3: sheets as share-codec.mjs's descriptors)
//   version2Doc(loaded) -> format 2's document for a loaded report (web/share.mjs's shape)
//   version2Link(doc)  -> '#report=' + base64url(gzip(JSON))
import { gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';

export function linkDocument(url) {
  const bytes = Buffer.from(url.slice(url.indexOf('#report=') + 8), 'base64url');
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return JSON.parse(gunzipSync(bytes));
  const payload = inflateRawSync(bytes.subarray(5));
  let size = 0;
  let scale = 1;
  let at = 0;
  for (;;) {
    const b = payload[at++];
    size += (b & 127) * scale;
    scale *= 128;
    if (b < 128) break;
  }
  return JSON.parse(payload.subarray(at, at + size).toString('utf8'));
}

function column(c, rows) {
  if (c.type === 'string')
    return { name: c.name, type: c.type, unit: c.unit ?? '', dictionary: c.dictionary, codes: Array.from(c.codes.subarray(0, rows)) };
  const values = Array.from({ length: rows }, (_, r) => {
    const v = c.values[r];
    return !c.validity[r] ? null : Number.isFinite(v) ? v : Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  });
  return { name: c.name, type: c.type, unit: c.unit ?? '', values };
}
const sheet = (s) => ({ name: s.name, kind: s.kind ?? '', rows: s.rows, columns: s.columns.map((c) => column(c, s.rows)) });

export function version2Doc(loaded) {
  return {
    v: 2, name: loaded.name, version: loaded.version ?? '', fileBytes: loaded.fileBytes ?? 0, gzip: Boolean(loaded.gzip),
    cutShort: Boolean(loaded.cutShort), info: loaded.info, traceMetadata: loaded.traceMetadata || '{}', gpuTimeline: loaded.gpuTimeline,
    report: { device: loaded.report.device, rooflineCeilings: loaded.report.rooflineCeilings ?? {}, timingsMs: loaded.report.timingsMs,
      includeUnlinked: Boolean(loaded.report.includeUnlinked), sheets: loaded.report.sheets.map(sheet) },
    cycles: loaded.cycles ? { summary: loaded.cycles.summary, kernels: loaded.cycles.kernels, preambles: loaded.cycles.preambles,
      sheets: loaded.cycles.sheets.map(sheet) } : null,
    dropped: [...loaded.dropped ?? []],
  };
}

export const version2Link = (doc) => `#report=${gzipSync(JSON.stringify(doc)).toString('base64url')}`;
