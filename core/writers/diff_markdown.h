#pragma once
// The Markdown summary of a diff that a CI job posts on a pull request: the verdict, the
// gates, then what grew most (GPU time by type, ops, call paths, cycles).
#include <ostream>
#include <vector>

#include "analyses/diff/gate.h"
#include "analyses/diff/table_compare.h"
#include "table/table.h"
#include "writers/gate_report.h"

namespace sollens {

// `sheets`: the compared sheets (Session::diff), their columns tagged by `tags`.
void write_diff_markdown(std::ostream& md, const CompareTags& tags, const std::vector<Table>& sheets,
                         const std::vector<GateResult>& gates, GateVerdict verdict);

}  // namespace sollens
