// Drawing one frame of the time axis on a 2D canvas. Drawing boxes costs O(pixels +
// events drawn): per track, the first event is found by binary search, and events
// narrower than a pixel are merged per pixel column (after one is drawn, the track
// jumps to the first event reaching past that column). Boxes are written as pixels
// (pixels.mjs) into a strip kept between frames (strip.mjs): a pan copies it and draws
// only the newly exposed columns. Text and lines are drawn over them every frame.
import { ROW_HEIGHT, firstEndingAfter, nextEndingAfter, eventName, eventCategory, eventSol } from './data.mjs';
import { textOn, OVERLAY } from './palette.mjs';
import { rgba } from './pixels.mjs';
import { drawOverlays, drawBands } from './overlays.mjs';
import { LaneStrip } from './strip.mjs';
import { GUTTER, RULER, xOf, yOf } from './geometry.mjs';

const FONT = '11px system-ui, sans-serif';
const CHAR_PX = 6.1;  // an 11px label's average character width, to cut labels without measuring each


// buffer: a PixelBuffer sized to the canvas (the boxes go there, then text and lines
// over them); strip: the boxes layer kept between frames (a fresh one draws it all).
export function drawFrame(ctx, index, g, view, state, buffer, strip = new LaneStrip()) {
  const dpr = buffer.scale;
  const x0 = Math.round(GUTTER * dpr);
  const y0 = Math.round(g.top * dpr);
  const plotW = Math.max(0, Math.min(buffer.width, Math.round(g.width * dpr)) - x0);
  const plotH = Math.max(0, Math.min(buffer.height, Math.round(g.height * dpr)) - y0);
  // Panning moves t0 and t1 alike, which changes their difference in its last bits:
  // the same zoom keeps the same scale, so that the strip's columns stay put.
  const raw = g.plotWidth / (view.t1 - view.t0);
  const scale = strip.scale && Math.abs(raw / strip.scale - 1) < 1e-9 ? strip.scale : raw;
  strip.scale = scale;
  const left = Math.round(view.t0 * scale * dpr);
  fillAround(buffer, x0, y0, plotW, plotH);
  if (plotW > 0 && plotH > 0) {
    const key = `${scale}|${view.scrollY}|${g.top}|${g.height}|${dpr}|${state.overlays.steps}|${state.overlays.sol}`;
    strip.ensure(index, key, left, plotW, plotH, dpr, (b, lo, hi) => drawLanes(b, strip, index, g, view, state, scale, lo, hi));
    strip.blit(buffer, left, x0, y0);
  }
  buffer.put(ctx);
  ctx.save();
  ctx.beginPath();
  ctx.rect(GUTTER, g.top, g.plotWidth, g.height - g.top);
  ctx.clip();
  drawLabels(ctx, index.events, visibleLabels(strip, (left - x0) / dpr, g), state);
  drawOverlays(ctx, index, g, view, state);
  ctx.restore();
  drawGutter(ctx, index, g, view);
  drawBands(ctx, index, g, view, state);
  drawRuler(ctx, g, view);
}

const WHITE = rgba('#ffffff');
const STEP_SHADE = rgba('#eef3fb');
const SOL_BASE = rgba('#ffffff');
const SOL_FILL = rgba('#111111');
const OUTSIDE = rgba('#e4e7ec');

// White where the strip is not copied (text and lines cover most of it).
function fillAround(buffer, x0, y0, plotW, plotH) {
  const words = buffer.words;
  const stride = buffer.width;
  words.fill(WHITE, 0, y0 * stride);
  for (let row = y0; row < buffer.height; row++) {
    words.fill(WHITE, row * stride, row * stride + x0);
    if (row >= y0 + plotH) words.fill(WHITE, row * stride + x0, (row + 1) * stride);
    else words.fill(WHITE, row * stride + x0 + plotW, (row + 1) * stride);
  }
}

// The strip's labels on screen (screen x = world x - shift, CSS px), cut to the plot.
function visibleLabels(strip, shift, g) {
  const out = strip.visible ??= [];
  out.length = 0;
  const all = strip.labels;
  for (let j = 0; j < all.length; j += 5) {
    const left = Math.max(all[j + 1] - shift, GUTTER - 1);
    const right = Math.min(all[j + 2] - shift, g.width + 1);
    if (right - left > 36) out.push(all[j], left, right, all[j + 3], all[j + 4]);
  }
  return out;
}

// World columns [lo, hi) (device px; world x = time × scale, CSS px) of the boxes layer:
// white, the outside of the trace, step shading, the events.
function drawLanes(b, strip, index, g, view, state, scale, lo, hi) {
  const dpr = b.scale;
  b.originY = Math.round(g.top * dpr);
  const c = b.clip;
  for (let row = c.y0; row < c.y1; row++) b.words.fill(WHITE, row * b.width + c.x0, row * b.width + c.x1);
  const from = Math.floor(lo / dpr) - 1;  // world CSS px, a column either side
  const to = hi / dpr + 1;
  const top = g.top;
  const height = g.height - g.top;
  // Before the trace's start and after its end, in the gutter's grey: no trace there.
  if (from < 0) b.rect(from, top, -from, height, OUTSIDE);
  const endX = index.endUs * scale;
  if (to > endX) b.rect(endX, top, to - endX, height, OUTSIDE);
  if (state.overlays.steps) drawStepShading(b, index, top, height, scale, from, to);
  drawEvents(b, strip, index, g, view, state, scale, from, to);
}

// Every other step shaded across the lanes, so that step boundaries read at a glance.
function drawStepShading(b, index, top, height, scale, from, to) {
  let odd = false;
  for (const s of index.spans) {
    if (s.kind !== 'step') continue;
    odd = !odd;
    if (!odd || s.end * scale < from || s.start * scale > to) continue;
    const x = s.start * scale;
    b.rect(x, top, s.end * scale - x, height, STEP_SHADE);
  }
}

// from: a whole world column where every track's walk starts (any walk that starts
// earlier passes through the same event there, so the pixels do not depend on where
// the view starts); to: where it stops.
function drawEvents(b, strip, index, g, view, state, scale, from, to) {
  const ev = index.events;
  const words = ev.words ??= ev.colours.map(rgba);
  const showSol = state.overlays.sol && ev.sol;
  const tFrom = from / scale;
  const tTo = to / scale;
  const h = ROW_HEIGHT - 2;
  for (const laneTracks of index.tracks) {
    for (const track of laneTracks) {
      const y = yOf(g, view, track.y) + 1;
      if (y + ROW_HEIGHT < g.top || y > g.height) continue;
      let k = firstEndingAfter(track, tFrom);
      while (k < track.filled) {
        const i = track.events[k];
        const s = ev.start[i];
        if (s >= tTo) break;
        const x0 = s * scale;
        const w = ev.dur[i] * scale;
        if (w >= 1) {
          b.rect(x0, y, w, h, words[ev.colour[i]]);
          if (w > 36) strip.label(i, x0, x0 + w, y, ev.colour[i]);
          if (showSol && w >= 3 && ev.solValid[i]) {
            b.rect(x0, y + h - 4, w, 4, SOL_BASE);
            b.rect(x0, y + h - 3, w * Math.min(1, Math.max(0, ev.sol[i])), 3, SOL_FILL);
          }
          k++;
          continue;
        }
        // Narrower than a pixel: one pixel column in the first such event's colour,
        // then on to the first event reaching past this column.
        const col = Math.floor(x0);
        b.rect(col, y, 1, h, words[ev.colour[i]]);
        k = nextEndingAfter(track, (col + 1) / scale, k + 1);
      }
    }
  }
}

// What the view shows, in numbers for its words: events drawn as boxes and pixel
// columns of merged smaller ones (the same walk as drawing, over the view alone).
export function countEvents(index, g, view) {
  const ev = index.events;
  const scale = g.plotWidth / (view.t1 - view.t0);
  let drawn = 0;
  let merged = 0;
  for (const laneTracks of index.tracks) {
    for (const track of laneTracks) {
      const y = yOf(g, view, track.y) + 1;
      if (y + ROW_HEIGHT < g.top || y > g.height) continue;
      let k = firstEndingAfter(track, view.t0);
      while (k < track.filled) {
        const i = track.events[k];
        if (ev.start[i] >= view.t1) break;
        if (ev.dur[i] * scale >= 1) { drawn++; k++; continue; }
        const col = Math.floor(GUTTER + (ev.start[i] - view.t0) * scale);
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
