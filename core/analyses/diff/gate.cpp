#include "analyses/diff/gate.h"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace sollens {

namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

std::string unquote(std::string s) {
  s = trim(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return s.substr(1, s.size() - 2);
  return s;
}

// The last " OP " outside double quotes.
bool split_operator(const std::string& text, std::string& figure, GateOp& op, std::string& change) {
  size_t best = std::string::npos, len = 0;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    if (quoted || text[i] != ' ') continue;
    for (const char* candidate : {">=", "<=", ">", "<"}) {
      const std::string c = candidate;
      if (text.compare(i + 1, c.size(), c) == 0 && i + 1 + c.size() < text.size() && text[i + 1 + c.size()] == ' ') {
        best = i;
        len = c.size();
        break;
      }
    }
  }
  if (best == std::string::npos) return false;
  const std::string o = text.substr(best + 1, len);
  op = o == ">" ? GateOp::kGreater : o == ">=" ? GateOp::kGreaterEqual : o == "<" ? GateOp::kLess : GateOp::kLessEqual;
  figure = trim(text.substr(0, best));
  change = trim(text.substr(best + 1 + len));
  return true;
}

bool parse_change(const std::string& text, GateExpr& e, std::string& error) {
  const char* begin = text.c_str();
  char* end = nullptr;
  e.threshold = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(e.threshold)) {
    error = "'" + text + "' is not a change (e.g. +5%, +0.2ms, +3)";
    return false;
  }
  const std::string unit = trim(end);
  if (unit == "%") e.percent = true;
  else if (unit == "us" || unit == "µs") e.unit_scale_us = 1;
  else if (unit == "ms") e.unit_scale_us = 1e3;
  else if (unit == "s") e.unit_scale_us = 1e6;
  else if (!unit.empty()) {
    error = "unknown unit '" + unit + "' in '" + text + "' (use %, us, ms or s)";
    return false;
  }
  return true;
}

// "op NAME time" → NAME and "time"; false when the words do not fit.
bool named_figure(const std::string& figure, const std::string& head, std::string& name, std::string& what) {
  if (!figure.starts_with(head + " ")) return false;
  const size_t last = figure.find_last_of(' ');
  if (last <= head.size()) return false;
  name = unquote(figure.substr(head.size() + 1, last - head.size() - 1));
  what = figure.substr(last + 1);
  return !name.empty();
}

bool parse_figure(const std::string& figure, GateExpr& e, std::string& error) {
  std::string name, what;
  if (figure == "total time") {
    e.sheet = "gpu_timeline", e.key = "total_time", e.metric = "time ms";
  } else if (figure == "step latency" || figure == "layer latency") {
    e.sheet = "cycle_diff", e.key = figure.substr(0, figure.find(' ')), e.metric = "latency_us";
  } else if (figure.starts_with("gpu_timeline.")) {
    e.sheet = "gpu_timeline", e.key = figure.substr(13), e.metric = "time ms";
  } else if (named_figure(figure, "op", name, what) && (what == "time" || what == "count")) {
    e.sheet = "ops_summary", e.key = name;
    e.metric = what == "time" ? "total_direct_kernel_time_ms" : "Count";
  } else if (named_figure(figure, "kernel", name, what) && (what == "time" || what == "count")) {
    e.sheet = "kernel_summary", e.key = name;
    e.metric = what == "time" ? "Kernel duration (µs)_sum" : "Kernel duration (µs)_count";
  } else if (const size_t open = figure.find('['), close = figure.rfind("]."); open != std::string::npos &&
             close != std::string::npos && close > open) {
    e.sheet = trim(figure.substr(0, open));
    e.key = unquote(figure.substr(open + 1, close - open - 1));
    e.metric = trim(figure.substr(close + 2));
  } else {
    error = "unknown figure '" + figure +
            "' (try: total time, gpu_timeline.TYPE, op NAME time, kernel NAME time, step latency, "
            "SHEET[KEY].COLUMN)";
    return false;
  }
  if (e.sheet.empty() || e.key.empty() || e.metric.empty()) {
    error = "incomplete figure '" + figure + "'";
    return false;
  }
  return true;
}

// µs per unit of a time figure; 0 for other figures. Sheets read back from a
// report.json carry no units: then the column name tells (time ms, (µs), _us).
double unit_in_us(Unit unit, const std::string& metric) {
  if (unit == Unit::kMicroseconds) return 1;
  if (unit == Unit::kMilliseconds) return 1e3;
  if (unit != Unit::kNone) return 0;
  if (metric.ends_with(" ms") || metric.ends_with("_ms")) return 1e3;
  if (metric.find("(µs)") != std::string::npos || metric.ends_with("_us")) return 1;
  return 0;
}

bool crossed(GateOp op, double change, double threshold) {
  switch (op) {
    case GateOp::kGreater: return change > threshold;
    case GateOp::kGreaterEqual: return change >= threshold;
    case GateOp::kLess: return change < threshold;
    case GateOp::kLessEqual: return change <= threshold;
  }
  return false;
}

}  // namespace

Result<GateExpr> parse_gate(const std::string& text) {
  GateExpr e;
  e.text = text;
  std::string figure, change, error;
  if (!split_operator(trim(text), figure, e.op, change))
    return Status(Code::bad_option_value,
                  "no comparison in '" + text + "' (write FIGURE > CHANGE with spaces around the operator)");
  if (!parse_figure(figure, e, error) || !parse_change(change, e, error))
    return Status(Code::bad_option_value, "--fail-if '" + text + "': " + error);
  return e;
}

GateResult evaluate_gate(const GateExpr& expr, const std::vector<Table>& compared, const CompareTags& tags) {
  GateResult r;
  r.expr = expr;
  const Table* t = find_sheet(compared, expr.sheet);
  if (!t) {
    r.error = Status(Code::gate_not_evaluable, "no compared sheet '" + expr.sheet + "'");
    return r;
  }
  // Rows are found by their first column; cycle_diff's by its level (step, layer).
  const Column* key = expr.sheet == "cycle_diff" ? t->find("level") : t->num_columns() ? &t->column(0) : nullptr;
  const Column* base = t->find(tags.baseline + "::" + expr.metric);
  const Column* var = t->find(tags.variant + "::" + expr.metric);
  if (!key || (!base && !var)) {
    r.error = Status(Code::gate_not_evaluable, "sheet '" + expr.sheet + "' has no column '" + expr.metric + "'");
    return r;
  }
  std::optional<size_t> row;
  for (size_t i = 0; i < t->num_rows() && !row; ++i)
    if (cell_text(*key, i) == expr.key) row = i;
  if (!row) {
    r.error = Status(Code::gate_not_evaluable, "'" + expr.key + "' is in neither run's " + expr.sheet);
    return r;
  }
  r.baseline = base ? cell_number(*base, *row) : std::nullopt;
  r.variant = var ? cell_number(*var, *row) : std::nullopt;
  if (!r.baseline && !r.variant) {
    r.error = Status(Code::gate_not_evaluable, "'" + expr.key + "' has no " + expr.metric + " in either run");
    return r;
  }
  const double b = r.baseline.value_or(0), v = r.variant.value_or(0);
  if (expr.percent) {
    r.change = b != 0 ? 100 * ((v - b) / b) : (v > 0 ? std::numeric_limits<double>::infinity() : 0);
  } else {
    r.change = v - b;
    const Unit unit = base && base->unit() != Unit::kNone ? base->unit() : var ? var->unit() : Unit::kNone;
    const double figure_us = unit_in_us(unit, expr.metric);
    if (expr.unit_scale_us != 0 && figure_us == 0) {
      r.error = Status(Code::gate_not_evaluable, "'" + expr.metric + "' is not a time: give the change without a unit");
      return r;
    }
    if (expr.unit_scale_us != 0) r.change = r.change * figure_us / expr.unit_scale_us;
  }
  r.failed = crossed(expr.op, r.change, expr.threshold);
  return r;
}

}  // namespace sollens
