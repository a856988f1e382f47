// PageSession's time axis: the sheets, one event's details, a range's summary, the
// trace trimmed for Perfetto UI (page_session.h).
#include <sstream>

#include "analyses/time_axis/event_detail.h"
#include "analyses/time_axis/range_summary.h"
#include "api/api_guard.h"
#include "api/page_session.h"
#include "writers/page_json.h"
#include "writers/table_description.h"
#include "writers/time_axis_json.h"

namespace sollens {
namespace {

Status no_trace() { return Status(Code::no_trace_loaded, "no trace is loaded"); }
Status no_time_axis() {
  return Status(Code::time_axis_not_built, "the time axis has not been built for this trace");
}

}  // namespace

std::string PageSession::build_time_axis(const std::string& device_name) {
  return page_answer(guarded("building the time axis", [&]() -> Result<std::string> {
    if (!session_.loaded()) return no_trace();
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
  }));
}

std::string PageSession::event_detail(int64_t row) const {
  if (!session_.loaded()) return page_error_json(no_trace());
  if (!time_axis_) return page_error_json(no_time_axis());
  const EventStore& store = session_.store();
  if (row < 0 || static_cast<uint64_t>(row) >= store.size())
    return page_error_json(Status(Code::bad_range, "no event has this row"));
  const SolOps* ops = time_axis_->sol ? &time_axis_->sol->report.ops : nullptr;
  const uint32_t r = static_cast<uint32_t>(row);
  return event_detail_json(r, sollens::event_detail(store, session_.tree(), r, time_axis_->axis.trace_start_us, ops));
}

std::string PageSession::range_summary(double start_us, double end_us) {
  return page_answer(guarded("summarising the range", [&]() -> Result<std::string> {
    if (!time_axis_) return no_time_axis();
    if (!(end_us > start_us)) return Status(Code::bad_range, "the range is empty: its end is not after its start");
    const Table* lanes = tables_.table(time_axis_lanes_);
    const Table* events = tables_.table(time_axis_events_);
    if (!lanes || !events) return no_time_axis();
    Result<Table> summary = sollens::range_summary(*lanes, *events, start_us, end_us);
    if (!summary.ok()) return summary.status();
    std::vector<Table> tables;
    tables.push_back(std::move(*summary));
    return page_range_summary_json(tables_.replace(TableSet::kTimeAxisRange, std::move(tables)));
  }));
}

Status PageSession::trim_buffer(double start_us, double end_us) {
  trimmed_.clear();
  trimmed_.shrink_to_fit();
  PaddedBuffer bytes = std::move(buffer_);
  buffer_ = PaddedBuffer();
  if (!session_.loaded()) return no_trace();
  return guarded("cutting the trace", [&]() -> Status {
    const double origin = time_axis_ ? time_axis_->axis.trace_start_us : trace_start_us(session_.store());
    std::ostringstream out;
    Status written = write_trimmed_trace_text(std::string_view(bytes.data(), bytes.size()), origin + start_us,
                                              origin + end_us, out);
    if (written.ok()) trimmed_ = std::move(out).str();
    return written;
  });
}

}  // namespace sollens
