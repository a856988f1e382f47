#include "writers/diff_markdown.h"

#include <algorithm>
#include <string>

namespace sollens {

namespace {

// A code span inside a table: only '|' needs escaping there (GitHub keeps < as is).
std::string markdown_code(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// Table-safe text: '|' escaped, '<' as an entity (GitHub would take <...> for HTML), cut at 120.
std::string markdown_cell(const std::string& text) {
  const std::string s = text.size() > 120 ? text.substr(0, 117) + "..." : text;
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : c == '<' ? std::string("&lt;") : std::string(1, c);
  return out;
}

// Prose: '<' as an entity (GitHub would take <...> for HTML), nothing cut.
std::string markdown_text(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '<' ? std::string("&lt;") : std::string(1, c);
  return out;
}

// Rows of a compared sheet, largest change first, as a Markdown table.
void markdown_top(std::ostream& md, const std::vector<Table>& sheets, const std::string& sheet,
                  const std::string& metric, const CompareTags& tags, size_t limit, const char* title) {
  const Table* t = find_sheet(sheets, sheet);
  if (!t) return;
  const Column* diff = t->find(metric + "__" + tags.variant + "_diff");
  const Column* base = t->find(tags.baseline + "::" + metric);
  const Column* var = t->find(tags.variant + "::" + metric);
  if (!diff || !base || !var) return;
  std::vector<size_t> rows;
  for (size_t r = 0; r < t->num_rows(); ++r)
    if (cell_number(*diff, r).value_or(0) > 0) rows.push_back(r);
  std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
    return *cell_number(*diff, a) > *cell_number(*diff, b);
  });
  if (rows.empty()) return;
  md << "\n### " << title << "\n\n| " << t->column(0).name() << " | " << tags.baseline << " | " << tags.variant
     << " | change |\n|---|---:|---:|---:|\n";
  for (size_t i = 0; i < rows.size() && i < limit; ++i) {
    const size_t r = rows[i];
    md << "| " << markdown_cell(cell_text(t->column(0), r)) << " | " << gate_figure(cell_number(*base, r)) << " | "
       << gate_figure(cell_number(*var, r)) << " | +" << gate_figure(cell_number(*diff, r)) << " |\n";
  }
}

// The op-tree rows with the largest changes (the sheet is ranked by |diff|).
void markdown_op_tree(std::ostream& md, const std::vector<Table>& sheets, const CompareTags& tags, size_t limit) {
  const Table* t = find_sheet(sheets, "op_tree_diff");
  if (!t || t->num_rows() == 0) return;
  const Column* diff = t->find("gpu_time_us__" + tags.variant + "_diff");
  md << "\n### Call paths that changed most (GPU µs)\n\n| path | status | change | share of total |\n"
        "|---|---|---:|---:|\n";
  for (size_t r = 0; r < t->num_rows() && r < limit; ++r) {
    if (cell_number(*diff, r).value_or(0) == 0) break;
    md << "| " << markdown_cell(t->find("path")->string_at(r)) << " | " << t->find("status")->string_at(r) << " | "
       << gate_figure(cell_number(*diff, r)) << " | " << gate_figure(cell_number(*t->find("share_of_total_pct"), r))
       << "% |\n";
  }
}

const char* verdict_text(GateVerdict verdict) {
  switch (verdict) {
    case GateVerdict::kWithin: return "✅ within thresholds";
    case GateVerdict::kRegression: return "❌ regression";
    case GateVerdict::kNotEvaluated: break;
  }
  return "⚠️ gate not evaluated";
}

// The comparison's headline by the runs' names (compare_verdict), when there is one.
void markdown_headline(std::ostream& md, const std::vector<Table>& sheets) {
  const Table* t = find_sheet(sheets, "compare_verdict");
  const Column* headline = t ? t->find("headline") : nullptr;
  if (!headline || t->num_rows() == 0 || headline->is_null(0)) return;
  md << "\n" << markdown_text(headline->string_at(0)) << "\n";
}

void markdown_gates(std::ostream& md, const CompareTags& tags, const std::vector<GateResult>& gates) {
  if (gates.empty()) return;
  md << "\n| gate | " << tags.baseline << " | " << tags.variant << " | change | result |\n|---|---:|---:|---:|---|\n";
  for (const GateResult& r : gates)
    md << "| `" << markdown_code(r.expr.text) << "` | " << gate_figure(r.baseline) << " | " << gate_figure(r.variant)
       << " | " << (r.error.ok() ? gate_change(r) : "–") << " | "
       << (!r.error.ok() ? "error: " + markdown_cell(r.error.message()) : r.failed ? "❌ fail" : "✅ pass") << " |\n";
}

}  // namespace

void write_diff_markdown(std::ostream& md, const CompareTags& tags, const std::vector<Table>& sheets,
                         const std::vector<GateResult>& gates, GateVerdict verdict) {
  md << "## sollens diff: " << tags.variant << " vs " << tags.baseline << "\n\n" << verdict_text(verdict) << "\n";
  markdown_headline(md, sheets);
  markdown_gates(md, tags, gates);
  markdown_top(md, sheets, "gpu_timeline", "time ms", tags, 20, "GPU time (ms) that grew");
  markdown_top(md, sheets, "ops_summary", "total_direct_kernel_time_ms", tags, 10, "Ops that got slower (ms)");
  markdown_op_tree(md, sheets, tags, 10);
  markdown_top(md, sheets, "cycle_diff", "latency_us", tags, 10, "Cycles that got slower (µs)");
}

}  // namespace sollens
