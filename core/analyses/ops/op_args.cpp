#include "analyses/ops/op_args.h"

#include <array>

namespace sollens {

OpArgsReader::OpArgsReader(const EventStore& store)
    : store_(store), index_(store, {"Input Dims", "Input type", "Input Strides", "Concrete Inputs"}) {}

OpArgs OpArgsReader::read(uint32_t event) {
  if (event >= store_.size()) return {};
  const uint32_t id = index_.intern(event);
  if (id == rendered_.size()) {
    std::array<PyValue, 4> values;
    index_.read(event, values);
    rendered_.push_back(
        {tuple_cell(values[0]), tuple_cell(values[1]), tuple_cell(values[2]), tuple_cell(values[3])});
  }
  return rendered_[id];
}

OpArgs OpArgsLookup::operator()(uint32_t event) {
  if (source_) return source_(event);
  if (!reader_) reader_.emplace(store_);
  return reader_->read(event);
}

}  // namespace sollens
