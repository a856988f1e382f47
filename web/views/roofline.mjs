// The roofline view: achieved throughput against arithmetic intensity, one bubble per
// perf-model row (name + parameters; bubble area ∝ Kernel Time (µs)_sum), under the
// device's roofs: its memory bandwidth (TFLOPS/s = TB/s × FLOP/byte) up to each dense
// compute peak of the dtypes the rows use. The numbers are the core's (the perf sheets'
// columns, report.device and report.rooflineCeilings: the ceiling the core uses for
// each Compute Spec); this file only draws them.
//
// The chart is uPlot (vendor/uPlot.esm.js, staged from node_modules by the build): log
// scales, axes, ticks and sizing; the bubbles and roofs are drawn in its draw hook and
// hover is a nearest-bubble search here. uPlot styles its elements through
// element.style (allowed by the page's CSP) and brings no <style> tag of its own; its
// CSS is a file, vendor/uPlot.min.css.

import { createTable } from '../table.mjs';
import { findColumn, cell, perfSheets, findSheet } from '../sheet.mjs';
import { el, resetSection, select, tabs } from '../widgets.mjs';
import { formatNumber } from '../units.mjs';

const PALETTE = ['#1f5fbf', '#d1495b', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#8d6e63', '#c2185b',
  '#558b2f', '#5c6bc0', '#f9a825', '#455a64'];
const ROOF_COLOR = '#1d2330';
const MAX_RADIUS = 22;  // CSS px of the largest bubble
const MIN_RADIUS = 3;

const ROOFLINE_COLUMNS = ['name', 'Compute Spec', 'FLOPS/Byte_first', 'TFLOPS/s_mean', 'TB/s_mean',
  'Roofline Time (µs)_first', 'Roofline Bound_first', 'Pct Roofline_mean', 'Kernel Time (µs)_mean',
  'Kernel Time (µs)_sum', 'name_count', 'GFLOPS_first', 'Data Moved (MB)_first'];

export async function render(section, context) {
  const { report } = context;
  const state = context.state ?? {};
  const device = report.device ?? {};
  resetSection(section, 'Roofline');

  const controls = el('div', 'controls');
  const chosen = device.status === 'user' ? device.id : '';
  const fromTrace = device.status === 'identified' ? `from the trace (${device.id})` : 'from the trace';
  // The perf sheets carry the other figures in columns suffixed " (TraceLens)" when the
  // corrected models are the default columns (core/analyses/perf/CORRECTIONS.md).
  const corrected = report.sheets.some((s) => s.columns.some((c) => c.name.endsWith(' (TraceLens)')));
  // The view is drawn again with the recomputed report: the control used keeps the
  // keyboard focus there (state.focus), and the chosen table tab stays (state.tab).
  const recompute = (next, what, control) => {
    state.focus = control;
    if (!context.requestReport(next)) return;  // a report from a link (the page says why)
    status.textContent = `Recomputing the report ${what}…`;
  };
  const selector = select('Device', [['', fromTrace], ...(context.devices ?? []).map((d) => [d, d])], chosen,
    (value) => recompute({ device: value, corrected }, `for ${value || 'the trace\'s device'}`, 'device'));
  selector.classList.add('device-select');
  const correctedLabel = el('label', 'corrected-toggle');
  const box = el('input');
  box.type = 'checkbox';
  box.checked = corrected;
  box.addEventListener('change', () => recompute({ device: chosen, corrected: box.checked },
    box.checked ? 'with sollens\'s corrected FLOPs and bytes' : 'with TraceLens\'s FLOPs and bytes', 'corrected'));
  correctedLabel.append(box, ' sollens\'s corrected FLOPs and bytes (TraceLens\'s in extra columns)');
  const status = el('span', 'detail');
  status.setAttribute('role', 'status');
  controls.append(selector, correctedLabel, status);
  section.append(controls);
  // Only where the focus was lost with the old controls (not taken elsewhere meanwhile).
  if (state.focus && (document.activeElement === document.body || !document.activeElement)) {
    (state.focus === 'device' ? selector.querySelector('select') : box).focus({ preventScroll: true });
  }
  state.focus = null;
  if (device.notice) section.append(el('p', 'notice device-notice', device.notice));
  else if (device.name) {
    const how = device.how ? ` (${device.how})` : '';
    section.append(el('p', 'detail device-name', `Roofs of ${device.name}${how}.`));
  }

  const sheets = perfSheets(report.sheets);
  const points = collectPoints(sheets);
  const roofs = roofsOf(device, report.rooflineCeilings ?? {}, points);
  const figure = el('figure', 'roofline-figure');
  const plot = el('div', 'roofline-plot');
  const caption = el('figcaption', 'detail');
  caption.textContent = points.length
    ? `${points.length} perf-model rows (bubble area ∝ Kernel Time (µs)_sum). x: FLOPS/Byte_first, y: TFLOPS/s_mean, both log scales.` +
      (roofs.peaks.length
        ? ` Roofs: ${roofs.peaks.map((p) => `${p.key} ${shortNumber(p.tflops)}`).join(', ')} TFLOPS/s` +
          (roofs.bw ? `; memory ${shortNumber(roofs.bw)} TB/s.` : '.')
        : ' No roofs: the device\'s peaks are unknown.')
    : 'No perf-model row with both an arithmetic intensity and a measured throughput in this trace.';
  const legend = el('ul', 'legend');
  figure.append(plot, caption, legend);
  figure.setAttribute('aria-label', 'Roofline chart; the table below lists the same rows');
  section.append(figure);
  sheets.forEach((s, i) => {
    if (!points.some((p) => p.series === i)) return;
    const li = el('li');
    const swatch = el('span', 'swatch');
    swatch.style.background = PALETTE[i % PALETTE.length];  // CSSOM, allowed by the CSP
    swatch.setAttribute('aria-hidden', 'true');
    li.append(swatch, s.name);
    legend.append(li);
  });

  // The rows, with the roofline columns first.
  const unified = findSheet(report.sheets, 'unified_perf_summary');
  const tableSheets = [...sheets, ...(unified && unified.rows ? [unified] : [])];
  const tables = new Map();  // sheet name -> its table, to show a clicked bubble's row
  let showRow = null;
  if (tableSheets.length) {
    const heading = el('h3', '', 'Perf rows');
    section.append(heading);
    const t = tabs(tableSheets.map((s) => ({ id: s.name, label: s.name, count: s.rows })), (item, panel) => {
      const sheet = tableSheets.find((s) => s.name === item.id);
      const params = sheet.columns.map((c) => c.name).filter((n) => n.startsWith('param: '));
      // The roofline columns first (what this view is about), the parameters after them.
      const wanted = [...ROOFLINE_COLUMNS, 'FLOPS/Byte', 'Roofline Bound', 'op category', ...params, 'perf_params'];
      const columns = wanted.filter((n) => findColumn(sheet, n));
      const table = createTable(sheet, { caption: `${sheet.name}: roofline columns`, columns });
      tables.set(sheet.name, table);
      panel.append(table.element);
    }, { label: 'Perf-model sheets', selected: state.tab, onSelect: (id) => { state.tab = id; } });
    section.append(t.element);
    showRow = (p) => {
      t.choose(p.sheet.name);
      tables.get(p.sheet.name)?.reveal(p.row);
      heading.scrollIntoView({ block: 'start', behavior: 'smooth' });
    };
  }

  if (!tableSheets.length)
    section.append(el('p', 'empty-state', 'No op in this trace has a perf model (GEMM, attention, convolution, elementwise, …): nothing to place on the roofline.'));
  if (!points.length) return;
  let uPlot;
  try {
    uPlot = (await import('../vendor/uPlot.esm.js')).default;
  } catch {
    plot.append(el('p', 'empty-state', 'The chart library (vendor/uPlot.esm.js) could not be loaded; the table lists the rows.'));
    return;
  }
  addStylesheet('vendor/uPlot.min.css');
  drawChart(uPlot, plot, points, roofs, showRow);
}

function collectPoints(sheets) {
  const points = [];
  sheets.forEach((sheet, series) => {
    const x = findColumn(sheet, 'FLOPS/Byte_first');
    const y = findColumn(sheet, 'TFLOPS/s_mean');
    const size = findColumn(sheet, 'Kernel Time (µs)_sum');
    if (!x || !y) return;
    for (let r = 0; r < sheet.rows; r++) {
      const xv = cell(x, r);
      const yv = cell(y, r);
      if (!(xv > 0 && yv > 0 && Number.isFinite(xv) && Number.isFinite(yv))) continue;
      points.push({ series, sheet, row: r, x: xv, y: yv, time: cell(size, r) ?? 0 });
    }
  });
  return points;
}

// The ceilings to draw: the memory roof and the dense peaks the core uses for the rows'
// Compute Specs (ceilings: report.rooflineCeilings, spec -> {peak, tflops}), or all the
// device's peaks when no row has a spec with a ceiling.
function roofsOf(device, ceilings, points) {
  const bw = device.mem_bw_TBps_per_device ?? null;
  const used = new Map();  // peak key -> TFLOPS/s
  for (const p of points) {
    const spec = cell(findColumn(p.sheet, 'Compute Spec'), p.row);
    const ceiling = typeof spec === 'string' && Object.hasOwn(ceilings, spec) ? ceilings[spec] : null;
    if (ceiling) used.set(ceiling.peak, ceiling.tflops);
  }
  const dense = device.dense_tflops_per_device ?? {};
  const roofs = used.size ? [...used] : Object.entries(dense).filter(([, tflops]) => tflops > 0);
  // Dtypes with the same peak share one line ("fp16/bf16").
  const byValue = new Map();
  for (const [key, tflops] of roofs) byValue.set(tflops, [...(byValue.get(tflops) ?? []), key]);
  const peaks = [...byValue].map(([tflops, ks]) => ({ key: ks.join('/'), tflops })).sort((a, b) => b.tflops - a.tflops);
  return { bw: bw > 0 ? bw : null, peaks };
}

function drawChart(uPlot, target, points, roofs, showRow) {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  for (const p of roofs.peaks) {
    ys.push(p.tflops);
    if (roofs.bw) xs.push(p.tflops / roofs.bw);  // ridge points
  }
  const decade = (v, up) => 10 ** (up ? Math.ceil(Math.log10(v)) : Math.floor(Math.log10(v)));
  const xr = [decade(Math.min(...xs) / 2, false), decade(Math.max(...xs) * 2, true)];
  const yr = [decade(Math.min(...ys) / 2, false), decade(Math.max(...ys) * 2, true)];
  const maxTime = Math.max(...points.map((p) => p.time), 1e-9);
  const radius = (p) => MIN_RADIUS + (MAX_RADIUS - MIN_RADIUS) * Math.sqrt(Math.max(p.time, 0) / maxTime);
  // Largest first, so that small bubbles stay visible on top.
  const order = points.map((_, i) => i).sort((a, b) => points[b].time - points[a].time);

  const tip = el('div', 'roofline-tip');
  tip.hidden = true;
  tip.setAttribute('role', 'tooltip');

  const draw = (u) => {
    const ctx = u.ctx;
    const px = uPlot.pxRatio;
    const { left, top, width, height } = u.bbox;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    const X = (v) => u.valToPos(v, 'x', true);
    const Y = (v) => u.valToPos(v, 'y', true);
    // Roofs.
    ctx.lineWidth = 1.5 * px;
    ctx.strokeStyle = ROOF_COLOR;
    ctx.fillStyle = ROOF_COLOR;
    ctx.font = `${11 * px}px system-ui, sans-serif`;
    ctx.textBaseline = 'bottom';
    let lastLabelY = -Infinity;
    roofs.peaks.forEach((peak, i) => {
      ctx.setLineDash(i === 0 ? [] : [6 * px, 4 * px]);
      ctx.beginPath();
      if (roofs.bw) {
        const ridge = peak.tflops / roofs.bw;
        ctx.moveTo(X(xr[0]), Y(roofs.bw * xr[0]));
        ctx.lineTo(X(ridge), Y(peak.tflops));
      } else {
        ctx.moveTo(X(xr[0]), Y(peak.tflops));
      }
      ctx.lineTo(X(xr[1]), Y(peak.tflops));
      ctx.stroke();
      // Labels that would overlap the one above are left out (the caption lists them all).
      const y = Y(peak.tflops) - 2 * px;
      if (y - lastLabelY >= 12 * px) {
        ctx.textAlign = 'right';
        ctx.fillText(`${peak.key} ${shortNumber(peak.tflops)} TFLOPS/s`, left + width - 4 * px, y);
        lastLabelY = y;
      }
    });
    ctx.setLineDash([]);
    if (roofs.bw) {
      // Label the memory roof near its lower left.
      const lx = xr[0] * 3;
      ctx.save();
      const x0 = X(lx);
      const y0 = Y(roofs.bw * lx);
      const angle = Math.atan2(Y(roofs.bw * lx * 10) - y0, X(lx * 10) - x0);
      ctx.translate(x0, y0 - 3 * px);
      ctx.rotate(angle);
      ctx.textAlign = 'left';
      ctx.fillText(`memory ${shortNumber(roofs.bw)} TB/s`, 0, 0);
      ctx.restore();
    }
    // Bubbles.
    for (const i of order) {
      const p = points[i];
      const color = PALETTE[p.series % PALETTE.length];
      ctx.beginPath();
      ctx.arc(X(p.x), Y(p.y), radius(p) * px, 0, 2 * Math.PI);
      ctx.globalAlpha = 0.45;
      ctx.fillStyle = color;
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.lineWidth = 1 * px;
      ctx.strokeStyle = color;
      ctx.stroke();
    }
    ctx.restore();
  };

  const width = () => Math.max(320, Math.min(target.clientWidth || 900, 980) - 4);
  const u = new uPlot({
    width: width(),
    height: 440,
    scales: {
      x: { time: false, distr: 3, log: 10, auto: false, range: xr },
      y: { distr: 3, log: 10, auto: false, range: yr },
    },
    axes: [
      { label: 'Arithmetic intensity (FLOP/byte)', values: (u, vals) => vals.map(tickLabel), filter: decades,
        grid: { filter: decades }, ticks: { filter: decades } },
      { label: 'Achieved TFLOPS/s', values: (u, vals) => vals.map(tickLabel), size: 60, filter: decades,
        grid: { filter: decades }, ticks: { filter: decades } },
    ],
    series: [{}, { label: 'range', stroke: 'transparent', points: { show: false }, paths: () => null }],
    legend: { show: false },
    // No zoom by dragging; and uPlot's drag.click would swallow clicks on bubbles.
    cursor: { drag: { x: false, y: false, click: () => {} }, points: { show: false }, x: false, y: false },
    hooks: { draw: [draw] },
  }, [[xr[0], xr[1]], [yr[0], yr[1]]], target);
  target.append(tip);

  // The bubble under the pointer (nearest centre within its radius), or null.
  const bubbleAt = (e) => {
    const rect = u.over.getBoundingClientRect();
    const mx = e.clientX - rect.left;
    const my = e.clientY - rect.top;
    let best = null;
    let bestD = Infinity;
    for (const p of points) {
      const d = Math.hypot(u.valToPos(p.x, 'x') - mx, u.valToPos(p.y, 'y') - my);
      if (d <= radius(p) + 3 && d < bestD) {
        best = p;
        bestD = d;
      }
    }
    return { best, mx, my };
  };
  // Click: show the bubble's row in the table below.
  u.over.addEventListener('click', (e) => {
    const { best } = bubbleAt(e);
    if (best && showRow) showRow(best);
  });
  // Hover: its details.
  u.over.addEventListener('mousemove', (e) => {
    const { best, mx, my } = bubbleAt(e);
    u.over.classList.toggle('on-bubble', Boolean(best));
    if (!best) {
      tip.hidden = true;
      return;
    }
    fillTip(tip, best);
    tip.hidden = false;
    const plotLeft = u.over.offsetLeft;
    const plotTop = u.over.offsetTop;
    // Beside the pointer, on the side with room, never over the bubble itself.
    const right = plotLeft + mx + 14;
    const left = plotLeft + mx - 14 - tip.offsetWidth;
    tip.style.left = `${right + tip.offsetWidth <= target.clientWidth || left < 0 ? right : left}px`;
    tip.style.top = `${Math.max(0, plotTop + my - tip.offsetHeight / 2)}px`;
  });
  u.over.addEventListener('mouseleave', () => { tip.hidden = true; });

  if (typeof ResizeObserver === 'function') {
    let last = width();
    new ResizeObserver(() => {
      const w = width();
      if (Math.abs(w - last) > 8) {
        last = w;
        u.setSize({ width: w, height: 440 });
      }
    }).observe(target);
  }
  target.dataset.points = String(points.length);
  target.dataset.roofs = String(roofs.peaks.length + (roofs.bw ? 1 : 0));
}

// The hovered row: its name, parameters and the roofline columns the core computed.
function fillTip(tip, p) {
  const { sheet, row } = p;
  const title = el('div', 'tip-title', `${cell(findColumn(sheet, 'name'), row) ?? ''} (${sheet.name})`);
  const dl = el('dl');
  const add = (term, text) => {
    if (text === null || text === undefined || text === '') return;
    dl.append(el('dt', '', term), el('dd', '', text));
  };
  for (const c of sheet.columns) {
    if (!c.name.startsWith('param: ')) continue;
    const v = cell(c, row);
    if (v !== null) add(c.name.slice(7), typeof v === 'number' ? formatNumber(v, c.type) : v);
  }
  const num = (name, unit, type = 'float') => {
    const v = cell(findColumn(sheet, name), row);
    return v === null ? null : `${formatNumber(v, type, unit)}${unit ? ` ${unit}` : ''}`;
  };
  add('FLOPS/Byte', num('FLOPS/Byte_first', ''));
  add('TFLOPS/s (mean)', num('TFLOPS/s_mean', ''));
  add('TB/s (mean)', num('TB/s_mean', ''));
  add('kernel time (sum)', num('Kernel Time (µs)_sum', 'µs'));
  add('calls', num('name_count', '', 'int'));
  add('compute spec', cell(findColumn(sheet, 'Compute Spec'), row));
  add('bound', cell(findColumn(sheet, 'Roofline Bound_first'), row));
  add('% of roofline (mean)', num('Pct Roofline_mean', '%'));
  tip.replaceChildren(title, dl);
}

// Only whole decades get a tick and a grid line (uPlot's log scale adds 2…9 too).
const decades = (u, splits) => splits.map((v) => (v > 0 && Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9 ? v : null));
const shortFormat = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 });
const shortNumber = (v) => shortFormat.format(v);

function tickLabel(v) {
  if (v == null) return '';
  if (v >= 1 && v < 1e6) return String(Math.round(v));
  return v.toExponential(0).replace('e+', 'e');
}

function addStylesheet(href) {
  if (document.querySelector(`link[data-vendor="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.dataset.vendor = href;
  document.head.append(link);
}
