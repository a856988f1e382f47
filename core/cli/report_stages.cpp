#include "cli/report_stages.h"

#include <cstdio>

#include "cli/process_clock.h"

namespace sollens::cli {

namespace {
std::string fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}
}  // namespace

std::string stages_line(const StageTimes& t, const EventStore& store) {
  const LoadedTrace& l = t.loaded;
  std::string line = "read " + fixed(l.read_ms);
  if (store.inflated_beside_parse)
    line += ", inflate+parse " + fixed(l.parse_ms) + " (inflate " + fixed(store.inflate_ms) +
            " on a second thread)";
  else if (store.compressed_bytes)
    line += ", inflate " + fixed(store.inflate_ms) + ", parse " + fixed(l.parse_ms - store.inflate_ms);
  else
    line += ", parse " + fixed(l.parse_ms);
  if (store.parse_threads == 2) line += " [events in two halves]";
  line += ", model " + fixed(l.tree_ms) + ", analyses " + fixed(t.analyses_ms);
  if (t.beside_analyses_ms > 0)
    line += " (python-frame tree and cycles " + fixed(t.beside_analyses_ms) + " on a second thread)";
  else
    line += ", cycles " + fixed(t.cycles_ms);
  line += ", CSV " + fixed(t.csv_ms);
  if (t.xlsx_ms > 0) line += " and report.xlsx " + fixed(t.xlsx_ms);
  line += " on a second thread as the sheets are computed";
  if (t.json_ms > 0) line += ", report.json " + fixed(t.json_ms);
  line += ", waited " + fixed(t.files_wait_ms) + " for the files";
  line += "; main() to here " + fixed(wall_ms_since_main()) + ", CPU " + fixed(process_cpu_ms());
  return line;
}

}  // namespace sollens::cli
