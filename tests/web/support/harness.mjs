// What the node scripts under tests/web share: the repository's paths and the
// fixtures, command-line options, pass/fail counting, the page's server
// (web/serve.mjs on a free port) and Debian's headless Chromium.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const fixtures = path.join(repo, 'tests/fixtures/traces');
export const defaultSite = path.join(repo, 'build/wasm/web');

// The .json.gz trace of one fixture set.
export const gzOf = (set) => path.join(fixtures, set, readdirSync(path.join(fixtures, set)).find((f) => f.endsWith('.json.gz')));

// `option('--site', fallback)`: the path after the flag (resolved), else the fallback.
export function pathOptions(argv = process.argv.slice(2)) {
  return (name, fallback) => {
    const i = argv.indexOf(name);
    return i >= 0 && i + 1 < argv.length ? path.resolve(argv[i + 1]) : fallback;
  };
}

// Prints each check as "ok: …" or "FAILED: …"; finish() prints "LABEL: N passed, M
// failed" and exits, non-zero on any failure unless given a code.
export function checks(label) {
  let passed = 0;
  let failed = 0;
  const check = (ok, what) => {
    console.log(`${ok ? 'ok' : 'FAILED'}: ${what}`);
    if (ok) passed++;
    else failed++;
    return ok;
  };
  const finish = (code) => {
    console.log(`${label}: ${passed} passed, ${failed} failed`);
    process.exit(code ?? (failed === 0 ? 0 : 1));
  };
  return { check, finish };
}

// web/serve.mjs on a free port serving web/ and the built site (the site alone with
// { sources: false }: another build's page, its own scripts); resolves to
// { server, origin } once it prints its address.
export async function startPageServer(site, { sources = true } = {}) {
  const roots = sources ? ['--root', path.join(repo, 'web'), '--root', site] : ['--root', site];
  const server = spawn(process.execPath, [path.join(repo, 'web/serve.mjs'), '--port', '0', ...roots],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /sollens page: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`serve.mjs exited (${code}) before listening`)));
    setTimeout(() => reject(new Error('serve.mjs did not print its URL within 10 s')), 10_000);
  });
  return { server, origin };
}

// Debian's Chromium (never a downloaded browser), headless, with nothing of its own
// reaching the network. playwright-core is imported here only, so the node-only
// tests that use this module do not load it.
export const CHROMIUM = '/usr/bin/chromium';
// Stops a page test (one failed check) unless what it needs is built: Debian's Chromium,
// the wasm site and, given cli, the native CLI whose CSVs the page is checked against.
export function requireBuilt({ check, finish }, site, { cli } = {}) {
  const needs = [[CHROMIUM, 'bash .ci/dev.sh setup'], [path.join(site, 'sollens.wasm'), 'build the wasm preset']];
  if (cli) needs.push([cli, 'build the native preset: the page is checked against the CLI']);
  for (const [file, why] of needs) {
    if (!existsSync(file)) {
      check(false, `${file} exists (${why})`);
      finish(1);
    }
  }
}
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox',
  '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

// Every rendered row of a virtually scrolled table (web/table.mjs), scrolled through
// from the top: {headers, rows: [[{value} | {text}]], count (the row-count text)}.
// Headers and texts are the sheet's (a worded header's column name, data-column; a
// worded cell's text, data-value), so that they compare with the CLI's CSVs.
export const readWholeTable = (page, selector) => page.$eval(selector, async (root) => {
  const scroller = root.querySelector('.table-scroll');
  const headers = [...root.querySelectorAll('thead th')].map((th) => th.dataset.column ?? th.querySelector('.col-name').textContent);
  const rows = new Map();
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  for (let top = 0; ; top += Math.max(1, Math.floor(scroller.clientHeight / 2))) {
    scroller.scrollTop = top;
    scroller.dispatchEvent(new Event('scroll'));
    await frame();
    for (const tr of root.querySelectorAll('tbody tr.data'))
      rows.set(tr.getAttribute('aria-rowindex') ?? tr.cells[0].textContent, [...tr.cells].map((td) => {
        const d = td.querySelector('data');
        return d ? { value: d.value } : { text: td.dataset.value ?? td.textContent };
      }));
    if (top >= scroller.scrollHeight) break;
  }
  return { headers, rows: [...rows.values()], count: root.querySelector('.row-count')?.textContent ?? null };
});

// `sollens info FILE` as the page's checks compare with it: its event count, its warning
// and note lines ("sollens: warning: MESSAGE [code]"), and its error line's message ('' when
// it read the file).
export function cliInfo(cli, file) {
  let text;
  try {
    text = execFileSync(cli, ['info', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    return { events: NaN, warnings: [], error: /sollens: error: (.*) \[[a-z0-9_]+\]/.exec(String(e.stderr))?.[1] ?? String(e.stderr) };
  }
  const events = Number(/^events:\s*([\d,]+)/m.exec(text)?.[1].replace(/,/g, '') ?? NaN);
  const warnings = [...text.matchAll(/^sollens: (?:warning|note): (.*) \[[a-z0-9_]+\]$/gm)].map((m) => m[1]);
  return { events, warnings, error: '' };
}
