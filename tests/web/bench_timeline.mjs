// How smoothly the time-axis view (web/views/timeline.mjs) pans, in Debian's headless
// Chromium:
//   node tests/web/bench_timeline.mjs [--site build/wasm/web] [--events 1000000] [--seconds 4] [--no-owlv2]
// 1. A million synthetic events (tests/web/support/timeline_synth.mjs, built in the
//    page): time to first draw (indexing + the first frame), then a pan of --seconds by
//    synthetic pointer drags (one move per animation frame) at three zooms: the whole
//    trace (every event merged per pixel column), 1/50 of it and 1/2000 of it (boxes
//    with labels).
// 2. The owlv2 trace (tests/fixtures/traces/tracelens-h100-owlv2-large) through the
//    page and the core, when the core gives the time axis: time from showing the view to
//    its first draw, then the same pans.
// Prints, per run: frames per second (from the animation frames' intervals), the
// median and p95 frame interval, the median and p95 time the view spent drawing a
// frame. Headless Chromium here runs with --disable-gpu: the canvas is drawn in
// software, so these are software-drawing numbers (a GPU-backed canvas in a desktop
// browser draws the same frames faster).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repo, fixtures, defaultSite, gzOf, pathOptions, startPageServer, launchChromium } from './support/harness.mjs';
import { syntheticTimeAxis } from './support/timeline_synth.mjs';

const argv = process.argv.slice(2);
const option = pathOptions(argv);
const site = option('--site', defaultSite);
const numberOption = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const EVENTS = numberOption('--events', 1_000_000);
const SECONDS = numberOption('--seconds', 4);
const VIEW = 'section.view[data-view="timeline"]';
const CANVAS = `${VIEW} canvas.timeline-canvas`;

const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const ms = (x) => `${x.toFixed(2)} ms`;

// Pans for SECONDS: every animation frame, a pointer drag moves by `step` px (back and
// forth), dispatched in the page; returns the frame intervals and the view's draw times.
async function pan(page, zoom, label) {
  const r = await page.evaluate(async ([sel, zoomBy, seconds]) => {
    const section = document.querySelector(sel);
    const tl = section.timeline;
    const canvas = tl.canvas;
    const end = tl.index.endUs;
    const span = end / zoomBy;
    tl.setView({ t0: end / 2 - span / 2, t1: end / 2 + span / 2, scrollY: 0 });
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const box = canvas.getBoundingClientRect();
    const y = box.top + 60;
    let x = box.left + box.width / 2;
    const fire = (type) => canvas.dispatchEvent(new PointerEvent(type, { clientX: x, clientY: y, button: 0, buttons: 1, pointerId: 1, bubbles: true }));
    fire('pointerdown');
    const drawsBefore = tl.drawTimes.length;
    const framesBefore = tl.frames;
    const stamps = [];
    const started = performance.now();
    let direction = -1;
    await new Promise((resolve) => {
      const step = (t) => {
        stamps.push(t);
        if (t - started > seconds * 1000) return resolve();
        x += direction * 6;
        if (Math.abs(x - (box.left + box.width / 2)) > box.width / 3) direction = -direction;
        fire('pointermove');
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    fire('pointerup');
    await new Promise((res) => setTimeout(res, 200));  // the view's words settle after the last frame
    const intervals = stamps.slice(1).map((t, i) => t - stamps[i]);
    return { intervals, draws: tl.drawTimes.slice(drawsBefore), frames: tl.frames - framesBefore,
      seconds: (stamps.at(-1) - stamps[0]) / 1000, text: document.querySelector('#timeline-description').textContent.split('. Keys')[0] };
  }, [VIEW, zoom, SECONDS]);
  const fps = r.frames / r.seconds;
  console.log(`  ${label}: ${fps.toFixed(1)} frames drawn per second over ${r.seconds.toFixed(1)} s; frame interval median ${ms(quantile(r.intervals, 0.5))}, p95 ${ms(quantile(r.intervals, 0.95))};` +
    ` drawing median ${ms(quantile(r.draws, 0.5))}, p95 ${ms(quantile(r.draws, 0.95))}, max ${ms(Math.max(...r.draws))}`);
  console.log(`    (${r.text})`);
}

const { server, origin } = await startPageServer(site);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.on('pageerror', (e) => console.log(`page error: ${e}`));
  await page.goto(`${origin}/`);
  console.log(`time axis benchmark: headless Chromium (${await browser.version()}), --disable-gpu: software canvas; viewport 1600×1000, device pixel ratio 1`);

  const first = await page.evaluate(`(async () => {
    const make = ${syntheticTimeAxis};
    const t0 = performance.now();
    const timeAxis = make({ events: ${EVENTS}, threads: 4, streams: 4, stepCount: 20 });
    const built = performance.now() - t0;
    const section = document.querySelector('${VIEW}');
    document.getElementById('welcome').hidden = true;
    section.hidden = false;
    section.classList.remove('placeholder');
    const view = await import('/views/timeline.mjs');
    const tl = await view.render(section, { timeAxis, name: 'synthetic', state: {} });
    await new Promise((res) => { const wait = () => (tl.frames > 0 ? res() : requestAnimationFrame(wait)); wait(); });
    return { events: timeAxis.events.rows, lanes: timeAxis.lanes.rows, built, firstDraw: tl.firstDrawMs, firstFrame: tl.drawTimes[0] };
  })()`);
  console.log(`synthetic: ${first.events.toLocaleString('en-US')} events on ${first.lanes} lanes (built in the page in ${ms(first.built)}, not counted)`);
  console.log(`  time to first draw: ${ms(first.firstDraw)} (indexing the sheets + the first frame; the frame alone ${ms(first.firstFrame)})`);
  for (const [zoom, label] of [[1, 'pan, whole trace'], [50, 'pan, 1/50 of the trace'], [2000, 'pan, 1/2000 of the trace']]) await pan(page, zoom, label);
  await page.close();

  const owlv2 = path.join(fixtures, 'tracelens-h100-owlv2-large');
  if (!argv.includes('--no-owlv2') && existsSync(owlv2)) {
    const p = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    p.on('pageerror', (e) => console.log(`page error: ${e}`));
    await p.goto(`${origin}/`);
    await p.setInputFiles('#file-input', gzOf('tracelens-h100-owlv2-large'));
    await p.waitForFunction(() => document.body.dataset.state === 'loaded' || document.body.dataset.state === 'error', null, { timeout: 120_000 });
    const shown = Date.now();
    await p.click('nav [data-view="timeline"]');
    const drawn = await p.waitForFunction((sel) => Number(document.querySelector(sel)?.dataset.frames) > 0, CANVAS, { timeout: 120_000 })
      .then(() => true, () => false);
    if (drawn) {
      const rows = await p.$eval(VIEW, (s) => s.timeline.sheets.events.rows);
      console.log(`owlv2 (${path.relative(repo, owlv2)}): ${rows.toLocaleString('en-US')} events; time to first draw after choosing the view: ${Date.now() - shown} ms (the core's sheets + indexing + the first frame)`);
      for (const [zoom, label] of [[1, 'pan, whole trace'], [50, 'pan, 1/50 of the trace']]) await pan(p, zoom, label);
    } else {
      console.log('owlv2: the page gave no time axis (the core\'s time-axis sheets are not in this build)');
    }
  }
} finally {
  await browser.close();
  server.kill();
}
