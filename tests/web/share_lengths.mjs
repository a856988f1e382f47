// How long share links are (web/share.mjs): a table of link lengths, in characters, for
// the overview and each main view, on the page's sample and on the Qwen 1.5 0.5B trace,
// against LINK_TARGET. A link carries the view it is made on and the overview.
//   node tests/web/share_lengths.mjs [--site build/wasm/web] [--strict]
// --strict: exit non-zero when a link of the sample is over LINK_TARGET.
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { nodeReport } from './node_report.mjs';
import { defaultSite, fixtures, pathOptions, repo } from './support/harness.mjs';

const site = pathOptions()('--site', defaultSite);
const strict = process.argv.includes('--strict');
const share = await import(path.join(site, 'share.mjs'));
const { load } = await nodeReport(site);
const VIEWS = ['overview', 'ops', 'kernels', 'roofline', 'critical-path', 'launch-delays', 'cycles', null];
const qwenDir = path.join(fixtures, 'tracelens-h100-qwen1.5-0.5b');
const traces = [['sample (h100-bert-small)', path.join(repo, 'samples/h100-bert-small.json.gz')],
  ['qwen1.5-0.5b', path.join(qwenDir, readdirSync(qwenDir).find((f) => f.endsWith('.json.gz')))]];
const BASE = 'https://example.org/sollens/';

const lengths = [];
for (const [label, trace] of traces) {
  const loaded = load(trace);
  const row = [label];
  for (const view of VIEWS) row.push((await share.encodeShare(loaded, BASE, view ? { view } : {})).chars);
  row.push((await share.encodeSollensFile(loaded)).length);
  lengths.push(row);
  loaded.session.delete();
}
const header = ['trace', ...VIEWS.map((v) => v ?? 'whole report'), '.sollens bytes'];
const width = header.map((h, i) => Math.max(h.length, ...lengths.map((r) => String(r[i]).length)));
const line = (cells) => cells.map((c, i) => String(c).padStart(width[i])).join('  ');
console.log(`Share link lengths in characters (target ${share.LINK_TARGET}; base ${BASE}):`);
console.log(line(header));
for (const row of lengths) console.log(line(row));
const over = lengths[0].slice(1, VIEWS.length).filter((n) => n > share.LINK_TARGET).length;
console.log(`${over} of the sample's ${VIEWS.length - 1} view links are over ${share.LINK_TARGET} characters.`);
if (strict && over) process.exit(1);
