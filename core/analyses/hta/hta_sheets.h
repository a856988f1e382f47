#pragma once
// Every HTA sheet of one rank's trace, in the order `sollens report` writes them (after
// TraceLens's and the SOL sheets), each named as HTA's reference CSVs name them.
#include <vector>

#include "analyses/hta/hta_options.h"
#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens::hta {

std::vector<Table> hta_tables(const EventStore& store, const TraceTree& tree, const HtaOptions& options);

}  // namespace sollens::hta
