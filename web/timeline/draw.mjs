// Drawing one frame of the time axis on a 2D canvas. A frame costs O(visible pixels +
// visible events): per track, the first visible event is found by binary search, and
// events narrower than a pixel are merged per pixel column (after one is drawn, the
// track jumps to the first event reaching past that column). Boxes are written as
// pixels (pixels.mjs), text and lines drawn over them.
import { ROW_HEIGHT, firstEndingAfter, nextEndingAfter, eventName, eventCategory, eventSol } from './data.mjs';
import { textOn, OVERLAY } from './palette.mjs';
import { rgba } from './pixels.mjs';
import { drawOverlays, drawBands } from './overlays.mjs';

export const GUTTER = 190;   // lane labels, CSS px
export const RULER = 26;
export const BAND = 16;
const FONT = '11px system-ui, sans-serif';
const CHAR_PX = 6.1;  // an 11px label's average character width, to cut labels without measuring each

// Where things are on the canvas (CSS px) for a view {t0, t1, scrollY}.
export function geometry(width, height, bandRows) {
  const top = RULER + bandRows * BAND + 4;
  return { width, height, top, bandRows, plotWidth: Math.max(1, width - GUTTER) };
}
export const xOf = (g, view, t) => GUTTER + (t - view.t0) * g.plotWidth / (view.t1 - view.t0);
export const timeAt = (g, view, x) => view.t0 + (x - GUTTER) * (view.t1 - view.t0) / g.plotWidth;
export const yOf = (g, view, contentY) => g.top + contentY - view.scrollY;

// buffer: a PixelBuffer sized to the canvas (the boxes go there, then text and lines
// over them).
export function drawFrame(ctx, index, g, view, state, buffer) {
  buffer.fill(WHITE);
  buffer.setClip(GUTTER, g.top, g.plotWidth, g.height - g.top);
  drawOutside(buffer, index, g, view);
  drawStepShading(buffer, index, g, view, state);
  const labels = [];
  const counts = drawEvents(buffer, index, g, view, state, labels);
  buffer.put(ctx);
  ctx.save();
  ctx.beginPath();
  ctx.rect(GUTTER, g.top, g.plotWidth, g.height - g.top);
  ctx.clip();
  drawLabels(ctx, index.events, labels, state);
  drawOverlays(ctx, index, g, view, state);
  ctx.restore();
  drawGutter(ctx, index, g, view);
  drawBands(ctx, index, g, view, state);
  drawRuler(ctx, g, view);
  return counts;
}

const WHITE = rgba('#ffffff');
const STEP_SHADE = rgba('#eef3fb');
const SOL_BASE = rgba('#ffffff');
const SOL_FILL = rgba('#111111');

// Before the trace's start and after its end, in the gutter's grey: no trace there.
const OUTSIDE = rgba('#e4e7ec');
function drawOutside(buffer, index, g, view) {
  if (view.t0 < 0) buffer.rect(GUTTER, g.top, xOf(g, view, 0) - GUTTER, g.height - g.top, OUTSIDE);
  if (view.t1 > index.endUs) {
    const x = xOf(g, view, index.endUs);
    buffer.rect(x, g.top, g.width - x, g.height - g.top, OUTSIDE);
  }
}

// Every other step shaded across the lanes, so that step boundaries read at a glance.
function drawStepShading(buffer, index, g, view, state) {
  if (!state.overlays.steps) return;
  let odd = false;
  for (const s of index.spans) {
    if (s.kind !== 'step') continue;
    odd = !odd;
    if (s.end < view.t0 || s.start > view.t1 || !odd) continue;
    const x0 = xOf(g, view, s.start);
    buffer.rect(x0, g.top, xOf(g, view, s.end) - x0, g.height - g.top, STEP_SHADE);
  }
}

function drawEvents(buffer, index, g, view, state, labels) {
  const ev = index.events;
  const words = ev.words ??= ev.colours.map(rgba);
  const scale = g.plotWidth / (view.t1 - view.t0);
  const showSol = state.overlays.sol && ev.sol;
  let drawn = 0;
  let merged = 0;
  for (const laneTracks of index.tracks) {
    for (const track of laneTracks) {
      const y = yOf(g, view, track.y) + 1;
      if (y + ROW_HEIGHT < g.top || y > g.height) continue;
      const h = ROW_HEIGHT - 2;
      let k = firstEndingAfter(track, view.t0);
      while (k < track.filled) {
        const i = track.events[k];
        const s = ev.start[i];
        if (s >= view.t1) break;
        const x0 = GUTTER + (s - view.t0) * scale;
        const w = ev.dur[i] * scale;
        if (w >= 1) {
          const left = Math.max(x0, GUTTER - 1);
          const right = Math.min(x0 + w, g.width + 1);
          buffer.rect(left, y, right - left, h, words[ev.colour[i]]);
          if (right - left > 36) labels.push(i, left, right, y, ev.colour[i]);
          if (showSol && right - left >= 3 && ev.solValid[i]) {
            buffer.rect(left, y + h - 4, right - left, 4, SOL_BASE);
            buffer.rect(left, y + h - 3, (right - left) * Math.min(1, Math.max(0, ev.sol[i])), 3, SOL_FILL);
          }
          drawn++;
          k++;
          continue;
        }
        // Narrower than a pixel: one pixel column in the first such event's colour,
        // then on to the first event reaching past this column.
        const col = Math.floor(x0);
        buffer.rect(col, y, 1, h, words[ev.colour[i]]);
        merged++;
        k = nextEndingAfter(track, view.t0 + (col + 1 - GUTTER) / scale, k + 1);
      }
    }
  }
  return { drawn, merged };
}

function drawLabels(ctx, ev, labels, state) {
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  for (let j = 0; j < labels.length; j += 5) {
    const i = labels[j];
    const left = Math.max(labels[j + 1], GUTTER);
    const room = Math.floor((labels[j + 2] - left - 6) / CHAR_PX);
    if (room < 3) continue;
    // The category in words too: colour is not the only key.
    const category = eventCategory(ev, i);
    let t = category ? `${category} · ${eventName(ev, i)}` : eventName(ev, i);
    const sol = state.overlays.sol ? eventSol(ev, i) : null;
    if (sol !== null) t = `${Math.round(sol * 100)} % SOL · ${t}`;
    if (t.length > room) t = `${t.slice(0, room - 1)}…`;
    ctx.fillStyle = textOn(ev.colours[labels[j + 4]]);
    ctx.fillText(t, left + 3, labels[j + 3] + (ROW_HEIGHT - 2) / 2 - (sol !== null ? 1 : 0));
  }
}

function drawGutter(ctx, index, g, view) {
  ctx.fillStyle = '#f4f6f9';
  ctx.fillRect(0, g.top, GUTTER, g.height - g.top);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  for (const lane of index.lanes) {
    const y = yOf(g, view, lane.y);
    if (y + lane.height < g.top || y > g.height) continue;
    ctx.fillStyle = '#d9dde5';
    ctx.fillRect(0, y + lane.height + 2, g.width, 1);
    if (y + 9 < g.top) continue;
    ctx.fillStyle = '#1d2330';
    const room = Math.floor((GUTTER - 12) / CHAR_PX);
    const label = lane.label.length > room ? `${lane.label.slice(0, room - 1)}…` : lane.label;
    ctx.fillText(label, 6, y + ROW_HEIGHT / 2);
    if (lane.depths > 1 && y + ROW_HEIGHT * 1.5 > g.top) {
      ctx.fillStyle = '#5a6375';
      ctx.fillText(`${lane.depths} levels of nesting`, 6, y + ROW_HEIGHT * 1.5);
    }
  }
  ctx.fillStyle = '#c3c9d4';
  ctx.fillRect(GUTTER - 1, g.top, 1, g.height - g.top);
  // More lanes than fit: a scroll bar's thumb on the right edge says where these are.
  const room = g.height - g.top;
  if (index.height > room) {
    const h = Math.max(16, room * room / (index.height + 8));
    ctx.fillStyle = '#8a93a3';
    ctx.fillRect(g.width - 5, g.top + (room - h) * view.scrollY / Math.max(1, index.height + 8 - room), 4, h);
  }
}

// Tick spacing: 1, 2 or 5 × 10^k µs, at least minPx apart.
export function tickStep(g, view, minPx = 90) {
  const raw = (view.t1 - view.t0) * minPx / g.plotWidth;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
}
export function formatMs(us, stepUs) {
  const digits = Math.max(0, Math.min(6, -Math.floor(Math.log10(stepUs / 1000))));
  return `${(us / 1000).toFixed(digits)} ms`;
}

function drawRuler(ctx, g, view) {
  ctx.fillStyle = '#f4f6f9';
  ctx.fillRect(0, 0, g.width, RULER);
  ctx.fillStyle = '#c3c9d4';
  ctx.fillRect(0, RULER - 1, g.width, 1);
  ctx.fillStyle = '#5a6375';
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  ctx.fillText('from the trace start', 6, RULER / 2);
  const step = tickStep(g, view);
  ctx.fillStyle = '#1d2330';
  for (let t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
    const x = Math.round(xOf(g, view, t));
    if (x < GUTTER) continue;
    ctx.fillRect(x, RULER - 7, 1, 6);
    ctx.fillText(formatMs(t, step), x + 3, RULER / 2 - 2);
  }
}

export { OVERLAY };
