#include "analyses/sol/sol_foreach_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "analyses/perf/perf_model.h"
#include "store/raw_args.h"

namespace sollens {

using perf::at;
using namespace sol_memory;

namespace {

// Elements one block of PyTorch's multi_tensor_apply kernels takes of one tensor.
constexpr double kForeachChunk = 65536;
constexpr const char* kListsNotRecorded = "_foreach: tensor list shapes not recorded (the profiler leaves long lists out)";

bool in_place(std::string_view name) { return !name.empty() && name.back() == '_'; }

MemoryWork foreach_from_lists(std::string_view name, const std::vector<double>& lists, int64_t b) {
  const double bpe = static_cast<double>(b), first = lists[0] * bpe;
  double others = 0;
  for (size_t i = 1; i < lists.size(); ++i) others += lists[i] * bpe;
  if (name == "aten::_foreach_zero_" || name == "aten::_foreach_copy_")
    return work(others, first, 0, PyValue(), "writes every tensor of the first list, reads the other lists");
  if (in_place(name))
    return work(first + others, first, lists[0], PyValue(),
                "in place: reads and writes every tensor of the first list, reads the other lists");
  return work(first + others, first, lists[0], PyValue(), "reads every list, writes a new list of the first's sizes");
}

// The fused optimizers (native_functions.yaml): lists params, grads, then state; one
// kernel reads every list and writes params and the state lists. `optional_list` is
// used only when the Concrete Inputs flag at `flag` says so (AdamW's max_exp_avg_sqs
// with amsgrad, SGD's momentum buffers with a momentum); `steps_list` holds one fp32
// step per tensor (-1: none).
struct FusedOptimizer {
  std::string_view name;
  std::vector<size_t> written;
  size_t optional_list, flag;
  int steps_list;
};
const FusedOptimizer kFused[] = {
    {"aten::_fused_adam_", {0, 2, 3, 4}, 4, 11, 5},
    {"aten::_fused_adamw_", {0, 2, 3, 4}, 4, 11, 5},
    {"aten::_fused_sgd_", {0, 2}, 2, 4, -1},
};
const FusedOptimizer* fused_optimizer(std::string_view name) {
  for (const FusedOptimizer& f : kFused)
    if (f.name == name) return &f;
  return nullptr;
}

// Elements of each list (an empty one: 0); nullopt when the first was not recorded.
std::optional<std::vector<double>> fused_list_elements(const perf::EventArgs& a) {
  std::vector<double> lists;
  for (size_t k = 0; k < a.types.size(); ++k) {
    const PyValue& t = at(a.types, k);
    if (t.kind != PyValue::Kind::kStr || t.s != "TensorList") continue;
    double n = 0;
    for (const PyValue& shape : at(a.dims, k).items) n += elements(shape).value_or(0);
    lists.push_back(n);
  }
  if (lists.empty() || lists[0] == 0) return std::nullopt;
  return lists;
}

MemoryWork fused_from_lists(const FusedOptimizer& f, const std::vector<double>& lists, int64_t b) {
  constexpr double kStepBytes = 4;
  double read = 0, written = 0;
  for (size_t i = 0; i < lists.size(); ++i)
    read += lists[i] * (static_cast<int>(i) == f.steps_list ? kStepBytes : static_cast<double>(b));
  for (size_t i : f.written)
    if (i < lists.size()) written += lists[i] * static_cast<double>(b);
  return work(read, written, lists[0], PyValue(),
              "fused optimizer: reads every list, writes the parameters and the state lists");
}

// A flag of the Concrete Inputs: true, or a non-zero number (SGD's momentum).
bool flag_set(const PyValue& v) {
  if (v.kind != PyValue::Kind::kStr) return false;
  if (v.s == "True" || v.s == "true") return true;
  const auto n = concrete_number(v);
  return n && *n != 0;
}

}  // namespace

MemoryWork foreach_work(std::string_view name, const perf::EventArgs& a, std::span<const std::string_view> kernels) {
  if (const FusedOptimizer* f = fused_optimizer(name)) {
    const auto lists = fused_list_elements(a);
    if (!lists) return failed(kListsNotRecorded);
    const auto b = list_element_size(kernels);
    if (!b) return failed("_foreach: element size not found (tensor list dtype not recorded)");
    return fused_from_lists(*f, *lists, *b);
  }
  const auto lists = list_elements(a);
  if (!lists) return failed(kListsNotRecorded);
  const auto b = list_element_size(kernels);
  if (!b) return failed("_foreach: element size not found (tensor list dtype not recorded)");
  return foreach_from_lists(name, *lists, *b);
}

// Reductions over each list write one value per tensor, not a list: not this model's.
bool is_foreach_list_op(std::string_view name) {
  if (fused_optimizer(name)) return true;
  constexpr std::string_view kPrefix = "aten::_foreach_";
  if (name.substr(0, kPrefix.size()) != kPrefix) return false;
  return name.find("norm") == std::string_view::npos && name.find("max") == std::string_view::npos;
}

bool lists_not_recorded(const MemoryWork& w) { return !w.ok && w.why_not == kListsNotRecorded; }

struct OptimizerParams::Index {
  struct Step {
    double ts, end;
  };
  std::vector<Step> steps;                               // Optimizer.step annotations, by ts
  std::vector<std::pair<double, ParamTensor>> gradients;  // AccumulateGrad inputs, by ts
  std::unique_ptr<ArgsReader> reader;
};

OptimizerParams::OptimizerParams(const EventStore& store, const ModeledOps& modeled)
    : store_(store), modeled_(modeled) {}
OptimizerParams::~OptimizerParams() = default;

OptimizerParams::Index& OptimizerParams::index() {
  if (!index_) {
    index_ = std::make_unique<Index>();
    for (uint32_t e = 0; e < store_.size(); ++e) {
      const std::string_view name = store_.name_of(e);
      if (store_.category[e] == Category::kUserAnnotation && name.starts_with("Optimizer.step#")) {
        index_->steps.push_back({store_.ts[e], store_.t_end(e)});
      } else if (store_.category[e] == Category::kCpuOp && name == "torch::autograd::AccumulateGrad") {
        const perf::EventArgs& a = modeled_.args[modeled_.args.intern(e)].args;
        const auto n = elements(at(a.dims, 0));
        const auto b = perf::bytes_per_element(at(a.types, 0));
        if (n && b) index_->gradients.push_back({store_.ts[e], {*n, *b}});
      }
    }
    std::sort(index_->steps.begin(), index_->steps.end(), [](const auto& x, const auto& y) { return x.ts < y.ts; });
    std::sort(index_->gradients.begin(), index_->gradients.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    index_->reader = std::make_unique<ArgsReader>(store_);
  }
  return *index_;
}

std::vector<ParamTensor> OptimizerParams::of(uint32_t event) {
  const Index& idx = index();
  const double t = store_.ts[event];
  const auto& steps = idx.steps;
  auto step = std::upper_bound(steps.begin(), steps.end(), t, [](double v, const Index::Step& x) { return v < x.ts; });
  if (step == steps.begin() || std::prev(step)->end < t) return {};
  --step;
  const double from = step == steps.begin() ? -1e300 : std::prev(step)->end;
  std::vector<ParamTensor> out;
  for (const auto& [ts, tensor] : idx.gradients)
    if (ts > from && ts < step->ts) out.push_back(tensor);
  return out;
}

int64_t OptimizerParams::grid_x(uint32_t gpu_event) {
  ArgsReader& reader = *index().reader;
  constexpr std::string_view key = "grid";
  std::string_view raw;
  if (!store_.has_args(gpu_event) || !reader.find_raw(gpu_event, std::span(&key, 1), std::span(&raw, 1)))
    return 0;
  const size_t open = raw.find('[');
  if (open == std::string_view::npos) return 0;
  return std::atoll(std::string(raw.substr(open + 1, 20)).c_str());
}

MemoryWork foreach_work_from_params(std::string_view name, const perf::EventArgs& args,
                                    const std::vector<ParamTensor>& params, int64_t blocks,
                                    std::span<const std::string_view> kernel_names) {
  if (params.empty()) return failed(kListsNotRecorded);
  for (std::string_view k : kernel_names)
    if (k.find("multi_tensor_apply_kernel") == std::string_view::npos)
      return failed(std::string(kListsNotRecorded) + "; its kernels are not multi_tensor_apply ones");
  double chunks = 0, total = 0;
  for (const ParamTensor& p : params) {
    chunks += std::ceil(p.elements / kForeachChunk);
    total += p.elements;
  }
  if (chunks != static_cast<double>(blocks))
    return failed(std::string(kListsNotRecorded) + "; the step's " + std::to_string(params.size()) +
                  " gradients do not fill its kernels' blocks");
  size_t lists = 0;
  for (const PyValue& t : args.types.items) lists += t.kind == PyValue::Kind::kStr && t.s == "TensorList";
  if (lists == 0) return failed(kListsNotRecorded);
  const int64_t b = list_element_size(kernel_names).value_or(params[0].bytes_per_element);
  MemoryWork w;
  if (const FusedOptimizer* f = fused_optimizer(name)) {
    std::vector<double> sizes(lists, total);
    if (f->optional_list < lists && !flag_set(at(args.concrete, f->flag))) sizes[f->optional_list] = 0;
    if (f->steps_list >= 0 && static_cast<size_t>(f->steps_list) < lists)
      sizes[static_cast<size_t>(f->steps_list)] = static_cast<double>(params.size());
    w = fused_from_lists(*f, sizes, b);
  } else {
    w = foreach_from_lists(name, std::vector<double>(lists, total), b);
  }
  w.rule += "; lists not recorded: each taken as the " + std::to_string(params.size()) +
            " parameters whose gradients the step accumulated (they fill its kernels' blocks exactly)";
  return w;
}

}  // namespace sollens
