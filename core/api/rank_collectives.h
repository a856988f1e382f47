#pragma once
// One rank's part of the multi-rank collective report, for runs that report each rank
// as its own task (a Slurm job array) and merge afterwards (README "Fleet scale").
#include <string>

#include "api/session.h"
#include "table/table.h"

namespace sollens {

// The rank's collective kernels as rows of nccl_long: rank (distributedInfo.rank, else
// from `file`'s name), collective_id and index_in_group within the rank, TraceLens's
// metadata, ts, dur and where the name came from. A rank without collective kernels
// gives a table with the rank column alone and no rows.
Table rank_collectives_sheet(const Session& session, const std::string& file);

}  // namespace sollens
