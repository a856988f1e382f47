// The time-axis view: CPU threads (ops nested by depth), runtime launches and GPU
// streams on one canvas, with the analysis drawn over them (steps, phases, layers,
// SOL efficiency per kernel, the critical path, launch → kernel lines). Zoom and pan by
// mouse and keys (web/timeline/interact.mjs), a click shows an event's details, a
// selected range its summary and a trimmed trace for Perfetto UI. The sheets come from
// the core (web/timeline/CONTRACT.md), asked for when the view is first shown.
import { el, resetSection } from '../widgets.mjs';
import { fmtInt } from '../format.mjs';
import { indexTimeAxis } from '../timeline/data.mjs';
import { criticalPaths } from '../timeline/overlays.mjs';
import { attach, ZOOM_STEP, PAN_STEP } from '../timeline/interact.mjs';
import { legendEntries } from '../timeline/palette.mjs';
import { createController } from '../timeline/controller.mjs';
import { showEvent, showRange } from '../timeline/details.mjs';

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

  const tl = createController({ canvas, index, ctx, saved, described, hover,
    onPick: (i) => {
      if (i < 0) detailPanel.hidden = true;
      else showEvent(detailPanel, index, i, ctx.eventDetail?.(index.events.row[i]));
    },
    onSelect: (range) => {
      if (!range) rangePanel.hidden = true;
      else showRange(rangePanel, range, ctx.rangeSummary?.(range.start, range.end), ctx);
    } });
  controls.append(overlayBoxes(tl, index), zoomButtons(tl), visibleRangeButton(tl));
  attach(tl);
  // Drawn again at a new size; let go (with its million events) when the view is redrawn.
  const resized = new ResizeObserver(() => {
    tl.size = null;
    if (canvas.isConnected) tl.requestDraw();
    else resized.disconnect();
  });
  resized.observe(canvas);
  section.timeline = tl;  // for the page's checks and benchmark: the view's controller
  tl.requestDraw();
  if (tl.state.selection) tl.select(tl.state.selection);
  return tl;
}

function intro(ctx, index) {
  const p = el('p', 'detail');
  p.textContent = `${fmtInt(index.events.count)} events of ${ctx.name ?? 'the trace'} on ${index.lanes.length} lanes, ` +
    'times in ms from the trace start. Wheel zooms at the pointer, drag pans (up and down: the lanes); shift+drag (or drag on the ruler) selects a range ' +
    'to summarise it or open it in Perfetto UI; click an event (or press ] and [ on the focused time axis) for its op, args, perf and SOL rows.';
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
