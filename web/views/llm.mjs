// The LLM phases view: prefill and decode (chunked prefill, mixed, or the phases a
// serving framework's annotations name), each with its steps, wall time per step,
// tokens per second, speed of light over the wall time (idle included) beside the
// kernel-only efficiency, and its layer breakdown. Every number is the core's, from the
// speed-of-light sheets (core/analyses/sol, asked for with requestSol as the SOL view
// does): sol_by_phase (a phase's ops, wall time, forwards, tokens), sol_by_step (its
// step pattern: wall per step, mean / p50 / p90, SOL per step) and sol_by_phase_layer
// (its layer types). The phases come from core/analyses/phases (inferred from each
// forward's shapes) or from the trace's user annotations. Names from the trace are text.

import { createTable } from '../table.mjs';
import { findSheet, findColumn, cell, rowsWhere, subsetSheet } from '../sheet.mjs';
import { el, resetSection, select } from '../widgets.mjs';
import { formatNumber } from '../units.mjs';
import { dataValue } from '../format.mjs';

const NO_PHASE = '(no phase)';
// The phases core/analyses/phases infers, in the order a generation runs them.
const INFERRED = ['prefill', 'chunked_prefill', 'mixed', 'decode'];
// The layer table's columns in words (the CSV's names stay on hover).
// The share first: which layers the phase's speed of light is made of.
const LAYER_COLUMNS = new Map([['layer_type', 'layer type'], ['pass', 'pass'],
  ['share_of_phase_estimate_pct', 'share of SOL'], ['estimated_time_ms', 'speed of light'], ['measured_time_ms', 'measured'],
  ['efficiency_pct', 'efficiency'], ['count', 'estimated ops'], ['unmodeled_ops', 'unmodeled ops'],
  ['unmodeled_time_ms', 'unmodeled']]);

export function render(section, context) {
  // context.state (kept for this trace): asked, the device last asked for here; focus.
  const state = context.state ?? {};
  resetSection(section, 'LLM phases');
  const sol = solOrStatus(section, context, state);
  if (!sol) return;
  const phases = phaseRows(sol);
  section.append(controls(context, state, sol));
  if (phases.length === 0) {
    section.append(...noPhases(context));
    return;
  }
  section.append(intro(sol, phases));
  const outside = outsidePhases(sol);
  if (outside) section.append(outside);
  // Kernels replayed by graphs the trace cannot map to ops have no estimate: a phase's
  // speed of light then leaves them out (the SOL view reads the capture trace).
  for (const note of (sol.notes ?? []).filter((n) => /graph replay/.test(n)))
    section.append(el('p', 'detail llm-note', `Note: ${note}. The SOL view can open the graph-capture trace.`));
  for (const phase of phases) section.append(phaseCard(sol, phase));
}

// The speed of light, asked for on first view (it carries the phase sheets); null while
// it is computed, failed, or cannot be (a report from a link): the section says which.
function solOrStatus(section, context, state) {
  const { sol } = context;
  if (sol) return sol;
  if (!context.solPending && !context.solError) {
    if (!state.asked) {
      state.asked = { device: '', efficiency: 1 };
      state.unavailable = !context.requestSol(state.asked);
    }
    if (state.unavailable) {
      section.append(el('p', 'empty-state llm-unavailable',
        'The phases are found in the trace itself: open the trace to see them (this report came from a link, which does not carry them).'));
      return null;
    }
  }
  if (context.solError) {
    section.append(el('p', 'empty-state llm-error', context.solError));
    return null;
  }
  const p = el('p', 'empty-state llm-pending', 'Finding the phases and their speed of light…');
  p.setAttribute('role', 'status');
  section.append(p);
  return null;
}

// The device for the speed of light: a trace without deviceProperties has none until
// one is chosen (the phases, steps and tokens are shown either way).
function controls(context, state, sol) {
  const wrap = el('div', 'controls');
  const status = el('span', 'detail');
  status.setAttribute('role', 'status');
  // The device the speed of light was computed for, whichever view asked for it (the SOL
  // view may have chosen another one): the trace's own shows as "from the trace".
  const identification = sol.device_identification ?? {};
  const chosen = identification.status === 'user' && (context.devices ?? []).includes(sol.device) ? sol.device : '';
  const asked = { device: chosen, efficiency: sol.efficiency_factor ?? 1 };
  const fromTrace = identification.status === 'identified' && identification.id ? `from the trace (${identification.id})`
    : !chosen && !sol.device ? 'from the trace (none usable)' : 'from the trace';
  const device = select('Device', [['', fromTrace], ...(context.devices ?? []).map((d) => [d, d])], asked.device, (v) => {
    const next = { ...asked, device: v };
    if (!context.requestSol(next)) return;
    state.asked = next;
    state.focus = true;
    status.textContent = 'Recomputing speed of light…';
  });
  device.classList.add('llm-device');
  wrap.append(device, status);
  if (!sol.device) wrap.append(el('p', 'detail llm-no-device',
    'No GPU with known peaks: the steps, wall times and tokens below are measured; choose a device for their speed of light.'));
  if (state.focus && (document.activeElement === document.body || !document.activeElement))
    device.querySelector('select').focus({ preventScroll: true });
  state.focus = false;
  return wrap;
}

// sol_by_phase's rows that are phases: the inferred ones in the order a generation runs
// them, then those named by annotations (by estimated time, as the sheet has them).
function phaseRows(sol) {
  const sheet = findSheet(sol.sheets, 'sol_by_phase');
  if (!sheet) return [];
  const names = findColumn(sheet, 'phase');
  const rows = [];
  for (let r = 0; r < sheet.rows; r++) {
    const name = cell(names, r);
    if (name !== null && name !== NO_PHASE) rows.push({ row: r, name, inferred: INFERRED.includes(name) });
  }
  const rank = (p) => (p.inferred ? INFERRED.indexOf(p.name) : INFERRED.length);
  return rows.sort((a, b) => rank(a) - rank(b));  // stable: annotated phases keep the sheet's order
}

function intro(sol, phases) {
  const inferred = phases.filter((p) => p.inferred).length;
  const annotated = phases.length - inferred;
  const parts = [];
  if (inferred) parts.push(`${inferred === 1 ? 'One phase was' : `${inferred} phases were`} inferred from the shapes of each forward of the generation loop (no annotation names them): a forward starts at its aten::embedding; an attention over a new KV cache is prefill, one of at most 8 query tokens over a longer cache is decode.`);
  if (annotated) parts.push(`${annotated === 1 ? 'One phase is' : `${annotated} phases are`} named by the trace's own annotations (record_function ranges, as serving frameworks write them); the page does not count their steps or tokens.`);
  parts.push('A step\'s wall time runs from its first kernel to the first kernel after it, so the GPU\'s idle time between steps is in it; speed of light over that wall time is what a user waits for, the kernel-only efficiency says how fast the kernels themselves ran.');
  const p = el('p', 'detail llm-intro', parts.join(' '));
  return p;
}

// The ops outside every phase (sol_by_phase's "(no phase)" row), said once: they are in
// no card below.
function outsidePhases(sol) {
  const sheet = findSheet(sol.sheets, 'sol_by_phase');
  const row = rowsWhere(sheet, 'phase', (x) => x === NO_PHASE)[0];
  if (row === undefined) return null;
  const v = (name) => cell(findColumn(sheet, name), row);
  return el('p', 'detail llm-outside', `${formatNumber(v('count') ?? 0, 'int')} estimated and ${formatNumber(v('unmodeled_ops') ?? 0, 'int')} unmodeled ops ran outside every phase (${
    formatNumber(v('wall_time_ms') ?? 0, 'float', 'ms')} ms of wall): they are in no card below (the SOL view's Phase table has them).`);
}

// One phase: a sentence with its headline numbers, the facts behind it, its layers.
function phaseCard(sol, phase) {
  const byPhase = findSheet(sol.sheets, 'sol_by_phase');
  const v = (name) => cell(findColumn(byPhase, name), phase.row);
  const step = stepRow(sol, phase.name);
  const card = el('article', 'llm-phase');
  card.dataset.phase = phase.name;
  const heading = el('h3', 'llm-phase-name', phase.name);
  heading.id = `llm-phase-${phaseId(phase.name)}`;
  card.setAttribute('aria-labelledby', heading.id);
  card.append(heading, el('p', 'llm-source', phase.inferred ? 'inferred from the shapes' : 'named by an annotation'));
  card.append(headline(sol, v, step));
  card.append(facts(sol, v, step));
  card.append(layers(sol, phase.name));
  return card;
}

const phaseId = (name) => name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60);

// The step-level pattern sol_by_step found for the phase (the one with the most
// repetitions where several sequences have one), or null.
function stepRow(sol, phase) {
  const sheet = findSheet(sol.sheets, 'sol_by_step');
  if (!sheet) return null;
  const level = findColumn(sheet, 'level');
  const rows = rowsWhere(sheet, 'llm_phase', (x) => x === phase).filter((r) => cell(level, r) === 'step');
  if (rows.length === 0) return null;
  const reps = findColumn(sheet, 'repetitions');
  const best = rows.reduce((a, b) => (cell(reps, b) > cell(reps, a) ? b : a));
  return { row: best, get: (name) => cell(findColumn(sheet, name), best), others: rows.length - 1 };
}

const ms = (x) => `${formatNumber(x, 'float', 'ms')} ms`;
const msOfUs = (x) => `${formatNumber(x / 1000, 'float', 'ms')} ms`;
const pct = (x) => `${formatNumber(x, 'float', '%')} %`;
// The headline reads as a sentence: three significant digits (the facts below are exact).
const short = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });
const shortMs = (us) => `${short.format(us / 1000)} ms`;

// "31 steps of 17.13 ms wall each; 0.518 ms of speed of light per step: 3.03 % of the
// wall, idle included (kernels alone: 70.29 %)."
function headline(sol, v, step) {
  const p = el('p', 'llm-headline');
  const steps = v('forwards') ?? step?.get('repetitions');
  if (steps != null && step?.get('wall_us') != null) {
    p.append(`${formatNumber(steps, 'int')} ${steps === 1 ? 'step' : 'steps'} of `, el('strong', '', shortMs(step.get('wall_us'))),
      ' wall each');
  } else {
    p.append(el('strong', '', shortMs(v('wall_time_ms') * 1000)), ' of wall time');
  }
  if (!sol.device) {
    p.append('; no speed of light without a device.');
    return p;
  }
  if (!v('count')) {
    p.append(`; no op of this phase could be estimated (${formatNumber(v('unmodeled_ops') ?? 0, 'int')} unmodeled ops).`);
    return p;
  }
  if (step && step.get('wall_efficiency_pct') != null) {
    p.append('; ', el('strong', '', shortMs(step.get('sol_latency_us'))), ' of speed of light per step: ',
      el('strong', '', pct(step.get('wall_efficiency_pct'))), ' of the wall, idle included');
  } else {
    p.append('; speed of light ', el('strong', '', pct(v('wall_efficiency_pct'))), ' of the wall, idle included');
  }
  if (v('efficiency_pct') != null) p.append(` (kernels alone: ${pct(v('efficiency_pct'))})`);
  p.append('.');
  // A speed of light over a few estimated ops is no bound on the phase: say how much of
  // its kernel time had no estimate when that is most of it.
  const unmodeledMs = v('unmodeled_time_ms') ?? 0;
  if (unmodeledMs > (v('measured_time_ms') ?? 0))
    p.append(` Most of its kernel time (${shortMs(unmodeledMs * 1000)} of ${shortMs((unmodeledMs + (v('measured_time_ms') ?? 0)) * 1000)}, ${
      formatNumber(v('unmodeled_ops') ?? 0, 'int')} ops) has no estimate, so this speed of light covers only the estimated ops.`);
  return p;
}

// The facts as a description list; each number is <data value> with the core's exact
// value and data-key naming the sheet and column it comes from.
function facts(sol, v, step) {
  const dl = el('dl', 'llm-facts');
  const add = (label, parts, title) => {
    const dt = el('dt', '', label);
    if (title) dt.title = title;
    const dd = el('dd');
    for (const x of parts) dd.append(x);
    dl.append(dt, dd);
  };
  const num = (sheet, column, value, shown) => {
    const d = dataValue(value, shown);
    d.dataset.key = `${sheet}.${column}`;
    return d;
  };
  const phaseNum = (column, shown = (x) => formatNumber(x, 'float')) => {
    const x = v(column);
    return x == null ? '–' : num('sol_by_phase', column, x, shown(x));
  };
  const stepNum = (column, shown = msOfUs) => {
    const x = step?.get(column);
    return x == null ? '–' : num('sol_by_step', column, x, shown(x));
  };
  const int = (x) => formatNumber(x, 'int');
  // No speed of light without a device, nor where no op of the phase has an estimate:
  // zeros there would read as a measurement (the headline says which).
  const estimated = Boolean(sol.device) && v('count') > 0;

  const steps = [];
  if (v('forwards') != null) steps.push(phaseNum('forwards', int), v('forwards') === 1 ? ' forward' : ' forwards');
  if (step) {
    const reps = step.get('repetitions');
    steps.push(steps.length ? '; as a kernel pattern ' : '', stepNum('repetitions', int), ` ${reps === 1 ? 'repetition' : 'repetitions'} of ${
      formatNumber(step.get('kernels'), 'int')} kernels${step.others ? ` (and ${step.others} more patterns of this phase: the SOL view's Step table)` : ''}`);
  }
  if (steps.length) add('Steps', steps, 'Forwards of the generation loop in this phase, and the step pattern cycle detection found');
  if (step) {
    add('Wall per step', ['mean ', stepNum('wall_us'), ', p50 ', stepNum('wall_p50_us'), ', p90 ', stepNum('wall_p90_us')],
      'From a step\'s first kernel to the first kernel after it (the last step: to its last kernel\'s end)');
    if (estimated) {
      add('Speed of light per step', [stepNum('sol_latency_us')]);
      add('Step SOL over wall time', [stepNum('wall_efficiency_pct', pct), ' (idle included)']);
    }
    add('GPU busy per step', [stepNum('busy_us'), ' of kernels in a span of ', stepNum('measured_span_us'), ' (first kernel to last)']);
  }
  if (estimated) {
    add('Kernel-only efficiency', [phaseNum('efficiency_pct', pct), ' (', phaseNum('estimated_time_ms', ms), ' estimated, ',
      phaseNum('measured_time_ms', ms), ' measured, ', phaseNum('count', int), ' ops)']);
  }
  if (v('tokens') != null) {
    add('Tokens', [phaseNum('tokens', int), step?.get('tokens') != null ? [' (', stepNum('tokens', int), ' per step)'] : []].flat(),
      'Each forward\'s embedding indices (their number), else its first GEMM\'s M');
    add('Tokens per second', [phaseNum('tokens_per_s', (x) => formatNumber(x, 'float')), ' over the phase\'s wall time']);
  } else {
    add('Tokens', ['not known: ', v('forwards') != null ? 'the forwards\' shapes do not say (e.g. graph replays)' : 'a phase named by an annotation carries no token count']);
  }
  add('Wall time of the phase', estimated
    ? [phaseNum('wall_time_ms', ms), ', of which ', phaseNum('estimated_time_ms', ms), ' speed of light: ', phaseNum('wall_efficiency_pct', pct)]
    : [phaseNum('wall_time_ms', ms)]);
  add('Unmodeled', [phaseNum('unmodeled_ops', int), ' ops, ', phaseNum('unmodeled_time_ms', ms), ' of kernels with no estimate (not in the speed of light)']);
  return dl;
}

// The phase's layer types (sol_by_phase_layer): SOL against measured, share of the
// phase's estimate.
function layers(sol, phase) {
  const wrap = el('div', 'llm-layers');
  const sheet = findSheet(sol.sheets, 'sol_by_phase_layer');
  const rows = sheet ? rowsWhere(sheet, 'phase', (x) => x === phase) : [];
  wrap.append(el('h4', '', sol.module_frames ? 'Layers (module types)' : 'Layers (op categories: the trace has no nn.Module frames)'));
  if (rows.length === 0) {
    wrap.append(el('p', 'empty-state', 'No layer breakdown for this phase.'));
    return wrap;
  }
  const subset = subsetSheet(sheet, rows, `sol_by_phase_layer_${phaseId(phase)}`);
  // The pass only where it tells rows apart (inference is one pass: "other").
  const passes = new Set(rows.map((r) => cell(findColumn(sheet, 'pass'), r)));
  const columns = [...LAYER_COLUMNS.keys()].filter((c) => c !== 'pass' || passes.size > 1);
  wrap.append(createTable(subset, { caption: `Layers of ${phase} (sol_by_phase_layer.csv from the command line)`,
    columns, labels: (name) => LAYER_COLUMNS.get(name) }).element);
  return wrap;
}

// What the page looked for, how to get phases, and where to go instead.
function noPhases(context) {
  const out = [el('p', 'empty-state llm-no-phases', 'No prefill or decode phase in this trace.')];
  const how = el('div', 'llm-how');
  how.append(el('p', '', 'The page looks for phases two ways:'));
  const list = el('ul');
  list.append(
    el('li', '', 'user annotations: each innermost record_function range names the phase of the ops inside it (vLLM and SGLang write such ranges);'),
    el('li', '', 'without them, the shapes of a generation loop: each forward starts at an aten::embedding after an attention, and its attention\'s query length tells a prefill (a new KV cache) from a decode step (at most 8 query tokens over a longer cache). This needs record_shapes=True and a prefill or decode after it on the same thread.'));
  how.append(list);
  how.append(el('p', '', 'To get phases, wrap them in torch.profiler.record_function("prefill") and ("decode"), or profile a whole generate() loop with record_shapes=True.'));
  out.push(how);
  const go = el('p', 'llm-to-cycles');
  const button = el('button', 'llm-link', 'Open the Cycles view');
  button.type = 'button';
  button.addEventListener('click', () => context.showView?.('cycles'));
  go.append(button, ': the repeating kernel patterns (steps, layers) it finds without phases.');
  out.push(go);
  return out;
}
