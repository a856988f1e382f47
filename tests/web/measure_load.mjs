// Prints how long the page takes to open traces in headless Chromium (not a test).
//   node tests/web/measure_load.mjs [--runs 3] [TRACE.json(.gz)...]
// Default trace: the 55.6 MB owlv2 trace. "ready" is from choosing the file to the
// overview being rendered (the page's load state); the worker's own split
// (read+decompress / parse / analyse) is printed next to it. Also prints the
// gzipped size of the page's wasm + JS payload.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { defaultSite, gzOf, startPageServer, launchChromium } from './support/harness.mjs';

const site = defaultSite;
const args = process.argv.slice(2);
let runs = 3;
const traces = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else traces.push(path.resolve(args[i]));
}
if (traces.length === 0) {
  traces.push(gzOf('tracelens-h100-owlv2-large'));
}

// Every file of the site but the samples and the optional Arrow export code (loaded
// only when a table is exported as Arrow).
const siteFiles = (dir, prefix = '') => readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
  const rel = prefix + e.name;
  if (e.isDirectory()) return rel === 'samples' ? [] : siteFiles(path.join(dir, e.name), `${rel}/`);
  return /\.(wasm|m?js|html|css)$/.test(e.name) && !/arrow/i.test(rel) ? [rel] : [];
});
let payload = 0;
for (const f of siteFiles(site)) {
  const bytes = readFileSync(path.join(site, f));
  const gz = gzipSync(bytes, { level: 9 }).length;
  payload += gz;
  console.log(`payload ${f}: ${bytes.length} B, ${gz} B gzipped`);
}
console.log(`payload total (wasm + JS + HTML + CSS, views and uPlot included): ${(payload / 1024).toFixed(1)} KiB gzipped`);

const { server, origin } = await startPageServer(site);
const browser = await launchChromium();
try {
  for (const trace of traces) {
    const name = path.basename(trace);
    console.log(`\n${name}: ${(statSync(trace).size / 1e6).toFixed(1)} MB file`);
    for (let run = 1; run <= runs; run++) {
      const page = await browser.newPage();  // a fresh page each run: cold module
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => document.getElementById('version').textContent !== '');
      const t0 = Date.now();
      await page.setInputFiles('#file-input', trace);
      await page.waitForFunction((n) => document.body.dataset.state === 'error' ||
        (document.body.dataset.state === 'loaded' && document.getElementById('trace-name').textContent === n), name, { timeout: 120_000 });
      const wall = Date.now() - t0;
      const facts = await page.locator('#facts').innerText();
      const opened = /opened in\s+(.*)/.exec(facts)?.[1] ?? (await page.locator('#error').innerText());
      const size = /size\s+(.*)/.exec(facts)?.[1] ?? '';
      console.log(`run ${run}: ready in ${(wall / 1000).toFixed(2)} s (worker: ${opened}; ${size})`);
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.kill();
}
