#include "writers/table_labels.h"

namespace sollens {

std::string_view table_kind_name(TableKind kind) {
  switch (kind) {
    case TableKind::kTimeline: return "timeline";
    case TableKind::kSummary: return "summary";
    case TableKind::kHistogram: return "histogram";
    case TableKind::kPerfModel: return "perf_model";
    case TableKind::kUnifiedPerf: return "unified_perf";
    case TableKind::kCollectives: return "collectives";
    case TableKind::kCycles: return "cycles";
    case TableKind::kSpeedOfLight: return "sol";
    case TableKind::kComparison: return "comparison";
    case TableKind::kRanks: return "ranks";
    case TableKind::kHta: return "hta";
  }
  return "";
}

std::string_view unit_symbol(Unit unit) {
  switch (unit) {
    case Unit::kNone: return "";
    case Unit::kMicroseconds: return "µs";
    case Unit::kMilliseconds: return "ms";
    case Unit::kPercent: return "%";
    case Unit::kGflop: return "GFLOP";
    case Unit::kMegabytes: return "MB";
    case Unit::kTflopsPerSecond: return "TFLOPS/s";
    case Unit::kTerabytesPerSecond: return "TB/s";
    case Unit::kGigabytesPerSecond: return "GB/s";
    case Unit::kFlopsPerByte: return "FLOP/B";
    case Unit::kTimestamp: return "timestamp µs";
  }
  return "";
}

}  // namespace sollens
