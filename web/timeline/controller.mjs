// The time axis's controller: what is shown (the view {t0, t1, scrollY} in µs from the
// trace start and content px, the overlays, the selection, the chosen event), and
// drawing it on the next animation frame when it changed (never otherwise). The view
// (views/timeline.mjs) builds the page around it; interact.mjs drives it.
import { fmtInt } from '../format.mjs';
import { ROW_HEIGHT, trackAt, trackOfEvent, eventAt, eventName, eventKind, eventCategory, eventSol } from './data.mjs';
import { drawFrame, countEvents } from './draw.mjs';
import { geometry, timeAt, GUTTER } from './geometry.mjs';
import { LaneStrip } from './strip.mjs';
import { bandRows } from './overlays.mjs';
import { fitted } from './interact.mjs';
import { PixelBuffer } from './pixels.mjs';
import { msText, usText, absoluteText } from './details.mjs';

// saved: the view's state object (kept across redraws of this trace's view); described
// and hover: the paragraphs that say what is shown and what is under the pointer;
// onPick(event index | -1), onSelect(range | null).
export function createController({ canvas, index, ctx, saved, described, hover, onPick, onSelect }) {
  const overlays = saved.overlays;
  const tl = {
    canvas, index, sheets: ctx.timeAxis, state: { overlays, selection: saved.selection ?? null, selected: -1 },
    view: saved.view ?? fitted({ scrollY: 0 }, index.endUs), drag: null, dirty: false, buffer: new PixelBuffer(), strip: new LaneStrip(), frames: 0, drawTimes: [],
    // The canvas's CSS size, read once per resize (views/timeline.mjs's ResizeObserver
    // clears it): reading it per frame forces a layout whenever the hover words changed.
    size: null,
    cssSize: () => (tl.size ??= { width: canvas.clientWidth, height: canvas.clientHeight }),
    geometry: () => geometry(tl.cssSize().width, tl.cssSize().height, bandRows(index, overlays).length),
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
    // The event at a point (its details), or none.
    pick(x, y) {
      const g = tl.geometry();
      if (x < GUTTER || y < g.top) return;
      const t = timeAt(g, tl.view, x);
      const track = trackAt(index, y - g.top + tl.view.scrollY);
      const i = eventAt(index, track, t, 3 * (tl.view.t1 - tl.view.t0) / g.plotWidth);
      tl.state.selected = i;
      tl.requestDraw();
      onPick(i);
    },
    // An event chosen from the keyboard: shown (the view moves to it if it is out of
    // sight, keeping its zoom) and its details asked for, as a click would.
    choose(i) {
      if (i < 0) return;
      const ev = index.events;
      const span = tl.view.t1 - tl.view.t0;
      const start = ev.start[i], end = start + ev.dur[i];
      let view = tl.view;
      if (end < view.t0 || start > view.t1) view = { ...view, t0: (start + end) / 2 - span / 2, t1: (start + end) / 2 + span / 2 };
      const track = trackOfEvent(index, i);
      const g = tl.geometry();
      if (track && (track.y < view.scrollY || track.y + ROW_HEIGHT > view.scrollY + g.height - g.top)) view = { ...view, scrollY: track.y - ROW_HEIGHT };
      tl.state.selected = i;
      tl.setView(view);
      onPick(i);
    },
    selecting(range) {
      tl.state.selection = range;
      tl.requestDraw();
    },
    select(range) {
      tl.state.selection = range;
      saved.selection = range;
      tl.requestDraw();
      if (!range || range.end - range.start <= 0) { tl.state.selection = null; saved.selection = null; onSelect(null); return; }
      onSelect(range);
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
  if (!tl.canvas.isConnected) return;  // the view was drawn again (another report)
  const t0 = performance.now();
  const canvas = tl.canvas;
  const dpr = window.devicePixelRatio || 1;
  const { width, height } = tl.cssSize();
  const w = Math.max(1, Math.round(width * dpr));
  const h = Math.max(1, Math.round(height * dpr));
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  const context = canvas.getContext('2d', { alpha: false });
  context.setTransform(dpr, 0, 0, dpr, 0, 0);
  const g = tl.geometry();
  tl.buffer.resize(context, w, h, dpr);
  drawFrame(context, tl.index, g, tl.view, tl.state, tl.buffer, tl.strip);
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
  tl.describeTimer = setTimeout(() => describe(tl, described), 120);
}

function describe(tl, described) {
  const counts = countEvents(tl.index, tl.geometry(), tl.view);
  described.textContent = `Showing ${msText(Math.max(0, tl.view.t0))} to ${msText(tl.view.t1)} of ${msText(tl.index.endUs)}` +
    ` (${fmtInt(counts.drawn)} events drawn, ${fmtInt(counts.merged)} pixel columns of smaller ones). ` +
    `Keys: W or + zoom in, S or − zoom out, A / D or arrows pan, ↑ ↓ scroll the lanes, 0 fits, ] / [ the next / previous event, Escape clears the selection.`;
}

