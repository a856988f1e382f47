// The compare view's end-to-end checks, run by e2e_test.mjs on its page:
//   compareWith   open the H100 bert-small trace, then "Compare with…" the MI300X one:
//                 the compared ops table equals `sollens diff H100 MI300X`'s
//                 ops_summary.csv (build/native/sollens, when built), row by row by name,
//                 and the total time line its gpu_timeline.csv total_time change;
//                 the op-tree drill-down goes one level down; screenshot
//   swap          the swap button exchanges baseline and variant (the changes flip sign)
//   dropTwo       two traces dropped at once: the page asks; "Compare them" makes the
//                 first the baseline, the second the variant, and shows the comparison
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCsv } from './views_checks.mjs';
import { readWholeTable as readTableRows } from './support/harness.mjs';

const TIMEOUT_MS = 60_000;
const SECTION = 'section.view[data-view="compare"]';
const OPS_TABLE = `${SECTION} .compare-ops`;
const DIFF = 'total_direct_kernel_time_ms__variant_diff';

export function compareChecks({ page, check, repo, screenshots, tmp, waitForLoad, gzOf }) {
  const base = gzOf('tracelens-h100-bert-small');
  const variant = gzOf('tracelens-mi300x-bert-small');

  const readWholeTable = (selector) => readTableRows(page, selector);

  const waitForComparison = (baselineName) => page.waitForFunction(([sel, name]) => {
    const s = document.querySelector(sel);
    return s && !s.hidden && s.querySelector('.compare-ops') &&
      s.querySelector('.compare-runs dd')?.textContent === name;
  }, [SECTION, baselineName], { timeout: TIMEOUT_MS });

  // The CLI's compared ops_summary for these two traces.
  const cliOps = () => {
    const cli = path.join(repo, 'build/native/sollens');
    if (!existsSync(cli)) return null;
    const out = path.join(tmp, 'cli-diff');
    mkdirSync(out, { recursive: true });
    execFileSync(cli, ['diff', base, variant, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    return { ops: parseCsv(readFileSync(path.join(out, 'ops_summary.csv'), 'utf8')),
      timeline: parseCsv(readFileSync(path.join(out, 'gpu_timeline.csv'), 'utf8')) };
  };

  const sameCell = (pageCell, csv) => {
    if (pageCell.value !== undefined)
      return csv !== '' && Math.abs(Number(pageCell.value) - Number(csv)) <= 1e-9 * Math.abs(Number(csv)) + 1e-12;
    return pageCell.text === csv;
  };

  async function compareWith() {
    await page.setInputFiles('#file-input', base);
    check(await waitForLoad(path.basename(base)) === 'loaded', 'compare: the H100 trace opens');
    await page.click('nav [data-view="compare"]');
    await page.waitForSelector(`${SECTION} .empty-state`);
    check(await page.locator(`${SECTION} #compare-with`).isEnabled(), 'compare: one trace: the view offers "Compare with…"');
    await page.setInputFiles('#compare-file-input', variant);
    check(await waitForLoad(path.basename(variant)) === 'loaded', 'compare: the MI300X trace opens as the variant');
    await waitForComparison(path.basename(base));
    const table = await readWholeTable(OPS_TABLE);
    const cli = cliOps();
    if (!cli) {
      check(false, 'compare: build/native/sollens is needed to check the ops table against sollens diff');
      return;
    }
    const ref = cli.ops;
    const { header, rows } = cli.timeline;
    const totalDiff = rows.find((r) => r[header.indexOf('type')] === 'total_time')?.[header.indexOf('time ms__variant_diff')];
    const shownDiff = await page.locator(`${SECTION} .compare-total`).getAttribute('data-diff');
    check(totalDiff !== undefined && sameCell({ value: shownDiff }, totalDiff),
      `compare: the total time's change is sollens diff's gpu_timeline total_time (${shownDiff} vs ${totalDiff})`);
    let bad = 0;
    let matched = 0;
    const name = table.headers.indexOf('name');
    for (const row of table.rows) {
      const refRow = ref.rows.find((r) => r[ref.header.indexOf('name')] === row[name].text);
      if (!refRow) { bad++; console.log(`  compare: no CLI row for ${row[name].text}`); continue; }
      matched++;
      table.headers.forEach((h, c) => {
        const i = ref.header.indexOf(h);
        if (i < 0) { bad++; console.log(`  compare: no CLI column ${h}`); return; }
        if (!sameCell(row[c], refRow[i])) {
          bad++;
          console.log(`  compare: ${row[name].text} ${h}: page ${row[c].value ?? row[c].text} vs CLI ${refRow[i]}`);
        }
      });
    }
    check(bad === 0 && matched === ref.rows.length && table.headers.length === ref.header.length,
      `compare: the ops table equals sollens diff's ops_summary.csv (${matched} of ${ref.rows.length} rows, ${table.headers.length} columns)`);
    const diffs = table.rows.map((r) => Number(r[table.headers.indexOf(DIFF)].value ?? -Infinity));
    check(diffs.every((d, i) => i === 0 || d <= diffs[i - 1]), 'compare: ops are ranked by their change, slower first');

    // The op-tree drill-down: the first root with paths under it opens them.
    const tree = `${SECTION} .compare-tree .sheet-table`;
    const rootCount = await page.locator(`${tree} tbody tr.data`).count();
    check(rootCount > 0, `compare: op-tree roots listed (${rootCount})`);
    await page.click(`${tree} tbody tr.data >> nth=0`);
    await page.waitForFunction((sel) => document.querySelectorAll(`${sel} nav[aria-label="Call path drill-down"] li`).length === 2,
      SECTION, { timeout: 5_000 }).catch(() => {});
    const crumbs = await page.locator(`${SECTION} nav[aria-label="Call path drill-down"] li`).count();
    check(crumbs === 2, `compare: choosing a root shows the paths under it (${crumbs} crumbs)`);
    await page.screenshot({ path: path.join(screenshots, 'compare.png'), fullPage: true });
  }

  async function swap() {
    const before = await readWholeTable(OPS_TABLE);
    await page.click('#compare-swap');  // disabled until the swapped comparison is drawn
    await page.waitForSelector(`${SECTION} #compare-swap:enabled`, { timeout: TIMEOUT_MS });
    await waitForComparison(path.basename(variant));
    const after = await readWholeTable(OPS_TABLE);
    const name = (t) => t.headers.indexOf('name');
    const diffOf = (t, op) => Number(t.rows.find((r) => r[name(t)].text === op)?.[t.headers.indexOf(DIFF)].value);
    const op = 'aten::addmm';
    check(Math.abs(diffOf(after, op) + diffOf(before, op)) <= 1e-12 && diffOf(before, op) !== 0,
      `compare: swapping flips ${op}'s change (${diffOf(before, op)} → ${diffOf(after, op)})`);
  }

  async function dropTwo() {
    await page.evaluate(([a, b]) => {
      const dt = new DataTransfer();
      for (const [n, b64] of [a, b])
        dt.items.add(new File([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], n, { type: 'application/gzip' }));
      for (const type of ['dragenter', 'dragover', 'drop'])
        document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [[path.basename(variant) + '.first', readFileSync(variant).toString('base64')],
      ['second.json.gz', readFileSync(base).toString('base64')]]);
    await page.waitForSelector('#two-compare', { timeout: TIMEOUT_MS });
    await page.click('#two-compare');
    check(await waitForLoad('second.json.gz') === 'loaded', 'compare: of two dropped traces the second opens as the variant');
    await waitForComparison(`${path.basename(variant)}.first`);
    check(await page.locator(`${SECTION}`).isVisible(), 'compare: two dropped traces show the comparison');
  }

  return { compareWith, swap, dropTwo };
}
