#include "analyses/solar/solar_intermediates.h"

#include <map>
#include <utility>

namespace sollens::solar {
namespace {

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

// The producer's write a read links to: the same tensor, else the same storage (a
// view of it), else the producer's first intermediate write.
int32_t write_slot(const ExecutionGraph& graph, const SolarNode& producer, const EtTensor& read) {
  int32_t same_storage = -1, first = -1;
  for (size_t w = 0; w < producer.writes.size(); ++w) {
    const Access& a = producer.writes[w];
    if (!a.consumed || a.state) continue;
    const EtTensor& t = graph.tensors[a.tensor];
    if (t.id == read.id && t.storage == read.storage) return static_cast<int32_t>(w);
    if (same_storage < 0 && t.storage == read.storage) same_storage = static_cast<int32_t>(w);
    if (first < 0) first = static_cast<int32_t>(w);
  }
  return same_storage >= 0 ? same_storage : first;
}

struct Row {
  size_t reads = 0;
  double read_bytes = 0;
};

}  // namespace

Table intermediates_table(const ExecutionGraph& graph, const SolarGraph& solar) {
  std::map<std::pair<size_t, int32_t>, Row> reads;  // (producer node, write slot)
  for (const SolarNode& s : solar.nodes)
    for (const Access& a : s.reads) {
      if (a.weight || a.state || a.producer < 0) continue;
      const SolarNode& producer = solar.nodes[static_cast<size_t>(a.producer)];
      Row& r = reads[{static_cast<size_t>(a.producer), write_slot(graph, producer, graph.tensors[a.tensor])}];
      ++r.reads;
      r.read_bytes += a.bytes;
    }

  Table t("solar_intermediates", TableKind::kSpeedOfLight);
  auto& et_id = t.add_column("producer_et_id", ColumnType::kInt);
  auto& producer = t.add_column("producer", ColumnType::kString);
  auto& tensor_id = t.add_column("tensor_id", ColumnType::kInt);
  auto& shape = t.add_column("shape", ColumnType::kString);
  auto& dtype = t.add_column("dtype", ColumnType::kString);
  auto& elements = t.add_column("elements", ColumnType::kFloat);
  auto& write_bytes = t.add_column("write_bytes", ColumnType::kFloat);
  auto& read_count = t.add_column("reads", ColumnType::kInt);
  auto& read_bytes = t.add_column("read_bytes", ColumnType::kFloat);
  auto& removed = t.add_column("bytes_removed", ColumnType::kFloat);
  for (size_t p = 0; p < solar.nodes.size(); ++p) {
    const SolarNode& s = solar.nodes[p];
    for (size_t w = 0; w < s.writes.size(); ++w) {
      const Access& a = s.writes[w];
      if (!a.consumed || a.state) continue;
      const EtTensor& tensor = graph.tensors[a.tensor];
      const auto it = reads.find({p, static_cast<int32_t>(w)});
      const Row r = it == reads.end() ? Row{} : it->second;
      et_id.push_int(graph.nodes[s.node].id);
      producer.push_string(graph.nodes[s.node].name);
      tensor_id.push_int(tensor.id);
      shape.push_string(shape_text(tensor.shape));
      dtype.push_string(tensor.dtype);
      elements.push_float(a.elements);
      write_bytes.push_float(a.bytes);
      read_count.push_int(static_cast<int64_t>(r.reads));
      read_bytes.push_float(r.read_bytes);
      removed.push_float(a.bytes + r.read_bytes);
    }
  }
  return t;
}

}  // namespace sollens::solar
