// SOL-only memory models (sol_memory_ops.h) on tiny hand-made Kineto traces: each op's
// bytes worked out by hand from its rule (README "SOL-only memory models"). Element
// sizes: fp32 4, bf16 2, int64 8, bool 1. The device is the H100 SXM5 of the device
// database, DRAM 3.35 TB/s, so an estimate is bytes / 3.35e12 s. Kernels run 1 ms, far
// longer than any estimate here, so no op is faster than its estimate.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "devices/device_db.h"
#include "analyses/sol/sol.h"
#include "analyses/sol/threaded_trace.h"
#include "ingest/trace_reader.h"
#include "support/sol_cases.h"

using namespace sollens;

namespace {

constexpr double kDramBps = 3.35e12;

struct Run {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
  SolOps ops;
};

Run run(const std::string& json) {
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(loaded.ok());
  TraceTree tree = TraceTree::build(*loaded.value());
  const DeviceSpec* h100 = find_device("H100_SXM5_80GB");
  REQUIRE(h100 != nullptr);
  SolOps ops = collect_sol_ops(*loaded.value(), tree, h100);
  return {std::move(loaded.value()), std::move(tree), std::move(ops)};
}

// "Input Dims", "Input type" and "Concrete Inputs" as the profiler writes them.
std::string args(const std::string& dims, const std::string& types, const std::string& concrete) {
  return R"("Input Dims":)" + dims + R"(,"Input type":)" + types + R"(,"Concrete Inputs":)" + concrete;
}

// One op launching one kernel by itself (1 ms).
const SolOp& alone(Run& r, const std::string& name, const std::string& a, const std::string& kernel = "k") {
  test::ThreadedTrace t;
  t.cpu_op(1, name, 10, 20, a).launch(1, 12, kernel, 100, 1000);
  r = run(t.json());
  REQUIRE(r.ops.ops.size() == 1);
  return r.ops.ops[0];
}

void check_memory_op(const SolOp& op, double bytes, double flops = 0) {
  INFO(op.function << ": " << op.no_estimate);
  CHECK(op.estimated);
  CHECK(op.bytes == bytes);
  CHECK(op.flops == flops);
  CHECK(op.roofline.bound == SolBound::kMemory);
  CHECK(op.roofline.estimate_us == Approx(bytes / kDramBps * 1e6));
  CHECK(op.note.rfind("SOL-only memory model: ", 0) == 0);
}

}  // namespace

TEST_CASE("sol memory ops: elementwise math reads its inputs and writes the largest", "[sol][memory_ops]") {
  Run r;
  // tanh(self [4, 8] fp32): 32 elements read and written, 2·32·4 = 256 B; 32 FLOPs.
  check_memory_op(alone(r, "aten::tanh", args("[[4,8]]", R"(["float"])", R"([""])")), 256, 32);
  // tanh_backward(grad [4, 8], output [4, 8], bf16): reads 2·64, writes 64 = 192 B.
  check_memory_op(alone(r, "aten::tanh_backward",
                        args("[[4,8],[4,8]]", R"(["c10::BFloat16","c10::BFloat16"])", R"(["",""])")),
                  192, 32);
  // _log_softmax(self [2, 10] fp32, 1, False): 80 + 80 = 160 B; half_to_float on bf16
  // writes fp32: 40 + 80 = 120 B.
  check_memory_op(alone(r, "aten::_log_softmax", args("[[2,10],[],[]]", R"(["float","Scalar","Scalar"])",
                                                      R"(["","1","False"])")),
                  160, 20);
  check_memory_op(alone(r, "aten::_log_softmax", args("[[2,10],[],[]]", R"(["c10::BFloat16","Scalar","Scalar"])",
                                                      R"(["","1","True"])")),
                  120, 20);
  // _softmax likewise: [2, 10] fp32, 160 B; sin(self [3] bf16): 6 + 6 = 12 B, 3 FLOPs.
  check_memory_op(alone(r, "aten::_softmax", args("[[2,10],[],[]]", R"(["float","Scalar","Scalar"])",
                                                  R"(["","1","False"])")),
                  160, 20);
  check_memory_op(alone(r, "aten::sin", args("[[3]]", R"(["c10::BFloat16"])", R"([""])")), 12, 3);
  // _log_softmax_backward_data(grad [2, 10], output [2, 10], 1, 6) fp32: reads 160, writes 80.
  check_memory_op(alone(r, "aten::_log_softmax_backward_data",
                        args("[[2,10],[2,10],[],[]]", R"(["float","float","Scalar","Scalar"])",
                             R"(["","","1","6"])")),
                  240, 20);
}

TEST_CASE("sol memory ops: where, comparisons, masked_fill_ and index_select", "[sol][memory_ops]") {
  Run r;
  // where(condition [4, 8] bool, self [4, 8] bf16, other [] bf16): reads 32 + 64 + 2,
  // writes 32 at self's dtype, 64: 162 B.
  check_memory_op(alone(r, "aten::where", args("[[4,8],[4,8],[]]", R"(["bool","c10::BFloat16","c10::BFloat16"])",
                                               R"(["","",""])")),
                  162, 32);
  // eq(self [4, 8] fp32, 0): reads 128, writes a bool per element, 32: 160 B.
  check_memory_op(alone(r, "aten::eq", args("[[4,8],[]]", R"(["float","Scalar"])", R"(["","0"])")), 160, 32);
  // masked_fill_(self [4, 8] fp32, mask [4, 8] bool, value): reads 128 + 32, writes 128: 288 B.
  check_memory_op(alone(r, "aten::masked_fill_", args("[[4,8],[4,8],[]]", R"(["float","bool","Scalar"])",
                                                     R"(["","","-inf"])")),
                  288, 32);
  // index_select(self [100, 16] fp32, 0, index [5] int64): 5 rows of 16, 80 values of 4 B.
  // Reads the index 40 and 320, writes 320: 680 B.
  check_memory_op(alone(r, "aten::index_select", args("[[100,16],[],[5]]", R"(["float","Scalar","long int"])",
                                                     R"(["","0",""])")),
                  680);
}

TEST_CASE("sol memory ops: dropout writes a 1-byte mask, its backward reads it", "[sol][memory_ops]") {
  Run r;
  // native_dropout(input [4, 8] fp32, 0.1, True): reads 128, writes 128 + 32 (mask) = 288 B.
  check_memory_op(alone(r, "aten::native_dropout",
                        args("[[4,8],[],[]]", R"(["float","Scalar","Scalar"])", R"(["","0.1","True"])")),
                  288, 32);
  // native_dropout_backward(grad [4, 8] bf16, mask [4, 8] bool, 1.11): reads 64 + 32,
  // writes 64 = 160 B.
  check_memory_op(alone(r, "aten::native_dropout_backward",
                        args("[[4,8],[4,8],[]]", R"(["c10::BFloat16","bool","Scalar"])", R"(["","","1.11"])")),
                  160, 32);
}

TEST_CASE("sol memory ops: fill_ and zero_ only write; arange writes its Concrete Inputs' length",
          "[sol][memory_ops]") {
  Run r;
  // fill_(self [1000, 10] fp32, 0): writes 40,000 B (reads nothing).
  check_memory_op(alone(r, "aten::fill_", args("[[1000,10],[]]", R"(["float","Scalar"])", R"(["","0"])")), 40000);
  // zero_(self [8] bf16) launching its own kernel: 16 B.
  check_memory_op(alone(r, "aten::zero_", args("[[8]]", R"(["c10::BFloat16"])", R"([""])")), 16);
  // arange.start_out(0, 4096, 1, out int64): 4096 · 8 = 32,768 B.
  check_memory_op(alone(r, "aten::arange", args("[[],[],[],[0]]", R"(["Scalar","Scalar","Scalar","long int"])",
                                                R"(["0","4096","1",""])")),
                  32768);
  // arange(4096, dtype 4 = int64, layout 0, ...) as the profiler records it (dtype and
  // layout codes are "Scalar" too): 4096 · 8 = 32,768 B.
  check_memory_op(alone(r, "aten::arange", args("[[],[],[],[],[]]", R"(["Scalar","Scalar","Scalar","",""])",
                                                R"(["4096","4","0","",""])")),
                  32768);
  // arange.start_step(0, 10, 3, dtype 6 = float, ...): 0, 3, 6, 9 = 4 elements · 4 = 16 B.
  check_memory_op(alone(r, "aten::arange", args("[[],[],[],[],[],[],[]]",
                                                R"(["Scalar","Scalar","Scalar","Scalar","Scalar","",""])",
                                                R"(["0","10","3","6","0","",""])")),
                  16);
  // arange(10.5): ceil(10.5) = 11 elements of the default float: 44 B.
  check_memory_op(alone(r, "aten::arange", args("[[],[],[],[],[]]", R"(["Scalar","","","",""])",
                                                R"(["10.5","","","",""])")),
                  44);
  // Without Concrete Inputs there is no length: no estimate, and the reason.
  const SolOp& bare = alone(r, "aten::arange", args("[[],[],[],[],[]]", R"(["Scalar","","","",""])",
                                                    R"(["","","","",""])"));
  CHECK_FALSE(bare.estimated);
  CHECK(bare.no_estimate.find("arange: start, end and step not recorded") != std::string::npos);
}

TEST_CASE("sol memory ops: cat, gather and the gather-style losses", "[sol][memory_ops]") {
  Run r;
  // cat([[2, 3], [4, 3]], 0): the list's dtype is not recorded; its kernel's OpaqueType<2>
  // says 2 bytes. Reads 6 + 12 = 18 elements, writes 18: 72 B.
  const std::string cat_args = args("[[[2,3],[4,3]],[]]", R"(["TensorList","Scalar"])", R"(["","0"])");
  check_memory_op(alone(r, "aten::cat", cat_args, "CatArrayBatchedCopy<OpaqueType<2u>, unsigned int, 2, 128, 1>"),
                  72);
  const SolOp& unsized = alone(r, "aten::cat", cat_args, "some_cat_kernel");
  CHECK_FALSE(unsized.estimated);
  CHECK(unsized.no_estimate.find("element size not found") != std::string::npos);
  // gather(self [100, 8] fp32, 0, index [4, 8] int64, False): reads the index 32·8 = 256
  // and 32 values · 4 = 128, writes 128: 512 B (not the 3,200 B of self).
  check_memory_op(alone(r, "aten::gather", args("[[100,8],[],[4,8],[]]", R"(["float","Scalar","long int","Scalar"])",
                                                R"(["","0","","False"])")),
                  512);
  // nll_loss_forward(self [6, 1000] fp32, target [6] int64, None, mean, -100): reads the
  // target 48 and one value per row 6·4 = 24, writes output and total_weight 8: 80 B
  // (self is 24,000 B).
  check_memory_op(alone(r, "aten::nll_loss_forward",
                        args("[[6,1000],[6],[],[],[]]", R"(["float","long int","","Scalar","Scalar"])",
                             R"(["","","","1","-100"])")),
                  80);
  // nll_loss_backward(grad [] fp32, self [6, 1000], target [6], None, mean, -100,
  // total_weight []): reads target 48, grad 4, total_weight 4, writes one grad_input
  // value per row 24: 80 B (the zero fill of 24,000 B is its zero_ op).
  check_memory_op(alone(r, "aten::nll_loss_backward",
                        args("[[],[6,1000],[6],[],[],[],[]]",
                             R"(["float","float","long int","","Scalar","Scalar","float"])",
                             R"(["","","","","1","-100",""])")),
                  80);
}

TEST_CASE("sol memory ops: embedding_dense_backward writes a row per index", "[sol][memory_ops]") {
  Run r;
  // grad [2, 5, 16] fp32, indices [2, 5] int64, num_weights 1000: reads 160·4 + 10·8 =
  // 720, writes 10 rows of 16 · 4: 640 → 1,360 B.
  const std::string types = R"(["float","long int","Scalar","Scalar","Scalar"])";
  check_memory_op(alone(r, "aten::embedding_dense_backward",
                        args("[[2,5,16],[2,5],[],[],[]]", types, R"(["","","1000","-1","False"])")),
                  1360);
  // num_weights 4: at most 4 rows, 4·16·4 = 256 written → 976 B.
  check_memory_op(alone(r, "aten::embedding_dense_backward",
                        args("[[2,5,16],[2,5],[],[],[]]", types, R"(["","","4","-1","False"])")),
                  976);
}

TEST_CASE("sol memory ops: max pooling, output size from the pooling formula", "[sol][memory_ops]") {
  Run r;
  const std::string types = R"(["c10::BFloat16","ScalarList","ScalarList","ScalarList","ScalarList","Scalar"])";
  // self [1, 2, 8, 8] bf16, kernel 3, stride 2, padding 1: (8 + 2 − 2 − 1) / 2 + 1 = 4,
  // so 2·4·4 = 32 outputs. Reads 128·2 = 256, writes 32·(2 + 8) = 320: 576 B.
  check_memory_op(alone(r, "aten::max_pool2d_with_indices",
                        args("[[1,2,8,8],[],[],[],[],[]]", types, R"(["","[3, 3]","[2, 2]","[1, 1]","[1, 1]","False"])")),
                  576);
  // self [1, 1, 5, 5], kernel 2, stride 2, ceil_mode: ceil((5 − 2) / 2) + 1 = 3 (the
  // last window starts at 4 < 5), 9 outputs. Reads 50, writes 9·10 = 90: 140 B.
  check_memory_op(alone(r, "aten::max_pool2d_with_indices",
                        args("[[1,1,5,5],[],[],[],[],[]]", types, R"(["","[2, 2]","[2, 2]","[0, 0]","[1, 1]","True"])")),
                  140);
  // Backward: grad [1, 2, 4, 4] bf16, self [1, 2, 8, 8], indices [1, 2, 4, 4] int64:
  // reads 64 + 256, writes 128 · 2 = 256: 576 B.
  check_memory_op(alone(r, "aten::max_pool2d_with_indices_backward",
                        args("[[1,2,4,4],[1,2,8,8],[],[],[],[],[],[1,2,4,4]]",
                             R"(["c10::BFloat16","c10::BFloat16","ScalarList","ScalarList","ScalarList","ScalarList","Scalar","long int"])",
                             R"(["","","[3, 3]","[2, 2]","[1, 1]","[1, 1]","False",""])")),
                  576);
}

TEST_CASE("sol memory ops: _foreach lists as recorded, in place and out of place", "[sol][memory_ops]") {
  Run r;
  // _foreach_add_(self [[128, 128], [128]], other (same), alpha): the lists' dtype from the
  // functor, float. 16,512 elements a list, 66,048 B: reads both lists and writes the
  // first, 3 · 66,048 = 198,144 B; one FLOP per element of the first list.
  check_memory_op(alone(r, "aten::_foreach_add_",
                        args("[[[128,128],[128]],[[128,128],[128]],[]]", R"(["TensorList","TensorList","Scalar"])",
                             R"(["","","-0.001"])"),
                        "multi_tensor_apply_kernel<TensorListMetadata<2>, BinaryOpListAlphaFunctor<float, 2, 2, 0>>"),
                  198144, 16512);
  // _foreach_sqrt([[10], [6]]) bf16, out of place: reads 16 · 2, writes a new list: 64 B.
  check_memory_op(alone(r, "aten::_foreach_sqrt", args("[[[10],[6]]]", R"(["TensorList"])", R"([""])"),
                        "multi_tensor_apply_kernel<TensorListMetadata<2>, UnaryOpFunctor<c10::BFloat16, 2, 1, 1>>"),
                  64, 16);
}

namespace {

// _fused_adamw_(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, lr,
// beta1, beta2, weight_decay, eps, amsgrad, maximize, grad_scale, found_inf): the six
// lists' shapes as given, amsgrad False.
std::string fused_adamw_args(const std::string& list, const std::string& steps) {
  return args("[" + list + "," + list + "," + list + "," + list + ",[]," + steps + ",[],[],[],[],[],[],[],[],[]]",
              R"(["TensorList","TensorList","TensorList","TensorList","TensorList","TensorList",)"
              R"("Scalar","Scalar","Scalar","Scalar","Scalar","Scalar","Scalar","",""])",
              R"(["","","","","","","0.001","0.9","0.999","0.01","1e-08","False","False","",""])");
}
const std::string kFusedKernel =
    "multi_tensor_apply_kernel<FusedOptimizerTensorListMetadata<4>, FusedAdamMathFunctor<float, 4, 1, false>>";

// An optimizer step whose _foreach_mul_ lists were not recorded. A gradient of 5
// elements is accumulated before the first Optimizer.step (another step's), then two of
// 100,000 and 70,000 fp32 elements before the second, which holds the _foreach_mul_
// (or `op` with `op_args`) whose kernel has `blocks` blocks.
std::string optimizer_step(int blocks, const std::string& op = "aten::_foreach_mul_",
                           const std::string& op_args = args("[[],[]]", R"(["TensorList","Scalar"])", R"(["","0.9"])"),
                           const std::string& kernel =
                               "multi_tensor_apply_kernel<TensorListMetadata<1>, BinaryOpScalarFunctor<float, 1, 1, 0>>") {
  auto grad = [](int n) { return args("[[" + std::to_string(n) + "]]", R"(["float"])", R"([""])"); };
  test::TraceBuilder t;
  t.cpu_op("torch::autograd::AccumulateGrad", 0, 1, grad(5))
      .raw(test::annotation("Optimizer.step#SGD.step", 10, 10))
      .cpu_op("torch::autograd::AccumulateGrad", 30, 1, grad(100000))
      .cpu_op("torch::autograd::AccumulateGrad", 40, 1, grad(70000))
      .raw(test::annotation("Optimizer.step#SGD.step", 100, 100))
      .cpu_op(op, 110, 20, op_args)
      .launch(111, kernel, 200, 1000, "kernel", 7, "cudaLaunchKernel", R"("grid":[)" + std::to_string(blocks) + ",1,1]");
  return t.json();
}

}  // namespace

TEST_CASE("sol memory ops: unrecorded _foreach lists are the step's gradients when they fill its blocks",
          "[sol][memory_ops]") {
  // The step's gradients take ceil(100,000 / 65,536) + ceil(70,000 / 65,536) = 2 + 2 = 4
  // blocks of multi_tensor_apply. With a 4-block kernel the list is those 170,000
  // elements, read and written in place: 2 · 170,000 · 4 = 1,360,000 B (the 5-element
  // gradient of the step before is not counted).
  Run filled = run(optimizer_step(4));
  REQUIRE(filled.ops.ops.size() == 1);
  check_memory_op(filled.ops.ops[0], 1360000, 170000);
  CHECK(filled.ops.ops[0].note.find("the 2 parameters whose gradients the step accumulated") != std::string::npos);
  // A 3-block kernel updates other tensors (another parameter group): no estimate.
  Run other = run(optimizer_step(3));
  REQUIRE(other.ops.ops.size() == 1);
  CHECK_FALSE(other.ops.ops[0].estimated);
  CHECK(other.ops.ops[0].no_estimate.find("do not fill its kernels' blocks") != std::string::npos);
}

TEST_CASE("sol memory ops: an int64 elementwise op has no vector peak and is bound by its bytes",
          "[sol][memory_ops]") {
  // aten::add(self [512] int64, other [512] int64, 1) has TraceLens's binary elementwise
  // model, whose Compute Spec is empty for int64 (no vector peak for it): reads 2·512 and
  // writes 512 elements of 8 bytes, 12,288 B, memory-bound on the vector units.
  Run r;
  const SolOp& op = alone(r, "aten::add", args("[[512],[512],[]]", R"(["long int","long int","Scalar"])",
                                               R"(["","","1"])") + R"(,"Input Strides":[[1],[1],[]])");
  INFO(op.no_estimate);
  CHECK(op.estimated);
  CHECK(op.compute_spec.empty());
  CHECK(op.bytes == 12288);
  CHECK(op.roofline.compute_us == 0);
  CHECK(op.roofline.bound == SolBound::kMemory);
  CHECK(op.roofline.estimate_us == Approx(12288 / kDramBps * 1e6));
  CHECK(op.note.find("no vector peak for its dtype") != std::string::npos);
}

TEST_CASE("sol memory ops: a fused AdamW reads every list and writes the parameters and states",
          "[sol][memory_ops]") {
  // Recorded: params, grads, exp_avgs, exp_avg_sqs of [[10], [6]] fp32 (16 elements, 64 B
  // each), max_exp_avg_sqs empty (no amsgrad), state_steps two 0-dim fp32 tensors (8 B).
  // Reads 4·64 + 8 = 264, writes params, exp_avgs, exp_avg_sqs 3·64 = 192: 456 B.
  Run r;
  check_memory_op(alone(r, "aten::_fused_adamw_", fused_adamw_args("[[10],[6]]", "[[],[]]"), kFusedKernel), 456, 16);
  // Not recorded: the step's two gradients of 170,000 fp32 elements fill its 4 blocks.
  // Reads 4 lists of 680,000 B and 2 steps of 4 B, writes 3 lists: 2,720,008 + 2,040,000
  // = 4,760,008 B.
  Run fused = run(optimizer_step(4, "aten::_fused_adamw_", fused_adamw_args("[]", "[]"), kFusedKernel));
  REQUIRE(fused.ops.ops.size() == 1);
  check_memory_op(fused.ops.ops[0], 4760008, 170000);
}
