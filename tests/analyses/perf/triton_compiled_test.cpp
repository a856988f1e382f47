// torch.compile Triton kernel ops: the fused ATen ops read from the kernel name over the
// ATen operator registry, the sizes from the integer Concrete Inputs. Every expected
// split and number is worked out by hand in the comments (FLOPs per element: add, mul,
// mean 1, pow, rsqrt 2, silu 4, any op outside TraceLens's table 0).
#include <catch2/catch.hpp>

#include "analyses/perf/triton_fused_ops.h"
#include "support/golden_report.h"
#include "support/perf_model_cases.h"
#include "support/table_column.h"

using namespace sollens;
using namespace sollens::perf;
using namespace sollens::test;

namespace {

ModelResult run(const char* op, const EventArgs& args) { return evaluate_op(op, args); }

std::string joined(const std::vector<std::string_view>& ops) {
  std::string s;
  for (std::string_view op : ops) s += (s.empty() ? "" : ",") + std::string(op);
  return s;
}

}  // namespace

TEST_CASE("Triton fused ops: the name split into ATen operator names", "[perf]") {
  // "_unsafe_view" is one name (leading '_' after the "fused_" separator).
  CHECK(joined(fused_aten_ops("triton_poi_fused__unsafe_view_mul_silu_2")) == "_unsafe_view,mul,silu");
  // native_layer_norm is one registry name; "native" alone is none, so no other split.
  CHECK(joined(fused_aten_ops("triton_poi_fused_add_mul_native_layer_norm_0")) == "add,mul,native_layer_norm");
  // "index_add_mul": {index_add, mul} (2 names) beats {index, add, mul} (3 names).
  CHECK(joined(fused_aten_ops("triton_poi_fused_index_add_mul_1")) == "index_add,mul");
  // "ge__conj": {ge_, conj} and {ge, _conj} are both 2 names: the longer first name wins.
  CHECK(joined(fused_aten_ops("triton_poi_fused_ge__conj_0")) == "ge_,conj");
  // "cat" is an ATen operator: kept (0 FLOPs).
  CHECK(joined(fused_aten_ops("triton_poi_fused__unsafe_view_cat_mul_silu_12")) == "_unsafe_view,cat,mul,silu");
  // A prims op is a registry name too.
  CHECK(joined(fused_aten_ops("triton_poi_fused__to_copy_convert_element_type_4")) == "_to_copy,convert_element_type");
  // "my_op" (no operator of PyTorch's) is in no split: TraceLens's fallback keeps the
  // FLOPs-table names from the left ("add", "mul") and skips the other words one by one.
  CHECK(joined(fused_aten_ops("triton_poi_fused_add_my_op_mul_3")) == "add,mul");
  CHECK(fused_aten_ops("some_other_kernel").empty());
  CHECK(fused_aten_ops("triton_poi_fused_add").empty());  // no trailing "_<digits>"
  CHECK(fused_op_flops_per_element("rsqrt") == 2);
  CHECK(fused_op_flops_per_element("native_layer_norm") == 0);
}

TEST_CASE("torch.compile Triton ops: fused ops from the name, sizes from Concrete Inputs", "[perf]") {
  // A reduction: xnumel, rnumel = the last two integers (32768, 2048); ops add 1, mean 1,
  // mul 1, pow 2, rsqrt 2 = 7 FLOPs per element: 7·32768·2048 = 469762048;
  // bytes = (8·4096·2048 = 67108864)·2 twice + 2048·2 = 268439552 (no output term).
  EventArgs a;
  a.dims = lit("[[8, 4096, 2048], [2048], [8, 4096, 2048], [], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']");
  a.concrete = lit("['', '', '', '32768', '2048']");
  const ModelResult red = run("triton_red_fused_add_mean_mul_pow_rsqrt_0", a);
  REQUIRE(red.status == perf::Status::kOk);
  CHECK(params_repr(red) ==
        "fused_ops='aten.add, aten.mean, aten.mul, aten.pow, aten.rsqrt';xnumel=32768;rnumel=2048;");
  CHECK(red.fwd.flops == Count::real(469762048.0));
  CHECK(red.fwd.bytes == Count::real(268439552.0));
  CHECK(compute_spec(red) == "vector_bfloat16");
  // An epsilon among the Concrete Inputs is skipped: the same sizes.
  a.concrete = lit("['', '', '1e-06', '32768', '2048']");
  const ModelResult eps = run("triton_red_fused_add_mean_mul_pow_rsqrt_0", a);
  REQUIRE(eps.status == perf::Status::kOk);
  CHECK(params_repr(eps) == params_repr(red));
  // Pointwise: xnumel = the last integer (1024); _unsafe_view 0 + cat 0 + mul 1 + silu 4
  // = 5 FLOPs per element: 5120; bytes = (1024 + 1024)·2 + 2·1024 (the output, first
  // tensor's bpe) = 6144.
  a.dims = lit("[[1024], [1024], []]");
  a.types = lit("['c10::BFloat16', 'c10::BFloat16', 'Scalar']");
  a.concrete = lit("['', '', '1024']");
  const ModelResult poi = run("triton_poi_fused__unsafe_view_cat_mul_silu_12", a);
  REQUIRE(poi.status == perf::Status::kOk);
  CHECK(repr(*poi.find_param("fused_ops")) == "'aten._unsafe_view, aten.cat, aten.mul, aten.silu'");
  CHECK(poi.fwd.flops == Count::real(5120.0));
  CHECK(poi.fwd.bytes == Count::real(6144.0));
  // Tensors typed 'int' / 'long int' (not c10:: spellings) count 0 bytes and give no precision.
  a.dims = lit("[[888], [888], []]");
  a.types = lit("['int', 'long int', 'Scalar']");
  a.concrete = lit("['', '', '888']");
  const ModelResult ints = run("triton_poi_fused_add_lt_0", a);
  REQUIRE(ints.status == perf::Status::kOk);
  CHECK(ints.fwd.flops == Count::real(2.0 * 888));
  CHECK(ints.fwd.bytes == Count::real(0.0));
  CHECK(compute_spec(ints) == "");
  CHECK(perf_sheet_name(*find_perf_model("triton_poi_fused_add_lt_0"), false) == "");
  // No integer at all: nothing to read.
  a.concrete = lit("['', '', '0.5']");
  CHECK(run("triton_poi_fused_add_lt_0", a).status == perf::Status::kNotImplemented);
  // Without Concrete Inputs there is nothing to read.
  a.concrete = PyValue::none();
  CHECK(run("triton_poi_fused_add_lt_0", a).status == perf::Status::kNotImplemented);
}

TEST_CASE("Triton ops in unified_perf_summary: an epsilon and an ambiguous name (synthetic trace)", "[perf]") {
  const GoldenReport r = report_of(fs::path(SOLLENS_FIXTURES_DIR) / "synthetic" / "triton_fused_kernels.json");
  REQUIRE(r.loaded);
  const Table* unified = r.sheet("unified_perf_summary");
  REQUIRE(unified != nullptr);
  REQUIRE(unified->num_rows() == 2);
  // Rows by kernel time, longest first: the layer norm (8 µs), then index_add_mul (2 µs).
  const Column& name = col(*unified, "name");
  const Column& params = col(*unified, "perf_params");
  const Column& gflops = col(*unified, "GFLOPS");
  const Column& mb = col(*unified, "Data Moved (MB)");
  // triton_per_fused_add_native_layer_norm_0, Concrete Inputs ('', '', '', '', '1e-05',
  // '4096', '768'): the epsilon is skipped, xnumel 4096, rnumel 768. FLOPs: add 1 +
  // native_layer_norm 0 = 1 per element: 4096·768 = 3145728 → 0.003145728 GFLOPS.
  // Bytes (a reduction: no output term): (4096·768·2)·2 + 768·2·2 = 12582912 + 3072
  // = 12585984 → 12585984 / 2^20 = 12.0029296875 MB.
  CHECK(name.string_at(0) == "triton_per_fused_add_native_layer_norm_0");
  CHECK(params.string_at(0) ==
        "{'fused_ops': 'aten.add, aten.native_layer_norm', 'xnumel': 4096, 'rnumel': 768}");
  CHECK(gflops.float_at(0) == Approx(0.003145728));
  CHECK(mb.float_at(0) == Approx(12.0029296875));
  // triton_poi_fused_index_add_mul_1: {index_add, mul} (2 names, not index, add, mul);
  // FLOPs 0 + 1 per element: 1024 → 1.024e-06 GFLOPS; bytes (1024 + 1024)·2 + 2·1024
  // = 6144 → 0.005859375 MB.
  CHECK(name.string_at(1) == "triton_poi_fused_index_add_mul_1");
  CHECK(params.string_at(1) == "{'fused_ops': 'aten.index_add, aten.mul', 'xnumel': 1024, 'rnumel': 1}");
  CHECK(gflops.float_at(1) == Approx(1.024e-06));
  CHECK(mb.float_at(1) == Approx(0.005859375));
}
