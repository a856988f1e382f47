#include "analyses/ranks/rank_collectives.h"

#include <array>
#include <string>
#include <unordered_map>

#include "store/raw_args.h"

namespace sollens::ranks {

namespace {

using collectives::CollectiveEvent;
using Kind = PyValue::Kind;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

struct NameRule {
  std::string_view pattern;
  std::string_view collective;
};

std::optional<double> message_mb(const PyValue& nelems, const PyValue& dtype) {
  if (dtype.kind != Kind::kStr || nelems.kind != Kind::kInt) return std::nullopt;
  const std::optional<int> bytes = collectives::dtype_bytes(dtype.s);
  if (!bytes) return std::nullopt;
  return static_cast<double>(nelems.i * *bytes) / (1024.0 * 1024.0);
}

// Output elements from input elements for a collective of `group_size` ranks.
PyValue out_nelems(std::string_view collective, int64_t in, const PyValue& group_size) {
  if (collective == "allgather" || collective == "reducescatter") {
    if (!group_size.is_int() || group_size.i < 1) return PyValue::none();
    return PyValue::integer(collective == "allgather" ? in * group_size.i : in / group_size.i);
  }
  return PyValue::integer(in);
}

class Completer {
 public:
  Completer(const EventStore& store, const TraceTree& tree) : s_(store), tree_(tree), reader_(store) {
    if (store.metadata.distributed && store.metadata.distributed->world_size != kNoValue)
      world_size_ = PyValue::integer(store.metadata.distributed->world_size);
    // User annotations are not in TraceLens's tree: index the nccl:* ones by thread.
    for (size_t i = 0; i < store.size(); ++i)
      if (store.dur[i] > 0 && collective_from_annotation(store.name_of(i)))
        annotations_[thread_of(i)].push_back(static_cast<uint32_t>(i));
  }

  NameSource complete(CollectiveEvent& e) {
    if (!e.fields[collectives::kCollectiveName].is_none()) return NameSource::kTrace;
    const int32_t launch = tree_.parent[e.event];
    for (int32_t up = launch, depth = 0; up != kNoParent && depth < 64; ++depth, up = tree_.parent[up])
      if (s_.name_of(static_cast<size_t>(up)) == "record_param_comms" && from_record_param_comms(static_cast<uint32_t>(up), e))
        return NameSource::kRecordParamComms;
    if (launch != kNoParent)
      if (const auto annotation = enclosing_annotation(static_cast<uint32_t>(launch))) {
        from_annotation(*annotation, *collective_from_annotation(s_.name_of(*annotation)), e);
        return NameSource::kAnnotation;
      }
    if (const auto collective = collective_from_kernel_name(s_.name_of(e.event))) {
      e.fields[collectives::kCollectiveName] = PyValue::str(*collective);
      fill_group_size(e);
      return NameSource::kKernelName;
    }
    return NameSource::kUnknown;
  }

 private:
  uint64_t thread_of(size_t i) const { return uint64_t(s_.pid[i]) << 32 | s_.tid[i]; }

  // The innermost nccl:* annotation around the launch on its thread.
  std::optional<uint32_t> enclosing_annotation(uint32_t launch) const {
    const auto it = annotations_.find(thread_of(launch));
    if (it == annotations_.end()) return std::nullopt;
    std::optional<uint32_t> inner;
    for (uint32_t a : it->second)
      if (s_.ts[a] <= s_.ts[launch] && s_.ts[launch] <= s_.t_end(a) && (!inner || s_.ts[a] >= s_.ts[*inner])) inner = a;
    return inner;
  }

  void fill_group_size(CollectiveEvent& e) {
    if (e.fields[collectives::kGroupSize].is_none()) e.fields[collectives::kGroupSize] = world_size_;
  }

  bool from_record_param_comms(uint32_t op, CollectiveEvent& e) {
    std::array<PyValue, collectives::kFieldCount> values;
    if (!reader_.read(op, collectives::kFieldNames, values) || values[collectives::kCollectiveName].is_none())
      return false;
    for (size_t f = 0; f < collectives::kFieldCount; ++f)
      if (e.fields[f].is_none()) e.fields[f] = values[f].is_seq() ? values[f].as_tuple() : std::move(values[f]);
    fill_group_size(e);
    e.in_msg_mb = message_mb(e.fields[collectives::kInMsgNelems], e.fields[collectives::kDtype]);
    e.out_msg_mb = message_mb(e.fields[collectives::kOutMsgNelems], e.fields[collectives::kDtype]);
    return true;
  }

  void from_annotation(uint32_t annotation, std::string_view collective, CollectiveEvent& e) {
    e.fields[collectives::kCollectiveName] = PyValue::str(collective);
    fill_group_size(e);
    static constexpr std::array<std::string_view, 2> kKeys = {"Input Dims", "Input type"};
    std::array<PyValue, 2> values;
    if (!reader_.read(annotation, kKeys, values)) return;
    const PyValue& dims = values[0];
    const PyValue& types = values[1];
    if (!dims.is_seq() || dims.size() == 0 || !dims[0].is_seq() || !types.is_seq() || types.size() == 0) return;
    if (types[0].kind != Kind::kStr) return;
    const std::optional<std::string_view> dtype = scalar_type_name(types[0].s);
    if (!dtype) return;
    int64_t nelems = 1;
    for (const PyValue& d : dims[0].items) {
      if (!d.is_int()) return;
      nelems *= d.i;
    }
    e.fields[collectives::kDtype] = PyValue::str(*dtype);
    e.fields[collectives::kInMsgNelems] = PyValue::integer(nelems);
    e.fields[collectives::kOutMsgNelems] = out_nelems(collective, nelems, e.fields[collectives::kGroupSize]);
    e.in_msg_mb = message_mb(e.fields[collectives::kInMsgNelems], e.fields[collectives::kDtype]);
    e.out_msg_mb = message_mb(e.fields[collectives::kOutMsgNelems], e.fields[collectives::kDtype]);
  }

  const EventStore& s_;
  const TraceTree& tree_;
  ArgsReader reader_;
  PyValue world_size_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> annotations_;
};

}  // namespace

std::string_view name_source_text(NameSource source) {
  switch (source) {
    case NameSource::kTrace: return "kernel args";
    case NameSource::kRecordParamComms: return "record_param_comms";
    case NameSource::kAnnotation: return "nccl annotation";
    case NameSource::kKernelName: return "kernel name";
    case NameSource::kUnknown: return "";
  }
  return "";
}

std::optional<std::string_view> collective_from_annotation(std::string_view annotation) {
  // The annotations c10d's ProcessGroupNCCL writes around each collective.
  static constexpr NameRule kRules[] = {
      {"nccl:all_reduce", "allreduce"},     {"nccl:all_reduce_coalesced", "allreduce_coalesced"},
      {"nccl:all_gather", "allgather"},     {"nccl:_all_gather_base", "_allgather_base"},
      {"nccl:reduce_scatter", "reducescatter"}, {"nccl:_reduce_scatter_base", "_reduce_scatter_base"},
      {"nccl:all_to_all", "all_to_all"},    {"nccl:all_to_allv", "all_to_allv"},
      {"nccl:broadcast", "broadcast"},      {"nccl:reduce", "reduce"},
      {"nccl:send", "send"},                {"nccl:recv", "recv"},
      {"nccl:barrier", "barrier"},
  };
  for (const NameRule& r : kRules)
    if (annotation == r.pattern) return r.collective;
  return std::nullopt;
}

std::optional<std::string_view> collective_from_kernel_name(std::string_view kernel) {
  std::string_view rest;
  if (starts_with(kernel, "ncclKernel_")) rest = kernel.substr(11);
  else if (starts_with(kernel, "ncclDevKernel_")) rest = kernel.substr(14);
  else return std::nullopt;
  static constexpr NameRule kRules[] = {
      {"AllReduce", "allreduce"}, {"AllGather", "allgather"}, {"ReduceScatter", "reducescatter"},
      {"Broadcast", "broadcast"}, {"Reduce", "reduce"},       {"SendRecv", "send_recv"},
      {"AllToAll", "all_to_all"},
  };
  for (const NameRule& r : kRules)
    if (starts_with(rest, r.pattern)) return r.collective;
  return std::nullopt;
}

std::optional<std::string_view> scalar_type_name(std::string_view input_type) {
  static constexpr NameRule kTypes[] = {
      {"float", "Float"},         {"double", "Double"},     {"c10::Half", "Half"},
      {"c10::BFloat16", "BFloat16"}, {"long int", "Long"},  {"long", "Long"},
      {"int", "Int"},             {"short int", "Short"},   {"short", "Short"},
      {"bool", "Bool"},           {"unsigned char", "Byte"}, {"signed char", "Char"},
  };
  for (const NameRule& t : kTypes)
    if (input_type == t.pattern) return t.collective;
  return std::nullopt;
}

std::vector<RankCollective> rank_collectives(const EventStore& store, const TraceTree& tree) {
  std::vector<RankCollective> out;
  Completer completer(store, tree);
  for (CollectiveEvent& e : collectives::extract_collective_events(store)) {
    RankCollective r;
    r.source = completer.complete(e);
    r.event = std::move(e);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace sollens::ranks
