// What the analysis draws over the events: steps, phases and layers as bands under
// the ruler, the critical paths (outlined segments joined by lines), launch → kernel
// lines and the long launch delays, the selected range and the chosen event with its
// launch/kernel partner.
import { ROW_HEIGHT, trackOfEvent, firstEndingAfter } from './data.mjs';
import { GUTTER, RULER, BAND, xOf, yOf } from './geometry.mjs';
import { OVERLAY } from './palette.mjs';

// The band rows shown: the span kinds the trace has whose overlay is on.
export const BAND_KINDS = [['step', 'steps', 'steps'], ['phase', 'phases', 'phases'], ['layer', 'layers', 'layers']];
export function bandRows(index, overlays) {
  return BAND_KINDS.filter(([kind, key]) => overlays[key] && index.spans.some((s) => s.kind === kind));
}

export function drawBands(ctx, index, g, view, state) {
  const rows = bandRows(index, state.overlays);
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  rows.forEach(([kind, , label], r) => {
    const y = RULER + r * BAND;
    ctx.fillStyle = '#f4f6f9';
    ctx.fillRect(0, y, g.width, BAND);
    ctx.fillStyle = '#5a6375';
    ctx.fillText(label, 6, y + BAND / 2);
    let n = 0;
    for (const s of index.spans) {
      if (s.kind !== kind) continue;
      n++;
      if (s.end < view.t0 || s.start > view.t1) continue;
      const x0 = Math.max(GUTTER, xOf(g, view, s.start));
      const x1 = Math.min(g.width, xOf(g, view, s.end));
      if (x1 - x0 < 0.5) continue;
      ctx.fillStyle = n % 2 ? '#c9d3e3' : '#dfe5ee';
      ctx.fillRect(x0, y + 1, x1 - x0, BAND - 2);
      if (x1 - x0 > 30) {
        ctx.fillStyle = '#1d2330';
        const room = Math.floor((x1 - x0 - 6) / 5.5);
        ctx.fillText(s.label.length > room ? `${s.label.slice(0, room - 1)}…` : s.label, x0 + 3, y + BAND / 2);
      }
    }
  });
}

export function drawOverlays(ctx, index, g, view, state) {
  if (state.overlays.launches) {
    drawLaunchLines(ctx, index, g, view);
    drawLaunchDelays(ctx, index, g, view);
  }
  if (state.overlays.critical) drawCriticalPath(ctx, index, g, view);
  drawSelection(ctx, g, view, state.selection);
  drawChosen(ctx, index, g, view, state.selected);
}

const laneBox = (index, lane) => (index.laneById ??= new Map(index.lanes.map((l) => [l.lane, l]))).get(lane);

// The critical paths' segments (spans with a lane) outlined on their lane, each joined
// to the next by a line: the chain the step waits on. The core gives HTA's path and the
// inferred one (labels "HTA: …" / "inferred: …"): HTA's solid red, the other dashed blue.
export function criticalPaths(index) {
  if (!index.criticalPaths) {
    const paths = new Map();
    for (const s of index.spans) {
      if (s.kind !== 'critical_path' || s.lane < 0) continue;
      const source = s.label.includes(':') ? s.label.slice(0, s.label.indexOf(':')).trim() : '';
      if (!paths.has(source)) paths.set(source, []);
      paths.get(source).push(s);
    }
    for (const list of paths.values()) list.sort((a, b) => a.start - b.start);
    index.criticalPaths = [...paths].sort((a, b) => (a[0] === 'HTA' ? -1 : b[0] === 'HTA' ? 1 : a[0].localeCompare(b[0])));
  }
  return index.criticalPaths;
}

// Zoomed in (few segments in sight), each segment is outlined and joined to the next;
// zoomed out, joining thousands of segments would paint the lanes red, so the path is
// a strip along the top of each lane it runs on (runs closer than a pixel merged).
function drawCriticalPath(ctx, index, g, view) {
  const plenty = g.plotWidth / 12;
  criticalPaths(index).forEach(([, segments], n) => {
    const colour = n === 0 ? OVERLAY.critical : OVERLAY.criticalOther;
    let inSight = 0;
    for (const s of segments) if (s.end >= view.t0 && s.start <= view.t1 && ++inSight > plenty) break;
    if (inSight > plenty) drawPathStrips(ctx, index, g, view, segments, colour, n);
    else drawPathChain(ctx, index, g, view, segments, colour, n);
  });
  ctx.setLineDash([]);
}

function drawPathChain(ctx, index, g, view, segments, colour, n) {
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  ctx.setLineDash(n === 0 ? [] : [6, 3]);
  ctx.beginPath();
  let previous = null;
  for (const s of segments) {
    const lane = laneBox(index, s.lane);
    if (!lane) continue;
    const x0 = xOf(g, view, s.start);
    const x1 = xOf(g, view, s.end);
    const y = yOf(g, view, lane.y) + n * 2;
    if (s.end >= view.t0 && s.start <= view.t1) ctx.rect(x0, y, Math.max(2, x1 - x0), lane.height - n * 4);
    // Joined where the path moves to another lane (on one lane the outlines follow on).
    if (previous && previous.lane !== lane && previous.s.end <= view.t1 && s.start >= view.t0) {
      ctx.moveTo(previous.x1, previous.y + previous.lane.height / 2);
      ctx.lineTo(x0, y + lane.height / 2);
    }
    previous = { s, x1, y, lane };
  }
  ctx.stroke();
}

function drawPathStrips(ctx, index, g, view, segments, colour, n) {
  ctx.fillStyle = colour;
  const runs = new Map();  // lane → [x0, x1, y] of the run being drawn
  const flush = (run) => ctx.fillRect(run[0], run[2], Math.max(1, run[1] - run[0]), 3);
  for (const s of segments) {
    if (s.end < view.t0 || s.start > view.t1) continue;
    const lane = laneBox(index, s.lane);
    if (!lane) continue;
    const x0 = Math.max(GUTTER, xOf(g, view, s.start));
    const x1 = Math.min(g.width, xOf(g, view, s.end));
    const run = runs.get(lane);
    if (run && x0 <= run[1] + 1) run[1] = Math.max(run[1], x1);
    else {
      if (run) flush(run);
      runs.set(lane, [x0, x1, yOf(g, view, lane.y) + n * 4]);
    }
  }
  for (const run of runs.values()) flush(run);
}

// The long launch delays (the core's launch_delay spans: from the launch's end to its
// kernel's start, on the kernel's lane): a bracket over the wait, with its length.
function drawLaunchDelays(ctx, index, g, view) {
  const delays = index.launchDelays ??= index.spans.filter((s) => s.kind === 'launch_delay' && s.lane >= 0);
  ctx.strokeStyle = OVERLAY.delay;
  ctx.fillStyle = OVERLAY.delay;
  ctx.lineWidth = 1.5;
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'bottom';
  ctx.beginPath();
  const texts = [];
  for (const s of delays) {
    if (s.end < view.t0 || s.start > view.t1) continue;
    const lane = laneBox(index, s.lane);
    if (!lane) continue;
    const x0 = xOf(g, view, s.start);
    const x1 = xOf(g, view, s.end);
    const y = yOf(g, view, lane.y) + 3;
    ctx.moveTo(x0, y - 3);
    ctx.lineTo(x0, y + 3);
    ctx.moveTo(x0, y);
    ctx.lineTo(x1, y);
    ctx.moveTo(x1, y - 3);
    ctx.lineTo(x1, y + 3);
    if (x1 - x0 > 90 && s.value !== null) texts.push([`launch delay ${s.value >= 1000 ? `${(s.value / 1000).toFixed(2)} ms` : `${s.value.toFixed(0)} µs`}`, x0 + 4, y + 12]);
  }
  ctx.stroke();
  ctx.textBaseline = 'middle';
  for (const [t, x, y] of texts) ctx.fillText(t, x, y);
}

// A dashed line from each launch in sight to its kernel (the launch delay), when few
// enough are in sight to tell apart.
function drawLaunchLines(ctx, index, g, view) {
  const MAX_LAUNCH_LINES = Math.max(20, g.plotWidth / 8);
  const ev = index.events;
  const lines = [];
  for (const [l, lane] of index.lanes.entries()) {
    if (lane.kind !== 'runtime') continue;
    for (const track of index.tracks[l]) {
      for (let k = firstEndingAfter(track, view.t0); k < track.filled && track.starts[k] < view.t1; k++) {
        const i = track.events[k];
        if (ev.partner[i] >= 0) lines.push(i);
        if (lines.length > MAX_LAUNCH_LINES) return;
      }
    }
  }
  ctx.strokeStyle = OVERLAY.launch;
  ctx.lineWidth = 1;
  ctx.setLineDash([3, 2]);
  ctx.beginPath();
  for (const i of lines) {
    const p = ev.partner[i];
    const from = trackOfEvent(index, i);
    const to = trackOfEvent(index, p);
    if (!from || !to) continue;
    const fy = yOf(g, view, from.y) + ROW_HEIGHT - 1;
    const ty = yOf(g, view, to.y) + 1;
    ctx.moveTo(xOf(g, view, ev.start[i]), to.y > from.y ? fy : fy - ROW_HEIGHT + 2);
    ctx.lineTo(xOf(g, view, ev.start[p]), to.y > from.y ? ty : ty + ROW_HEIGHT - 2);
  }
  ctx.stroke();
  ctx.setLineDash([]);
}

function drawSelection(ctx, g, view, selection) {
  if (!selection) return;
  const x0 = xOf(g, view, Math.min(selection.start, selection.end));
  const x1 = xOf(g, view, Math.max(selection.start, selection.end));
  ctx.fillStyle = OVERLAY.selection;
  ctx.fillRect(x0, 0, x1 - x0, g.height);
  ctx.fillStyle = OVERLAY.selectionEdge;
  ctx.fillRect(x0, 0, 1.5, g.height);
  ctx.fillRect(x1 - 1.5, 0, 1.5, g.height);
}

// The chosen event outlined in black, its launch/kernel partner in red, joined.
function drawChosen(ctx, index, g, view, chosen) {
  if (chosen < 0 || chosen === undefined) return;
  const ev = index.events;
  const box = (i) => {
    const t = trackOfEvent(index, i);
    if (!t) return null;
    const x0 = xOf(g, view, ev.start[i]);
    return { x: x0, y: yOf(g, view, t.y), w: Math.max(3, xOf(g, view, ev.start[i] + ev.dur[i]) - x0), h: ROW_HEIGHT };
  };
  const a = box(chosen);
  const p = ev.partner[chosen];
  const b = p >= 0 ? box(p) : null;
  ctx.lineWidth = 2.5;
  ctx.setLineDash([]);
  if (a) { ctx.strokeStyle = OVERLAY.highlight; ctx.strokeRect(a.x - 1, a.y, a.w + 2, a.h); }
  if (b) {
    ctx.strokeStyle = OVERLAY.partner;
    ctx.strokeRect(b.x - 1, b.y, b.w + 2, b.h);
    if (a) {
      ctx.beginPath();
      ctx.moveTo(a.x, a.y + a.h / 2);
      ctx.lineTo(b.x, b.y + b.h / 2);
      ctx.stroke();
    }
  }
}
