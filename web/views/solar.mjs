// The Solar view: the graph speed of light of a PyTorch Execution Trace (core/analyses/
// solar, as `sollens solar`), beside the measured run when the Kineto trace of the same
// run is open. The three SOL times (unfused, fused, fused + prefetched) against the
// measured GPU time of the linked ops as bars, the intermediates that fusion would keep
// out of DRAM, and the core's tables (per op, per intermediate tensor). The Execution
// Trace is dropped with or after its Kineto trace, or alone (no measured time then);
// a device recomputes it. Names from the trace are set as text only.

import { createTable } from '../table.mjs';
import { findSheet } from '../sheet.mjs';
import { fmtBytes, fmtInt } from '../format.mjs';
import { el, resetSection, select, tabs } from '../widgets.mjs';
import { formatNumber } from '../units.mjs';

// The two definitions of the three SOL times the core writes (analyses/solar/README.md).
const DEFINITIONS = [['perf', 'Solar HEAD (whole-graph roofline)'], ['design_intent', 'Design intent (per-op sums, SOL_GUIDE §6)']];
const VARIANTS = [['unfused', 'Unfused', 'every op on its own: every input read and output written in DRAM'],
  ['fused', 'Fused', 'the whole graph as one kernel: only model inputs, weights and outputs move'],
  ['fused_prefetched', 'Fused + prefetched', 'fused, with compute and memory fully overlapped']];
const TABLES = [
  ['solar_nodes', 'Per op', 'one row per counted leaf op of the Execution Trace: its MACs, element traffic by class, its SOL times on the device and its measured GPU time when linked'],
  ['solar_intermediates', 'Intermediates fusion removes', 'one row per tensor an op writes and a later op reads: the bytes its write and reads move through DRAM when each op runs on its own, which fusion keeps on chip'],
];

export function render(section, context) {
  // context.state (kept while this Execution Trace is shown): definition, the SOL
  // definition shown; tab, the table tab shown; focus, the control to give it back to.
  const state = context.state ?? {};
  const { solar } = context;
  resetSection(section, 'Solar: graph speed of light');
  // What is shown, for tests and styles: empty | pending | error | ready.
  section.dataset.solar = !solar ? 'empty' : solar.pending ? 'pending' : solar.result ? 'ready' : 'error';
  if (!solar) {
    section.append(emptyState(context), openButton(context, 'Open Execution Trace…'));
    return;
  }
  if (!solar.result) {
    if (solar.pending) {
      const p = el('p', 'empty-state solar-pending', `Reading the Execution Trace ${solar.name} and building its dataflow graph…`);
      p.setAttribute('role', 'status');
      section.append(p);
    } else {
      section.append(errorBox(solar.error), openButton(context, 'Open an Execution Trace…'));
    }
    return;
  }
  const { result } = solar;
  const doc = result.document;
  section.append(sourceLine(result, context));
  const { wrap, focusTarget } = controls(context, state, solar);
  section.append(wrap);
  if (focusTarget && (document.activeElement === document.body || !document.activeElement))
    focusTarget.querySelector('select').focus({ preventScroll: true });
  if (solar.error) section.append(errorBox(solar.error));
  const definition = DEFINITIONS.some(([key]) => key === state.definition) ? state.definition : 'perf';
  section.append(timesFigure(doc, definition), notes(doc, result));
  section.append(el('h3', '', 'What fusion removes'), fusionFigure(doc));
  section.append(el('h3', '', 'Tables'), tables(result, state));
}

function emptyState(context) {
  const box = el('div', 'empty-state solar-empty');
  box.append(el('p', '', 'Solar estimates the speed of light of the whole model from its PyTorch Execution Trace: the operator graph with tensor shapes that torch.profiler.ExecutionTraceObserver writes (a *_et.json or .json.gz). Three estimates: every op unfused, the graph fused into one kernel, and fused with prefetching.'));
  box.append(el('p', '', context.report
    ? `Drop the Execution Trace of the run shown (${context.name}) anywhere on the page, or open it below: each op is then linked to its Kineto op, and the measured GPU time is shown beside the estimates.`
    : 'Drop an Execution Trace anywhere on the page, with or after its Kineto trace (both files at once works too), or open it below. Alone it gives the estimates; with its Kineto trace, the measured time beside them.'));
  return box;
}

function openButton(context, label) {
  const wrap = el('p', 'solar-open');
  const input = el('input');
  input.type = 'file';
  input.accept = '.json,.gz,application/json,application/gzip';
  input.hidden = true;
  input.className = 'solar-file-input';
  input.addEventListener('change', () => {
    const file = input.files[0];
    input.value = '';
    if (file) context.openExecutionTrace(file);
  });
  const button = el('button', 'solar-open-button', label);
  button.type = 'button';
  button.addEventListener('click', () => input.click());
  wrap.append(button, input);
  return wrap;
}

function errorBox(error) {
  const box = el('div', 'error solar-error');
  box.setAttribute('role', 'alert');
  box.append(el('p', 'solar-error-title', error?.title ?? 'Solar could not be computed.'));
  if (error?.hint) box.append(el('p', 'detail', error.hint));
  return box;
}

function sourceLine(result, context) {
  const graph = result.document.analysis?.graph ?? {};
  const p = el('p', 'detail solar-source');
  const what = `Execution Trace ${result.name} (schema ${graph.schema ?? '?'}): ${fmtInt(graph.nodes ?? 0)} nodes, ${
    fmtInt(graph.counted_nodes ?? 0)} ops counted (leaf ops that do work; views, allocations and collectives are not).`;
  const link = result.document.link;
  const beside = result.measured && link
    ? ` Measured in ${context.name ?? 'the open trace'}: ${fmtInt(link.compute_nodes_linked)} of ${fmtInt(link.compute_nodes)} ops linked (${
      formatNumber(100 * link.linked_fraction, 'float', '%')} %, by ${link.method.replace(/_/g, ' ')}).`
    : ' No Kineto trace is open beside it: no measured time (open the trace of the same run, then drop this file again).';
  p.textContent = what + beside;
  return p;
}

function controls(context, state, solar) {
  const wrap = el('div', 'controls');
  const status = el('span', 'detail');
  status.setAttribute('role', 'status');
  if (solar.pending) status.textContent = 'Recomputing Solar…';
  const asked = solar.asked ?? { device: '' };
  const arch = solar.result.document.arch;
  const fromTrace = asked.device === '' && arch ? `from the trace (${arch.name})` : 'from the trace';
  const device = select('Device', [['', fromTrace], ...(context.devices ?? []).map((d) => [d, d])], asked.device, (v) => {
    state.focus = 'device';
    if (context.requestSolar({ device: v })) status.textContent = 'Recomputing Solar…';
  });
  device.classList.add('solar-device');
  const definition = select('SOL times', DEFINITIONS, state.definition ?? 'perf', (v) => {
    state.definition = v;
    state.focus = 'definition';
    const section = wrap.closest('section');
    if (section) render(section, context);
  });
  definition.classList.add('solar-definition');
  wrap.append(device, definition, openButton(context, 'Open another Execution Trace…'), status);
  const focusTarget = state.focus === 'device' ? device : state.focus === 'definition' ? definition : null;
  state.focus = null;
  return { wrap, focusTarget };
}

const ms = (x) => `${formatNumber(x ?? 0, 'float', 'ms')} ms`;

// The three SOL times and the measured GPU time of the linked ops, on one scale.
function timesFigure(doc, definition) {
  const figure = el('figure', 'sol-gap solar-times');
  const model = doc[definition];
  const measured = doc.measured?.gpu_busy_ms_linked_ops;
  const headline = el('p', 'sol-headline');
  if (!model) {
    const notice = doc.perf_notice ?? 'no device';
    headline.append(el('strong', '', 'No SOL times: '), /choose/i.test(notice) ? `${notice}.` : `${notice}. Choose a device above.`);
  } else {
    const best = model.fused_prefetched.runtime_ms;
    headline.append(el('strong', 'solar-best', ms(best)),
      ` at speed of light (fused + prefetched, ${model.fused_prefetched.bottleneck}-bound) on ${doc.arch.name}`,
      measured > 0 ? `; the linked ops took ${ms(measured)} on the GPU (${(measured / Math.max(best, 1e-12)).toFixed(1)}× that).`
        : '.');
  }
  figure.append(headline);
  const rows = model ? VARIANTS.map(([key, label, what]) => [label, model[key].runtime_ms, 'estimated',
    `${model[key].bottleneck}-bound · ${fmtBytes(model[key].memory_bytes)}`, what]) : [];
  if (measured != null)
    rows.push(['Measured (linked ops)', measured, 'measured', `GPU busy · whole trace ${ms(doc.measured.gpu_busy_ms_trace)}`,
      'the busy GPU time under the Kineto ops the Execution Trace nodes are linked to']);
  const max = Math.max(1e-12, ...rows.map((r) => r[1]));
  const bars = el('div', 'sol-bars');
  for (const [label, value, cls, detail, what] of rows) {
    const row = el('div', `sol-bar-row sol-bar-${cls} solar-bar`);
    row.title = what;
    const track = el('div', 'sol-bar-track');
    const fill = el('div', 'sol-bar-fill');
    fill.style.width = `${(100 * value) / max}%`;
    track.append(fill);
    const shown = el('data', 'solar-ms', ms(value));
    shown.value = String(value);
    const text = el('span', 'sol-bar-value');
    text.append(shown, ` · ${detail}`);
    row.append(el('span', 'sol-bar-label', label), track, text);
    bars.append(row);
  }
  if (rows.length) figure.append(bars);
  return figure;
}

function notes(doc, result) {
  const lines = [];
  if (doc.perf) {
    const s = doc.speedup ?? {};
    lines.push(`Fused vs unfused at speed of light: ${formatNumber(s.fused_vs_unfused ?? 0, 'float', '')}× faster (Solar HEAD), ${
      formatNumber(doc.design_intent?.speedup?.fused_vs_unfused ?? 0, 'float', '')}× (design intent).`);
    const head = VARIANTS.map(([key]) => doc.perf[key]);
    if (head.every((v) => v.bottleneck === 'compute'))
      lines.push(`Compute-bound in all three (Solar HEAD): the whole graph's compute, ${ms(head[0].runtime_ms)}, outlasts even the unfused traffic, so fusion's lower traffic does not shorten it there; the design intent sums op by op, where memory-bound ops gain.`);
    lines.push(`Hardware: ${doc.arch.name} at ${formatNumber(doc.arch.freq_GHz, 'float', '')} GHz, ${doc.arch.source}.`);
  }
  // The weights rule (passes re-read) and why ops beat their per-op SOL, as sollens solar prints them.
  for (const line of result.summary ?? [])
    if (/^(weights|faster than SOL):/.test(line)) lines.push(line.charAt(0).toUpperCase() + line.slice(1));
  if (doc.link?.note) lines.push(`Not linked: ${doc.link.note}.`);
  if (result.measured && doc.measured && doc.measured.gpu_busy_ms_trace > doc.measured.gpu_busy_ms_linked_ops * 1.5)
    lines.push('The whole trace has much more GPU time than the linked ops: it may cover more steps than the Execution Trace.');
  for (const w of doc.warnings ?? []) lines.push(`Execution Trace: ${w}`);
  const list = el('ul', 'sol-notes solar-notes');
  for (const line of lines) list.append(el('li', '', line));
  return list;
}

// Unfused traffic = model I/O (inputs, weights, outputs) + intermediates; fusion keeps
// the intermediates on chip.
function fusionFigure(doc) {
  const t = doc.analysis?.total ?? {};
  const figure = el('figure', 'solar-fusion');
  const unfused = t.unfused_bytes ?? 0;
  const removed = t.intermediate_bytes ?? 0;
  const share = unfused > 0 ? (100 * removed) / unfused : 0;
  const p = el('p', 'solar-fusion-text');
  const shown = el('data', 'solar-removed', fmtBytes(removed));
  shown.value = String(removed);
  p.append(shown, ` of the ${fmtBytes(unfused)} the ops move one by one (${
    formatNumber(share, 'float', '%')} %) are ${fmtInt(t.num_intermediate_tensors ?? 0)} intermediate tensors, written by one op and read by a later one: fused, they never reach DRAM. The model inputs, weights (${
    fmtBytes(t.weight_bytes ?? 0)}) and outputs still do, each read once: ${fmtBytes(t.fused_bytes ?? 0)} fused${
    doc.memory_reduction != null ? `, ${formatNumber(100 * doc.memory_reduction, 'float', '%')} % less than unfused` : ''}.`);
  figure.append(p);
  const bar = el('div', 'solar-split');
  bar.setAttribute('role', 'img');
  bar.setAttribute('aria-label', `Unfused traffic: ${fmtBytes(unfused - removed)} model I/O, ${fmtBytes(removed)} intermediates`);
  for (const [cls, bytes, label] of [['io', unfused - removed, 'model I/O'], ['intermediate', removed, 'intermediates (removed by fusion)']]) {
    const part = el('div', `solar-split-${cls}`);
    part.style.width = `${unfused > 0 ? (100 * bytes) / unfused : 0}%`;
    part.title = `${label}: ${fmtBytes(bytes)}`;
    bar.append(part);
  }
  const legend = el('ul', 'legend solar-split-legend');
  for (const [cls, label] of [['io', 'model inputs, weights and outputs'], ['intermediate', 'intermediates (removed by fusion)']]) {
    const li = el('li', '');
    li.append(el('span', `swatch solar-split-${cls}`), label);
    legend.append(li);
  }
  figure.append(bar, legend);
  return figure;
}

function tables(result, state) {
  const items = TABLES.map(([name, label]) => ({ id: name, label, count: findSheet(result.sheets, name)?.rows ?? 0 }))
    .filter((item) => findSheet(result.sheets, item.id));
  return tabs(items, (item, panel) => {
    const sheet = findSheet(result.sheets, item.id);
    panel.append(el('p', 'detail', `${item.id}: ${TABLES.find(([name]) => name === item.id)[2]}.`));
    if (!sheet.rows) {
      panel.append(el('p', 'empty-state', item.id === 'solar_intermediates' ? 'No op reads what another op wrote: nothing for fusion to remove.' : 'No rows.'));
      return;
    }
    const sort = item.id === 'solar_intermediates' ? { column: 'bytes_removed', descending: true } : undefined;
    panel.append(createTable(sheet, { caption: item.id, sort }).element);
  }, { label: 'Solar tables', selected: state.tab, onSelect: (id) => { state.tab = id; } }).element;
}
