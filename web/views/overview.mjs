// The overview view: the verdict first (views/verdict.mjs: bound by what, steps, top
// ops, kernels and SOL gaps), the GPU timeline (a stacked bar and its table), how GPU
// events were linked to their launches, the toggle for GPU events with no launch in the
// trace (and a banner when they hold most of the GPU time), warnings, and folded away
// the trace's facts, devices and events per category. Its elements are in index.html
// (section#view-overview): it is drawn as soon as a report arrives, without waiting
// for a module. Text from the trace is set with textContent only.

import { dataValue, fmtBytes, fmtFixed, fmtInt, row } from '../format.mjs';
import { diagnosticLink } from './diagnostics.mjs';
import { clearVerdict, renderVerdict } from './verdict.mjs';

const byId = (id) => document.getElementById(id);

const TIMELINE_LABELS = {
  computation_time: 'computation',
  exposed_comm_time: 'exposed communication',
  exposed_memcpy_time: 'exposed memcpy',
  busy_time: 'busy',
  idle_time: 'idle',
  total_time: 'total',
  total_comm_time: 'total communication',
  total_memcpy_time: 'total memcpy',
};
// The rows that partition total_time (the core guarantees they sum to it).
const TIMELINE_PARTS = ['computation_time', 'exposed_comm_time', 'exposed_memcpy_time', 'idle_time'];

// The toggle and the banner's button ask the worker for the report again with the GPU
// events whose launch is not in the trace counted or not; requestReport({includeUnlinked})
// returns false when it cannot (a report from a link). Set once by app.mjs.
export function wireOverview({ requestReport }) {
  const box = byId('include-unlinked');
  const ask = (includeUnlinked) => {
    if (!requestReport({ includeUnlinked })) {
      box.checked = !includeUnlinked;  // the report shown is unchanged
      return;
    }
    box.checked = includeUnlinked;
    byId('unlinked-status').textContent = includeUnlinked
      ? 'Recomputing with the GPU events whose launch is not in the trace…'
      : 'Recomputing without the GPU events whose launch is not in the trace…';
  };
  box.addEventListener('change', () => ask(box.checked));
  byId('unlinked-include').addEventListener('click', () => {
    ask(true);
    box.focus();  // the banner goes away with the recompute
  });
}

// Empties the view (another trace is being opened).
export function clear() {
  clearVerdict();
  for (const id of ['facts', 'timeline-legend', 'warnings', 'linking', 'unlinked-text', 'unlinked-status']) byId(id).replaceChildren();
  byId('unlinked-banner').hidden = true;
  byId('cut-short').hidden = true;
  byId('timeline-none').hidden = true;
  byId('timeline-chart').closest('figure').hidden = false;
  byId('gpu-timeline').hidden = false;
  for (const id of ['gpu-timeline', 'devices', 'categories']) byId(id).tBodies[0].replaceChildren();
  const svg = byId('timeline-chart');
  for (const el of [...svg.children]) if (el.tagName !== 'title') el.remove();
  byId('trace-name').textContent = '';
}

// loaded: a load's DONE message (messages.mjs) or the report from a share link.
export function render(loaded) {
  clear();
  byId('trace-name').textContent = loaded.name;
  if (loaded.cutShort) {
    // The core's words for what the cut lost (core/ingest/cut_short.h), when it lost GPU events.
    const lost = loaded.cutShortLoss ? ` ${loaded.cutShortLoss.charAt(0).toUpperCase()}${loaded.cutShortLoss.slice(1)}.` : '';
    byId('cut-short').textContent = `This file is cut short: the report covers only the ${fmtInt(loaded.info.events)} events before the cut (the warnings below say where).${lost}`;
    const cut = (loaded.diagnostics ?? []).find((d) => d.code === 'truncated' || d.code === 'gzip_truncated');
    const link = diagnosticLink(cut?.code);
    if (link) byId('cut-short').append(' ', link);
    byId('cut-short').hidden = false;
  }
  renderVerdict(loaded.report?.sheets);
  renderFacts(loaded);
  if (loaded.cutShort && !loaded.info.gpuEvents) renderNoTimeline();
  else renderTimeline(loaded.gpuTimeline);
  renderLinking(loaded.info, Boolean(loaded.report?.includeUnlinked));
  renderDevices(loaded.info.devices);
  renderWarnings(loaded.info.warnings, loaded.diagnostics ?? []);
  const cats = byId('categories').tBodies[0];
  for (const [cat, n] of loaded.info.eventsByCategory) cats.append(row([cat, dataValue(n, fmtInt(n))]));
}

function renderFacts({ name, info, gzip, fileBytes, timings }) {
  const facts = byId('facts');
  const fact = (term, value, exact) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    if (exact !== undefined) dd.append(dataValue(exact, value));
    else dd.textContent = value;
    facts.append(dt, dd);
  };
  fact('file', name);
  fact('size', gzip ? `${fmtBytes(info.jsonBytes)} of JSON (${fmtBytes(fileBytes)} gzip)` : `${fmtBytes(info.jsonBytes)} of JSON`);
  fact('format', info.format);
  fact('events', `${fmtInt(info.events)} (${fmtInt(info.gpuEvents)} on the GPU, ${fmtInt(info.linkedGpuEvents)} linked to a launch)`, info.events);
  fact('time span', `${fmtFixed(info.spanMs, 3)} ms`, info.spanMs);
  if (info.distributed) {
    const d = info.distributed;
    fact('ranks', `rank ${d.rank ?? '?'} of ${d.worldSize ?? '?'}${d.backend ? ` (${d.backend})` : ''}`);
  } else {
    fact('ranks', 'single process (no distributedInfo)');
  }
  // A count, not the processes' ids (a pid of 0 read as "no GPU"); the profiler's version
  // hints and the trace's own (temporary) file name are left out: nothing to act on.
  fact('GPUs', fmtInt(info.gpuPids.length), info.gpuPids.length);
  if (timings) fact('opened in', `${fmtFixed(timings.totalMs / 1000, 2)} s (read and parsed ${fmtFixed(timings.readMs / 1000, 2)} s${timings.parts === 2 ? ' in two parts at once' : ''}${timings.readAgain ? ', read again after the browser stopped handing over the file' : ''}, event tree ${fmtFixed(timings.treeMs / 1000, 2)} s, analysed ${fmtFixed(timings.analyseMs / 1000, 2)} s)`);
  else fact('source', 'a share link: the report as computed when the link was made (no trace loaded here)');
}

// Which rule linked GPU events to their launches, how many have none, and whether they
// are counted; the banner when those hold most of the GPU time (or are most of the GPU
// events) while left out. The figures are the core's (infoJson).
function renderLinking(info, included) {
  const box = byId('include-unlinked');
  box.checked = included;
  byId('view-overview').dataset.includeUnlinked = String(included);  // what the figures are
  const unlinked = info.gpuEvents - info.linkedGpuEvents;
  byId('unlinked-controls').hidden = unlinked === 0 && !included;  // nothing to count
  const linking = byId('linking');
  if (info.gpuEvents === 0)
    linking.textContent = 'The trace has no GPU events (kernels, memory copies or sets).';
  else if (info.linkedBy === 'correlation')
    linking.textContent = 'GPU events were linked to the runtime calls that launched them by correlation id, as HTA does: the trace has no flow events, through which TraceLens links them (it would link none).';
  else if (info.linkedBy === 'flows')
    linking.textContent = 'GPU events were linked to the runtime calls that launched them through the trace\'s flow events, as TraceLens does.';
  if (unlinked > 0) {
    linking.append(` ${fmtInt(unlinked)} of ${fmtInt(info.gpuEvents)} GPU events have no launch in the trace`);
    if (info.unlinkedGpuTimeUs != null) linking.append(` (${timeOf(info.unlinkedGpuTimeUs, info.gpuTimeUs)} of their summed durations)`);
    linking.append(included ? ': they are counted in the timeline below.' : ': the timeline below leaves them out, as TraceLens does.');
  }
  const mostTimeOut = info.gpuTimeUs > 0 && info.unlinkedGpuTimeUs > info.gpuTimeUs / 2;
  const mostEventsOut = info.linkedGpuEvents < info.gpuEvents / 2;
  if (included || !(mostTimeOut || mostEventsOut)) return;
  const what = info.unlinkedGpuTimeUs != null
    ? `${timeOf(info.unlinkedGpuTimeUs, info.gpuTimeUs)} of the GPU time`
    : `${fmtInt(unlinked)} of ${fmtInt(info.gpuEvents)} GPU events`;
  byId('unlinked-text').textContent = `Most of the GPU work is left out of the timeline: ${what} is in GPU events whose launch is not in the trace (launched before the profiler started, or tied to no launch by a flow event). TraceLens leaves such events out; count them to see the whole GPU.`;
  byId('unlinked-banner').hidden = false;
}

// "1.234 ms of 5.678 ms (21.7 %)"
function timeOf(partUs, wholeUs) {
  const share = wholeUs > 0 ? ` (${fmtFixed((100 * partUs) / wholeUs, 1)} %)` : '';
  return `${fmtFixed(partUs / 1e3, 3)} ms of ${fmtFixed(wholeUs / 1e3, 3)} ms${share}`;
}

function renderDevices(devices) {
  const tbody = byId('devices').tBodies[0];
  for (const d of devices) {
    const cc = d.computeMajor == null ? '?' : `${d.computeMajor}.${d.computeMinor ?? '?'}`;
    const mem = d.totalGlobalMem == null ? '?' : fmtFixed(d.totalGlobalMem / 2 ** 30, 1);
    tbody.append(row([d.id ?? '?', d.name || '(no name)', cc, d.numSms ?? '?', mem]));
  }
  byId('devices-none').hidden = devices.length > 0;
  byId('devices').hidden = devices.length === 0;
}

// diagnostics: the load's warnings with their codes (DONE), each linked to its entry
// where its words are the warning's (a report from a link has none).
function renderWarnings(warnings, diagnostics) {
  const list = byId('warnings');
  if (warnings.length === 0) {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = 'none';
    list.append(li);
  }
  for (const w of warnings) {
    const li = document.createElement('li');
    li.textContent = w;
    const link = diagnosticLink(diagnostics.find((d) => d.message === w)?.code);
    if (link) li.append(' ', link);
    list.append(li);
  }
}

// A file cut before its first GPU event: no timeline of zeros drawn as if it were a finding.
function renderNoTimeline() {
  byId('timeline-none').textContent = 'No GPU events were read before the cut: there is no GPU timeline to show.';
  byId('timeline-none').hidden = false;
  byId('timeline-chart').closest('figure').hidden = true;
  byId('gpu-timeline').hidden = true;
}

function renderTimeline(rows) {
  const tbody = byId('gpu-timeline').tBodies[0];
  for (const r of rows) {
    const tr = row([TIMELINE_LABELS[r.type] ?? r.type, dataValue(r['time ms'], fmtFixed(r['time ms'], 3)),
      dataValue(r.percent, fmtFixed(r.percent, 2))]);
    tr.dataset.type = r.type;
    if (TIMELINE_PARTS.includes(r.type)) tr.classList.add(`part-${r.type}`);
    tbody.append(tr);
  }
  renderTimelineBar(new Map(rows.map((r) => [r.type, r])));
}

// One stacked bar of the parts that add up to total_time, and its legend.
function renderTimelineBar(byType) {
  const svg = byId('timeline-chart');
  const legend = byId('timeline-legend');
  const NS = 'http://www.w3.org/2000/svg';
  let x = 0;
  for (const type of TIMELINE_PARTS) {
    const r = byType.get(type);
    if (!r) continue;
    const width = Math.max(0, r.percent) * 6;  // viewBox is 600 wide
    if (width > 0) {
      const rect = document.createElementNS(NS, 'rect');
      rect.setAttribute('x', String(x));
      rect.setAttribute('y', '0');
      rect.setAttribute('width', String(width));
      rect.setAttribute('height', '44');
      rect.setAttribute('class', `part-${type}`);
      const title = document.createElementNS(NS, 'title');
      title.textContent = `${TIMELINE_LABELS[type]}: ${fmtFixed(r['time ms'], 3)} ms (${fmtFixed(r.percent, 2)} %)`;
      rect.append(title);
      svg.append(rect);
      x += width;
    }
    const li = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = `swatch part-${type}`;
    swatch.setAttribute('aria-hidden', 'true');
    li.append(swatch, `${TIMELINE_LABELS[type]} ${fmtFixed(r.percent, 2)} %`);
    legend.append(li);
  }
}
