#include "analyses/ops/process_names.h"

namespace sollens {

ProcessThreadNames::ProcessThreadNames(const EventStore& s) : store_(s) {
  for (const NameRecord& r : s.names) {
    const std::string_view kind = s.str(r.kind);
    if (kind == "thread_name") {
      thread_name_[key(r.pid, r.tid)] = r.value;
    } else if (s.str(r.tid) == "0") {  // TraceLens reads process entries at tid 0
      if (kind == "process_name") process_name_[r.pid] = r.value;
      else if (kind == "process_labels") process_label_[r.pid] = r.value;
    }
  }
}

std::string_view ProcessThreadNames::process_name(StrId pid) const {
  auto it = process_name_.find(pid);
  return it == process_name_.end() ? "Unknown" : store_.str(it->second);
}

std::string_view ProcessThreadNames::process_label(StrId pid) const {
  auto it = process_label_.find(pid);
  return it == process_label_.end() ? "Unknown" : store_.str(it->second);
}

std::string_view ProcessThreadNames::thread_name(StrId pid, StrId tid) const {
  auto it = thread_name_.find(key(pid, tid));
  return it == thread_name_.end() ? "Unknown" : store_.str(it->second);
}

}  // namespace sollens
