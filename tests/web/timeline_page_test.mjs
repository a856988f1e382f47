// The time-axis view (web/views/timeline.mjs) in Debian's headless Chromium
// (playwright-core), served by web/serve.mjs:
//   node tests/web/timeline_page_test.mjs [--site build/wasm/web] [--artifacts DIR] [--screenshots DIR]
// lod        in node: 200,000 synthetic events drawn into the view's pixel buffer at
//            two zooms: every event has a drawn pixel where it is, and no pixel is
//            drawn where no event is (merging per pixel column loses nothing, adds nothing)
// pan        in node: frames of a pan at three zooms and two device pixel ratios, drawn
//            through the kept strip, equal fresh frames of the same ranges pixel for pixel
// synthetic  the view drawn from synthetic sheets (tests/web/support/timeline_synth.mjs)
//            beside the page's report: the lane list equals the lanes sheet; 0 fits
//            the trace, W zooms in by ZOOM_STEP about the middle, D pans by PAN_STEP of
//            the width (the visible range compared with the one computed here); a click
//            on a kernel at the pixel computed here from its start opens its details
//            with its name (a name holding HTML shown as text, nothing run); shift+drag
//            asks the range's summary for the times under the pointer
// sample     samples/h100-bert-small.json.gz opened in the page, the Time axis shown:
//            the core's sheets drawn, the lane list equals time_axis_lanes, a click on
//            the first kernel gives its details (name, and the core's rows), a range
//            selected gives the core's summary, "Open this range in Perfetto UI"
//            downloads a JSON trace with fewer events than the file; zoomed in and
//            panned by mouse drags, the canvas equals the same view drawn afresh
// decode     tests/fixtures/synthetic/hf_decode_loop.json drawn the same way
// Prints "timeline: N passed, M failed"; screenshots go to --screenshots.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { repo, defaultSite, pathOptions, checks, startPageServer, CHROMIUM, launchChromium, requireBuilt } from './support/harness.mjs';
import { syntheticTimeAxis } from './support/timeline_synth.mjs';
import { indexTimeAxis } from '../../web/timeline/data.mjs';
import { drawFrame } from '../../web/timeline/draw.mjs';
import { geometry } from '../../web/timeline/geometry.mjs';
import { PixelBuffer } from '../../web/timeline/pixels.mjs';
import { LaneStrip } from '../../web/timeline/strip.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const shots = option('--screenshots', option('--artifacts', path.join(repo, 'build/wasm/web-screenshots')));
const TIMEOUT_MS = 60_000;
const VIEW = 'section.view[data-view="timeline"]';
const CANVAS = `${VIEW} canvas.timeline-canvas`;
const HOSTILE = '<img src=x onerror=alert(1)>';
// The view's layout (web/timeline/draw.mjs, data.mjs, interact.mjs), restated here so
// that the pixels are computed independently of the code under test.
const GUTTER = 190;
const RULER = 26;
const BAND = 16;
const ROW = 18;
const LANE_GAP = 6;
const ZOOM_STEP = 1.5;
const PAN_STEP = 0.2;

const { check, finish } = checks('timeline');
requireBuilt({ check, finish }, site);
mkdirSync(shots, { recursive: true });
const near = (a, b, tol = 1e-6) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

// Sheet helpers in node (the synthetic sheets are plain objects here).
const col = (sheet, name) => sheet.columns.find((c) => c.name === name);
const str = (sheet, name, r) => { const c = col(sheet, name); return c.dictionary[c.codes[r]]; };
const num = (sheet, name, r) => col(sheet, name).values[r];
// Each lane's top (content px) from the lanes sheet's depths.
const laneTops = (lanes) => {
  const tops = [];
  let y = 0;
  for (let r = 0; r < lanes.rows; r++) { tops.push(y); y += Math.max(1, num(lanes, 'depths', r)) * ROW + LANE_GAP; }
  return tops;
};

// --- level of detail, in node -------------------------------------------------------
{
  const index = indexTimeAxis(syntheticTimeAxis({ events: 200_000, threads: 2, streams: 3 }));
  const noop = () => {};
  const ctx = new Proxy({ createImageData: (w, h) => ({ data: new Uint8ClampedArray(w * h * 4) }), measureText: () => ({ width: 0 }) },
    { get: (o, k) => (k in o ? o[k] : noop), set: () => true });
  const width = 1200;
  const height = 40 + index.height + 8;
  const buffer = new PixelBuffer();
  buffer.resize(ctx, width, height, 1);
  const g = geometry(width, height, 0);
  const overlays = { steps: false, phases: false, layers: false, sol: false, critical: false, launches: false };
  for (const zoom of [1, 50]) {
    const span = index.endUs / zoom;
    const view = { t0: index.endUs / 3, t1: index.endUs / 3 + span, scrollY: 0 };
    if (zoom === 1) Object.assign(view, { t0: 0, t1: index.endUs });
    drawFrame(ctx, index, g, view, { overlays, selection: null, selected: -1 }, buffer);
    const white = buffer.words[0];
    let missing = 0;
    let stray = 0;
    let events = 0;
    for (const laneTracks of index.tracks) {
      for (const track of laneTracks) {
        const row = (g.top + track.y + ROW / 2) * width;
        const want = new Uint8Array(width);
        for (let k = 0; k < track.filled; k++) {
          const i = track.events[k];
          const a = GUTTER + (index.events.start[i] - view.t0) * g.plotWidth / (view.t1 - view.t0);
          const b = a + index.events.dur[i] * g.plotWidth / (view.t1 - view.t0);
          if (b < GUTTER || a >= width) continue;
          events++;
          const lo = Math.max(GUTTER, Math.floor(a) - 1);
          const hi = Math.min(width - 1, Math.ceil(b) + 1);
          let seen = false;
          for (let x = lo; x <= hi; x++) { want[x] = 1; if (buffer.words[row + x] !== white) seen = true; }
          if (!seen) missing++;
        }
        for (let x = GUTTER; x < width; x++) if (buffer.words[row + x] !== white && !want[x]) stray++;
      }
    }
    check(events > 0 && missing === 0 && stray === 0, `lod 1/${zoom}: each of ${events.toLocaleString('en-US')} events in sight has a drawn pixel where it is (${missing} missing), no pixel drawn where none is (${stray} stray)`);
  }
}

// --- panning, in node: a panned frame equals a fresh frame of the same range -------
// The view keeps the boxes layer between frames (a strip wider than the view) and, on a
// pan, copies it shifted and draws only the newly exposed columns. Each frame of a pan
// (small steps, steps past the kept strip, back again) must equal, pixel for pixel, the
// same view drawn from nothing. Views are binary fractions of a power-of-two span, so
// that t1 - t0 is the same number in every frame (as it is for the fresh one).
{
  const index = indexTimeAxis(syntheticTimeAxis({ events: 200_000, threads: 2, streams: 3, stepCount: 12 }));
  const noop = () => {};
  const ctx = new Proxy({ createImageData: (w, h) => ({ data: new Uint8ClampedArray(w * h * 4) }), measureText: () => ({ width: 0 }) },
    { get: (o, k) => (k in o ? o[k] : noop), set: () => true });
  const overlays = { steps: true, phases: false, layers: false, sol: true, critical: false, launches: false };
  const state = { overlays, selection: null, selected: -1 };
  for (const dpr of [1, 1.25]) {
    const width = 1000;
    const height = 40 + index.height + 8;
    const g = geometry(width, height, 0);
    const panned = new PixelBuffer();
    const fresh = new PixelBuffer();
    panned.resize(ctx, Math.round(width * dpr), Math.round(height * dpr), dpr);
    fresh.resize(ctx, Math.round(width * dpr), Math.round(height * dpr), dpr);
    for (const zoom of [1, 50, 2000]) {
      const span = 2 ** Math.round(Math.log2(index.endUs / zoom));
      const unit = span / 1024;  // the view's start moves by whole units
      const strip = new LaneStrip();
      let at = Math.round(index.endUs / 3 / unit) * unit;
      let frames = 0;
      let differing = 0;
      let firstBad = '';
      // Steps of 37 and 41 units walk the view off the kept strip's ends (it moves,
      // keeping what it has); the long moves leave it at once.
      for (const move of [0, 3, 5, -7, -30, 40, ...Array(40).fill(37), 700, 1500, ...Array(40).fill(-41), -4000, 11, -1, 2600, 13]) {
        at += move * unit;
        const view = { t0: at, t1: at + span, scrollY: 0 };
        drawFrame(ctx, index, g, view, state, panned, strip);
        drawFrame(ctx, index, g, view, state, fresh);
        frames++;
        let bad = 0;
        for (let p = 0; p < panned.words.length; p++) if (panned.words[p] !== fresh.words[p]) bad++;
        if (bad && !firstBad) firstBad = ` (first after a move of ${move} units: ${bad} pixels)`;
        differing += bad;
      }
      check(differing === 0, `pan 1/${zoom} at device pixel ratio ${dpr}: each of ${frames} panned frames equals a fresh frame of the same range, pixel for pixel (${differing} pixels differ${firstBad})`);
    }
  }
}

const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const pageErrors = [];
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('dialog', (d) => { pageErrors.push(`dialog: ${d.message()}`); d.dismiss(); });
  await page.goto(`${origin}/`);

  const visible = () => page.$eval(CANVAS, (c) => ({ t0: Number(c.dataset.t0), t1: Number(c.dataset.t1), frames: Number(c.dataset.frames) }));
  const nextFrame = async (before) => {
    await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel)?.dataset.frames) > n, [CANVAS, before], { timeout: TIMEOUT_MS });
    return visible();
  };
  const key = async (k) => {
    const before = (await visible()).frames;
    await page.keyboard.press(k);
    return nextFrame(before);
  };
  const canvasBox = () => page.$eval(CANVAS, (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
  // The pixel (page coordinates) of time t on a content row y, for the view shown.
  const pixelOf = async (t, contentY, top) => {
    const box = await canvasBox();
    const v = await visible();
    const scrollY = await page.$eval(VIEW, (s) => s.timeline.view.scrollY);
    return { x: box.x + GUTTER + (t - v.t0) * (box.w - GUTTER) / (v.t1 - v.t0), y: box.y + top + contentY - scrollY };
  };
  const showAt = async (t0, t1) => {
    const before = (await visible()).frames;
    await page.$eval(VIEW, (s, [a, b]) => s.timeline.setView({ t0: a, t1: b, scrollY: 0 }), [t0, t1]);
    return nextFrame(before);
  };

  // --- synthetic sheets ---------------------------------------------------------------
  const synth = { events: 6000, threads: 2, streams: 3, stepCount: 4, hostile: true };
  const data = syntheticTimeAxis(synth);
  const asked = await page.evaluate(`(async () => {
    const make = ${syntheticTimeAxis};
    const section = document.querySelector('${VIEW}');
    document.getElementById('welcome').hidden = true;
    section.hidden = false;
    section.classList.remove('placeholder');
    const view = await import('/views/timeline.mjs');
    window.__asked = { summary: [], detail: [] };
    const summary = { name: 'range', kind: 'summary', rows: 1, columns: [
      { name: 'what', type: 'string', unit: '', codes: Int32Array.of(0), dictionary: ['kernels'], validity: Uint8Array.of(1) },
      { name: 'busy', type: 'number', unit: 'us', values: Float64Array.of(42), validity: Uint8Array.of(1) }] };
    await view.render(section, { timeAxis: make(${JSON.stringify(synth)}), name: 'synthetic.json', state: {},
      eventDetail: async (row) => { window.__asked.detail.push(row); return { detail: { op: ['forward 0', 'aten::add'], args: { note: '${HOSTILE}' }, perf: null, sol: null } }; },
      rangeSummary: async (a, b) => { window.__asked.summary.push([a, b]); return { summary }; },
      trimmedTrace: async () => ({ bytes: new TextEncoder().encode('{"traceEvents": []}') }) });
    return true;
  })()`);
  check(asked === true, 'synthetic: the view renders from sheets of the contract\'s shape');
  await nextFrame(0);
  const lanesShown = await page.$$eval(`${VIEW} .timeline-lanes li`, (lis) => lis.map((li) => li.textContent));
  const lanesSheet = [...Array(data.lanes.rows).keys()].map((r) => str(data.lanes, 'label', r));
  check(JSON.stringify(lanesShown) === JSON.stringify(lanesSheet), `synthetic: the lane list equals the lanes sheet (${lanesShown.length} lanes)`);

  // The whole trace: the latest end of any event or span.
  let endUs = 0;
  for (let i = 0; i < data.events.rows; i++) endUs = Math.max(endUs, num(data.events, 'start_us', i) + num(data.events, 'dur_us', i));
  for (let i = 0; i < data.spans.rows; i++) endUs = Math.max(endUs, num(data.spans, 'end_us', i));
  await page.focus(CANVAS);
  check(await page.evaluate((sel) => document.activeElement === document.querySelector(sel), CANVAS), 'synthetic: the canvas takes the keyboard focus');
  let v = await key('0');
  check(near(v.t0, 0) && near(v.t1, endUs), `synthetic: 0 fits the trace: ${v.t0}–${v.t1} µs (want 0–${endUs})`);
  v = await key('w');
  const mid = endUs / 2;
  const span = endUs / ZOOM_STEP;
  check(near(v.t0, mid - span / 2) && near(v.t1, mid + span / 2), `synthetic: W zooms in about the middle: ${v.t0.toFixed(3)}–${v.t1.toFixed(3)} (want ${(mid - span / 2).toFixed(3)}–${(mid + span / 2).toFixed(3)})`);
  const v2 = await key('d');
  check(near(v2.t0, v.t0 + span * PAN_STEP) && near(v2.t1, v.t1 + span * PAN_STEP), `synthetic: D pans right by ${PAN_STEP * 100} % of the width: ${v2.t0.toFixed(3)}–${v2.t1.toFixed(3)}`);
  const v3 = await key('s');
  check(near(v3.t1 - v3.t0, span * ZOOM_STEP), `synthetic: S zooms out by ${ZOOM_STEP} (${(v3.t1 - v3.t0).toFixed(3)} µs wide)`);
  await key('ArrowLeft');
  await page.screenshot({ path: path.join(shots, 'timeline-synthetic.png'), fullPage: true });

  // A click on the kernel named with HTML, at the pixel of its middle.
  const hostileRow = [...Array(data.events.rows).keys()].find((r) => str(data.events, 'name', r) === HOSTILE);
  const kStart = num(data.events, 'start_us', hostileRow);
  const kDur = num(data.events, 'dur_us', hostileRow);
  const kLane = num(data.events, 'lane', hostileRow);
  await showAt(kStart - 4 * kDur, kStart + 6 * kDur);
  const top = RULER + 2 * BAND + 4;  // steps and phases are on by default; layers off
  const at = await pixelOf(kStart + kDur / 2, laneTops(data.lanes)[kLane] + ROW / 2, top);
  await page.mouse.click(at.x, at.y);
  await page.waitForSelector(`${VIEW} .timeline-event:not([hidden]) .timeline-op-chain`, { timeout: TIMEOUT_MS });
  const shownName = await page.textContent(`${VIEW} .timeline-event .timeline-event-name`);
  check(shownName === HOSTILE, `synthetic: a click on the kernel's pixel opens its details, named "${shownName}"`);
  check(await page.evaluate(() => window.__asked.detail.at(-1)) === num(data.events, 'row', hostileRow), 'synthetic: the details ask the core for that event\'s row');
  check(await page.evaluate(() => document.querySelectorAll('main img').length === 0), 'synthetic: a name holding HTML is shown as text (no <img> made)');
  const partner = num(data.events, 'partner', hostileRow);
  check((await page.textContent(`${VIEW} .timeline-event`)).includes(`${str(data.events, 'name', partner)} at`), 'synthetic: the details name the kernel\'s launch (its partner)');
  await page.screenshot({ path: path.join(shots, 'timeline-synthetic-details.png'), fullPage: true });

  // From the keyboard: ] chooses the next event on the chosen one's track (by start), [
  // the one before it again; each shows its details, as a click does.
  const sameTrack = [...Array(data.events.rows).keys()]
    .filter((r) => num(data.events, 'lane', r) === kLane && num(data.events, 'depth', r) === num(data.events, 'depth', hostileRow))
    .sort((a, b) => num(data.events, 'start_us', a) - num(data.events, 'start_us', b));
  const after = sameTrack[sameTrack.indexOf(hostileRow) + 1];
  const detailName = () => page.textContent(`${VIEW} .timeline-event .timeline-event-name`);
  await page.focus(CANVAS);
  await page.keyboard.press(']');
  await page.waitForFunction(([sel, n]) => document.querySelector(sel)?.textContent === n,
    [`${VIEW} .timeline-event .timeline-event-name`, str(data.events, 'name', after)], { timeout: TIMEOUT_MS }).catch(() => {});
  check(await detailName() === str(data.events, 'name', after) && await page.evaluate(() => window.__asked.detail.at(-1)) === num(data.events, 'row', after),
    `synthetic: ] chooses the next kernel on the track (${str(data.events, 'name', after)}) and asks for its details`);
  await page.keyboard.press('[');
  await page.waitForFunction(([sel, n]) => document.querySelector(sel)?.textContent === n,
    [`${VIEW} .timeline-event .timeline-event-name`, HOSTILE], { timeout: TIMEOUT_MS }).catch(() => {});
  check(await detailName() === HOSTILE, 'synthetic: [ goes back to the kernel before it');

  // Shift+drag: the range under the pointer is summarised.
  const box = await canvasBox();
  const vNow = await visible();
  const x0 = box.x + GUTTER + 100;
  const x1 = box.x + GUTTER + 400;
  const timeOf = (x) => vNow.t0 + (x - box.x - GUTTER) * (vNow.t1 - vNow.t0) / (box.w - GUTTER);
  await page.keyboard.down('Shift');
  await page.mouse.move(x0, box.y + top + 20);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, box.y + top + 20, { steps: 3 });
  await page.mouse.move(x1, box.y + top + 20, { steps: 3 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.waitForSelector(`${VIEW} .timeline-range:not([hidden]) .timeline-summary-table`, { timeout: TIMEOUT_MS });
  const [a, b] = await page.evaluate(() => window.__asked.summary.at(-1));
  const pxUs = (vNow.t1 - vNow.t0) / (box.w - GUTTER);
  check(Math.abs(a - timeOf(x0)) <= pxUs && Math.abs(b - timeOf(x1)) <= pxUs, `synthetic: shift+drag asks the summary of ${a.toFixed(2)}–${b.toFixed(2)} µs (the pointer's ${timeOf(x0).toFixed(2)}–${timeOf(x1).toFixed(2)})`);
  check((await page.textContent(`${VIEW} .timeline-summary-table`)).includes('kernels'), 'synthetic: the summary sheet is shown as a table');
  // A drag on the ruler (no shift) selects too; Escape clears the selection.
  {
    const asks = await page.evaluate(() => window.__asked.summary.length);
    await page.mouse.move(x0, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(x1, box.y + 10, { steps: 4 });
    await page.mouse.up();
    await page.waitForFunction((n) => window.__asked.summary.length > n, asks, { timeout: TIMEOUT_MS });
    const [ra, rb] = await page.evaluate(() => window.__asked.summary.at(-1));
    check(Math.abs(ra - timeOf(x0)) <= pxUs && Math.abs(rb - timeOf(x1)) <= pxUs, `synthetic: a drag on the ruler selects ${ra.toFixed(2)}–${rb.toFixed(2)} µs`);
    await page.screenshot({ path: path.join(shots, 'timeline-synthetic-range.png'), fullPage: true });
    await page.keyboard.press('Escape');
    check(await page.$eval(`${VIEW} .timeline-range`, (p) => p.hidden), 'synthetic: Escape clears the selection (its panel goes)');
  }
  await page.screenshot({ path: path.join(shots, 'timeline-synthetic-range.png'), fullPage: true });

  // The wheel zooms about the pointer: the time under it stays under it.
  {
    const b = await canvasBox();
    const before = await visible();
    const px = b.x + GUTTER + 300;
    const under = before.t0 + 300 * (before.t1 - before.t0) / (b.w - GUTTER);
    await page.mouse.move(px, b.y + top + 30);
    await page.mouse.wheel(0, -200);
    const after = await nextFrame(before.frames);
    const underAfter = after.t0 + 300 * (after.t1 - after.t0) / (b.w - GUTTER);
    check(after.t1 - after.t0 < before.t1 - before.t0 && near(underAfter, under, 1e-9),
      `synthetic: the wheel zooms in about the pointer (${under.toFixed(3)} µs stays under it; ${(before.t1 - before.t0).toFixed(2)} → ${(after.t1 - after.t0).toFixed(2)} µs wide)`);
  }
  // An overlay turned off takes its band away (the lanes move up by one band).
  {
    const topBefore = await page.$eval(VIEW, (sec) => sec.timeline.geometry().top);
    await page.click('#timeline-overlay-steps');
    const topAfter = await page.$eval(VIEW, (sec) => sec.timeline.geometry().top);
    check(topBefore === top && topAfter === top - BAND, `synthetic: Steps off takes the steps band away (lanes start at ${topBefore} → ${topAfter} px)`);
    await page.click('#timeline-overlay-steps');
  }
  check(pageErrors.length === 0, `synthetic: no page errors (${pageErrors.join(' | ')})`);

  // --- the core's time axis for real traces -------------------------------------------
  for (const [label, file] of [['sample', path.join(repo, 'samples/h100-bert-small.json.gz')],
    ['decode', path.join(repo, 'tests/fixtures/synthetic/hf_decode_loop.json')]]) {
    await realTrace(label, file);
  }

  // Zoomed in, dragged left and right in small steps by the mouse: the canvas equals the
  // same view drawn afresh (the kept strip dropped), pixel for pixel; a screenshot of it.
  async function pannedEqualsFresh(p, label) {
    const frames = () => p.$eval(CANVAS, (c) => Number(c.dataset.frames));
    const settle = async () => {
      const n = await frames();
      await p.waitForFunction(([sel, m]) => Number(document.querySelector(sel).dataset.frames) > m, [CANVAS, n - 1], { timeout: TIMEOUT_MS });
      await p.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
    };
    await p.focus(CANVAS);
    for (let k = 0; k < 4; k++) await p.keyboard.press('w');
    await settle();
    const box = await p.$eval(CANVAS, (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
    const y = box.y + Math.min(box.h - 10, 80);
    let x = box.x + box.w * 0.5;
    await p.mouse.move(x, y);
    await p.mouse.down();
    // Left past what was drawn, then right past the start: both ends of the strip grow.
    for (let k = 0; k < 40; k++) { x -= 12; await p.mouse.move(x, y); }
    for (let k = 0; k < 80; k++) { x += 12; await p.mouse.move(x, y); }
    await p.mouse.up();
    await settle();
    const pixels = () => p.$eval(CANVAS, (c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let h = 0;
      for (let i = 0; i < d.length; i++) h = (Math.imul(h, 31) + d[i]) | 0;
      return { hash: h, t0: c.dataset.t0, t1: c.dataset.t1 };
    });
    const panned = await pixels();
    await p.$eval(VIEW, (s) => { s.timeline.strip = new s.timeline.strip.constructor(); s.timeline.requestDraw(); });
    await settle();
    const fresh = await pixels();
    await p.waitForTimeout(300);  // the view's words follow 120 ms after its last frame
    await p.screenshot({ path: path.join(shots, `timeline-${label}-panned.png`), fullPage: true });
    check(panned.t0 === fresh.t0 && panned.hash === fresh.hash, `${label}: after a mouse pan (${Number(panned.t0).toFixed(1)}–${Number(panned.t1).toFixed(1)} µs) the canvas equals the same view drawn afresh (hash ${panned.hash} vs ${fresh.hash})`);
  }

  async function realTrace(label, file) {
    const p = await context.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(String(e)));
    p.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });
    await p.goto(`${origin}/`);
    await p.setInputFiles('#file-input', file);
    await p.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state), null, { timeout: TIMEOUT_MS });
    await p.click('nav [data-view="timeline"]');
    try {
      await p.waitForFunction((sel) => Number(document.querySelector(sel)?.dataset.frames) > 0 || document.querySelector('section.view[data-view="timeline"] .error'),
        CANVAS, { timeout: TIMEOUT_MS });
    } catch {
      // falls through to the check below
    }
    const drawn = await p.$eval(VIEW, (s) => ({ frames: Number(s.querySelector('canvas.timeline-canvas')?.dataset.frames ?? 0),
      text: s.textContent.slice(0, 300), sheets: s.timeline ? { lanes: s.timeline.sheets.lanes.rows, events: s.timeline.sheets.events.rows } : null }));
    await p.screenshot({ path: path.join(shots, `timeline-${label}.png`), fullPage: true });
    if (!check(drawn.frames > 0 && drawn.sheets?.events > 0, `${label}: the core's time axis is drawn (${drawn.sheets ? `${drawn.sheets.events} events on ${drawn.sheets.lanes} lanes` : drawn.text})`)) {
      await p.close();
      return;
    }
    if (label === 'sample') await pannedEqualsFresh(p, label);
    const lanes = await p.$eval(VIEW, (s) => {
      const sheet = s.timeline.sheets.lanes;
      const c = sheet.columns.find((x) => x.name === 'label');
      return { sheet: [...c.codes].map((k) => c.dictionary[k]), shown: [...s.querySelectorAll('.timeline-lanes li')].map((li) => li.textContent) };
    });
    check(lanes.shown.length > 0 && JSON.stringify(lanes.shown) === JSON.stringify(lanes.sheet), `${label}: the lane list equals time_axis_lanes (${lanes.shown.join('; ')})`);
    if (label !== 'sample') { await p.close(); return; }

    // The first kernel: its pixel from its start, a click, its details.
    const kernel = await p.$eval(VIEW, (s, [row, gap]) => {
      const { lanes: ls, events: ev } = s.timeline.sheets;
      const colOf = (sh, n) => sh.columns.find((x) => x.name === n);
      const str = (sh, n, r) => { const c = colOf(sh, n); return c.codes[r] >= 0 ? c.dictionary[c.codes[r]] : ''; };
      const n = (sh, nm, r) => colOf(sh, nm).values[r];
      const tops = new Map();
      let y = 0;
      for (let r = 0; r < ls.rows; r++) { tops.set(n(ls, 'lane', r), y); y += Math.max(1, n(ls, 'depths', r)) * row + gap; }
      for (let r = 0; r < ev.rows; r++)
        if (str(ev, 'kind', r) === 'kernel') return { start: n(ev, 'start_us', r), dur: n(ev, 'dur_us', r), name: str(ev, 'name', r), y: tops.get(n(ev, 'lane', r)) + n(ev, 'depth', r) * row };
      return null;
    }, [ROW, LANE_GAP]);
    if (!check(kernel !== null, `${label}: the events sheet has a kernel`)) { await p.close(); return; }
    const vp = { t0: kernel.start - 2 * kernel.dur, t1: kernel.start + 3 * kernel.dur };
    await p.$eval(VIEW, (s, w) => s.timeline.setView({ ...w, scrollY: 0 }), vp);
    await p.waitForFunction(([sel, t0]) => Number(document.querySelector(sel).dataset.t0) === t0, [CANVAS, vp.t0]);
    const rows = await p.$eval(VIEW, (s) => s.timeline.geometry().top);
    const cbox = await p.$eval(CANVAS, (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width }; });
    const x = cbox.x + GUTTER + (kernel.start + kernel.dur / 2 - vp.t0) * (cbox.w - GUTTER) / (vp.t1 - vp.t0);
    await p.mouse.click(x, cbox.y + rows + kernel.y + ROW / 2);
    await p.waitForSelector(`${VIEW} .timeline-event:not([hidden]) h5`, { timeout: TIMEOUT_MS }).catch(() => {});
    check(await p.textContent(`${VIEW} .timeline-event .timeline-event-name`).catch(() => null) === kernel.name, `${label}: a click on the first kernel (${kernel.name.slice(0, 60)}) opens its details`);
    check(!(await p.textContent(`${VIEW} .timeline-event`).catch(() => '')).includes('could not be read'), `${label}: the core answers with the kernel's detail`);
    await p.screenshot({ path: path.join(shots, `timeline-${label}-details.png`), fullPage: true });

    // A range: from 40 % to 60 % of the whole trace, dragged on the ruler.
    await p.focus(CANVAS);
    await p.keyboard.press('0');
    const vv = await p.$eval(CANVAS, (c) => ({ t0: Number(c.dataset.t0), t1: Number(c.dataset.t1) }));
    const plot = cbox.w - GUTTER;
    await p.mouse.move(cbox.x + GUTTER + 0.4 * plot, cbox.y + 10);
    await p.mouse.down();
    await p.mouse.move(cbox.x + GUTTER + 0.5 * plot, cbox.y + 10, { steps: 3 });
    await p.mouse.move(cbox.x + GUTTER + 0.6 * plot, cbox.y + 10, { steps: 3 });
    await p.mouse.up();
    await p.waitForSelector(`${VIEW} .timeline-range:not([hidden]) .timeline-summary-table tbody tr`, { timeout: TIMEOUT_MS }).catch(() => {});
    const summary = await p.textContent(`${VIEW} .timeline-range`).catch(() => '');
    check(/Busy time/.test(summary) && /GPU idle/.test(summary) && /Top kernels/.test(summary),
      `${label}: a range dragged on the ruler (40–60 % of ${(vv.t1 / 1000).toFixed(3)} ms) is summarised by the core: busy time, GPU idle, top kernels`);
    await p.screenshot({ path: path.join(shots, `timeline-${label}-range.png`), fullPage: true });
    const [download] = await Promise.all([p.waitForEvent('download', { timeout: TIMEOUT_MS }).catch(() => null), p.click(`${VIEW} .timeline-perfetto`)]);
    if (check(download !== null, `${label}: "Open this range in Perfetto UI" downloads a file (${download?.suggestedFilename()})`)) {
      const trimmed = JSON.parse(readFileSync(await download.path(), 'utf8'));
      const whole = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
      const count = (t) => (Array.isArray(t) ? t.length : t.traceEvents?.length ?? 0);
      check(download.suggestedFilename().endsWith('.json') && count(trimmed) > 0 && count(trimmed) < count(whole),
        `${label}: the download is a JSON trace with fewer events (${count(trimmed)} of ${count(whole)})`);
    }
    check(errors.length === 0, `${label}: no page errors (${errors.join(' | ')})`);
    await p.close();
  }
} finally {
  await browser?.close();
  server.kill();
}
finish();
