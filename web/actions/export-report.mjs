// The "Download report (JSON)" button: the shown report as the CLI's report.json, or on
// the Ranks view the rank set's cross-rank sheets. export.mjs is imported on first use
// (it is not in the page's first payload).

import { app, settled } from '../state.mjs';
import { ui } from '../ui.mjs';
import { sharingRanks } from './share-link.mjs';

export function wireExportReport() {
  ui.exportReport.addEventListener('click', async () => {
    if (sharingRanks()) return exportRanks(app.ranks);
    const { report } = app;
    if (!report) return;
    if (report.htaPending) {
      ui.status.textContent = 'Waiting for the Holistic Trace Analysis sheets (the report carries them)…';
      await settled('hta');
      if (app.report !== report) return;
    }
    const { exportReport } = await import('../export.mjs');
    exportReport(report);
    ui.status.textContent = `Saved the report of ${report.name} as JSON (the CLI's report.json layout).`;
  });
}

// {"metadata": {"generator", "ranks": [{rank, file, rankFrom}], "simplified_mode"},
//  "sheets": {name: rows}}: the sheets as sollens report with several traces writes them.
async function exportRanks(rankSet) {
  const { download, jsonString, sheetJson } = await import('../export.mjs');
  const version = app.report?.version ?? ui.version?.textContent?.replace(/^sollens\s*/, '') ?? '?';
  const ranks = rankSet.ranks.map(({ rank, file, rankFrom }) =>
    `{"rank": ${Number.isFinite(rank) ? rank : 'null'}, "file": ${jsonString(file ?? '')}, "rankFrom": ${jsonString(String(rankFrom ?? ''))}}`);
  const metadata = `{"generator": ${jsonString(`sollens ${version || '?'} (web page)`)}, "ranks": [${ranks.join(', ')}], ` +
    `"simplified_mode": ${Boolean(rankSet.simplifiedMode)}}`;
  const sheets = rankSet.sheets.map((s, i) => `${i ? ',\n' : '\n'}${jsonString(s.name)}: ${sheetJson(s)}`);
  download(`{"metadata": ${metadata},\n"sheets": {${sheets.join('')}}}\n`, 'ranks.report.json', 'application/json');
  ui.status.textContent = `Saved the ${rankSet.ranks.length} ranks' cross-rank sheets as JSON.`;
}
