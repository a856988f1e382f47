#include "analyses/ops/percentage_columns.h"

#include "base/stats.h"

namespace sollens {

void add_percentage_columns(Table& table, std::span<const double> values) {
  Column& pct = table.add_column("Percentage (%)", ColumnType::kFloat, Unit::kPercent);
  Column& cum = table.add_column("Cumulative Percentage (%)", ColumnType::kFloat, Unit::kPercent);
  const double total = stats::numpy_sum(values);
  double running = 0;
  for (double v : values) {
    const double p = v / total * 100;
    running += p;
    pct.push_float(p);
    cum.push_float(running);
  }
}

}  // namespace sollens
