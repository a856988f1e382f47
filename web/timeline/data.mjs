// The time axis's sheets (web/timeline/CONTRACT.md) indexed for drawing: typed arrays
// per column, lanes laid out in rows (one per nesting depth), and per track (a lane's
// depth) its events in start order with a running maximum of their ends, so that the
// events in a time range are found by binary search. No values are computed here
// beyond where things go.
import { findColumn } from '../sheet.mjs';
import { colourOf } from './palette.mjs';

export const ROW_HEIGHT = 18;  // CSS px per depth row
export const LANE_GAP = 6;

const numbers = (sheet, name) => findColumn(sheet, name)?.values ?? new Float64Array(sheet?.rows ?? 0);
function strings(sheet, name) {
  const c = findColumn(sheet, name);
  const n = sheet?.rows ?? 0;
  return c ? { codes: c.codes, dictionary: c.dictionary, validity: c.validity } : { codes: new Int32Array(n).fill(-1), dictionary: [], validity: new Uint8Array(n) };
}
const text = (s, i) => (s.codes[i] >= 0 && s.validity[i] ? s.dictionary[s.codes[i]] : '');

export function indexTimeAxis({ lanes: laneSheet, events: eventSheet, spans: spanSheet, traceStartUs }) {
  const lanes = readLanes(laneSheet);
  const ev = readEvents(eventSheet);
  const tracks = buildTracks(lanes, ev);
  colourEvents(ev);
  const spans = readSpans(spanSheet);
  let end = 0;
  for (let i = 0; i < ev.count; i++) end = Math.max(end, ev.start[i] + ev.dur[i]);
  for (const s of spans) end = Math.max(end, s.end);
  return { lanes, events: ev, tracks, spans, traceStartUs: traceStartUs ?? 0, endUs: end, height: layoutHeight(lanes) };
}

function readLanes(sheet) {
  const n = sheet?.rows ?? 0;
  const lane = numbers(sheet, 'lane');
  const kind = strings(sheet, 'kind');
  const label = strings(sheet, 'label');
  const depths = numbers(sheet, 'depths');
  const out = [];
  let y = 0;
  for (let i = 0; i < n; i++) {
    const rows = Math.max(1, depths[i] | 0);
    out.push({ lane: lane[i], kind: text(kind, i), label: text(label, i), depths: rows, y, height: rows * ROW_HEIGHT });
    y += rows * ROW_HEIGHT + LANE_GAP;
  }
  return out;
}
const layoutHeight = (lanes) => (lanes.length ? lanes.at(-1).y + lanes.at(-1).height : 0);

function readEvents(sheet) {
  const count = sheet?.rows ?? 0;
  const dur = numbers(sheet, 'dur_us');
  const start = numbers(sheet, 'start_us');
  const sol = findColumn(sheet, 'sol_efficiency');
  return {
    count, start, dur,
    lane: numbers(sheet, 'lane'), depth: numbers(sheet, 'depth'),
    kind: strings(sheet, 'kind'), category: strings(sheet, 'category'), name: strings(sheet, 'name'),
    row: numbers(sheet, 'row'), partner: numbers(sheet, 'partner'),
    sol: sol ? sol.values : null, solValid: sol ? sol.validity : null,
  };
}
// Each event's colour as an index into ev.colours, from its kind and category codes
// (worked out once per pair, not per event per frame).
function colourEvents(ev) {
  const colours = [];
  const byPair = new Map();
  ev.colour = new Uint8Array(ev.count);
  for (let i = 0; i < ev.count; i++) {
    const key = ev.kind.codes[i] * 65536 + ev.category.codes[i];
    let c = byPair.get(key);
    if (c === undefined) {
      const colour = colourOf(text(ev.kind, i), text(ev.category, i));
      c = colours.indexOf(colour);
      if (c < 0) { c = colours.length; colours.push(colour); }
      byPair.set(key, c);
    }
    ev.colour[i] = c;
  }
  ev.colours = colours;
}
export const eventName = (ev, i) => text(ev.name, i);
export const eventKind = (ev, i) => text(ev.kind, i);
export const eventCategory = (ev, i) => text(ev.category, i);
export const eventSol = (ev, i) => (ev.sol && ev.solValid[i] ? ev.sol[i] : null);

// One track per (lane, depth): its events' indices in start order (the sheet is sorted
// by lane and start, so one pass keeps the order) and the running maximum of their ends.
function buildTracks(lanes, ev) {
  const laneIndex = new Map(lanes.map((l, i) => [l.lane, i]));
  const counts = lanes.map((l) => new Int32Array(l.depths));
  for (let i = 0; i < ev.count; i++) {
    const l = laneIndex.get(ev.lane[i]);
    if (l === undefined) continue;
    counts[l][Math.min(ev.depth[i] | 0, lanes[l].depths - 1)]++;
  }
  const tracks = lanes.map((lane, l) => [...counts[l]].map((n, d) => ({ lane: l, depth: d, y: lane.y + d * ROW_HEIGHT,
    events: new Int32Array(n), starts: new Float64Array(n), maxEnd: new Float64Array(n), filled: 0 })));
  for (let i = 0; i < ev.count; i++) {
    const l = laneIndex.get(ev.lane[i]);
    if (l === undefined) continue;
    const t = tracks[l][Math.min(ev.depth[i] | 0, lanes[l].depths - 1)];
    const k = t.filled++;
    const end = ev.start[i] + ev.dur[i];
    t.events[k] = i;
    t.starts[k] = ev.start[i];
    t.maxEnd[k] = k > 0 && t.maxEnd[k - 1] > end ? t.maxEnd[k - 1] : end;
  }
  for (const laneTracks of tracks) for (const t of laneTracks) addCoarseIndex(t);
  return tracks;
}

// Per track, where to start looking for time t: COARSE buckets over its time span, each
// the first position whose event reaches past the bucket's start. Zoomed out, the next
// pixel column's event is then a few positions from its bucket's, not a long gallop.
const COARSE = 4096;
function addCoarseIndex(track) {
  if (track.filled < 2 * COARSE) return;
  track.coarseBase = track.starts[0];
  track.coarseStep = Math.max(1e-9, (track.maxEnd[track.filled - 1] - track.coarseBase) / COARSE);
  track.coarse = new Int32Array(COARSE);
  let k = 0;
  for (let j = 0; j < COARSE; j++) {
    const t = track.coarseBase + j * track.coarseStep;
    while (k < track.filled && track.maxEnd[k] <= t) k++;
    track.coarse[j] = k;
  }
}

// The first position in a track whose event may reach into [t, …): maxEnd > t.
export function firstEndingAfter(track, t, lo = 0) {
  let hi = track.filled;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (track.maxEnd[mid] > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
// The same, searching forward from position lo by doubling steps (galloping): the
// next pixel column's event is usually a few positions on, so this costs O(log gap).
export function nextEndingAfter(track, t, lo) {
  const maxEnd = track.maxEnd;
  const n = track.filled;
  if (track.coarse && t >= track.coarseBase) {
    const from = track.coarse[Math.min(COARSE - 1, Math.floor((t - track.coarseBase) / track.coarseStep))];
    if (from > lo) lo = from;
  }
  let step = 1;
  let hi = lo;
  while (hi < n && maxEnd[hi] <= t) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > n) hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (maxEnd[mid] > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
// The first position in a track whose event starts at or after t.
export function firstStartingFrom(track, t, lo = 0) {
  let hi = track.filled;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (track.starts[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function readSpans(sheet) {
  const n = sheet?.rows ?? 0;
  const kind = strings(sheet, 'kind');
  const label = strings(sheet, 'label');
  const start = numbers(sheet, 'start_us');
  const end = numbers(sheet, 'end_us');
  const lane = numbers(sheet, 'lane');
  const value = findColumn(sheet, 'value');
  const out = [];
  for (let i = 0; i < n; i++)
    out.push({ kind: text(kind, i), label: text(label, i), start: start[i], end: end[i], lane: lane[i],
      value: value && value.validity[i] ? value.values[i] : null });
  return out;
}
export const spansOf = (index, kind) => index.spans.filter((s) => s.kind === kind);

// The track under a y (content px), or null.
export function trackAt(index, y) {
  for (const lane of index.lanes) {
    if (y >= lane.y && y < lane.y + lane.height) return index.tracks[index.lanes.indexOf(lane)][Math.floor((y - lane.y) / ROW_HEIGHT)] ?? null;
  }
  return null;
}
// The event of a track at time t, or the nearest one within slackUs; -1 if none.
export function eventAt(index, track, t, slackUs) {
  if (!track) return -1;
  const ev = index.events;
  let best = -1;
  let bestGap = slackUs;
  for (let k = firstEndingAfter(track, t - slackUs); k < track.filled && track.starts[k] <= t + slackUs; k++) {
    const i = track.events[k];
    const s = ev.start[i];
    const e = s + ev.dur[i];
    const gap = t < s ? s - t : t > e ? t - e : 0;
    if (gap < bestGap || (gap === 0 && best >= 0 && ev.dur[i] < ev.dur[best])) { best = i; bestGap = gap; }
    else if (gap === 0 && best < 0) { best = i; bestGap = 0; }
  }
  return best;
}
// Where an event is drawn: its track's y (content px).
export function trackOfEvent(index, i) {
  const l = index.lanes.findIndex((lane) => lane.lane === index.events.lane[i]);
  if (l < 0) return null;
  return index.tracks[l][Math.min(index.events.depth[i] | 0, index.lanes[l].depths - 1)];
}

// The event after (step 1) or before (step -1) event i on its own track, in start order;
// -1 past either end.
export function neighbourEvent(index, i, step) {
  const track = trackOfEvent(index, i);
  if (!track) return -1;
  let k = firstStartingFrom(track, index.events.start[i]);
  while (k < track.filled && track.events[k] !== i) k++;
  const next = k + step;
  return k < track.filled && next >= 0 && next < track.filled ? track.events[next] : -1;
}
// The event to start keyboard choice from: on the first GPU stream's lane (else the first
// lane), the first one starting at or after t, or the last one before it; -1 if none.
export function firstEventFrom(index, t) {
  const l = Math.max(0, index.lanes.findIndex((lane) => lane.kind === 'gpu'));
  const track = index.tracks[l]?.[0];
  if (!track || !track.filled) return -1;
  return track.events[Math.min(firstStartingFrom(track, t), track.filled - 1)];
}
