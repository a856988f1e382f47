#pragma once
// The report request's HTA options (report_flags.def's --no-hta, --hta-*, --critical-path)
// as the HTA sheets read them (analyses/hta/hta_options.h).
#include "analyses/hta/hta_options.h"
#include "api/options.h"

namespace sollens {

hta::HtaOptions hta_options(const ReportRequest& request);

}  // namespace sollens
