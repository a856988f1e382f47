// Share links: the "Copy link" button and its panel, and opening a report from a link
// (#report=…, see share.mjs). share.mjs is imported on first use (it is not in the
// page's first payload).

import { fmtInt } from '../format.mjs';
import { drawReport, isCurrentLoad, replaceShown } from '../load.mjs';
import { showView } from '../router.mjs';
import { app, cyclesSettled } from '../state.mjs';
import { enableReportActions, showError, ui } from '../ui.mjs';

const SHARE_PREFIX = '#report=';

export const hasSharedLink = () => location.hash.startsWith(SHARE_PREFIX);

export function wireShareLink() {
  ui.shareLink.addEventListener('click', copyLink);
  ui.shareClose.addEventListener('click', () => {
    ui.sharePanel.hidden = true;
    ui.shareLink.focus();
  });
  window.addEventListener('hashchange', () => {
    if (hasSharedLink()) openSharedLink();
  });
}

async function copyLink() {
  if (!app.report) return;
  const shown = app.report;
  ui.shareLink.disabled = true;
  try {
    if (shown.cyclesPending) {
      ui.status.textContent = 'Waiting for the cycles (the link carries them)…';
      await cyclesSettled();
      if (app.report !== shown) return;
    }
    ui.status.textContent = 'Making the link…';
    const { encodeShare } = await import('../share.mjs');
    const link = await encodeShare(shown, location.href);
    if (app.report !== shown) return;
    const size = `${fmtInt(link.chars)} characters`;
    showLinkPanel(link, size);
    let copied = false;
    try {
      await navigator.clipboard.writeText(link.url);
      copied = true;
    } catch {
      // no clipboard permission (or not a secure context): the field is there to copy by hand
    }
    ui.shareUrl.focus();
    ui.shareUrl.select();
    ui.status.textContent = copied ? `Link copied to the clipboard (${size}).` : `The link is selected below: copy it with Ctrl+C (${size}).`;
  } catch (e) {
    ui.status.textContent = '';
    showError(e.title ?? `The link could not be made: ${e.message}`, e.hint ?? 'Use Download report (JSON) instead.');
  } finally {
    ui.shareLink.disabled = !app.report;
  }
}

function showLinkPanel(link, size) {
  ui.shareUrl.value = link.url;
  ui.shareDetail.textContent = link.dropped.length
    ? `This report is too big for a link, so these tables are left empty in it: ${link.dropped.join(', ')}. The link has ${size}. For everything, use Download report (JSON) or send the trace.`
    : `The link has ${size}. Anyone who opens it sees this report; their browser computes nothing and uploads nothing.`;
  ui.sharePanel.hidden = false;
}

// The report in the address's #report=…: shown with no worker (nothing to compute).
export async function openSharedLink() {
  const load = replaceShown();  // also a trace being opened: the link replaces it
  ui.welcome.hidden = true;
  ui.status.textContent = 'Opening the report in the link…';
  try {
    const { decodeShare } = await import('../share.mjs');
    const shared = await decodeShare(location.hash);
    if (!isCurrentLoad(load)) return;
    app.report = shared;
    if (shared.comparison) app.currentView = 'compare';  // a link to a comparison shows it
    drawReport(shared);
    document.body.dataset.cycles = 'ready';  // the link carries them
    enableReportActions(true);
    ui.sharedNotice.textContent = shared.dropped.length
      ? `This report came from a link made with sollens ${shared.version}. It was too big for a link: these tables are empty here: ${shared.dropped.join(', ')}. Open the trace itself to see them.`
      : `This report came from a link made with sollens ${shared.version}. Open the trace itself to recompute it (another device, corrected models)${
        shared.comparison ? '; the comparison is the one its author saw (open both traces to compare them again)' : ''}.`;
    ui.sharedNotice.hidden = false;
    ui.status.textContent = `Opened the report of ${shared.name} from the link.`;
    document.body.dataset.state = 'loaded';
    showView(app.currentView);
  } catch (e) {
    if (!isCurrentLoad(load)) return;
    ui.status.textContent = '';
    if (e.title) showError(e.title, e.hint);
    else showError(`This share link could not be opened: ${e.message}.`, 'Ask for the link again, or for the trace file itself.');
    document.body.dataset.state = 'error';
  }
}

// Opening a trace replaces a report from a link: drop the link from the address so
// that a reload shows what is on screen.
export function leaveSharedLink() {
  ui.sharedNotice.hidden = true;
  if (hasSharedLink()) history.replaceState(null, '', location.pathname + location.search);
}
