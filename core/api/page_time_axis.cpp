// PageSession's time axis: the sheets, one event's details, a range's summary, the
// trace trimmed for Perfetto UI (page_session.h).
#include <new>
#include <sstream>

#include "analyses/time_axis/event_detail.h"
#include "analyses/time_axis/range_summary.h"
#include "api/page_session.h"
#include "writers/page_json.h"
#include "writers/table_description.h"
#include "writers/time_axis_json.h"

namespace sollens {
namespace {

const char* const kNoTrace = "no trace is loaded";
const char* const kNoTimeAxis = "the time axis has not been built for this trace";

}  // namespace

std::string PageSession::build_time_axis(const std::string& device_name) {
  try {
    if (!session_.loaded()) return page_error_json(kNoTrace);
    TimeAxisRequest request;
    request.device_name = device_name;
    auto result = std::make_unique<TimeAxisResult>(session_.time_axis(request));
    TimeAxis& axis = result->axis;
    const double start = axis.trace_start_us;
    std::vector<Table> tables;
    tables.push_back(std::move(axis.lanes));
    tables.push_back(std::move(axis.events));
    tables.push_back(std::move(axis.spans));
    const std::string sheets = tables_.replace(TableSet::kTimeAxis, std::move(tables));
    time_axis_lanes_ = tables_.handles(TableSet::kTimeAxis)[0];
    time_axis_events_ = tables_.handles(TableSet::kTimeAxis)[1];
    time_axis_ = std::move(result);
    return page_time_axis_json(start, time_axis_->build_ms, time_axis_->inputs_ms, sheets);
  } catch (const std::bad_alloc&) {
    return page_error_json("out of memory: this trace needs more than the page's 4 GB; use the sollens command line");
  }
}

std::string PageSession::event_detail(int64_t row) const {
  if (!session_.loaded()) return page_error_json(kNoTrace);
  if (!time_axis_) return page_error_json(kNoTimeAxis);
  const EventStore& store = session_.store();
  if (row < 0 || static_cast<uint64_t>(row) >= store.size()) return page_error_json("no event has this row");
  const SolOps* ops = time_axis_->sol ? &time_axis_->sol->report.ops : nullptr;
  const uint32_t r = static_cast<uint32_t>(row);
  return event_detail_json(r, sollens::event_detail(store, session_.tree(), r, time_axis_->axis.trace_start_us, ops));
}

std::string PageSession::range_summary(double start_us, double end_us) {
  if (!time_axis_) return page_error_json(kNoTimeAxis);
  if (!(end_us > start_us)) return page_error_json("the range is empty: its end is not after its start");
  const Table* lanes = tables_.table(time_axis_lanes_);
  const Table* events = tables_.table(time_axis_events_);
  if (!lanes || !events) return page_error_json(kNoTimeAxis);
  std::vector<Table> tables;
  tables.push_back(sollens::range_summary(*lanes, *events, start_us, end_us));
  return page_range_summary_json(tables_.replace(TableSet::kTimeAxisRange, std::move(tables)));
}

std::string PageSession::trim_buffer(double start_us, double end_us) {
  trimmed_.clear();
  trimmed_.shrink_to_fit();
  PaddedBuffer bytes = std::move(buffer_);
  buffer_ = PaddedBuffer();
  if (!session_.loaded()) return kNoTrace;
  try {
    const double origin = time_axis_ ? time_axis_->axis.trace_start_us : trace_start_us(session_.store());
    std::ostringstream out;
    const std::string error = write_trimmed_trace_text(std::string_view(bytes.data(), bytes.size()),
                                                       origin + start_us, origin + end_us, out);
    if (!error.empty()) return error;
    trimmed_ = std::move(out).str();
    return "";
  } catch (const std::bad_alloc&) {
    return "out of memory: the trimmed trace does not fit in the page's 4 GB; use the sollens command line";
  }
}

}  // namespace sollens
