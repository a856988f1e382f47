// The HTA views' pure parts under node (no browser, no wasm): shares in words, the
// log-ish bins, the critical path's verdict from a hand-made summary sheet, the cutoffs
// from the report's options. Expected values worked by hand beside each check.
//   node tests/web/hta_units_test.mjs
import { binValues, logEdges, shareText, usText } from '../../web/views/hta-common.mjs';
import { summaryShares, verdictText } from '../../web/views/critical-path.mjs';
import { cutoffsOf } from '../../web/views/launch-delays.mjs';
import { HTA_SHARES, INFERRED_SHARES, sheet } from './support/hta_report.mjs';
import { checks } from './support/harness.mjs';

const { check, finish } = checks('hta units');
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Shares: one decimal, ".0" dropped, tiny shares not shown as 0.
for (const [x, want] of [[97, '97%'], [99.85652049148254, '99.9%'], [0.75, '0.8%'], [0.0029813923847785014, '<0.1%'], [0, '0%'], [100, '100%'], [NaN, '–']])
  check(shareText(x) === want, `shareText(${x}) = ${shareText(x)} (want ${want})`);
for (const [x, want] of [[80, '80 µs'], [2500, '2.5 ms'], [1234567, '1.23 s']]) check(usText(x) === want, `usText(${x}) = ${usText(x)} (want ${want})`);

// Edges: 1-2-5 up to the first edge past the largest value, with the cutoff added.
check(same(logEdges(1500, [100]), [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000]), `logEdges(1500) = ${logEdges(1500, [100])}`);
check(same(logEdges(0), [1]), `logEdges(0) = ${logEdges(0)} (one bin, below 1 µs)`);
check(same(logEdges(40, [30]), [1, 2, 5, 10, 20, 30, 50]), `a cutoff off the 1-2-5 steps is an edge: ${logEdges(40, [30])}`);
check(same(logEdges(100), [1, 2, 5, 10, 20, 50, 100, 200]), `a value on an edge opens the next bin: ${logEdges(100)}`);
// Bins hold their lower edge: 0 → <1; 1 → 1–2; 2, 4.9 → 2–5; 5 → 5–10; negatives in a bin of their own.
const bins = binValues([0, 1, 2, 4.9, 5, -3], [1, 2, 5, 10]);
check(same(bins.map((b) => [b.label, b.count]), [['< 0', 1], ['< 1', 1], ['1–2', 1], ['2–5', 2], ['5–10', 1]]),
  `binValues: ${JSON.stringify(bins.map((b) => [b.label, b.count]))}`);
check(same(binValues([1500], [1, 1000, 2000]).map((b) => b.label), ['< 1', '1–1 ms', '1 ms–2 ms']), 'ms edges read as ms');

// The verdict: the largest class with a length, its share, the runner-up.
const summary = (shares) => sheet('critical_path_summary', {
  bound_by: ['string', '', ['', 'cpu_bound', 'gpu_compute_bound', 'gpu_kernel_kernel_overhead', 'gpu_kernel_launch_overhead']],
  duration: ['float', '%', shares],
});
let v = verdictText(summaryShares(summary(HTA_SHARES)));
check(v.headline === 'CPU-bound: 97% of the critical path is CPU ops.' && v.detail === 'Next: GPU kernels, 2%.', `HTA's shares: ${v.headline} ${v.detail}`);
v = verdictText(summaryShares(summary(INFERRED_SHARES)));
check(v.headline === 'GPU-bound: 62.5% of the critical path is GPU kernels.' && v.detail === 'Next: CPU ops, 30%.', `inferred shares: ${v.headline} ${v.detail}`);
v = verdictText(summaryShares(summary([0, 10, 20, 25, 45])));
check(v.headline === 'Launch-bound: 45% of the critical path is kernel launch delays.', `launch-bound: ${v.headline}`);
v = verdictText(summaryShares(summary([0, 10, 20, 60, 10])));
check(v.headline === 'Bound by gaps between kernels: 60% of the critical path is gaps between kernels.', `kernel gaps: ${v.headline}`);
v = verdictText([{ id: '', share: 0 }, { id: 'cpu_bound', share: 30 }, { id: 'gpu_communication_bound', share: 70 }]);
check(v.headline === 'Communication-bound: 70% of the critical path is GPU communication (NCCL kernels).', `communication: ${v.headline}`);
// OWLv2's HTA path (sollens report): 49.89 CPU, 49.06 GPU, within 5 points: split.
v = verdictText(summaryShares(summary([0, 49.89418441118455, 49.06383533207223, 1.0392843181746698, 0.002695938568546485])));
check(v.headline === 'Split between CPU ops and GPU kernels: 49.9% and 49.1% of the critical path.', `close shares: ${v.headline}`);
v = verdictText(summaryShares(summary([0, 52.6, 47.4, 0, 0])));
check(v.headline === 'CPU-bound: 52.6% of the critical path is CPU ops.', `5.2 points apart: one bound: ${v.headline}`);
v = verdictText(summaryShares(summary([100, 0, 0, 0, 0])));
check(/^The critical path has no length/.test(v.headline), `only zero-length edges: ${v.headline}`);
v = verdictText([{ id: 'new_class', share: 80 }, { id: 'cpu_bound', share: 20 }]);
check(v.headline === 'Bound by new_class: 80% of the critical path is new_class.', `a class the page does not know is named as the core names it: ${v.headline}`);

// Cutoffs: HTA's defaults unless the report was asked with others.
check(same(cutoffsOf({}), { runtime: 50, launchDelay: 100, defaults: true }), 'cutoffs: the defaults');
check(same(cutoffsOf({ htaLaunchDelayCutoffUs: '250' }), { runtime: 50, launchDelay: 250, defaults: false }), 'cutoffs: --hta-launch-delay-cutoff-us 250');
finish();
