// Drawing one frame of the time axis on a 2D canvas. A frame costs O(visible pixels +
// visible events): per track, the first visible event is found by binary search, and
// events narrower than a pixel are merged per pixel column (after one is drawn, the
// track jumps to the first event reaching past that column). Boxes are batched by
// colour so that the fill style changes once per colour.
import { ROW_HEIGHT, firstEndingAfter, eventName, eventSol } from './data.mjs';
import { textOn, OVERLAY } from './palette.mjs';
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

export function drawFrame(ctx, index, g, view, state) {
  ctx.save();
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, g.width, g.height);
  ctx.beginPath();
  ctx.rect(GUTTER, g.top, g.plotWidth, g.height - g.top);
  ctx.clip();
  drawStepLines(ctx, index, g, view, state);
  const counts = drawEvents(ctx, index, g, view, state);
  drawOverlays(ctx, index, g, view, state);
  ctx.restore();
  drawGutter(ctx, index, g, view);
  drawBands(ctx, index, g, view, state);
  drawRuler(ctx, g, view);
  return counts;
}

function drawStepLines(ctx, index, g, view, state) {
  if (!state.overlays.steps) return;
  ctx.fillStyle = '#eef1f6';
  let odd = false;
  for (const s of index.spans) {
    if (s.kind !== 'step') continue;
    odd = !odd;
    if (s.end < view.t0 || s.start > view.t1 || !odd) continue;
    const x0 = xOf(g, view, s.start);
    ctx.fillRect(x0, g.top, xOf(g, view, s.end) - x0, g.height - g.top);
  }
}

function drawEvents(ctx, index, g, view, state) {
  const ev = index.events;
  const scale = g.plotWidth / (view.t1 - view.t0);
  const buckets = new Map();
  const labels = [];
  const sols = [];
  let drawn = 0;
  let merged = 0;
  const push = (colour, x, y, w, h) => {
    let b = buckets.get(colour);
    if (!b) buckets.set(colour, (b = []));
    b.push(x, y, w, h);
  };
  for (const laneTracks of index.tracks) {
    for (const track of laneTracks) {
      const y = yOf(g, view, track.y) + 1;
      if (y + ROW_HEIGHT < g.top || y > g.height) continue;
      const h = ROW_HEIGHT - 2;
      let runColour = null;
      let runEnd = -1;
      let k = firstEndingAfter(track, view.t0);
      while (k < track.filled) {
        const i = track.events[k];
        const s = ev.start[i];
        if (s >= view.t1) break;
        const x0 = GUTTER + (s - view.t0) * scale;
        const w = ev.dur[i] * scale;
        const colour = ev.colours[ev.colour[i]];
        if (w >= 1) {
          const left = Math.max(x0, GUTTER - 1);
          const right = Math.min(x0 + w, g.width + 1);
          push(colour, left, y, right - left, h);
          if (right - left > 36) labels.push(i, left, right, y, colour);
          if (state.overlays.sol && right - left >= 3) {
            const sol = eventSol(ev, i);
            if (sol !== null) sols.push(left, right - left, y + h, sol);
          }
          drawn++;
          k++;
          continue;
        }
        // Narrower than a pixel: one pixel column, joined to the previous column's
        // when the colour is the same; then on past this column.
        const col = Math.floor(x0);
        if (colour === runColour && col <= runEnd + 1) {
          const b = buckets.get(colour);
          b[b.length - 2] = col + 1 - b[b.length - 4];
          runEnd = col;
        } else {
          push(colour, col, y, 1, h);
          runColour = colour;
          runEnd = col;
        }
        merged++;
        k = firstEndingAfter(track, view.t0 + (col + 1 - GUTTER) / scale, k + 1);
      }
    }
  }
  for (const [colour, b] of buckets) {
    ctx.fillStyle = colour;
    for (let j = 0; j < b.length; j += 4) ctx.fillRect(b[j], b[j + 1], b[j + 2], b[j + 3]);
  }
  drawSolBars(ctx, sols);
  drawLabels(ctx, ev, labels, state);
  return { drawn, merged };
}

// SOL efficiency: a bar along a kernel's bottom edge, filled to its share (a length,
// not a colour, reads the number).
function drawSolBars(ctx, sols) {
  if (!sols.length) return;
  ctx.fillStyle = '#ffffff';
  for (let j = 0; j < sols.length; j += 4) ctx.fillRect(sols[j], sols[j + 2] - 4, sols[j + 1], 4);
  ctx.fillStyle = '#111111';
  for (let j = 0; j < sols.length; j += 4) ctx.fillRect(sols[j], sols[j + 2] - 4, sols[j + 1] * Math.min(1, Math.max(0, sols[j + 3])), 3);
}

function drawLabels(ctx, ev, labels, state) {
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  for (let j = 0; j < labels.length; j += 5) {
    const i = labels[j];
    const left = Math.max(labels[j + 1], GUTTER);
    const room = Math.floor((labels[j + 2] - left - 6) / CHAR_PX);
    if (room < 3) continue;
    let t = eventName(ev, i);
    const sol = state.overlays.sol ? eventSol(ev, i) : null;
    if (sol !== null) t = `${Math.round(sol * 100)} % SOL · ${t}`;
    if (t.length > room) t = `${t.slice(0, room - 1)}…`;
    ctx.fillStyle = textOn(labels[j + 4]);
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
