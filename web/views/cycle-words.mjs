// The cycles view's words: the cycles sheets' columns and tables named for a reader
// (the CSV's names stay on hover and in the exports), a sentence per pattern from the
// patterns table, and the positions tables' statistics (uplifter's "# Cycle
// Statistics" block, kept as the core writes it for CSV parity) as label and value.
// Presentation only: every number is the core's.

import { findColumn, cell } from '../sheet.mjs';
import { formatNumber } from '../units.mjs';

const COLUMN_WORDS = {
  pattern: 'pattern', level: 'level', sequence: 'where it runs', phase: 'phase',
  start_index: 'first kernel', end_index: 'last kernel', center_pct: 'centre in the kernels',
  length: 'kernels per repetition', repetitions: 'repetitions', layers_per_outer: 'layers per repetition',
  kernels_outside_layers: 'kernels outside layers', start_us: 'start', end_us: 'end',
  avg_span_us: 'mean span', avg_idle_us: 'mean idle', avg_period_us: 'mean period',
  avg_cycle_kernel_time_us: 'mean kernel time', total_kernel_time_us: 'total kernel time',
  anchor: 'anchor kernel', signature: 'kernels (signature)', found_by: 'found by', confidence: 'confidence',
  passes: 'detection passes',
  index: 'position', kernel_name: 'kernel', avg_duration_us: 'mean duration', min_duration_us: 'min duration',
  max_duration_us: 'max duration', stddev_us: 'std. deviation', count: 'count', pct_of_cycle: 'share of repetition',
  where: 'where', pct_of_outer: 'share of step',
  repetition: 'repetition', first_kernel_index: 'first kernel', span_us: 'span', busy_us: 'busy', idle_us: 'idle',
  kernel_time_us: 'kernel time', to_next_start_us: 'to next start',
  steps: 'steps', kernels_per_step: 'kernels per step', layers_per_step: 'layers per step',
  kernels_per_layer: 'kernels per layer', avg_step_latency_us: 'mean step latency',
  min_step_latency_us: 'min step latency', max_step_latency_us: 'max step latency', avg_step_period_us: 'mean step period',
  avg_step_idle_us: 'mean step idle', avg_layer_latency_us: 'mean layer latency',
  avg_outside_layers_kernel_time_us: 'mean kernel time outside layers',
};

// The header's words for a cycles column; a column this list lacks (a newer core)
// reads as its name with spaces.
export function cycleColumnWords(name) {
  return COLUMN_WORDS[name] ?? name.replace(/_(us|pct)$/, '').replaceAll('_', ' ');
}

// What one of a pattern's tables is, by its sheet name: [tab label, caption].
export function cycleTableWords(name) {
  if (/_layer_repetitions$/.test(name)) return ['Layer repetitions', 'one row per repetition of the layer'];
  if (/_repetitions$/.test(name)) return ['Repetitions', 'one row per repetition'];
  if (/_steps$/.test(name)) return ['Steps', 'one row per step'];
  if (/_outside_layers$/.test(name)) return ['Outside the layers', 'the kernels of each step outside the layers'];
  if (/_outer$/.test(name)) return ['Whole repetition', 'one row per kernel position of the whole repetition (layers included)'];
  return ['Kernel positions', 'one row per kernel position in the pattern'];
}

const ms = (us) => `${formatNumber(us / 1000, 'float')} ms`;
const plural = (n, one, many = `${one}s`) => `${formatNumber(n, 'int')} ${n === 1 ? one : many}`;

// One sentence per pattern (its outer level) or phase, from the patterns table.
export function patternSentences(sheet, mode) {
  const col = (name) => findColumn(sheet, name);
  const get = (name, r) => cell(col(name), r);
  const out = [];
  for (let r = 0; r < sheet.rows; r++) {
    if (mode === 'llm') {
      const layers = get('layers_per_step', r);
      out.push(`${get('phase', r) ?? 'a phase'}: ${plural(get('steps', r) ?? 0, 'step')} of ${plural(get('kernels_per_step', r) ?? 0, 'kernel')}` +
        `${layers ? `, ${plural(layers, 'layer')} of ${plural(get('kernels_per_layer', r) ?? 0, 'kernel')}` : ''}` +
        `, ${ms(get('avg_step_latency_us', r) ?? 0)} per step on average${found(get, r)}.`);
      continue;
    }
    if (get('level', r) === 'layer') continue;  // said with its outer level
    const layers = get('layers_per_outer', r);
    const name = get('phase', r) || `pattern ${get('pattern', r)}`;
    out.push(`${name}: ${plural(get('repetitions', r) ?? 0, 'repetition')} of ${plural(get('length', r) ?? 0, 'kernel')}` +
      `${layers ? `, each ${plural(layers, 'layer')}` : ''}, ${ms(get('avg_span_us', r) ?? 0)} each on average` +
      ` (${get('sequence', r) ?? ''})${found(get, r)}.`);
  }
  return out;
}

function found(get, r) {
  const by = get('found_by', r);
  const confidence = get('confidence', r);
  if (!by) return '';
  return `; found by ${by}${confidence ? `, ${confidence} confidence` : ''}`;
}

// A positions table's statistics: uplifter's "# Label,value" lines as [label, value]
// rows, in words. Lines of another shape are left out.
const STAT_WORDS = {
  'Iterations': 'Repetitions',
  'Kernels per cycle': 'Kernels per repetition',
  // uplifter's cycle time is the sum of the kernels' durations, not the span.
  'Avg cycle time (us)': 'Mean kernel time per repetition (µs)',
  'Total time (us)': 'Total kernel time (µs)',
};
export function preambleRows(text) {
  const rows = [];
  for (const line of (text ?? '').split('\n')) {
    const m = /^#\s*([^,]+),\s*(\S+)\s*$/.exec(line);
    if (!m) continue;
    const value = Number(m[2]);
    rows.push([STAT_WORDS[m[1]] ?? m[1], Number.isFinite(value) ? formatNumber(value, Number.isInteger(value) ? 'int' : 'float') : m[2]]);
  }
  return rows;
}
