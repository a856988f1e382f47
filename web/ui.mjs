// The page's frame around the views (index.html): the header's actions, the loader,
// the error box, the status line (the live region), the share panel and the footer.
// The views' own elements are theirs (views/). Text is set with textContent only.

import { app } from './state.mjs';
import { diagnosticLink } from './views/diagnostics.mjs';

export const byId = (id) => document.getElementById(id);

export const ui = {
  openFile: byId('open-file'),
  fileInput: byId('file-input'),
  openSample: byId('open-sample'),
  loader: byId('loader'),
  loaderName: byId('loader-name'),
  progress: byId('progress'),
  progressLabel: byId('progress-label'),
  progressDetail: byId('progress-detail'),
  cancel: byId('cancel'),
  error: byId('error'),
  errorTitle: byId('error-title'),
  errorHint: byId('error-hint'),
  errorDismiss: byId('error-dismiss'),
  status: byId('status'),
  welcome: byId('welcome'),
  main: byId('main'),
  dropOverlay: byId('drop-overlay'),
  version: byId('version'),
  exportReport: byId('export-report'),
  shareLink: byId('share-link'),
  sharePanel: byId('share-panel'),
  shareDetail: byId('share-detail'),
  shareUrl: byId('share-url'),
  shareClose: byId('share-close'),
  sharedNotice: byId('shared-notice'),
};

export const isLoading = () => !ui.loader.hidden;

// An error over the shown report (a failed open keeps it) or over the welcome text;
// `code` (the diagnostics catalogue's) links to its entry.
export function showError(title, hint, code = '') {
  ui.errorTitle.textContent = title;
  ui.errorHint.textContent = hint ?? '';
  const link = diagnosticLink(code);
  if (link) ui.errorHint.append(' ', link);
  ui.error.hidden = false;
  if (!app.report) ui.welcome.hidden = false;
}

export function hideError() {
  ui.error.hidden = true;
}

// Dismissed, the report under it is all there is to see; focus goes to the page's main action.
ui.errorDismiss.addEventListener('click', () => {
  hideError();
  ui.openFile.focus();
});

// Export and share act on the shown report: enabled while there is one.
export function enableReportActions(enabled) {
  ui.exportReport.disabled = !enabled;
  ui.shareLink.disabled = !enabled;
  if (!enabled) ui.sharePanel.hidden = true;
}
