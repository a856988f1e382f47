// Zoom, pan, pick and select on the time axis, as Perfetto users expect:
//   wheel: zoom at the cursor (a sideways wheel or shift+wheel pans); drag: pan (and
//   scroll the lanes); shift+drag, or a drag on the ruler: select a range; click: an
//   event's details;
//   keys: W or + zoom in, S or - zoom out (at the middle), A / D or ← / → pan, ↑ / ↓
//   scroll the lanes, 0 fits the whole trace, ] / [ choose the next / previous event on
//   the chosen one's track (at first, on the first GPU stream from the middle of the
//   view) and show its details, Escape clears the selection.
// tl is the view's controller (views/timeline.mjs): {canvas, view: {t0, t1, scrollY},
// geometry(), index, requestDraw(), pick(x, y), choose(event), select(range | null), hover(x, y)}.
import { firstEventFrom, neighbourEvent } from './data.mjs';
import { GUTTER, timeAt } from './geometry.mjs';

export const ZOOM_STEP = 1.5;  // a key press divides (or multiplies) the visible time by this
export const PAN_STEP = 0.2;   // a key press moves by this share of the visible time
export const MIN_SPAN_US = 0.05;

// The view zoomed by factor (> 1 zooms in) keeping time `at` where it is.
export function zoomed(view, factor, at, endUs) {
  const span = Math.min(Math.max((view.t1 - view.t0) / factor, MIN_SPAN_US), Math.max(endUs, MIN_SPAN_US) * 1.5);
  const share = (at - view.t0) / (view.t1 - view.t0);
  return clampTime({ ...view, t0: at - share * span, t1: at - share * span + span }, endUs);
}
export function panned(view, deltaUs, endUs) {
  return clampTime({ ...view, t0: view.t0 + deltaUs, t1: view.t1 + deltaUs }, endUs);
}
// Keeps some of the trace in sight: the view may pass either end by half its width.
function clampTime(view, endUs) {
  const span = view.t1 - view.t0;
  const shift = Math.max(-span / 2 - view.t0, 0) - Math.max(view.t1 - endUs - span / 2, 0);
  return { ...view, t0: view.t0 + shift, t1: view.t1 + shift };
}
export const fitted = (view, endUs) => ({ ...view, t0: 0, t1: Math.max(endUs, MIN_SPAN_US) });

export function attach(tl) {
  const { canvas } = tl;
  canvas.addEventListener('wheel', (e) => onWheel(tl, e), { passive: false });
  canvas.addEventListener('keydown', (e) => onKey(tl, e));
  canvas.addEventListener('pointerdown', (e) => onPointerDown(tl, e));
  canvas.addEventListener('pointermove', (e) => onPointerMove(tl, e));
  canvas.addEventListener('pointerup', (e) => onPointerUp(tl, e));
  canvas.addEventListener('pointercancel', () => { tl.drag = null; });
  canvas.addEventListener('pointerleave', () => tl.hover(null, null));
}

const local = (canvas, e) => {
  const r = canvas.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
};

function onWheel(tl, e) {
  e.preventDefault();
  const [x] = local(tl.canvas, e);
  const g = tl.geometry();
  const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
  const dx = (e.shiftKey ? e.deltaY : e.deltaX) * unit;
  const dy = e.shiftKey ? 0 : e.deltaY * unit;
  if (Math.abs(dx) > Math.abs(dy)) {
    tl.setView(panned(tl.view, dx * (tl.view.t1 - tl.view.t0) / g.plotWidth, tl.index.endUs));
  } else if (dy) {
    const at = x >= GUTTER ? timeAt(g, tl.view, x) : (tl.view.t0 + tl.view.t1) / 2;
    tl.setView(zoomed(tl.view, Math.exp(-dy * 0.0025), at, tl.index.endUs));
  }
}

function onKey(tl, e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const view = tl.view;
  const span = view.t1 - view.t0;
  const mid = (view.t0 + view.t1) / 2;
  const end = tl.index.endUs;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const next = {
    w: () => zoomed(view, ZOOM_STEP, mid, end), '+': () => zoomed(view, ZOOM_STEP, mid, end), '=': () => zoomed(view, ZOOM_STEP, mid, end),
    s: () => zoomed(view, 1 / ZOOM_STEP, mid, end), '-': () => zoomed(view, 1 / ZOOM_STEP, mid, end),
    a: () => panned(view, -span * PAN_STEP, end), ArrowLeft: () => panned(view, -span * PAN_STEP, end),
    d: () => panned(view, span * PAN_STEP, end), ArrowRight: () => panned(view, span * PAN_STEP, end),
    0: () => fitted(view, end),
    ArrowUp: () => ({ ...view, scrollY: view.scrollY - 3 * 18 }), ArrowDown: () => ({ ...view, scrollY: view.scrollY + 3 * 18 }),
  }[key];
  if (next) {
    e.preventDefault();
    tl.setView(next());
  } else if (key === ']' || key === '[') {
    e.preventDefault();
    const chosen = tl.state.selected;
    tl.choose(chosen >= 0 ? neighbourEvent(tl.index, chosen, key === ']' ? 1 : -1) : firstEventFrom(tl.index, mid));
  } else if (key === 'Escape' && tl.state.selection) {
    e.preventDefault();
    tl.select(null);
  }
}

function onPointerDown(tl, e) {
  if (e.button !== 0) return;
  const [x, y] = local(tl.canvas, e);
  if (x < GUTTER && y >= tl.geometry().top) {
    tl.drag = { mode: 'pan', x, y, view: tl.view, moved: false, onGutter: true };
  } else {
    const onRuler = y < tl.geometry().top;
    tl.drag = { mode: e.shiftKey || onRuler ? 'select' : 'pan', x, y, view: tl.view, moved: false };
  }
  tl.canvas.setPointerCapture?.(e.pointerId);
  tl.canvas.focus({ preventScroll: true });
}

function onPointerMove(tl, e) {
  const [x, y] = local(tl.canvas, e);
  const d = tl.drag;
  if (!d) {
    tl.hover(x, y);
    return;
  }
  if (Math.abs(x - d.x) + Math.abs(y - d.y) > 3) d.moved = true;
  if (!d.moved) return;
  const g = tl.geometry();
  if (d.mode === 'pan') {
    const dt = (x - d.x) * (d.view.t1 - d.view.t0) / g.plotWidth;
    tl.setView({ ...panned(d.view, -dt, tl.index.endUs), scrollY: d.view.scrollY - (y - d.y) });
  } else {
    tl.selecting({ start: timeAt(g, tl.view, Math.max(GUTTER, d.x)), end: timeAt(g, tl.view, Math.max(GUTTER, x)) });
  }
  tl.hover(x, y);
}

function onPointerUp(tl, e) {
  const d = tl.drag;
  tl.drag = null;
  if (!d) return;
  const [x, y] = local(tl.canvas, e);
  if (!d.moved && d.mode === 'pan' && !d.onGutter) tl.pick(x, y);
  else if (d.moved && d.mode === 'select') {
    const g = tl.geometry();
    const a = timeAt(g, tl.view, Math.max(GUTTER, d.x));
    const b = timeAt(g, tl.view, Math.max(GUTTER, x));
    tl.select({ start: Math.max(0, Math.min(a, b)), end: Math.min(tl.index.endUs, Math.max(a, b)) });
  }
}
