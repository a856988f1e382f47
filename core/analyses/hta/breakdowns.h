#pragma once
// The breakdown sheets (HTA's breakdown_analysis and communication_analysis), for
// hta_sheets.cpp: temporal, idle time, comm–comp overlap, kernel types, kernels, user
// annotations.
#include "analyses/hta/annotation_breakdown.h"
#include "analyses/hta/comm_comp_overlap.h"
#include "analyses/hta/idle_time.h"
#include "analyses/hta/kernel_breakdown.h"
#include "analyses/hta/temporal_breakdown.h"
