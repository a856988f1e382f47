#pragma once
// HTA's user-annotation views over the gpu_user_annotation events (the annotations'
// spans on the GPU timeline), those HTA's loader keeps (breakdown_events.h's step cut,
// applied to the annotation's own start as HTA applies it to CPU-side events):
//   `gpu_user_annotation_breakdown` (get_gpu_user_annotation_breakdown with
//     use_gpu_annotation): name, sum (us), max (us), min (us), stddev, mean (us), rank:
//     statistics of each annotation name's durations, aggregated as the kernel breakdown
//     aggregates kernels (annotation_duration_ratio, num_annotations); rows by name.
//   `gpu_kernels_with_user_annotations` (get_gpu_kernels_with_user_annotations): each
//     kernel, memcpy and memset with the innermost annotation on its stream (same pid and
//     tid) that overlaps it, the latest to start; empty when none. One row per GPU event,
//     so it is off by default (HtaOptions::kernels_with_user_annotations).
#include "analyses/hta/breakdown_events.h"
#include "analyses/hta/hta_options.h"
#include "model/trace_tree.h"
#include "table/table.h"

namespace sollens::hta {

// The gpu_user_annotation events HTA keeps, by HTA start.
std::vector<uint32_t> kept_gpu_annotations(const HtaTrace& trace);

Table gpu_user_annotation_breakdown_table(const HtaTrace& trace, const TraceTree& tree, const HtaOptions& options);
// rank, stream, name, ts, dur, user_annotation.
Table gpu_kernels_with_user_annotations_table(const HtaTrace& trace, const TraceTree& tree,
                                              const HtaOptions& options);

}  // namespace sollens::hta
