#include "analyses/perf/perf_model.h"

#include <algorithm>
#include <cctype>

namespace sollens::perf {

namespace {
std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

std::optional<int64_t> bytes_per_element(const PyValue& dtype) {
  if (dtype.kind != PyValue::Kind::kStr) return std::nullopt;
  const std::string d = lower(dtype.s);
  if (d == "double" || d == "long int") return 8;
  if (d == "float" || d == "scalar" || d == "int") return 4;
  if (d == "c10::half" || d == "c10::bfloat16") return 2;
  if (d == "c10::float8_e4m3fnuz" || d == "c10::float8_e4m3fn" || d == "c10::float8_e5m2" ||
      d == "c10::float8_e8m0fnu" || d == "unsigned char" || d == "signed char" || d == "fp8" ||
      d == "c10::float4_e2m1fn_x2" || d == "fp4")
    return 1;
  return std::nullopt;
}

std::string compute_spec(const ModelResult& r) {
  if (r.precision) return r.maf_type.empty() || r.precision->empty() ? "" : std::string(r.maf_type) + "_" + *r.precision;
  if (r.maf_type.empty() || r.precision_dtype.kind != PyValue::Kind::kStr) return "";
  const std::string d = lower(r.precision_dtype.s);
  const char* p = nullptr;
  if (d == "float") p = "fp32";
  else if (d == "double") p = "fp64";
  else if (d == "c10::half") p = "fp16";
  else if (d == "c10::bfloat16") p = "bf16";
  else if (d == "c10::float8_e4m3fnuz" || d == "c10::float8_e4m3fn" || d == "unsigned char" || d == "fp8") p = "fp8";
  else if (d == "fp4" || d == "mxfp4" || d == "c10::float4_e2m1fn_x2") p = "fp4";
  if (!p) return "";
  return std::string(r.maf_type) + "_" + p;
}

int64_t prod(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

}  // namespace sollens::perf
