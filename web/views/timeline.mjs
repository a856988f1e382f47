// The time-axis view: CPU threads (ops nested by depth), runtime launches and GPU
// streams on one canvas, with the analysis drawn over them (steps, phases, layers,
// SOL efficiency per kernel, the critical path, launch → kernel lines). Zoom and pan by
// mouse and keys (web/timeline/interact.mjs), a click shows an event's details, a
// selected range its summary and a trimmed trace for Perfetto UI. The sheets come from
// the core (web/timeline/CONTRACT.md), asked for when the view is first shown.
import { el, resetSection } from '../widgets.mjs';
import { fmtInt } from '../format.mjs';
import { indexTimeAxis, trackAt, eventAt, eventName, eventKind, eventCategory, eventSol } from '../timeline/data.mjs';
import { drawFrame, geometry, timeAt, GUTTER } from '../timeline/draw.mjs';
import { bandRows, criticalPaths } from '../timeline/overlays.mjs';
import { attach, fitted, ZOOM_STEP, PAN_STEP } from '../timeline/interact.mjs';
import { legendEntries } from '../timeline/palette.mjs';
import { PixelBuffer } from '../timeline/pixels.mjs';
import { showEvent, showRange, msText, usText, absoluteText } from '../timeline/details.mjs';

const OVERLAYS = [
  ['steps', 'Steps', 'step'], ['phases', 'Phases', 'phase'], ['layers', 'Layers', 'layer'],
  ['sol', 'SOL efficiency (bar under each kernel)', null], ['critical', 'Critical path', 'critical_path'],
  ['launches', 'Launch → kernel lines and long launch delays', null],
];

export async function render(section, ctx) {
  resetSection(section, 'Time axis');
  if (!ctx.timeAxis) {
    // The router draws the view again when the sheets (or an error) come.
    if (ctx.timeAxisError) {
      section.append(el('p', 'error', ctx.timeAxisError));
      if (!ctx.shared) {
        const again = el('button', '', 'Try again');
        again.type = 'button';
        again.addEventListener('click', () => ctx.requestTimeAxis().catch(() => {}));
        section.append(again);
      }
      return;
    }
    const waiting = el('p', 'detail', 'Laying out the events on the time axis…');
    waiting.setAttribute('role', 'status');
    section.append(waiting);
    Promise.resolve(ctx.requestTimeAxis?.()).catch((e) => {
      if (section.contains(waiting)) waiting.replaceWith(el('p', 'error', e?.message ?? String(e)));
    });
    return;
  }
  const started = performance.now();
  const index = indexTimeAxis(ctx.timeAxis);
  if (index.events.count === 0) {
    section.append(el('p', 'detail', 'This trace has no events to put on a time axis.'));
    return;
  }
  const tl = buildView(section, ctx, index);
  tl.firstDrawStarted = started;
  return tl;
}

function buildView(section, ctx, index) {
  const saved = ctx.state ?? {};
  const overlays = saved.overlays ??= { steps: true, phases: true, layers: false, sol: true, critical: false, launches: true };
  section.append(intro(ctx, index));
  const controls = el('div', 'timeline-controls');
  const canvasWrap = el('div', 'timeline-canvas-wrap');
  // As tall as the lanes need, up to most of the window (then the lanes scroll).
  const canvas = el('canvas', `timeline-canvas ${index.height < 200 ? 'timeline-short' : index.height < 400 ? 'timeline-medium' : ''}`);
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'application');
  canvas.setAttribute('aria-roledescription', 'time axis');
  canvas.setAttribute('aria-label', `Time axis of ${ctx.name ?? 'the trace'}`);
  const described = el('p', 'timeline-range-now');
  described.id = 'timeline-description';
  canvas.setAttribute('aria-describedby', described.id);
  const hover = el('p', 'timeline-hover', 'Point at the time axis for the time there.');
  canvasWrap.append(canvas);
  const panels = el('div', 'timeline-panels');
  const detailPanel = el('section', 'timeline-panel timeline-event');
  const rangePanel = el('section', 'timeline-panel timeline-range');
  detailPanel.hidden = true;
  rangePanel.hidden = true;
  detailPanel.setAttribute('aria-live', 'polite');
  rangePanel.setAttribute('aria-live', 'polite');
  panels.append(detailPanel, rangePanel);
  section.append(controls, legend(index), described, canvasWrap, hover, panels, laneList(index));

  const tl = {
    canvas, index, sheets: ctx.timeAxis, state: { overlays, selection: saved.selection ?? null, selected: -1 },
    view: saved.view ?? fitted({ scrollY: 0 }, index.endUs), drag: null, dirty: false, buffer: new PixelBuffer(), frames: 0, drawTimes: [],
    geometry: () => geometry(canvas.clientWidth, canvas.clientHeight, bandRows(index, overlays).length),
    requestDraw() {
      if (tl.dirty) return;
      tl.dirty = true;
      requestAnimationFrame(() => frame(tl, described));
    },
    setView(v) {
      const g = tl.geometry();
      const maxScroll = Math.max(0, index.height - (g.height - g.top) + 8);
      tl.view = { ...v, scrollY: Math.min(Math.max(0, v.scrollY), maxScroll) };
      saved.view = tl.view;
      tl.requestDraw();
    },
    pick(x, y) {
      const g = tl.geometry();
      if (x < GUTTER || y < g.top) return;
      const t = timeAt(g, tl.view, x);
      const track = trackAt(index, y - g.top + tl.view.scrollY);
      const i = eventAt(index, track, t, 3 * (tl.view.t1 - tl.view.t0) / g.plotWidth);
      tl.state.selected = i;
      tl.requestDraw();
      if (i < 0) { detailPanel.hidden = true; return; }
      showEvent(detailPanel, index, i, ctx.eventDetail?.(index.events.row[i]));
    },
    selecting(range) {
      tl.state.selection = range;
      tl.requestDraw();
    },
    select(range) {
      tl.state.selection = range;
      saved.selection = range;
      tl.requestDraw();
      if (!range || range.end - range.start <= 0) { rangePanel.hidden = true; tl.state.selection = null; return; }
      showRange(rangePanel, range, ctx.rangeSummary?.(range.start, range.end), ctx);
    },
    hover(x, y) {
      const g = tl.geometry();
      if (x !== null && x < GUTTER && y >= g.top) {
        const lane = index.lanes.find((l) => y - g.top + tl.view.scrollY >= l.y && y - g.top + tl.view.scrollY < l.y + l.height);
        if (lane) { hover.textContent = `Lane: ${lane.label}`; return; }
      }
      if (x === null || x < GUTTER) { hover.textContent = 'Point at the time axis for the time there.'; return; }
      const t = timeAt(g, tl.view, x);
      let text = `${msText(t)} from the trace start · ${absoluteText(index, t)}`;
      if (y >= g.top) {
        const i = eventAt(index, trackAt(index, y - g.top + tl.view.scrollY), t, 2 * (tl.view.t1 - tl.view.t0) / g.plotWidth);
        if (i >= 0) text += ` · ${eventLine(index, i)}`;
      }
      hover.textContent = text;
    },
  };
  controls.append(overlayBoxes(tl, index), zoomButtons(tl), visibleRangeButton(tl));
  attach(tl);
  new ResizeObserver(() => tl.requestDraw()).observe(canvas);
  section.timeline = tl;  // for the page's checks and benchmark: the view's controller
  tl.requestDraw();
  if (tl.state.selection) tl.select(tl.state.selection);
  return tl;
}

const eventLine = (index, i) => {
  const ev = index.events;
  const sol = eventSol(ev, i);
  return [eventName(ev, i), eventCategory(ev, i) || eventKind(ev, i), usText(ev.dur[i]),
    sol === null ? '' : `${Math.round(sol * 100)} % SOL`].filter(Boolean).join(' · ');
};

function frame(tl, described) {
  tl.dirty = false;
  const t0 = performance.now();
  const canvas = tl.canvas;
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
  const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  const context = canvas.getContext('2d', { alpha: false });
  context.setTransform(dpr, 0, 0, dpr, 0, 0);
  const g = tl.geometry();
  tl.buffer.resize(context, w, h, dpr);
  const counts = drawFrame(context, tl.index, g, tl.view, tl.state, tl.buffer);
  const ms = performance.now() - t0;
  tl.frames++;
  tl.drawTimes.push(ms);
  if (tl.drawTimes.length > 2000) tl.drawTimes.splice(0, 1000);
  if (tl.frames === 1 && tl.firstDrawStarted !== undefined) tl.firstDrawMs = performance.now() - tl.firstDrawStarted;
  canvas.dataset.t0 = String(tl.view.t0);
  canvas.dataset.t1 = String(tl.view.t1);
  canvas.dataset.frames = String(tl.frames);
  // The words (for the eyes and screen readers) once the view stops moving, not per frame.
  clearTimeout(tl.describeTimer);
  tl.describeTimer = setTimeout(() => describe(tl, described, counts), 120);
}

function describe(tl, described, counts) {
  described.textContent = `Showing ${msText(Math.max(0, tl.view.t0))} to ${msText(tl.view.t1)} of ${msText(tl.index.endUs)}` +
    ` (${fmtInt(counts.drawn)} events drawn, ${fmtInt(counts.merged)} pixel columns of smaller ones). ` +
    `Keys: W or + zoom in, S or − zoom out, A / D or arrows pan, ↑ ↓ scroll the lanes, 0 fits, Escape clears the selection.`;
}

function intro(ctx, index) {
  const p = el('p', 'detail');
  p.textContent = `${fmtInt(index.events.count)} events of ${ctx.name ?? 'the trace'} on ${index.lanes.length} lanes, ` +
    'times in ms from the trace start. Wheel zooms at the pointer, drag pans (up and down: the lanes); shift+drag (or drag on the ruler) selects a range ' +
    'to summarise it or open it in Perfetto UI; click an event for its op, args, perf and SOL rows.';
  return p;
}

function overlayBoxes(tl, index) {
  const fs = el('fieldset', 'timeline-overlays');
  fs.append(el('legend', '', 'Draw over the events'));
  for (const [key, label, spanKind] of OVERLAYS) {
    const id = `timeline-overlay-${key}`;
    const box = el('input');
    box.type = 'checkbox';
    box.id = id;
    box.dataset.overlay = key;
    const has = spanKind ? index.spans.some((s) => s.kind === spanKind) : key === 'sol' ? Boolean(index.events.sol) : true;
    box.checked = Boolean(tl.state.overlays[key]) && has;
    box.disabled = !has;
    box.addEventListener('change', () => {
      tl.state.overlays[key] = box.checked;
      tl.setView(tl.view);
    });
    const l = el('label', has ? '' : 'timeline-overlay-missing', has ? overlayLabel(key, label, index) : `${label} (none in this trace)`);
    l.htmlFor = id;
    const wrap = el('span', 'timeline-overlay');
    wrap.append(box, l);
    fs.append(wrap);
  }
  return fs;
}

// The range in sight, summarised: a selection without a pointer.
function visibleRangeButton(tl) {
  const b = el('button', 'timeline-select-visible', 'Summarise the range in sight');
  b.type = 'button';
  b.addEventListener('click', () => tl.select({ start: Math.max(0, tl.view.t0), end: Math.min(tl.index.endUs, tl.view.t1) }));
  return b;
}

// The critical path's box names its paths when there are two (HTA's and the inferred).
function overlayLabel(key, label, index) {
  if (key !== 'critical') return label;
  const paths = criticalPaths(index).map(([source]) => source || 'the path');
  return paths.length < 2 ? label : `Critical path (${paths[0]}: solid red; ${paths.slice(1).join(', ')}: dashed blue)`;
}

function zoomButtons(tl) {
  const wrap = el('div', 'timeline-zoom');
  wrap.setAttribute('role', 'group');
  wrap.setAttribute('aria-label', 'Zoom');
  for (const [label, key, title] of [['+', 'w', `Zoom in (×${ZOOM_STEP}; key W)`], ['−', 's', 'Zoom out (key S)'],
    ['←', 'a', `Pan left (${PAN_STEP * 100} %; key A)`], ['→', 'd', 'Pan right (key D)'], ['Fit', '0', 'Show the whole trace (key 0)']]) {
    const b = el('button', '', label);
    b.type = 'button';
    b.title = title;
    b.setAttribute('aria-label', title);
    b.addEventListener('click', () => tl.canvas.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));
    wrap.append(b);
  }
  return wrap;
}

function legend(index) {
  const ev = index.events;
  const ul = el('ul', 'legend timeline-legend');
  ul.setAttribute('aria-label', 'Kernel colours by category');
  for (const [name, colour] of legendEntries(ev.category.dictionary)) {
    const li = el('li');
    const swatch = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    swatch.setAttribute('width', '12');
    swatch.setAttribute('height', '12');
    swatch.setAttribute('aria-hidden', 'true');
    const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    r.setAttribute('width', '12');
    r.setAttribute('height', '12');
    r.setAttribute('fill', colour);
    swatch.append(r);
    li.append(swatch, ` ${name}`);
    ul.append(li);
  }
  const cpu = el('li', 'detail', 'CPU ops and launches in greys; a bar along a kernel\'s bottom edge fills to its SOL efficiency.');
  ul.append(cpu);
  return ul;
}

// The lanes as a list: for screen readers, and to read which lane is which.
function laneList(index) {
  const details = el('details', 'timeline-lane-list');
  details.append(el('summary', '', `Lanes (${index.lanes.length})`));
  const ol = el('ol', 'timeline-lanes');
  for (const lane of index.lanes) {
    const li = el('li', '', lane.label);
    li.dataset.kind = lane.kind;
    ol.append(li);
  }
  details.append(ol);
  return details;
}
