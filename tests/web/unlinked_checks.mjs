// The overview's linking notice, its toggle for GPU events whose launch is not in the
// trace (TraceLens's --include_unlinked_kernels) with its banner, and a truncated
// .json.gz, run by e2e_test.mjs on its page:
//   unlinkedToggle    a synthetic trace where most GPU time has no launch: the banner
//                     says so, its button recomputes, the GPU timeline then equals the
//                     hand calculation and `sollens report --include-unlinked`; the
//                     choice stays through a device change; unchecked, it is back
//   correlationLinked a trace without flow events: the overview says GPU events were
//                     linked by correlation id and shows the core's warning
//   truncatedGzip     a real .json.gz cut at 60 % of its bytes opens with the events
//                     before the cut (as `sollens info` counts them) and the warnings
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseCsv } from './views_checks.mjs';

const RECOMPUTE_TIMEOUT_MS = 15_000;

// One kernel launched through an ac2g flow, [100, 110] µs; two with no launch in the
// trace (correlation ids no runtime event carries), [120, 160] and [170, 220].
// TraceLens's timeline (the linked kernel only): computation = busy = total = 10 µs.
// All three: computation = busy = 10 + 40 + 50 = 100 µs, total = 220 - 100 = 120 µs,
// idle = 20 µs; in ms: 0.1, 0.1, 0.12, 0.02. Unlinked GPU time: 90 of 100 µs = 90.0 %.
const MOSTLY_UNLINKED = {
  schemaVersion: 1,
  deviceProperties: [{ id: 0, name: 'NVIDIA H100 80GB HBM3', totalGlobalMem: 85899345920, computeMajor: 9, computeMinor: 0, numSms: 132 }],
  traceEvents: [
    { ph: 'X', cat: 'cpu_op', name: 'aten::mm', pid: 1, tid: 1, ts: 0, dur: 50, args: { 'External id': 1 } },
    { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: 1, tid: 1, ts: 10, dur: 5, args: { 'External id': 1, correlation: 7 } },
    { ph: 'X', cat: 'kernel', name: 'gemm_linked', pid: 0, tid: 7, ts: 100, dur: 10, args: { 'External id': 1, correlation: 7, device: 0, stream: 7 } },
    { ph: 's', id: 7, pid: 1, tid: 1, ts: 10, cat: 'ac2g', name: 'ac2g' },
    { ph: 'f', id: 7, pid: 0, tid: 7, ts: 100, cat: 'ac2g', name: 'ac2g', bp: 'e' },
    { ph: 'X', cat: 'kernel', name: 'gemm_unlinked_a', pid: 0, tid: 7, ts: 120, dur: 40, args: { correlation: 901, device: 0, stream: 7 } },
    { ph: 'X', cat: 'kernel', name: 'gemm_unlinked_b', pid: 0, tid: 7, ts: 170, dur: 50, args: { correlation: 902, device: 0, stream: 7 } },
  ],
};
const BY_HAND = {
  linked: { computation_time: 0.01, busy_time: 0.01, idle_time: 0, total_time: 0.01 },
  all: { computation_time: 0.1, busy_time: 0.1, idle_time: 0.02, total_time: 0.12 },
};

export function unlinkedChecks({ page, check, repo, fixtures, screenshots, tmp, waitForLoad }) {
  const cli = path.join(repo, 'build/native/sollens');
  const overview = 'section[data-view="overview"]';

  const shownTimeline = () => page.$$eval('#gpu-timeline tbody tr', (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.type, [...r.querySelectorAll('data')].map((d) => Number(d.value))])));
  const close = (a, b) => Math.abs(a - b) <= 1e-9 + 1e-9 * Math.abs(b);

  // The CLI's gpu_timeline.csv for this trace, as {type: [time ms, percent]}; null without the CLI.
  const cliTimeline = (trace, extra) => {
    if (!existsSync(cli)) return null;
    const out = path.join(tmp, `cli-unlinked-${path.basename(trace)}-${extra.length}`);
    mkdirSync(out, { recursive: true });
    execFileSync(cli, ['report', trace, '--out', out, '--no-json', '--no-xlsx', ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
    const csv = parseCsv(readFileSync(path.join(out, 'gpu_timeline.csv'), 'utf8'));
    return Object.fromEntries(csv.rows.map((r) => [r[0], [Number(r[1]), Number(r[2])]]));
  };
  const equalsCli = (label, shown, expected) => {
    if (!expected) return check(true, `${label}: (no build/native/sollens: the CLI comparison is skipped)`);
    const bad = Object.entries(expected).filter(([type, [ms, pct]]) =>
      !shown[type] || !close(shown[type][0], ms) || !close(shown[type][1], pct));
    return check(bad.length === 0 && Object.keys(shown).length === Object.keys(expected).length,
      `${label}: the GPU timeline equals the CLI's gpu_timeline.csv${bad.length ? ` (differs: ${bad.map(([t]) => t).join(', ')})` : ''}`);
  };
  const equalsHand = (label, shown, expected) => {
    const bad = Object.entries(expected).filter(([type, ms]) => !shown[type] || !close(shown[type][0], ms));
    check(bad.length === 0, `${label}: the GPU timeline equals the hand calculation${bad.length ? ` (differs: ${bad.map(([t]) => `${t} ${shown[t]?.[0]}`).join(', ')})` : ''}`);
  };
  const waitForFigures = (included) => page.waitForFunction((want) =>
    document.getElementById('view-overview').dataset.includeUnlinked === want &&
    document.getElementById('unlinked-status').textContent === '', String(included), { timeout: RECOMPUTE_TIMEOUT_MS });

  async function unlinkedToggle() {
    const file = path.join(tmp, 'mostly_unlinked.json');
    writeFileSync(file, JSON.stringify(MOSTLY_UNLINKED));
    await page.setInputFiles('#file-input', file);
    check(await waitForLoad('mostly_unlinked.json') === 'loaded', 'a trace whose GPU time is mostly unlinked opens');
    const banner = page.locator('#unlinked-banner');
    check(await page.locator('#cut-short').isHidden(), 'a whole file has no cut-short notice');
    check(await banner.isVisible(), 'unlinked: the banner is shown when most GPU time has no launch in the trace');
    const text = await banner.innerText();
    check(/0\.090 ms of 0\.100 ms \(90\.0 %\)/.test(text) && /launch is not in the trace/.test(text),
      `unlinked: the banner says how much is left out (${text.slice(0, 140)}…)`);
    check(/2 of 3 GPU events have no launch/.test(await page.textContent('#linking')) &&
      /flow events, as TraceLens does/.test(await page.textContent('#linking')), 'unlinked: the overview says how GPU events were linked and how many were not');
    check(!await page.isChecked('#include-unlinked'), 'unlinked: the toggle is off at first (TraceLens\'s default)');
    let shown = await shownTimeline();
    equalsHand('unlinked left out', shown, BY_HAND.linked);
    equalsCli('unlinked left out', shown, cliTimeline(file, []));
    await page.screenshot({ path: path.join(screenshots, 'unlinked-banner.png'), fullPage: true });

    await page.click('#unlinked-include');
    await waitForFigures(true);
    check(await page.isChecked('#include-unlinked') && await banner.isHidden(), 'unlinked: the banner\'s button turns the toggle on; the banner goes');
    shown = await shownTimeline();
    equalsHand('unlinked counted', shown, BY_HAND.all);
    const withUnlinked = cliTimeline(file, ['--include-unlinked']);
    equalsCli('unlinked counted (--include-unlinked)', shown, withUnlinked);
    await page.screenshot({ path: path.join(screenshots, 'unlinked-included.png'), fullPage: true });

    // Kept through another recompute (the roofline's device selector).
    await page.click('nav [data-view="roofline"]');
    await page.waitForSelector('.device-select select', { timeout: RECOMPUTE_TIMEOUT_MS });
    await page.selectOption('.device-select select', 'MI300X');
    await page.waitForFunction(() => /MI300X/.test(document.querySelector('section[data-view="roofline"] .device-name, section[data-view="roofline"] .device-notice')?.textContent ?? ''),
      null, { timeout: RECOMPUTE_TIMEOUT_MS });
    await page.click('nav [data-view="overview"]');
    shown = await shownTimeline();
    check(await page.isChecked('#include-unlinked') && await page.getAttribute(overview, 'data-include-unlinked') === 'true',
      'unlinked: the toggle stays on through a device change');
    equalsHand('unlinked counted after a device change', shown, BY_HAND.all);

    await page.click('#include-unlinked');
    await waitForFigures(false);
    equalsHand('unlinked left out again', await shownTimeline(), BY_HAND.linked);
    check(await banner.isVisible(), 'unlinked: unchecked, the banner is back');
  }

  async function correlationLinked() {
    const file = path.join(repo, 'tests/fixtures/synthetic/correlation_only_launches.json');
    await page.setInputFiles('#file-input', file);
    check(await waitForLoad(path.basename(file)) === 'loaded', 'a trace without flow events opens');
    const linking = await page.textContent('#linking');
    check(/by correlation id/.test(linking) && /1 of 5 GPU events have no launch/.test(linking),
      `correlation: the overview says GPU events were linked by correlation id (${linking.slice(0, 120)}…)`);
    const warnings = await page.locator('#warnings').innerText();
    check(/linked 4 GPU events to their launches by correlation id: the trace has no flow events/.test(warnings),
      'correlation: the core\'s linking warning is in the overview\'s warnings');
    check(await page.locator('#unlinked-banner').isHidden(), 'correlation: no banner when most GPU time is linked (4 of 33 µs unlinked)');
    await page.screenshot({ path: path.join(screenshots, 'correlation-linked-overview.png'), fullPage: true });
  }

  async function truncatedGzip(gz) {
    const bytes = readFileSync(gz);
    const cut = path.join(tmp, `cut-${path.basename(gz)}`);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await page.setInputFiles('#file-input', cut);
    check(await waitForLoad(path.basename(cut)) === 'loaded', `a .json.gz cut at 60 % of its bytes opens (${path.basename(gz)})`);
    const warnings = await page.locator('#warnings').innerText();
    check(/the gzip stream ends early: the file is cut short/.test(warnings) && /it is truncated/.test(warnings),
      'truncated .gz: the overview warns that the file is cut short and where the JSON ends');
    check(await page.locator('#cut-short').isVisible() && /cut short: the report covers only the [\d,]+ events before the cut/.test(await page.textContent('#cut-short')),
      `truncated .gz: a notice at the top of the overview says the file is cut short (${await page.textContent('#cut-short')})`);
    check(/The file is cut short/.test(await page.textContent('#status')), 'truncated .gz: the status line says so');
    const events = Number(await page.$eval('#facts data', (d) => d.value));
    if (existsSync(cli)) {
      const info = execFileSync(cli, ['info', cut], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const m = /events\s*:?\s*([\d,]+)/i.exec(info);
      const cliEvents = m ? Number(m[1].replace(/,/g, '')) : NaN;
      check(events === cliEvents, `truncated .gz: ${events} events, as the CLI reads the same file (${cliEvents})`);
    } else {
      check(events > 0, `truncated .gz: ${events} events before the cut`);
    }
    // Cut before its first GPU event, the overview says so instead of a timeline of zeros.
    check(await page.locator('#gpu-timeline tbody tr').count() > 0 ||
      (await page.locator('#timeline-none').isVisible() && await page.locator('#gpu-timeline').isHidden()),
    'truncated .gz: the report is shown (a GPU timeline, or: no GPU events were read before the cut)');
    await page.screenshot({ path: path.join(screenshots, 'truncated-gzip-overview.png'), fullPage: true });
  }

  return { unlinkedToggle, correlationLinked, truncatedGzip };
}
