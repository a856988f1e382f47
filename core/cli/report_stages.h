#pragma once
// One line for `sollens report`: where the process's time went, stage by stage.
#include <string>

#include "cli/loaded_trace.h"

namespace sollens::cli {

struct StageTimes {
  const LoadedTrace& loaded;  // read, inflate, parse, model
  double analyses_ms = 0;     // every sheet computed
  double beside_analyses_ms = 0;  // the SOL inputs, on a second thread during the analyses
  double cycles_ms = 0;       // on the main thread, when not found beside the analyses
  double csv_ms = 0;          // on a second thread, each sheet as it is computed
  double xlsx_ms = 0;         // on that thread too, after each sheet's CSV
  double json_ms = 0;         // on the main thread, after the last sheet
  double files_wait_ms = 0;   // how long the main thread then waited for the CSVs and xlsx
};

// "read 0.2, inflate+parse 41.0 (inflate 14.8 beside it), model 9.1, ...": wall ms;
// ends with the wall time since main() and the process's CPU time.
std::string stages_line(const StageTimes& stages, const EventStore& store);

}  // namespace sollens::cli
