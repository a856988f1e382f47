// Share links: the "Copy link" button and its panel, the .sollens file (a link's report
// as a file, for one too long to send), and opening a report from a link (#report=…)
// or a dropped .sollens file (see share.mjs). share.mjs is imported on first use (it
// is not in the page's first payload).
//
// A link carries the sheets of the view it was made on and the overview's; on the
// Ranks view, the rank set's. The page it opens says which views are in it, and the
// other views say they are not (router.mjs asks notInLink).

import { fmtInt } from '../format.mjs';
import { drawReport, isCurrentLoad, replaceShown } from '../load.mjs';
import { redraw, showView } from '../router.mjs';
import { app, settled } from '../state.mjs';
import { enableReportActions, isLoading, showError, ui } from '../ui.mjs';

const SHARE_PREFIX = '#report=';
const byId = (id) => document.getElementById(id);
const shareDownload = byId('share-download');
const shareTooLong = byId('share-too-long');

export const hasSharedLink = () => location.hash.startsWith(SHARE_PREFIX);

// The views' names as the sidebar has them.
const viewLabel = (name) => document.querySelector(`nav [data-view="${CSS.escape(name)}"]`)?.textContent.trim() || name;
// "the Overview view", "the Overview and Kernels views"
function viewsIn(names) {
  const labels = names.map(viewLabel);
  const list = labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : labels[0];
  return `the ${list} view${labels.length > 1 ? 's' : ''}`;
}

// Whether the shown report (from a link) lacks the sheets of this view.
export function notInLink(name) {
  const views = app.report?.views;
  return Boolean(app.report?.shared && Array.isArray(views) && !views.includes(name) && name !== 'ranks');
}

export function wireShareLink() {
  ui.shareLink.addEventListener('click', copyLink);
  ui.shareClose.addEventListener('click', () => {
    ui.sharePanel.hidden = true;
    ui.shareLink.focus();
  });
  shareDownload.addEventListener('click', downloadSollens);
  window.addEventListener('hashchange', () => {
    if (hasSharedLink()) openSharedLink();
  });
}

// What Copy link and Download share: the rank set on the Ranks view, else the report.
export const sharingRanks = () => app.currentView === 'ranks' && Boolean(app.ranks);

async function copyLink() {
  if (!app.report && !app.ranks) return;
  const ranks = sharingRanks();
  const shown = ranks ? app.ranks : app.report;
  if (!shown) return;
  ui.shareLink.disabled = true;
  try {
    if (!ranks && shown.htaPending) {
      ui.status.textContent = 'Waiting for the Holistic Trace Analysis sheets (the link carries them)…';
      await settled('hta');
      if (app.report !== shown) return;
    }
    if (!ranks && shown.cyclesPending) {
      ui.status.textContent = 'Waiting for the cycles (the link carries them)…';
      await settled('cycles');
      if (app.report !== shown) return;
    }
    ui.status.textContent = 'Making the link…';
    const share = await import('../share.mjs');
    const link = ranks
      ? await share.encodeRanksShare(shown, location.href, rankSetName(shown), versionOf())
      : await share.encodeShare(shown, location.href, { view: app.currentView });
    if ((ranks ? app.ranks : app.report) !== shown) return;
    const size = `${fmtInt(link.chars)} characters`;
    showLinkPanel(link, size, share.LINK_TARGET);
    let copied = false;
    try {
      await navigator.clipboard.writeText(link.url);
      copied = true;
    } catch {
      // no clipboard permission (or not a secure context): the field is there to copy by hand
    }
    ui.shareUrl.focus();
    ui.shareUrl.select();
    const long = link.fits ? '' : ': too long for most chats; a .sollens file is offered below';
    ui.status.textContent = copied ? `Link copied to the clipboard (${size}${long}).` : `The link is selected below: copy it with Ctrl+C (${size}${long}).`;
  } catch (e) {
    ui.status.textContent = '';
    showError(e.title ?? `The link could not be made: ${e.message}`, e.hint ?? 'Use Download report (JSON) instead.');
  } finally {
    ui.shareLink.disabled = !(app.report || app.ranks);
  }
}

const versionOf = () => app.report?.version ?? ui.version?.textContent?.replace(/^sollens\s*/, '') ?? '';
const rankSetName = (rankSet) => rankSet.name ?? `${rankSet.ranks.length} rank traces`;

function showLinkPanel(link, size, target) {
  ui.shareUrl.value = link.url;
  const what = link.views ? `It holds ${viewsIn(link.views)} (a link carries the view it was made on and the overview; the .sollens file holds every view).`
    : 'It holds every view.';
  ui.shareDetail.textContent = link.dropped.length
    ? `This report is too big for a link, so these tables are left empty in it: ${link.dropped.join(', ')}. The link has ${size}. For everything, download a .sollens file or send the trace.`
    : `The link has ${size}. ${what} Anyone who opens it sees this report; their browser computes nothing and uploads nothing.`;
  shareTooLong.hidden = link.fits;
  shareTooLong.textContent = link.fits ? '' : `This link would be ${size}: longer than most chats and issue comments take (${fmtInt(target)} at most). ` +
    'Download a .sollens file instead and send it: it opens when dropped on this page or chosen with Open trace…';
  shareDownload.classList.toggle('primary', !link.fits);
  ui.sharePanel.hidden = false;
}

// The .sollens file: the whole report (every view), or the rank set on the Ranks view.
async function downloadSollens() {
  const ranks = sharingRanks();
  const shown = ranks ? app.ranks : app.report;
  if (!shown) return;
  try {
    const share = await import('../share.mjs');
    const name = ranks ? rankSetName(shown) : shown.name;
    const bytes = await share.encodeSollensFile(ranks ? { rankSet: shown, name, version: versionOf() } : shown);
    const { download } = await import('../export.mjs');
    download(bytes, `${fileBase(name)}${share.SOLLENS_EXTENSION}`, 'application/octet-stream');
    ui.status.textContent = `Saved ${ranks ? 'the rank set' : 'the report'} as a .sollens file (${fmtInt(bytes.length)} bytes): drop it on this page to open it.`;
  } catch (e) {
    showError(e.title ?? `The file could not be made: ${e.message}`, e.hint ?? 'Use Download report (JSON) instead.');
  }
}
// eslint-disable-next-line no-control-regex
const fileBase = (name) => String(name).replace(/ \(sample\)$/, '').replace(/\.json(\.gz)?$/i, '').replace(/[/\\:*?"<>|\x00-\x1f\x7f]+/g, '_').slice(0, 150) || 'report';

// The report in the address's #report=…: shown with no worker (nothing to compute).
export function openSharedLink() {
  return openShared(async (share) => share.decodeShare(location.hash), 'a link', 'link');
}

// A .sollens file dropped or chosen (sniff.mjs told it by its first bytes).
export function openSollensFile(file) {
  // the size first: a file too big is not read into memory
  return openShared(async (share) => share.decodeSollensFile(file.size > share.MAX_FILE_BYTES ? file : new Uint8Array(await file.arrayBuffer())),
    `the file ${file.name}`, 'file', leaveSharedLink);
}

// Decoded first: a link or file that cannot be opened leaves the report on screen.
async function openShared(decode, from, noun, beforeShowing = () => {}) {
  const shownBefore = Boolean(app.report || app.ranks);
  const loadingBefore = isLoading();  // a trace being opened: the shared report replaces it
  if (!shownBefore) ui.welcome.hidden = true;
  ui.status.textContent = `Opening the report in ${from}…`;
  let shared;
  try {
    shared = await decode(await import('../share.mjs'));
  } catch (e) {
    if (!loadingBefore && isLoading()) return;  // a trace opened meanwhile: its load says what happens
    ui.status.textContent = shownBefore ? 'The report on screen stays.' : '';
    if (e.title) showError(e.title, e.hint);
    else showError(`This ${noun === 'link' ? 'share link' : '.sollens file'} could not be opened: ${e.message}.`, 'Ask for it again, or for the trace file itself.');
    if (!shownBefore) document.body.dataset.state = 'error';
    return;
  }
  if (!loadingBefore && isLoading()) return;  // a trace opened meanwhile wins
  beforeShowing();
  const load = replaceShown();  // the shared report replaces what was shown
  if (!isCurrentLoad(load)) return;
  ui.welcome.hidden = true;
  if (shared.rankSet) return showSharedRanks(shared, from);
  app.report = shared;
  if (shared.comparison) app.currentView = 'compare';  // a link to a comparison shows it
  else if (shared.view && (!shared.views || shared.views.includes(shared.view))) app.currentView = shared.view;
  if (notInLink(app.currentView)) app.currentView = 'overview';
  drawReport(shared);
  document.body.dataset.cycles = 'ready';  // the link carries them
  enableReportActions(true);
  ui.sharedNotice.textContent = sharedNotice(shared, noun);
  ui.sharedNotice.hidden = false;
  ui.status.textContent = `Opened the report of ${shared.name} from ${from}.`;
  document.body.dataset.state = 'loaded';
  showView(app.currentView);
}

function sharedNotice(shared, noun) {
  const made = `This report came from a ${noun === 'link' ? 'link' : '.sollens file'} made with sollens ${shared.version}.`;
  const views = shared.views ? ` It holds ${viewsIn(shared.views)}; the others are not in it: open the trace to see them.` : '';
  if (shared.dropped.length)
    return `${made}${views} It was too big for a link: these tables are empty here: ${shared.dropped.join(', ')}. Open the trace itself to see them.`;
  return `${made}${views} Open the trace itself to recompute it (another device, corrected models)${
    shared.comparison ? '; the comparison is the one its author saw (open both traces to compare them again)' : ''}.`;
}

// A rank set from a link or file: the Ranks view, with no rank's own report behind it.
function showSharedRanks(shared, from) {
  app.report = null;
  app.rankFiles = null;  // no traces: a rank's own report cannot be opened from here
  app.ranks = { ...shared.rankSet, name: shared.name, shared: true };
  app.currentView = 'ranks';
  redraw('ranks');
  enableReportActions(true);
  ui.sharedNotice.textContent = `These rank traces' cross-rank sheets came from ${from === 'a link' ? 'a link' : 'a .sollens file'} made with sollens ${shared.version}. Open the rank traces themselves to see each rank's own report.`;
  ui.sharedNotice.hidden = false;
  ui.status.textContent = `Opened ${shared.rankSet.ranks.length} ranks' cross-rank sheets from ${from}.`;
  document.body.dataset.state = 'ranks';
  showView('ranks');
}

// Opening a trace replaces a report from a link: drop the link from the address so
// that a reload shows what is on screen.
export function leaveSharedLink() {
  ui.sharedNotice.hidden = true;
  if (hasSharedLink()) history.replaceState(null, '', location.pathname + location.search);
}
