#include <catch2/catch.hpp>

#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/op_categories.h"
#include "analyses/ops/trace_builder.h"
#include "ingest/trace_reader.h"

using namespace sollens;

namespace {

struct Loaded {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
};

Loaded load(const std::string& json, TreeOptions options = {}) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  Loaded l{std::move(r.value()), {}};
  l.tree = TraceTree::build(*l.store, options);
  return l;
}

std::vector<std::string> launcher_names(const Loaded& l, const LauncherTable& t) {
  std::vector<std::string> out;
  for (const auto& x : t.launchers) out.emplace_back(l.store->name_of(x.event));
  return out;
}

}  // namespace

TEST_CASE("launchers: first cpu_op above the launch, past execute and python frames") {
  test::TraceBuilder b;
  b.cpu_op("conv_bn_fused", 10, 50)
      .cpu_op("execute", 12, 20)
      .launch(14, "k_exec", 100, 5)
      .python("model.py(3): forward", 40, 15)
      .launch(42, "k_py", 110, 5);
  for (bool include_python : {false, true}) {
    INFO("include_python " << include_python);
    TreeOptions o;
    o.include_python = include_python;
    const Loaded l = load(b.json(), o);
    const LauncherTable t = find_kernel_launchers(*l.store, l.tree);
    REQUIRE(launcher_names(l, t) == std::vector<std::string>{"conv_bn_fused"});
    CHECK(t.launchers[0].kernels.size() == 2);
    CHECK(t.launchers[0].direct_time_us == Approx(10));
    CHECK(t.launchers[0].subtree_time_us == Approx(10));
  }
}

TEST_CASE("launchers: a launch with no cpu_op above is its own launcher; NCCL kernels excluded") {
  test::TraceBuilder b;
  b.launch(5, "orphan_kernel", 100, 4, "kernel", 7, "cuLaunchKernelEx")
      .cpu_op("record_param_comms", 10, 10)
      .launch(12, "ncclDevKernel_AllReduce_Sum", 110, 20)
      .cpu_op("c10d::allreduce_", 30, 10)
      .launch(32, "RCCL_kernel_x", 140, 5)
      .launch(34, "cross_device_reduce_1stage", 150, 5)
      .cpu_op("aten::add", 50, 10)
      .launch(52, "add_kernel", 160, 3, "kernel")
      .launch(54, "Memcpy DtoD", 170, 2, "gpu_memcpy");
  const Loaded l = load(b.json());
  const LauncherTable t = find_kernel_launchers(*l.store, l.tree);
  CHECK(launcher_names(l, t) == std::vector<std::string>{"cuLaunchKernelEx", "aten::add"});
  CHECK(t.launchers[1].kernels.size() == 2);  // memcpy counts as a GPU event of its op
  CHECK(t.launchers[1].direct_time_us == Approx(5));
}

TEST_CASE("launchers: direct time is a union, subtree time covers nested launchers and NCCL") {
  test::TraceBuilder b;
  b.cpu_op("aten::linear", 10, 40)
      .launch(11, "k1", 100, 10)
      .launch(12, "k2", 105, 10)  // overlaps k1: union 100-115
      .cpu_op("aten::addmm", 20, 10)
      .launch(22, "gemm", 200, 7)
      .launch(30, "ncclKernel_x", 300, 4);
  const Loaded l = load(b.json());
  const LauncherTable t = find_kernel_launchers(*l.store, l.tree);
  REQUIRE(launcher_names(l, t) == std::vector<std::string>{"aten::linear", "aten::addmm"});
  CHECK(t.launchers[0].direct_time_us == Approx(15));
  CHECK(t.launchers[0].subtree_time_us == Approx(15 + 7 + 4));
  CHECK(t.launchers[1].direct_time_us == Approx(7));
  CHECK(t.launchers[1].category == "GEMM");
}

TEST_CASE("categories: registry, name patterns, then the first kernel's name") {
  CHECK(categorize_op("aten::mm", std::nullopt) == "GEMM");
  CHECK(categorize_op("aten::_scaled_dot_product_flash_attention", std::nullopt) == "SDPA_fwd");
  CHECK(categorize_op("aten::native_layer_norm", std::nullopt) == "NORM_fwd");
  CHECK(categorize_op("aten::add", std::nullopt) == "elementwise");
  CHECK(categorize_op("aten::sum", std::nullopt) == "reduce");
  CHECK(categorize_op("aten::cudnn_convolution", std::nullopt) == "CONV_fwd");
  // Category-only entries win over the model map.
  CHECK(categorize_op("aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", std::nullopt) == "MoE_aux");
  CHECK(find_op_registry_entry("aiter::fused_dynamic_mxfp4_quant_moe_sort_hip")->has_perf_model);
  CHECK(!find_op_registry_entry("FlashAttnFuncBackward")->has_perf_model);
  CHECK(categorize_op("triton_poi_fused_add_0", std::nullopt) == "triton");
  CHECK(categorize_op("record_param_comms", std::nullopt) == "record_param_comms");
  // Not in the map: other, unless the first kernel is an at::native one.
  CHECK(categorize_op("aten::_flash_attention_forward", std::nullopt) == "other");
  CHECK(categorize_op("aten::_softmax", std::string_view("void cunn_SoftMaxForward<4>")) == "other");
  CHECK(categorize_op("aten::fill_",
                      std::string_view("void at::native::vectorized_elementwise_kernel<4>")) ==
        "elementwise");
  CHECK(categorize_op("aten::argmax", std::string_view("void at::native::reduce_kernel<512>")) ==
        "reduce");
  CHECK(categorize_op("aten::_foreach_add_",
                      std::string_view("void at::native::multi_tensor_apply_kernel<>")) ==
        "multi_tensor_apply");
  CHECK(categorize_op("aten::x", std::string_view("at::native::elementwise")) == "other");
}

TEST_CASE("launcher category falls back to the first kernel by ts") {
  test::TraceBuilder b;
  b.cpu_op("aten::where", 10, 20)
      .launch(11, "void at::native::reduce_kernel<1>", 120, 2)
      .launch(12, "void at::native::elementwise_kernel<1>", 100, 2);  // earlier on the GPU
  const Loaded l = load(b.json());
  const LauncherTable t = find_kernel_launchers(*l.store, l.tree);
  REQUIRE(t.launchers.size() == 1);
  CHECK(t.launchers[0].category == "elementwise");
  CHECK(l.store->name_of(t.launchers[0].kernels[0]) == "void at::native::elementwise_kernel<1>");
}
