#include "analyses/sol/sol_memory_args.h"

#include <cstdlib>

#include "analyses/perf/perf_model.h"

namespace sollens::sol_memory {

using perf::at;

MemoryWork failed(std::string why) {
  MemoryWork w;
  w.why_not = std::move(why);
  return w;
}

std::optional<double> concrete_number(const PyValue& v) {
  if (v.kind == PyValue::Kind::kInt) return static_cast<double>(v.i);
  if (v.kind == PyValue::Kind::kFloat) return v.f;
  if (v.kind != PyValue::Kind::kStr || v.s.empty()) return std::nullopt;
  char* end = nullptr;
  const double d = std::strtod(v.s.c_str(), &end);
  if (end != v.s.c_str() + v.s.size()) return std::nullopt;
  return d;
}

// "[3, 3]" (or a list) → its ints; a single int → one entry; empty when unreadable.
std::vector<int64_t> concrete_ints(const PyValue& v) {
  if (auto l = int_list(v)) return *l;
  if (auto n = int_value(v)) return {*n};
  std::vector<int64_t> out;
  if (v.kind != PyValue::Kind::kStr) return out;
  const char* p = v.s.c_str();
  while (*p) {
    if ((*p >= '0' && *p <= '9') || *p == '-') {
      char* end = nullptr;
      out.push_back(std::strtoll(p, &end, 10));
      p = end;
    } else {
      ++p;
    }
  }
  return out;
}

// Elements of a recorded tensor (a 0-dim tensor has one); nullopt when not recorded.
std::optional<double> elements(const PyValue& dims) {
  const auto l = int_list(dims);
  if (!l) return std::nullopt;
  return static_cast<double>(perf::prod(*l));
}

// TraceLens's element sizes, and bool (a mask) as the byte it is.
std::optional<int64_t> element_bytes(const PyValue& dtype) {
  if (dtype.kind == PyValue::Kind::kStr && dtype.s == "bool") return 1;
  return perf::bytes_per_element(dtype);
}

std::optional<Tensor> tensor_at(const perf::EventArgs& a, size_t k) {
  const PyValue& type = at(a.types, k);
  if (type.kind == PyValue::Kind::kStr && type.s == "Scalar") return std::nullopt;
  const auto n = elements(at(a.dims, k));
  const auto b = element_bytes(type);
  if (!n || !b || !at(a.dims, k).is_seq()) return std::nullopt;
  return Tensor{*n, *b};
}

// The element size of a tensor list, whose dtype Kineto writes as "TensorList": from the
// kernels' template arguments, CatArrayBatchedCopy<OpaqueType<N>, …> (N bytes) or a
// multi_tensor_apply functor's element type (…Functor<float, …>).
std::optional<int64_t> list_element_size(std::span<const std::string_view> kernel_names) {
  for (std::string_view name : kernel_names) {
    if (const size_t p = name.find("OpaqueType<"); p != std::string_view::npos) {
      const int64_t n = std::atoll(std::string(name.substr(p + 11, 4)).c_str());
      if (n > 0) return n;
    }
    if (const size_t p = name.find("Functor<"); p != std::string_view::npos) {
      const std::string_view rest = name.substr(p + 8);
      const std::string_view type = rest.substr(0, rest.find_first_of(",>"));
      if (const auto b = perf::bytes_per_element(PyValue::str(type))) return b;
    }
  }
  return std::nullopt;
}

// Total elements of each tensor list argument, in order; nullopt when a list's shapes
// were not recorded (the profiler leaves long lists out).
std::optional<std::vector<double>> list_elements(const perf::EventArgs& a) {
  std::vector<double> lists;
  for (size_t k = 0; k < a.types.size(); ++k) {
    const PyValue& t = at(a.types, k);
    if (t.kind != PyValue::Kind::kStr || t.s != "TensorList") continue;
    const PyValue& shapes = at(a.dims, k);
    if (!shapes.is_seq() || shapes.size() == 0) return std::nullopt;
    double n = 0;
    for (const PyValue& shape : shapes.items) {
      const auto e = elements(shape);
      if (!e) return std::nullopt;
      n += *e;
    }
    lists.push_back(n);
  }
  if (lists.empty()) return std::nullopt;
  return lists;
}

namespace {

std::string vector_spec(const PyValue& dtype) {
  perf::ModelResult r;
  r.maf_type = "vector";
  r.precision_dtype = dtype;
  return perf::compute_spec(r);
}

}  // namespace

MemoryWork work(double read, double written, double flops, const PyValue& dtype, std::string rule) {
  MemoryWork w;
  w.ok = true;
  w.bytes = read + written;
  w.flops = flops;
  w.compute_spec = vector_spec(dtype);
  w.rule = std::move(rule);
  return w;
}

}  // namespace sollens::sol_memory
