// A synthetic time axis in the shape of the core's sheets (web/timeline/CONTRACT.md):
// time_axis_lanes, time_axis_events (sorted by lane, start), time_axis_spans, as
// report-model sheets (web/report-model.mjs). For the time-axis view's checks and its
// benchmark, before and beside the core's data.
//
// syntheticTimeAxis is self-contained (no outer names): tests pass its source to
// page.evaluate to build a million events inside the page.
//   {events: total events (about), threads, streams, stepCount, hostile (a kernel name with HTML)}
// The layout, so that a check can compute where an event is: per thread, steps of
// forward ops (depth 0) each holding aten ops (depth 1) each holding one launch on
// the thread's runtime lane; every launch's kernel runs on a GPU stream after it.
export function syntheticTimeAxis({ events = 10000, threads = 1, streams = 2, stepCount = 4, hostile = false } = {}) {
  const numberColumn = (name, values, unit = '', valid) => ({ name, type: 'number', unit, values: Float64Array.from(values),
    validity: valid ? Uint8Array.from(valid) : new Uint8Array(values.length).fill(1) });
  const stringColumn = (name, strings) => {
    const dictionary = [];
    const index = new Map();
    const codes = new Int32Array(strings.length);
    strings.forEach((s, i) => {
      let c = index.get(s);
      if (c === undefined) { c = dictionary.length; dictionary.push(s); index.set(s, c); }
      codes[i] = c;
    });
    return { name, type: 'string', unit: '', codes, dictionary, validity: new Uint8Array(strings.length).fill(1) };
  };
  const categories = ['GEMM', 'SDPA_fwd', 'elementwise', 'reduce', 'communication', 'memcpy', 'NORM_fwd', 'other'];
  const opNames = ['aten::linear', 'aten::scaled_dot_product_attention', 'aten::add', 'aten::sum', 'c10d::allreduce', 'aten::copy_', 'aten::layer_norm', 'aten::index'];
  const kernelNames = ['sm90_xmma_gemm_bf16', 'flash_fwd_kernel', 'vectorized_elementwise_kernel', 'reduce_kernel', 'ncclAllReduce', 'Memcpy HtoD', 'layer_norm_kernel', 'index_kernel'];
  // Each unit: a launch (runtime) + a kernel + an aten op; per forward (depth 0) 8 units.
  const units = Math.max(8, Math.floor(events / 3));
  const perThread = Math.ceil(units / threads);
  const lanes = [];
  for (let t = 0; t < threads; t++) lanes.push({ kind: 'cpu', label: `CPU thread ${100 + t}`, pid: 1, tid: 100 + t, depths: 2 });
  for (let t = 0; t < threads; t++) lanes.push({ kind: 'runtime', label: `launches, thread ${100 + t}`, pid: 1, tid: 100 + t, depths: 1 });
  for (let s = 0; s < streams; s++) lanes.push({ kind: 'gpu', label: `GPU 0 · stream ${7 + s}`, pid: 0, tid: 7 + s, depths: 1 });
  // Per lane, its events in start order.
  const perLane = lanes.map(() => []);
  const unitUs = 10;  // an aten op every 10 µs: 8 µs op, 2 µs launch inside it
  const streamFree = new Float64Array(streams);
  let kernelIndex = 0;
  // Thread by thread within each unit of time, so that the streams are shared fairly.
  for (let u = 0; u < perThread; u++) {
    for (let t = 0; t < threads; t++) {
      const start = u * unitUs + t * 3;
      const c = u % 8;
      if (c === 0) perLane[t].push({ depth: 0, start, dur: 8 * unitUs - 1, kind: 'python_function', category: '', name: `forward ${Math.floor(u / 8)}` });
      perLane[t].push({ depth: 1, start: start + 0.5, dur: 8, kind: 'cpu_op', category: '', name: opNames[c] });
      const launch = { depth: 0, start: start + 2, dur: 3, kind: 'runtime', category: '', name: 'cudaLaunchKernel' };
      const s = kernelIndex % streams;
      const kStart = Math.max(start + 2 + 3 + (u % 5), streamFree[s] + 0.2);
      const kDur = 1 + ((u * 7919) % 13) * 0.5;
      streamFree[s] = kStart + kDur;
      let name = kernelNames[c];
      if (hostile && u === 5) name = '<img src=x onerror=alert(1)>';
      const kernel = { depth: 0, start: kStart, dur: kDur, kind: 'kernel', category: categories[c], name,
        sol: c === 0 || c === 1 ? 0.2 + ((u * 31) % 70) / 100 : null };
      launch.partnerOf = kernel;
      kernel.partnerOf = launch;
      perLane[threads + t].push(launch);
      perLane[2 * threads + s].push(kernel);
      kernelIndex++;
    }
  }
  for (const list of perLane) list.sort((a, b) => a.start - b.start);
  const all = perLane.flatMap((list, lane) => list.map((e) => Object.assign(e, { lane })));
  all.forEach((e, i) => { e.index = i; });
  const n = all.length;
  const end = all.reduce((m, e) => Math.max(m, e.start + e.dur), 0);
  const eventsSheet = {
    name: 'time_axis_events', kind: 'timeline', rows: n, columns: [
      numberColumn('lane', all.map((e) => e.lane)),
      numberColumn('depth', all.map((e) => e.depth)),
      numberColumn('start_us', all.map((e) => e.start), 'us'),
      numberColumn('dur_us', all.map((e) => e.dur), 'us'),
      stringColumn('kind', all.map((e) => e.kind)),
      stringColumn('category', all.map((e) => e.category)),
      stringColumn('name', all.map((e) => e.name)),
      numberColumn('row', all.map((e) => 1000000 + e.index)),
      numberColumn('partner', all.map((e) => (e.partnerOf ? e.partnerOf.index : -1))),
      numberColumn('sol_efficiency', all.map((e) => e.sol ?? 0), '', all.map((e) => (e.sol == null ? 0 : 1))),
    ],
  };
  const lanesSheet = {
    name: 'time_axis_lanes', kind: 'timeline', rows: lanes.length, columns: [
      numberColumn('lane', lanes.map((_, i) => i)),
      stringColumn('kind', lanes.map((l) => l.kind)),
      stringColumn('label', lanes.map((l) => l.label)),
      numberColumn('pid', lanes.map((l) => l.pid)),
      numberColumn('tid', lanes.map((l) => l.tid)),
      numberColumn('depths', lanes.map((l) => l.depths)),
    ],
  };
  const spans = [];
  const stepUs = end / stepCount;
  for (let s = 0; s < stepCount; s++) spans.push({ kind: 'step', label: `step ${s}`, start: s * stepUs, end: (s + 1) * stepUs, lane: -1, value: 0.3 });
  spans.push({ kind: 'phase', label: 'prefill', start: 0, end: stepUs, lane: -1, value: null });
  spans.push({ kind: 'phase', label: 'decode', start: stepUs, end, lane: -1, value: null });
  for (let s = 0; s < stepCount * 4; s++) spans.push({ kind: 'layer', label: `model.layers.${s % 4}`, start: s * stepUs / 4, end: (s + 0.9) * stepUs / 4, lane: -1, value: null });
  // Two critical paths, as the core gives them: HTA's over the first 40 units' launches
  // then their kernels, the inferred one over their kernels alone.
  for (let u = 0; u < Math.min(40, perLane[threads].length); u++) {
    const launch = perLane[threads][u];
    spans.push({ kind: 'critical_path', label: 'HTA: cpu_bound', start: launch.start, end: launch.start + launch.dur, lane: threads, value: launch.dur });
    const k = launch.partnerOf;
    spans.push({ kind: 'critical_path', label: 'HTA: gpu_compute_bound', start: k.start, end: k.start + k.dur, lane: k.lane, value: k.dur });
    spans.push({ kind: 'critical_path', label: 'inferred: gpu_compute_bound', start: k.start, end: k.start + k.dur, lane: k.lane, value: k.dur });
  }
  // Launch delays: from the launch's end to its kernel's start, on the kernel's lane.
  for (const launch of perLane[threads].slice(0, 200))
    spans.push({ kind: 'launch_delay', label: launch.partnerOf.name, start: launch.start + launch.dur, end: launch.partnerOf.start, lane: launch.partnerOf.lane, value: launch.partnerOf.start - launch.start - launch.dur });
  const spansSheet = {
    name: 'time_axis_spans', kind: 'timeline', rows: spans.length, columns: [
      stringColumn('kind', spans.map((s) => s.kind)),
      stringColumn('label', spans.map((s) => s.label)),
      numberColumn('start_us', spans.map((s) => s.start), 'us'),
      numberColumn('end_us', spans.map((s) => s.end), 'us'),
      numberColumn('lane', spans.map((s) => s.lane)),
      numberColumn('value', spans.map((s) => s.value ?? 0), '', spans.map((s) => (s.value == null ? 0 : 1))),
    ],
  };
  return { lanes: lanesSheet, events: eventsSheet, spans: spansSheet, traceStartUs: 1_700_000_000_000_000 };
}
