// The SOL view: how far the trace's GPU time is from speed of light. Each op's roofline
// estimate (the device's dense peaks, times the efficiency factor) against its measured
// kernel time, summed: the gap at a glance, estimated vs measured per layer type as
// bars, then the core's tables (core/analyses/sol: by layer type, layer instance,
// function, phase, step, the top operations and the unmodeled ops). Unmodeled time is
// shown apart, never folded into the estimate. Speed of light is computed by the core
// when this view first asks for it (requestSol); device and efficiency factor recompute
// it. Names from the trace (layer types, functions, phases) are set as text only.

import { createTable } from '../table.mjs';
import { findSheet, findColumn, cell } from '../sheet.mjs';
import { el, resetSection, select, tabs } from '../widgets.mjs';
import { formatNumber } from '../units.mjs';
import { readableModulePaths } from '../format.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const CHART_LAYER_TYPES = 12;

// The tables shown under tabs, in this order: [sheet name, tab label, what a row is].
const TABLES = [
  ['sol_by_layer_type', 'Layer type', 'one row per nn.Module class (the innermost module of each op; a backward op takes its forward op\'s) and pass (forward, backward, optimizer, other), or per op category when the trace has no module frames'],
  ['sol_by_layer_instance', 'Layer instance', 'one row per module instance and pass. The trace names modules by class and instance counter, not by attribute (model.layers.3.mlp is not recorded), so a path reads LlamaModel › LlamaDecoderLayer 3 › LlamaMLP: the counter is kept where layers repeat, and outer frames every row shares are left out (hover a path for the frames as recorded)'],
  ['sol_by_function', 'Function', 'one row per op (aten::addmm, …)'],
  ['sol_by_phase', 'Phase', 'one row per innermost user annotation'],
  ['sol_by_phase_layer', 'Phase × layer', 'one row per phase and layer type: each phase\'s layers, their speed of light against their measured time and their share of the phase\'s estimate (the LLM phases view shows it per phase)'],
  ['sol_by_phase_prefix', 'Phase prefixes', 'one "<prefix> (total)" row per /-separated prefix of the phases (kept apart: summing them with the phases would count twice)'],
  ['sol_by_step', 'Step', 'one row per detected cycle (step, layer): its SOL latency against its measured span, and the gap split into kernel inefficiency, idle time and unmodeled ops'],
  ['sol_top_operations', 'Top operations', 'the 50 ops with the largest estimates, one row per op'],
  ['sol_unmodeled', 'Unmodeled', 'ops without a perf model or roofline: their measured time is not in the estimate or the measured total'],
];

export function render(section, context) {
  // context.state (kept for this trace): asked, the device and efficiency last asked
  // for; tab, the table tab shown; focus, the control to give the focus back to.
  const state = context.state ?? {};
  resetSection(section, 'SOL: speed of light');
  const { sol } = context;
  if (!sol && !context.solPending && !context.solError) {
    // unavailable: nothing to compute it from (a report from a link without it).
    if (!state.asked) {
      state.asked = { device: '', efficiency: 1 };
      state.unavailable = !context.requestSol(state.asked);
    }
    if (state.unavailable) {
      section.append(el('p', 'empty-state sol-unavailable',
        'Speed of light is computed from the trace itself: open the trace to see it (this report came from a link made before the SOL view was opened).'));
      return;
    }
  }
  if (!sol) {
    if (context.solError) {
      section.append(el('p', 'empty-state sol-error', context.solError));
    } else {
      const p = el('p', 'empty-state sol-pending', 'Computing speed of light… (the op tree is rebuilt with the python frames, for the layer types)');
      p.setAttribute('role', 'status');
      section.append(p);
    }
    return;
  }

  const { wrap, focusTarget } = controls(context, state, sol);
  section.append(wrap);
  // Drawn again with the recomputed figures: the selector used gets the focus back
  // (only where the focus went with the old one, not where the user has moved it).
  if (focusTarget && (document.activeElement === document.body || !document.activeElement))
    focusTarget.querySelector('select').focus({ preventScroll: true });
  const metrics = sol.metrics ?? {};
  section.append(gapFigure(metrics, Boolean(sol.device)), ...notes(sol, metrics));

  const layers = findSheet(sol.sheets, 'sol_by_layer_type');
  if (layers && layers.rows) {
    section.append(el('h3', '', sol.module_frames ? 'Estimated vs measured per layer type' : 'Estimated vs measured per op category'),
      layerChart(layers));
  }

  section.append(el('h3', '', 'Tables'));
  const items = TABLES.map(([name, label]) => ({ id: name, label, count: findSheet(sol.sheets, name)?.rows ?? 0 }))
    .filter((item) => findSheet(sol.sheets, item.id));
  const tabset = tabs(items, (item, panel) => {
    const sheet = findSheet(sol.sheets, item.id);
    const what = TABLES.find(([name]) => name === item.id)[2];
    panel.append(el('p', 'detail', `${what.charAt(0).toUpperCase()}${what.slice(1)}. The command line writes it as ${item.id}.csv.`));
    if (!sheet.rows) {
      panel.append(el('p', 'empty-state', item.id === 'sol_by_step' ? 'No cycle (step or layer) was detected in this trace.' : 'No rows.'));
      return;
    }
    panel.append(createTable(sheet, { caption: `${item.label}: ${item.id}`, display: modulePathDisplay(sheet) }).element);
  }, { label: 'SOL tables', selected: state.tab, onSelect: (id) => { state.tab = id; } });
  section.append(tabset.element);
}

function controls(context, state, sol) {
  const wrap = el('div', 'controls');
  const status = el('span', 'detail');
  status.setAttribute('role', 'status');
  const asked = state.asked ?? { device: '', efficiency: 1 };
  const ask = (next, control) => {
    state.focus = control === 'capture' ? null : control;
    if (!context.requestSol(next)) return;
    state.asked = { device: next.device, efficiency: next.efficiency };  // a capture is read once
    status.textContent = 'Recomputing speed of light…';
  };
  const fromTrace = sol.device_identification?.id && asked.device === '' ? `from the trace (${sol.device_identification.id})` : 'from the trace';
  const device = select('Device', [['', fromTrace], ...(context.devices ?? []).map((d) => [d, d])], asked.device,
    (v) => ask({ ...asked, device: v }, 'device'));
  device.classList.add('sol-device');
  const factor = select('Efficiency factor', [['1', '1.0: dense peaks'], ['0.8', '0.8: derated (Megatron)']],
    String(asked.efficiency), (v) => ask({ ...asked, efficiency: Number(v) }, 'efficiency'));
  factor.classList.add('sol-efficiency');
  wrap.append(device, factor);
  if ((sol.notes ?? []).some((n) => /graph replay/.test(n))) wrap.append(captureButton(asked, ask));
  wrap.append(status);
  const focusTarget = state.focus ? (state.focus === 'device' ? device : factor) : null;
  state.focus = null;
  return { wrap, focusTarget };
}

// Kernels replayed by CUDA / HIP graphs count for the ops captured: the trace recorded
// while the graphs were captured maps them when the trace itself cannot.
function captureButton(asked, ask) {
  const input = el('input');
  input.type = 'file';
  input.accept = '.json,.gz,application/json,application/gzip';
  input.hidden = true;
  input.className = 'sol-capture-input';
  input.addEventListener('change', () => {
    const file = input.files[0];
    input.value = '';
    if (file) ask({ ...asked, capture: file }, 'capture');
  });
  const button = el('button', 'sol-capture-button', 'Open graph-capture trace…');
  button.type = 'button';
  button.title = 'The Kineto trace recorded while the CUDA / HIP graphs were captured: the replayed kernels then count for the ops captured';
  button.addEventListener('click', () => input.click());
  const wrap = el('span', 'sol-capture');
  wrap.append(button, input);
  return wrap;
}

const ms = (x) => `${formatNumber(x ?? 0, 'float', 'ms')} ms`;

// The headline is what a user waits for: the speed of light against the wall time of a
// step (or of the whole trace when no step was found), idle included; the kernel-only
// efficiency comes second, named as such. The bars split the wall: speed of light,
// kernel inefficiency, unmodeled kernels and idle (host wait, kernel wait, other).
function headlineSentence(m, factor) {
  const peaks = factor === 1 ? 'the device\'s peaks' : `${factor} × the device's peaks`;
  const stepEff = m['sol/step_efficiency_pct'];
  const wallEff = m['sol/wall_efficiency_pct'];
  const us = (x) => `${formatNumber(x ?? 0, 'float', 'µs')} µs`;
  if (Number.isFinite(stepEff)) {
    return [stepEff, ` of speed of light per step: a step takes ${ms(m['sol/step_wall_time_ms'])} of wall time (mean of ${
      formatNumber(m['sol/steps'] ?? 0, 'int')}, idle included) against ${us((m['sol/step_sol_time_ms'] ?? 0) * 1e3)} at ${peaks}. The whole trace: ${
      formatNumber(wallEff ?? 0, 'float', '%')} % of ${ms(m['sol/wall_time_ms'])}.`];
  }
  if (Number.isFinite(wallEff))
    return [wallEff, ` of speed of light over the wall time: the estimated ops would take ${ms(m['sol/estimated_time_ms'])} at ${peaks}; the GPU timeline took ${ms(m['sol/wall_time_ms'])}, idle included.`];
  return [null, ''];
}

function gapFigure(m, deviceKnown) {
  const factor = m['sol/efficiency_factor'] ?? 1;
  const kernelEff = m['sol/kernel_efficiency_pct'];
  const [pctValue, sentence] = headlineSentence(m, factor);
  const figure = el('figure', 'sol-gap');
  const headline = el('p', 'sol-headline');
  const pct = el('strong', 'sol-efficiency-pct', pctValue == null ? 'no estimate' : `${formatNumber(pctValue, 'float', '%')} %`);
  headline.append(pct, pctValue != null ? sentence
    : deviceKnown ? ' — no op could be estimated: the notes below say why (unmodeled ops, graph replays not mapped back to their ops).'
      : ' — no GPU with known peaks: choose a device above.');
  figure.append(headline);
  if (Number.isFinite(kernelEff)) {
    figure.append(el('p', 'sol-kernel-efficiency',
      `Kernel time only: ${formatNumber(kernelEff, 'float', '%')} % — the modeled ops would take ${ms(m['sol/estimated_time_ms'])} and took ${ms(m['sol/measured_time_ms'])} on the GPU. Unmodeled ops are apart: they have no estimate.`));
  }
  const wall = m['sol/wall_time_ms'] ?? 0;
  const max = Math.max(wall, 1e-12);
  const bars = el('div', 'sol-bars');
  bars.setAttribute('aria-label', 'Where the wall time went');
  for (const [label, value, cls] of [
    ['Wall time (GPU timeline)', wall, 'wall'],
    ['Speed of light (estimates)', m['sol/estimated_time_ms'], 'estimated'],
    ['Kernel inefficiency', m['sol/wall_kernel_inefficiency_ms'], 'measured'],
    ['Unmodeled kernels', m['sol/wall_unmodeled_ms'], 'unmodeled'],
    ['Idle: host wait (launch-bound)', m['sol/wall_idle_host_wait_ms'], 'idle'],
    ['Idle: kernel wait (< 30 µs gaps)', m['sol/wall_idle_kernel_wait_ms'], 'idle'],
    ['Idle: other', m['sol/wall_idle_other_ms'], 'idle'],
  ]) {
    const row = el('div', `sol-bar-row sol-bar-${cls}`);
    const track = el('div', 'sol-bar-track');
    const fill = el('div', 'sol-bar-fill');
    fill.style.width = `${(100 * Math.max(value ?? 0, 0)) / max}%`;
    track.append(fill);
    row.append(el('span', 'sol-bar-label', label), track,
      el('span', 'sol-bar-value', `${ms(value)} · ${formatNumber((100 * (value ?? 0)) / max, 'float', '%')} %`));
    bars.append(row);
  }
  figure.append(bars);
  return figure;
}

function notes(sol, m) {
  const out = [];
  const device = sol.device ? `Device: ${sol.device}` : 'No GPU with known dense peaks: nothing can be estimated (choose a device above)';
  const lines = [`${device}; efficiency factor ${Number(sol.efficiency_factor).toFixed(1)}; ${formatNumber(m['sol/total_tflops'] ?? 0, 'float', '')} TFLOP and ${
    formatNumber(m['sol/total_memory_gb'] ?? 0, 'float', '')} GB moved by the estimated ops.`];
  if (!sol.module_frames)
    lines.push('This trace has no nn.Module frames (record it with with_stack=True): layer types fall back to op categories.');
  if (m['sol/faster_than_estimate_ops'])
    lines.push(`${formatNumber(m['sol/faster_than_estimate_ops'], 'int')} ops ran faster than their estimate: their perf model or the device data is wrong for them (faster_cause model or device in the top operations; never shown above 100 % silently).`);
  if (m['sol/faster_cause_on_chip_ops'])
    lines.push(`${formatNumber(m['sol/faster_cause_on_chip_ops'], 'int')} ops ran faster than DRAM allows, their data served from the L2: their estimate is the on-chip bound (faster_cause on_chip).`);
  if (m['sol/communication_ops'])
    lines.push(`Collectives estimated from their bytes and the GPU's link bandwidth: ${formatNumber(m['sol/communication_ops'], 'int')} (${ms(m['sol/communication_estimated_time_ms'])} estimated, ${ms(m['sol/communication_measured_time_ms'])} measured).`);
  if (m['sol/communication_unmodeled_ops'])
    lines.push(`Collectives without an estimate: ${formatNumber(m['sol/communication_unmodeled_ops'], 'int')} (${ms(m['sol/communication_unmodeled_time_ms'])}); they are among the unmodeled ops, with the reason.`);
  if (m['sol/unattributed_kernels'])
    lines.push(`${formatNumber(m['sol/unattributed_kernels'], 'int')} kernels (${ms(m['sol/unattributed_time_ms'])}) have no launching op and are not in the totals.`);
  // The core's notes, less the two said above in the page's words (its own name the
  // CLI's --device option).
  for (const n of sol.notes ?? []) {
    if (!sol.device && /^no GPU with known dense peaks/.test(n)) continue;
    if (!sol.module_frames && /no nn\.Module frames/.test(n)) continue;
    lines.push(n);
  }
  const list = el('ul', 'sol-notes');
  for (const line of lines) list.append(el('li', '', line));
  out.push(list);
  return out;
}

// Horizontal bar pairs per layer type (the largest measured first): estimated and
// measured on one scale. Drawing only: the numbers are the core's.
function layerChart(sheet) {
  const name = sheet.columns[0];
  const est = findColumn(sheet, 'estimated_time_ms');
  const meas = findColumn(sheet, 'measured_time_ms');
  const eff = findColumn(sheet, 'efficiency_pct');
  const unm = findColumn(sheet, 'unmodeled_time_ms');
  const pass = findColumn(sheet, 'pass');
  const total = (r) => (cell(meas, r) ?? 0) + (cell(unm, r) ?? 0);
  const rows = Array.from({ length: sheet.rows }, (_, r) => r)
    .sort((a, b) => total(b) - total(a)).slice(0, CHART_LAYER_TYPES);
  const max = Math.max(1e-12, ...rows.flatMap((r) => [cell(est, r) ?? 0, total(r)]));
  const LABEL = 200;
  const W = 800;
  const ROW = 26;
  const BAR = 10;
  const plot = W - LABEL - 150;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${rows.length * ROW + 22}`);
  svg.setAttribute('class', 'sol-chart');
  svg.setAttribute('role', 'img');
  const title = document.createElementNS(SVG, 'title');
  title.textContent = `Estimated (speed of light) and measured time of the ${rows.length} layer types with the most measured time, with the efficiency of their modeled ops; the table below lists them all`;
  svg.append(title);
  const text = (x, y, content, cls, anchor = 'start') => {
    const t = document.createElementNS(SVG, 'text');
    t.setAttribute('x', String(x));
    t.setAttribute('y', String(y));
    t.setAttribute('text-anchor', anchor);
    if (cls) t.setAttribute('class', cls);
    t.textContent = content;
    svg.append(t);
  };
  rows.forEach((r, i) => {
    const y = i * ROW;
    const label = String(cell(name, r) ?? '(none)') + (pass ? ` (${cell(pass, r)})` : '');
    text(LABEL - 8, y + BAR + 4, label.length > 26 ? `${label.slice(0, 25)}…` : label, 'sol-chart-label', 'end');
    // Measured: the modeled ops' time, then the unmodeled ops' time after it.
    [[cell(est, r) ?? 0, 'estimated', 0, 0], [cell(meas, r) ?? 0, 'measured', BAR + 1, 0],
      [cell(unm, r) ?? 0, 'unmodeled', BAR + 1, cell(meas, r) ?? 0]].forEach(([v, cls, dy, after]) => {
      if (cls === 'unmodeled' && !v) return;
      const rect = document.createElementNS(SVG, 'rect');
      rect.setAttribute('x', String(LABEL + (plot * after) / max));
      rect.setAttribute('y', String(y + dy));
      rect.setAttribute('width', String(Math.max(0.5, (plot * v) / max)));
      rect.setAttribute('height', String(BAR));
      rect.setAttribute('class', `sol-${cls}`);
      const t = document.createElementNS(SVG, 'title');
      t.textContent = `${label}: ${cls} ${ms(v)}`;
      rect.append(t);
      svg.append(rect);
    });
    const e = cell(eff, r);
    text(LABEL + (plot * total(r)) / max + 6, y + 2 * BAR, e == null ? 'unmodeled only' : `${formatNumber(e, 'float', '%')} %`, 'sol-chart-value');
  });
  const legendY = rows.length * ROW + 14;
  for (const [x, cls, label] of [[LABEL, 'estimated', 'estimated (speed of light)'], [LABEL + 180, 'measured', 'measured, modeled ops'],
    [LABEL + 340, 'unmodeled', 'measured, unmodeled ops']]) {
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('x', String(x));
    rect.setAttribute('y', String(legendY - 9));
    rect.setAttribute('width', '12');
    rect.setAttribute('height', '10');
    rect.setAttribute('class', `sol-${cls}`);
    svg.append(rect);
    text(x + 16, legendY, label, 'sol-chart-label');
  }
  const figure = el('figure', 'chart sol-chart-figure');
  figure.append(svg);
  return figure;
}

// The module-path column (layer_instance) shown readably (format.mjs), the recorded
// path on hover; undefined for a sheet without one.
function modulePathDisplay(sheet) {
  const column = findColumn(sheet, 'layer_instance');
  if (!column || column.type !== 'string') return undefined;
  const shown = readableModulePaths(column.dictionary);
  return { layer_instance: (s) => shown.get(s) ?? s };
}
