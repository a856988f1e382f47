// The "Download report (JSON)" button. export.mjs is imported on first use (it is
// not in the page's first payload).

import { app } from '../state.mjs';
import { ui } from '../ui.mjs';

export function wireExportReport() {
  ui.exportReport.addEventListener('click', async () => {
    const { report } = app;
    if (!report) return;
    const { exportReport } = await import('../export.mjs');
    exportReport(report);
    ui.status.textContent = `Saved the report of ${report.name} as JSON (the CLI's report.json layout).`;
  });
}
