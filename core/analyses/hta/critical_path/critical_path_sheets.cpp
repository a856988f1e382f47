#include "analyses/hta/critical_path/critical_path_sheets.h"

#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "analyses/hta/critical_path/cp_graph.h"
#include "analyses/hta/critical_path/cp_names.h"
#include "analyses/hta/critical_path/cp_view.h"

namespace sollens::hta {

Table critical_path_summary_table(const CriticalPath& path, std::string name) {
  std::map<std::string_view, double> per_class;  // pandas groupby: classes sorted, "" first
  double total = 0;
  for (const CriticalPathStep& s : path.steps) {
    per_class[bound_by_name(s.bound_by)] += s.duration;
    total += s.duration;
  }
  Table t(std::move(name), TableKind::kHta);
  Column& bound_by = t.add_column("bound_by", ColumnType::kString);
  Column& duration = t.add_column("duration", ColumnType::kFloat, Unit::kPercent);
  for (const auto& [cls, sum] : per_class) {
    bound_by.push_string(cls);
    duration.push_float(total != 0 ? sum / total * 100 : std::numeric_limits<double>::quiet_NaN());
  }
  return t;
}

namespace {

// HTA's s_name: kernel names shortened (templates and arguments dropped), others whole;
// once per distinct name.
class ShortNames {
 public:
  explicit ShortNames(const EventStore& s) : s_(s) {}
  std::string_view of(uint32_t row) {
    if (s_.str(s_.cat[row]) != "kernel") return s_.name_of(row);
    const auto [it, fresh] = cache_.try_emplace(s_.name[row]);
    if (fresh) it->second = cp::shorten_name(s_.name_of(row));
    return it->second;
  }

 private:
  const EventStore& s_;
  std::unordered_map<StrId, std::string> cache_;
};

}  // namespace

Table critical_path_breakdown_table(const HtaTrace& trace, const CriticalPath& path, std::string name) {
  const EventStore& s = trace.store();
  Table t(std::move(name), TableKind::kHta);
  Column& event_idx = t.add_column("event_idx", ColumnType::kInt);
  Column& duration = t.add_column("duration", ColumnType::kFloat, Unit::kMicroseconds);
  Column& type = t.add_column("type", ColumnType::kString);
  Column& s_name = t.add_column("s_name", ColumnType::kString);
  Column& cat = t.add_column("cat", ColumnType::kString);
  Column& pid = t.add_column("pid", ColumnType::kString);
  Column& tid = t.add_column("tid", ColumnType::kString);
  Column& stream = t.add_column("stream", ColumnType::kInt);
  Column& index = t.add_column("index", ColumnType::kInt);
  Column& bound_by = t.add_column("bound_by", ColumnType::kString);
  ShortNames names(s);
  for (const CriticalPathStep& step : path.steps) {
    duration.push_float(step.duration);
    type.push_string(edge_type_name(step.type));
    bound_by.push_string(bound_by_name(step.bound_by));
    if (step.event < 0) {
      for (Column* c : {&event_idx, &s_name, &cat, &pid, &tid, &stream, &index}) c->push_null();
      continue;
    }
    const uint32_t row = static_cast<uint32_t>(step.event);
    event_idx.push_int(row);
    s_name.push_string(names.of(row));
    cat.push_string(s.str(s.cat[row]));
    pid.push_string(s.str(s.pid[row]));
    tid.push_string(s.str(s.tid[row]));
    stream.push_int(step.stream);
    index.push_int(row);
  }
  return t;
}

std::vector<Table> critical_path_tables(const HtaTrace& trace, const HtaOptions& options) {
  std::vector<Table> sheets;
  if (!options.critical_path) return sheets;
  sheets.reserve(4);  // a Table is copied, not moved, when the vector grows
  const cp::CpView view(trace, options);
  cp::CpGraphCache shared;  // the call stacks and launch queues, for both graphs of `view`
  const CriticalPath hta_path = cp::critical_path(view, false, &shared);
  sheets.push_back(critical_path_summary_table(hta_path, "critical_path_summary"));
  sheets.push_back(critical_path_breakdown_table(trace, hta_path, "critical_path_breakdown"));
  // The inferred path's view differs only where there are GPU events on stream 0.
  std::optional<cp::CpView> own_view;
  const cp::CpView& with_stream_zero =
      view.has_stream_zero_gpu_events() ? own_view.emplace(trace, options, true) : view;
  const CriticalPath inferred = cp::critical_path(with_stream_zero, true, &shared);
  sheets.push_back(critical_path_summary_table(inferred, "critical_path_inferred_summary"));
  sheets.push_back(critical_path_breakdown_table(trace, inferred, "critical_path_inferred_breakdown"));
  return sheets;
}

}  // namespace sollens::hta
