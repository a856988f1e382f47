#include "api/events.h"

#include <cmath>
#include <simdjson.h>

namespace sollens {

int64_t Event::duration_ns() const { return std::llround(store_->dur[row_] * 1000.0); }

DeviceType Event::device_type() const {
  return is_gpu_activity(store_->category[row_]) ? DeviceType::kGpu : DeviceType::kCpu;
}

int64_t Event::device_index() const {
  const int64_t d = store_->device[row_];
  return device_type() == DeviceType::kGpu && d != kNoValue ? d : -1;
}

int64_t Event::correlation_id() const {
  const int64_t c = store_->correlation[row_];
  return c == kNoValue ? 0 : c;
}

std::vector<std::vector<int64_t>> Event::input_shapes() const {
  std::vector<std::vector<int64_t>> shapes;
  if (!store_->has_args(row_)) return shapes;
  simdjson::dom::parser parser;
  simdjson::dom::array inputs;
  const std::string_view args = store_->args_json(row_);
  if (parser.parse(args.data(), args.size()).at_key("Input Dims").get(inputs)) return shapes;
  for (simdjson::dom::element input : inputs) {
    std::vector<int64_t>& sizes = shapes.emplace_back();
    simdjson::dom::array dims;
    if (input.get(dims)) continue;  // a scalar or None input has no shape
    for (simdjson::dom::element d : dims) {
      int64_t v = 0;
      if (!d.get(v)) sizes.push_back(v);
    }
  }
  return shapes;
}

std::vector<std::string_view> Event::stack() const {
  std::vector<std::string_view> frames;
  for (auto p = parent(); p; p = p->parent())
    if (store_->category[p->row()] == Category::kPythonFunction) frames.push_back(p->name());
  return frames;
}

std::optional<Event> Event::parent() const {
  const int32_t p = tree_->parent[row_];
  if (p == kNoParent) return std::nullopt;
  return Event(*store_, *tree_, static_cast<uint32_t>(p));
}

std::vector<Event> Event::children() const {
  std::vector<Event> out;
  for (uint32_t c : tree_->children(row_)) out.emplace_back(*store_, *tree_, c);
  return out;
}

EventView::EventView(const EventStore& store, const TraceTree& tree) : store_(&store), tree_(&tree) {
  for (uint32_t i = 0; i < store.size(); ++i)
    if (store.phase[i] == Phase::kComplete) rows_.push_back(i);
}

std::vector<Event> EventView::roots() const {
  std::vector<Event> out;
  for (uint32_t row : rows_)
    if (tree_->in_tree[row] && tree_->parent[row] == kNoParent) out.emplace_back(*store_, *tree_, row);
  return out;
}

}  // namespace sollens
