#include "analyses/perf/args_cache.h"

namespace sollens::perf {

ArgsCache::ArgsCache(const EventStore& store)
    : store_(store), index_(store, {"Input Dims", "Input type", "Input Strides", "Concrete Inputs", "Output type", "MoE topk",
                                   "MoE GEMM gated"}) {}

uint32_t ArgsCache::intern(uint32_t event) {
  if (event_ids_.empty()) event_ids_.assign(store_.size(), -1);
  if (event_ids_[event] >= 0) return static_cast<uint32_t>(event_ids_[event]);
  const uint32_t id = index_.intern(event);
  event_ids_[event] = static_cast<int32_t>(id);
  if (id < entries_.size()) return id;
  ArgsEntry& e = entries_.emplace_back();
  std::array<PyValue, 7> values;
  index_.read(event, values);
  e.args = {std::move(values[0]), std::move(values[1]), std::move(values[2]), std::move(values[3]),
            std::move(values[4]), std::move(values[5]), std::move(values[6])};
  const PyValue* fields[] = {&e.args.dims, &e.args.types, &e.args.strides, &e.args.concrete};
  std::string display;
  for (size_t k = 0; k < 4; ++k) {
    e.tuple_text[k] = tuple_cell(*fields[k]);
    if (e.tuple_text[k]) {
      e.list_text[k] = repr(*fields[k]);
      display += *e.tuple_text[k];
    } else {
      display += "\x01None";  // not a printed value
    }
    display += '\x1f';
  }
  e.display_id = display_index_.try_emplace(std::move(display), static_cast<uint32_t>(display_index_.size()))
                     .first->second;
  return id;
}

}  // namespace sollens::perf
