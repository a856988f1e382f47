// The collectives view: TraceLens's coll_analysis (NCCL/RCCL collectives of this rank
// grouped by process group, collective, dtype, message sizes and stream).

import { createTable } from '../table.mjs';
import { findSheet } from '../sheet.mjs';
import { el, resetSection } from '../widgets.mjs';

export function render(section, context) {
  resetSection(section, 'Collectives');
  const sheet = findSheet(context.report.sheets, 'coll_analysis');
  section.append(el('p', 'detail',
    'Collective communication kernels (NCCL / RCCL) of this rank, grouped by process group, collective, dtype, message sizes and stream; dur in µs (TraceLens coll_analysis).'));
  if (!sheet || sheet.rows === 0) {
    const p = el('p', 'empty-state no-collectives',
      'No collectives in this trace: no NCCL or RCCL kernel with collective arguments was found.');
    section.append(p);
    return;
  }
  section.append(createTable(sheet, { caption: 'Collectives by process group, collective, dtype and message size (TraceLens coll_analysis)' }).element);
}
