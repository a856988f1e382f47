// The panels beside the time axis, text only: a chosen event's details (what the
// sheet row says at once, then the core's eventDetail: op chain, args, perf and SOL
// rows), and a selected range's summary (the core's rangeSummary) with the trimmed
// trace to open in Perfetto UI.
import { el } from '../widgets.mjs';
import { cell } from '../sheet.mjs';
import { download } from '../export.mjs';
import { eventName, eventKind, eventCategory, eventSol } from './data.mjs';

export const msText = (us) => `${(us / 1000).toFixed(3)} ms`;
export const usText = (us) => (us >= 1000 ? `${(us / 1000).toFixed(3)} ms` : `${us.toFixed(us < 10 ? 2 : 1)} µs`);
// Absolute time: the trace's own clock (µs, as the trace file has it).
export const absoluteText = (index, us) => `${(index.traceStartUs + us).toFixed(3)} µs on the trace's clock`;

function list(pairs) {
  const dl = el('dl', 'timeline-facts');
  for (const [k, v] of pairs) {
    if (v === null || v === undefined || v === '') continue;
    dl.append(el('dt', '', k), el('dd', '', typeof v === 'string' ? v : valueText(v)));
  }
  return dl;
}
// The core's detail fields in page words.
const WORDS = new Map([['function', 'op'], ['category', 'category'], ['computeSpec', 'compute'], ['gflop', 'GFLOP'],
  ['dataMovedMb', 'data moved (MB)'], ['measuredUs', 'measured (µs)'], ['estimatedUs', 'speed of light (µs)'],
  ['efficiency', 'SOL efficiency'], ['bound', 'bound by'], ['layerType', 'layer type'], ['layerInstance', 'layer'],
  ['phase', 'phase'], ['note', 'note'], ['noEstimate', 'no estimate'], ['fasterThanEstimate', 'faster than its speed of light']]);
const worded = (entries) => entries.map(([k, v]) => [WORDS.get(k) ?? k, typeof v === 'boolean' ? (v ? 'yes' : 'no')
  : k === 'efficiency' && typeof v === 'number' ? `${(v * 100).toFixed(1)} %` : v]);
const valueText = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6))))
  : typeof v === 'string' ? v : JSON.stringify(v));

// The chosen event: its facts from the sheet now, the core's detail when it comes.
export function showEvent(panel, index, i, detailPromise) {
  const ev = index.events;
  const lane = index.lanes.find((l) => l.lane === ev.lane[i]);
  const p = ev.partner[i];
  const heading = el('h4', 'timeline-event-name', eventName(ev, i));
  const sol = eventSol(ev, i);
  const facts = list([
    ['kind', eventKind(ev, i)], ['category', eventCategory(ev, i)], ['lane', lane?.label ?? ''],
    ['starts', `${msText(ev.start[i])} from the trace start (${absoluteText(index, ev.start[i])})`],
    ['lasts', usText(ev.dur[i])],
    ['SOL efficiency', sol === null ? '' : `${(sol * 100).toFixed(1)} % (the op's speed-of-light time over its measured time)`],
    [eventKind(ev, i) === 'kernel' ? 'launched by' : 'its GPU work', p >= 0 ? `${eventName(ev, p)} at ${msText(ev.start[p])} (outlined in red)` : ''],
  ]);
  const more = el('div', 'timeline-detail-more', 'Asking the core for its op, args and rows…');
  panel.replaceChildren(el('h3', 'timeline-panel-title', 'Event'), heading, facts, more);
  panel.hidden = false;
  Promise.resolve(detailPromise).then((reply) => {
    if (!panel.contains(more)) return;
    more.replaceChildren(...detailParts(reply?.detail ?? reply));
  }, (e) => {
    if (panel.contains(more)) more.replaceChildren(el('p', 'error', `Its details could not be read: ${e?.message ?? e}`));
  });
}

function detailParts(d) {
  if (!d) return [el('p', 'detail', 'The core has no more about this event.')];
  const parts = [];
  const chain = Array.isArray(d.op) ? d.op : d.op ? [d.op] : [];
  parts.push(el('h5', '', 'Op chain (outermost first)'));
  if (chain.length) {
    const ol = el('ol', 'timeline-op-chain');
    for (const o of chain) ol.append(el('li', '', typeof o === 'string' ? o : o?.name ?? valueText(o)));
    parts.push(ol);
  } else parts.push(el('p', 'detail', 'No enclosing op.'));
  parts.push(el('h5', '', 'Args'));
  const args = d.args && typeof d.args === 'object' ? Object.entries(d.args) : [];
  parts.push(args.length ? list(args) : el('p', 'detail', 'No args.'));
  parts.push(el('h5', '', 'Perf row'));
  parts.push(d.perf ? list(worded(Object.entries(d.perf))) : el('p', 'detail', 'No perf-model row (the op is not one TraceLens models, or the report\'s device has no peaks).'));
  parts.push(el('h5', '', 'SOL row'));
  parts.push(d.sol ? list(worded(Object.entries(d.sol))) : el('p', 'detail', 'No speed-of-light row for this event.'));
  return parts;
}

// The core's range summary (time_axis_range_summary) in three small tables: busy time
// per lane kind and category, the GPU's idle time, the top kernels. Other sheets as
// they are.
const SECTIONS = [
  ['busy', 'Busy time (outermost events, summed over the lanes of a kind)', [['lane_kind', 'lanes'], ['category', 'category']]],
  ['gpu_idle', 'GPU idle', []],
  ['top_kernel', 'Top kernels', [['name', 'kernel'], ['count', 'count']]],
];
const LANE_KINDS = new Map([['cpu', 'CPU threads'], ['runtime', 'launches'], ['gpu', 'GPU streams']]);
function summaryTables(sheet) {
  const column = (name) => sheet.columns.find((c) => c.name === name);
  const section = column('section');
  if (!section) return [sheetTable(sheet)];
  const parts = [];
  for (const [key, title, columns] of SECTIONS) {
    const rows = [...Array(sheet.rows).keys()].filter((r) => cell(section, r) === key);
    if (!rows.length) continue;
    parts.push(el('h4', '', title));
    const table = el('table', 'timeline-summary-table');
    const head = el('tr');
    for (const [, words] of columns) head.append(el('th', '', words));
    head.append(el('th', '', 'busy (µs)'), el('th', '', 'share of the range (%)'));
    if (key === 'gpu_idle') head.firstChild.before(el('th', '', ''));
    table.append(el('thead'), el('tbody'));
    table.tHead.append(head);
    for (const r of rows) {
      const tr = el('tr');
      if (key === 'gpu_idle') tr.append(el('td', '', 'idle'));
      for (const [name] of columns) {
        let v = cell(column(name), r);
        if (name === 'lane_kind') v = LANE_KINDS.get(v) ?? v;
        tr.append(el('td', typeof v === 'number' ? 'num' : '', v === null ? '' : valueText(v)));
      }
      for (const name of ['busy_us', 'share_of_range']) {
        const v = cell(column(name), r);
        tr.append(el('td', 'num', v === null ? '' : v.toFixed(name === 'busy_us' ? 1 : 1)));
      }
      table.tBodies[0].append(tr);
    }
    parts.push(table);
  }
  return parts.length ? parts : [el('p', 'detail', 'Nothing runs in this range.')];
}

// A sheet as a small table (text only).
function sheetTable(sheet) {
  const table = el('table', 'timeline-summary-table');
  const head = el('tr');
  for (const c of sheet.columns) head.append(el('th', '', c.unit ? `${c.name} (${c.unit})` : c.name));
  table.append(el('thead'), el('tbody'));
  table.tHead.append(head);
  for (let r = 0; r < sheet.rows; r++) {
    const tr = el('tr');
    for (const c of sheet.columns) {
      const v = cell(c, r);
      tr.append(el('td', typeof v === 'number' ? 'num' : '', v === null ? '' : valueText(v)));
    }
    table.tBodies[0].append(tr);
  }
  return table;
}

// The selected range: its summary from the core, and the trimmed trace to download.
export function showRange(panel, { start, end }, summaryPromise, ctx) {
  const title = el('p', 'timeline-range-title', `${msText(start)} – ${msText(end)} from the trace start (${usText(end - start)})`);
  const body = el('div', 'timeline-range-body', 'Summarising the range…');
  const button = el('button', 'timeline-perfetto', 'Open this range in Perfetto UI');
  button.type = 'button';
  const note = el('p', 'detail', 'Downloads this range as a trimmed trace (.json). Open ui.perfetto.dev, choose "Open trace file" and pick it: this page uploads nothing.');
  const status = el('p', 'timeline-download-status');
  status.setAttribute('role', 'status');
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = 'Cutting the trace…';
    try {
      const reply = await ctx.trimmedTrace(start, end);
      const fileName = reply.name || trimmedName(ctx.name, start, end);
      download(reply.bytes ?? reply, fileName, 'application/json');
      status.textContent = `Downloaded ${fileName}.`;
    } catch (e) {
      status.textContent = `The range could not be cut: ${e?.message ?? e}`;
    } finally {
      button.disabled = false;
    }
  });
  panel.replaceChildren(el('h3', 'timeline-panel-title', 'Selected range'), title, body, button, note, status);
  panel.hidden = false;
  Promise.resolve(summaryPromise).then((reply) => {
    const sheet = reply?.summary ?? reply;
    body.replaceChildren(...(sheet?.columns ? summaryTables(sheet) : [el('p', 'detail', 'The core gave no summary for this range.')]));
  }, (e) => body.replaceChildren(el('p', 'error', `The range could not be summarised: ${e?.message ?? e}`)));
}

// "trace.json.gz", 12.5–20 ms → "trace_12.500-20.000ms.json".
export function trimmedName(traceName, start, end) {
  const base = String(traceName || 'trace').replace(/\.gz$/i, '').replace(/\.json$/i, '').replace(/[^\w.-]+/g, '_');
  return `${base}_${(start / 1000).toFixed(3)}-${(end / 1000).toFixed(3)}ms.json`;
}
