// Hand-made reports with Holistic Trace Analysis sheets (kind 'hta', HTA's sheet and
// column names), as the page's loaded report (state.mjs's app.report shape), for the
// critical-path and launch-delays views' checks (tests/web/hta_checks.mjs). Every
// expected figure is worked out by hand next to the data it comes from.

// A sheet of the report model from columns {name: [type, unit, values]}.
export function sheet(name, columns, kind = 'hta') {
  const entries = Object.entries(columns);
  const rows = entries.length ? entries[0][1][2].length : 0;
  return {
    name, kind, rows,
    columns: entries.map(([column, [type, unit, values]]) => {
      if (values.length !== rows) throw new Error(`${name}.${column}: ${values.length} values, not ${rows}`);
      const validity = Uint8Array.from(values, (v) => (v === null ? 0 : 1));
      if (type === 'string') {
        const dictionary = [...new Set(values.filter((v) => v !== null))];
        return { name: column, type, unit, validity, dictionary, codes: Int32Array.from(values, (v) => (v === null ? -1 : dictionary.indexOf(v))) };
      }
      return { name: column, type, unit, validity, values: Float64Array.from(values, (v) => v ?? 0) };
    }),
  };
}

// HTML that must stay text wherever a trace's names are shown.
export const HOSTILE = '<img src=x onerror="window.__xss=1">';

export const summary = (name, shares) => sheet(name, {
  bound_by: ['string', '', ['', 'cpu_bound', 'gpu_compute_bound', 'gpu_kernel_kernel_overhead', 'gpu_kernel_launch_overhead']],
  duration: ['float', '%', shares],
});

function breakdown(name, events) {
  const col = (i) => events.map((e) => e[i]);
  return sheet(name, {
    event_idx: ['int', '', col(0)], duration: ['float', 'µs', col(1)], type: ['string', '', col(2)], s_name: ['string', '', col(3)],
    cat: ['string', '', col(4)], pid: ['int', '', col(5)], tid: ['int', '', col(6)], stream: ['int', '', col(7)],
    index: ['int', '', col(8)], bound_by: ['string', '', col(9)],
  });
}

// HTA's path: CPU ops only but for one kernel (no sync events: it follows the CPU thread).
// Shares 0 + 97 + 2 + 0.75 + 0.25 = 100: verdict "CPU-bound: 97% … CPU ops".
export const HTA_SHARES = [0, 97, 2, 0.75, 0.25];
// The inferred path sees the CPU wait for the GPU: 0 + 30 + 62.5 + 5 + 2.5 = 100,
// verdict "GPU-bound: 62.5% … GPU kernels".
export const INFERRED_SHARES = [0, 30, 62.5, 5, 2.5];
export const HTA_BREAKDOWN = [
  [10, 388, 'critical_path_operator', `aten::mm ${HOSTILE}`, 'cpu_op', 1, 1, -1, 10, 'cpu_bound'],
  [11, 0, 'critical_path_dependency', null, null, null, null, null, null, ''],
  [12, 3, 'critical_path_kernel_launch_delay', 'cudaLaunchKernel', 'cuda_runtime', 1, 1, -1, 12, 'gpu_kernel_launch_overhead'],
  [13, 8, 'critical_path_operator', 'sm90_gemm_kernel', 'kernel', 0, 7, 7, 13, 'gpu_compute_bound'],
  [14, 1, 'critical_path_kernel_kernel_delay', 'elementwise_kernel', 'kernel', 0, 7, 7, 14, 'gpu_kernel_kernel_overhead'],
];
export const INFERRED_BREAKDOWN = [
  [10, 12, 'critical_path_operator', `aten::mm ${HOSTILE}`, 'cpu_op', 1, 1, -1, 10, 'cpu_bound'],
  [13, 25, 'critical_path_operator', 'sm90_gemm_kernel', 'kernel', 0, 7, 7, 13, 'gpu_compute_bound'],
  [14, 2, 'critical_path_kernel_kernel_delay', 'elementwise_kernel', 'kernel', 0, 7, 7, 14, 'gpu_kernel_kernel_overhead'],
  [15, 1, 'critical_path_kernel_launch_delay', 'cudaLaunchKernel', 'cuda_runtime', 1, 1, -1, 15, 'gpu_kernel_launch_overhead'],
];

// Fourteen launches: rows 0–11 by HTA's calls (cuda_kernel_launch_stats), rows 12–13 by
// other launch calls (cuda_kernel_launch_stats_other_apis: cuLaunchKernel, cudaGraphLaunch).
// launch_delay bins (edges 1, 2, 5, …, 1000, 2000; a bin holds its lower edge):
// <1: 0 → 1; 1–2: 1 → 1; 2–5: 2, 2, 3 → 3; 5–10: 5, 8 → 2; 10–20: 15 → 1; 20–50: 40, 30 → 2;
// 50–100: 0; 100–200: 120 → 1; 200–500: 250, 400 → 2; 500–1 ms: 0; 1 ms–2 ms: 1500 → 1.
// gpu < cpu in rows 0, 2, 4, 6, 8, 9, 11 (not 12: 10 > 4, nor 13): 7 of 14.
export const LAUNCHES = {
  launch_delay: [0, 1, 2, 2, 3, 5, 8, 15, 40, 120, 250, 1500, 30, 400],
  cpu_duration: [5, 6, 7, 8, 60, 70, 9, 10, 12, 6, 7, 5, 4, 20],
  gpu_duration: [2, 20, 1, 100, 3, 200, 4, 50, 5, 1, 300, 2, 10, 1000],
};
export const DELAY_BINS = [['< 1', 1], ['1–2', 1], ['2–5', 3], ['5–10', 2], ['10–20', 1], ['20–50', 2], ['50–100', 0],
  ['100–200', 1], ['200–500', 2], ['500–1 ms', 0], ['1 ms–2 ms', 1]];
export const SHORTER_THAN_LAUNCH = 7;
const HTA_ROWS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const OTHER_ROWS = [12, 13];
const OTHER_APIS = ['cuLaunchKernel', 'cudaGraphLaunch'];

function launchSheet(name, rows, withApi = false) {
  const pick = (column) => rows.map((r) => LAUNCHES[column][r]);
  return sheet(name, {
    rank: ['int', '', rows.map(() => 0)],
    correlation: ['int', '', rows.map((r) => 1000 + r)],
    cpu_duration: ['float', 'µs', pick('cpu_duration')],
    gpu_duration: ['float', 'µs', pick('gpu_duration')],
    launch_delay: ['float', 'µs', pick('launch_delay')],
    ...(withApi ? { launch_api: ['string', '', rows.map((r) => `${OTHER_APIS[r - 12]}${HOSTILE}`)] } : {}),
  });
}
// HTA's outliers at the default cutoffs (50 µs, 100 µs), over all fourteen:
// short kernels (cpu_duration ≤ 50 and gpu_duration < cpu_duration): rows 0, 2, 6, 8, 9, 11 → 6
//   (row 4's call, 60 µs, is over 50);
// runtime outliers (cpu_duration > 50): rows 4, 5 → 2;
// launch delay outliers (launch_delay > 100): rows 9, 10, 11, 13 → 4.
export const SHORT_KERNELS = [0, 2, 6, 8, 9, 11];
export const RUNTIME_OUTLIERS = [4, 5];
export const DELAY_OUTLIERS = [9, 10, 11, 13];

const INFO = (categories) => ({
  format: 'kineto', traceName: 'handmade', jsonBytes: 1000, events: 40, gpuEvents: 12, linkedGpuEvents: 12,
  linkedBy: 'correlation', gpuTimeUs: 700, unlinkedGpuTimeUs: 0,
  firstTsUs: 0, lastEndUs: 2000, spanMs: 2, versionHints: [], gpuPids: ['0'],
  eventsByCategory: categories, eventsByPhase: [['X', 40]],
  devices: [{ id: 0, name: 'NVIDIA H100 80GB HBM3', totalGlobalMem: 85899345920, computeMajor: 9, computeMinor: 0, numSms: 132, warpSize: 32 }],
  distributed: null, warnings: [],
});

// A loaded report (share.mjs encodes it). htaSheets: the report's HTA sheets; sync: the
// trace's CUDA sync events (category cuda_sync).
export function loadedReport(name, htaSheetsList, { sync = 0 } = {}) {
  const categories = [['cpu_op', 12], ['cuda_runtime', 12], ['kernel', 12]];
  if (sync) categories.push(['cuda_sync', sync]);
  return {
    name, version: 'test', fileBytes: 1000, gzip: false, cutShort: false,
    info: INFO(categories),
    traceMetadata: '{}',
    gpuTimeline: [{ type: 'total_time', 'time ms': 0.7, percent: 100 }],
    report: {
      device: { status: 'identified', id: 'H100', name: 'NVIDIA H100' }, rooflineCeilings: {}, timingsMs: {}, includeUnlinked: false,
      sheets: [sheet('gpu_timeline', { type: ['string', '', ['total_time']], 'time ms': ['float', 'ms', [0.7]], percent: ['float', '%', [100]] }, 'timeline'),
        ...htaSheetsList],
    },
    cycles: null,
    dropped: [],
  };
}

// Every critical-path and launch sheet as the core names them.
export function fullHtaSheets() {
  return [
    sheet('temporal_breakdown', { rank: ['int', '', [0]], idle_time: ['float', 'µs', [100]] }),
    launchSheet('cuda_kernel_launch_stats', HTA_ROWS),
    launchSheet('cuda_kernel_launch_stats_other_apis', OTHER_ROWS, true),
    launchSheet('cuda_kernel_launch_short_kernels', SHORT_KERNELS),
    launchSheet('cuda_kernel_launch_runtime_outliers', RUNTIME_OUTLIERS),
    launchSheet('cuda_kernel_launch_delay_outliers', DELAY_OUTLIERS),
    sheet('aten_op_kernels_and_delay', {
      rank: ['int', '', [0, 0]],
      aten_op_name: ['string', '', ['aten::addmm', `aten::layer_norm${HOSTILE}`]],
      kernel_sequence: ['string', '', ['sm90_gemm_kernel', 'vectorized_layer_norm_kernel -> elementwise_kernel']],
      occurrence_count: ['int', '', [17, 10]],
      avg_aten_op_launch_delay: ['float', 'µs', [20.529, 15.4]],
      avg_runtime_delay: ['float', 'µs', [7.765, 9.5]],
    }),
    summary('critical_path_summary', HTA_SHARES),
    breakdown('critical_path_breakdown', HTA_BREAKDOWN),
    summary('critical_path_inferred_summary', INFERRED_SHARES),
    breakdown('critical_path_inferred_breakdown', INFERRED_BREAKDOWN),
  ];
}

// HTA's sheets of a trace without GPU events: present, with no rows.
export function emptyHtaSheets() {
  return [
    sheet('temporal_breakdown', { rank: ['int', '', []], idle_time: ['float', 'µs', []] }),
    launchSheet('cuda_kernel_launch_stats', []),
    launchSheet('cuda_kernel_launch_stats_other_apis', [], true),
  ];
}
