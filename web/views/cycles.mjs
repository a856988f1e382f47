// The cycles view: the repeating kernel patterns the core found (training
// iterations, decode steps, transformer layers), the per-position table of the chosen
// pattern with its other tables, and a time strip: one lane per pattern (and layer),
// one mark per repetition at its start_us..end_us, on the trace's own time span
// (info.firstTsUs..lastEndUs, so that where the patterns sit in the trace shows). Mode (all
// patterns / LLM prefill and decode) and kernel order are recomputed by the core
// (requestCycles); the sheets are core/analyses/cycles/cycle_sheets.h's.

import { createTable } from '../table.mjs';
import { findSheet, findColumn, cell } from '../sheet.mjs';
import { el, resetSection, select, tabs } from '../widgets.mjs';
import { formatNumber, timestampTitle } from '../units.mjs';
import { cycleColumnWords, cycleTableWords, patternSentences, preambleRows } from './cycle-words.mjs';

const SVG = 'http://www.w3.org/2000/svg';

export function render(section, context) {
  const { cycles } = context;
  // context.state (kept for this trace while the cycles are recomputed): asked, what
  // was last asked of the worker (the cycles model does not say which order it was
  // computed in), and focus, the selector to give the keyboard focus back to.
  const state = context.state ?? {};
  resetSection(section, 'Cycles');
  // The worker posts the report first and the cycles after it (the overview shows
  // sooner): until they arrive this view says so, and is drawn again when they do.
  if (context.cyclesPending) {
    const p = el('p', 'empty-state cycles-pending', 'Detecting cycles… (the rest of the report is ready)');
    p.setAttribute('role', 'status');
    section.append(p);
    return;
  }
  if (context.cyclesError) {
    section.append(el('p', 'empty-state cycles-error', context.cyclesError));
    return;
  }
  if (!cycles) {
    section.append(el('p', 'empty-state', 'No cycle analysis for this trace.'));
    return;
  }
  // llm: the cycles_llm table; uplifter: uplifter's cycles table, without found_by.
  const mode = cycles.sheets[0]?.name === 'cycles_llm' ? 'llm'
    : cycles.sheets[0] && !findColumn(cycles.sheets[0], 'found_by') ? 'uplifter' : 'all';
  const asked = state.asked;
  const order = asked && asked.mode === mode ? asked.order : 'stream';  // the worker's first order

  const controls = el('div', 'controls');
  const status = el('span', 'detail');
  status.setAttribute('role', 'status');
  const ask = (next, control) => {
    state.focus = control;
    if (!context.requestCycles(next)) return;  // a report from a link (the page says why)
    state.asked = next;
    status.textContent = 'Detecting cycles…';
  };
  const modeSelect = select('Patterns', [['all', 'all patterns'], ['llm', 'LLM: prefill and decode'],
    ['uplifter', 'uplifter\'s detection']], mode,
    (v) => ask({ mode: v, order }, 'mode'));
  const orderSelect = select('Kernel order', [['stream', 'per stream, by start time'], ['device', 'per device, by start time'],
    ['file', 'file order (uplifter)']], order, (v) => ask({ mode, order: v }, 'order'));
  controls.append(modeSelect, orderSelect, status);
  section.append(controls);
  // The view is drawn again with the new cycles: the selector used gets the focus back
  // (only where the focus went with the old one, not where the user has moved it).
  if (state.focus && (document.activeElement === document.body || !document.activeElement))
    (state.focus === 'mode' ? modeSelect : orderSelect).querySelector('select').focus({ preventScroll: true });
  state.focus = null;
  // How long the detection took: it is not in the overview's "opened in" (the report
  // is shown before the cycles are detected).
  const took = Number.isFinite(context.cyclesMs) ? ` Detected in ${(context.cyclesMs / 1000).toFixed(2)} s.` : '';
  section.append(el('p', 'detail',
    `${formatNumber(cycles.kernels ?? 0, 'int')} kernels searched for repeating patterns.${took}`));
  const patterns = cycles.sheets[0];
  if (!patterns || patterns.rows === 0) {
    section.append(el('p', 'empty-state no-cycles', mode === 'llm'
      ? 'No prefill or decode phase found: no repeating kernel pattern covers enough of the trace.'
      : 'No repeating kernel pattern found in this trace.'));
    return;
  }
  // What was found, in sentences (the CLI's one-line summary, said from the table).
  const found = el('ul', 'pattern-sentences');
  for (const s of patternSentences(patterns, mode)) found.append(el('li', '', s));
  section.append(found);
  const groups = mode === 'llm' ? llmGroups(cycles) : allGroups(cycles, patterns);
  const start = context.info?.firstTsUs;

  const span = traceSpan(context.info);
  section.append(el('h3', '', 'Time strip'),
    el('p', 'detail', `Where each repetition of each pattern runs, in ms from ${span ? 'the trace\'s start, across the whole trace' : 'the first repetition\'s start'} (hover a mark for its times; click or Enter on a lane to choose the pattern).`));
  const strip = el('div', 'strip-wrap');
  section.append(strip);

  section.append(el('h3', '', mode === 'llm' ? 'Phases' : 'Patterns'));
  const patternTable = el('div');
  section.append(patternTable);
  const detail = el('div', 'pattern-detail');
  section.append(detail);

  let chosen = -1;
  function choose(g) {
    chosen = g;
    patternTable.replaceChildren(createTable(patterns, {
      caption: mode === 'llm' ? 'One row per phase' : 'One row per pattern and level (the whole repetition, and its layer)',
      labels: cycleColumnWords,
      traceStartUs: start,
      selectedRow: groups[g]?.rows[0] ?? -1,
      onActivate: (row) => {
        const next = groups.findIndex((x) => x.rows.includes(row));
        if (next >= 0 && next !== chosen) choose(next);
      },
    }).element);
    strip.replaceChildren(timeStrip(groups, g, choose, span));
    showGroup(detail, groups[g], cycles, start);
  }
  choose(0);
}

// mode all: pattern k (the cycles table's `pattern`) owns the sheets cycle_k[_…].
function allGroups(cycles, patterns) {
  const pattern = findColumn(patterns, 'pattern');
  const phase = findColumn(patterns, 'phase');
  const sequence = findColumn(patterns, 'sequence');
  // Several devices or streams: say which one a pattern runs on.
  const sequences = new Set(Array.from({ length: patterns.rows }, (_, r) => cell(sequence, r)));
  const groups = new Map();
  for (let r = 0; r < patterns.rows; r++) {
    const k = cell(pattern, r);
    if (!groups.has(k)) {
      const base = `cycle_${k}`;
      const sheets = cycles.sheets.map((s, i) => ({ s, i }))
        .filter(({ s }) => s.name === base || s.name.startsWith(`${base}_`));
      groups.set(k, {
        label: `pattern ${k}${cell(phase, r) ? ` (${cell(phase, r)})` : ''}${sequences.size > 1 ? `, ${cell(sequence, r)}` : ''}`,
        rows: [],
        sheets,
        lanes: [
          { name: 'repetitions', sheet: findSheet(cycles.sheets, `${base}_repetitions`), kind: '' },
          { name: 'layers', sheet: findSheet(cycles.sheets, `${base}_layer_repetitions`), kind: 'layer' },
        ].filter((l) => l.sheet),
      });
    }
    groups.get(k).rows.push(r);
  }
  return [...groups.values()];
}

// mode llm: after cycles_llm, one group of sheets per row, in the same order:
// <phase>[_s<i>] (positions), then its _steps and _outside_layers.
function llmGroups(cycles) {
  const rows = cycles.sheets[0];
  const phase = findColumn(rows, 'phase');
  const groups = [];
  cycles.sheets.forEach((s, i) => {
    if (i === 0) return;
    if (!/_(steps|outside_layers)$/.test(s.name) || !groups.length) groups.push({ sheets: [], lanes: [] });
    const g = groups[groups.length - 1];
    g.sheets.push({ s, i });
    if (s.name.endsWith('_steps')) g.lanes.push({ name: 'steps', sheet: s, kind: '' });
  });
  groups.forEach((g, r) => {
    g.rows = [r];
    g.label = `${cell(phase, r) ?? g.sheets[0]?.s.name ?? ''}`;
  });
  return groups;
}

function showGroup(detail, group, cycles, start) {
  detail.replaceChildren();
  if (!group) return;
  detail.append(el('h3', '', group.label.charAt(0).toUpperCase() + group.label.slice(1)));
  const t = tabs(group.sheets.map(({ s }) => ({ id: s.name, label: cycleTableWords(s.name)[0], count: s.rows })), (item, panel) => {
    const { s, i } = group.sheets.find((x) => x.s.name === item.id);
    const stats = preambleRows(cycles.preambles?.[i]);
    if (stats.length) panel.append(statsTable(stats));
    const [label, caption] = cycleTableWords(s.name);
    panel.append(createTable(s, { caption: `${label}: ${caption}`, labels: cycleColumnWords, traceStartUs: start }).element);
  }, { label: `Tables of ${group.label}` });
  detail.append(t.element);
}

// A positions table's statistics as a small two-column table.
function statsTable(rows) {
  const table = el('table', 'pattern-stats');
  table.append(el('caption', '', 'Statistics of the pattern'));
  const body = el('tbody');
  for (const [label, value] of rows) {
    const tr = el('tr');
    const th = el('th', '', label);
    th.scope = 'row';
    tr.append(th, el('td', 'num', value));
    body.append(tr);
  }
  table.append(body);
  return table;
}

// The trace's first and last instants (µs, the trace's clock, as the repetitions'
// start_us and end_us), or null where the info has none (e.g. an older share link).
function traceSpan(info) {
  const first = info?.firstTsUs;
  const last = info?.lastEndUs;
  return Number.isFinite(first) && Number.isFinite(last) && last > first ? { first, last } : null;
}

// The time strip: lanes of repetitions on one time axis (µs of the trace's clock,
// shown in ms from the trace's start; from the first repetition without a span).
function timeStrip(groups, chosen, choose, trace) {
  const lanes = [];
  groups.forEach((g, gi) => g.lanes.forEach((l) => lanes.push({ ...l, group: gi, label: `${g.label} ${l.name}` })));
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const lane of lanes) {
    const s = findColumn(lane.sheet, 'start_us');
    const e = findColumn(lane.sheet, 'end_us');
    lane.start = s;
    lane.end = e;
    for (let r = 0; r < lane.sheet.rows; r++) {
      const a = cell(s, r);
      const b = cell(e, r);
      if (a !== null) t0 = Math.min(t0, a);
      if (b !== null) t1 = Math.max(t1, b);
    }
  }
  // The trace's span, widened if a repetition fell outside it (it cannot, but a
  // mark off the strip would be worse than a slightly wider axis).
  if (trace) {
    t0 = Math.min(t0, trace.first);
    t1 = Math.max(t1, trace.last);
  }
  const W = 1000;
  const LABEL = 200;
  const LANE = 22;
  const GAP = 6;
  const AXIS = 26;
  const H = lanes.length * (LANE + GAP) + AXIS;
  const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, class: 'strip', role: 'group' });
  if (!lanes.length || !(t1 > t0)) return el('p', 'detail', 'No repetition times to draw.');
  const span = t1 - t0;
  svg.setAttribute('aria-label', `Time strip: ${lanes.length} lanes over ${formatNumber(span / 1000, 'float')} ms` +
    `${trace ? ' (the whole trace)' : ''}`);
  svg.dataset.t0 = String(t0);
  svg.dataset.t1 = String(t1);
  const X = (t) => LABEL + ((t - t0) / span) * (W - LABEL - 10);

  lanes.forEach((lane, li) => {
    const y = li * (LANE + GAP) + 4;
    const g = svgEl('g', { class: 'lane', tabindex: '0', role: 'button' });
    g.dataset.group = String(lane.group);
    g.setAttribute('aria-label', `${lane.label}: ${lane.sheet.rows} repetitions; choose this pattern`);
    g.setAttribute('aria-pressed', lane.group === chosen ? 'true' : 'false');
    g.append(svgEl('rect', { class: `lane-bg${lane.group === chosen ? ' selected' : ''}`, x: '0', y: String(y), width: String(W), height: String(LANE) }));
    const label = svgEl('text', { x: '6', y: String(y + LANE / 2 + 4) });
    label.textContent = lane.label.length > 32 ? `${lane.label.slice(0, 31)}…` : lane.label;
    g.append(label);
    for (let r = 0; r < lane.sheet.rows; r++) {
      const a = cell(lane.start, r);
      const b = cell(lane.end, r);
      if (a === null || b === null) continue;
      const x = X(a);
      const w = X(b) - x;
      // On the whole trace's span a repetition can be under two units wide: without
      // the white separating stroke, which would wash it out.
      const rect = svgEl('rect', { class: `rep ${lane.kind}${w < 2 ? ' thin' : ''}`, x: String(x), y: String(y + 2), width: String(Math.max(w, 0.8)), height: String(LANE - 4) });
      const title = svgEl('title', {});
      title.textContent = `${lane.label} repetition ${r + 1}: ${formatNumber((a - t0) / 1000, 'float')} – ${formatNumber((b - t0) / 1000, 'float')} ms` +
        ` from the ${trace ? 'trace\'s start' : 'first repetition'} (${formatNumber(b - a, 'float')} µs); starts at ${timestampTitle(a)}`;
      rect.append(title);
      g.append(rect);
    }
    g.addEventListener('click', () => choose(lane.group));
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        choose(lane.group);
        document.querySelector(`.strip .lane[data-group="${lane.group}"]`)?.focus();
      }
    });
    svg.append(g);
  });
  // Axis: ms from t0 (the trace's start).
  const axis = svgEl('g', { class: 'axis' });
  const yAxis = lanes.length * (LANE + GAP) + 2;
  const step = niceStep(span / 1000 / 8);
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  for (let i = 0, v = 0; v <= span / 1000 + 1e-9; v = ++i * step) {
    const x = X(t0 + v * 1000);
    axis.append(svgEl('line', { x1: String(x), x2: String(x), y1: String(yAxis), y2: String(yAxis + 5) }));
    // The last label would run off the right edge if centred on its tick.
    const anchor = x > W - 40 ? 'end' : 'middle';
    const t = svgEl('text', { x: String(x), y: String(yAxis + 17), 'text-anchor': anchor });
    t.textContent = `${v.toFixed(digits)} ms`;
    axis.append(t);
  }
  svg.append(axis);
  return svg;
}

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
