// The fused CONV and Normalization extension models on hand-computed cases: ConvBias_,
// ConvBiasReLU_ and their _Backward nodes (the CONV formulas of tracelens-semantics.md
// §6.3 with bias always counted), primus::fused_ln_modulate and its backward (§6.7).
#include <catch2/catch.hpp>

#include "analyses/perf/modeled_ops.h"
#include "api/api_test_traces.h"
#include "support/perf_model_cases.h"

using namespace sollens;
using namespace sollens::perf;
using namespace sollens::test;

namespace {

// x (2, 3, 8, 8), w (4, 3, 3, 3), bias (4,), stride "2", padding "0", bf16.
EventArgs conv_bias_args() {
  return event_args("[[2, 3, 8, 8], [4, 3, 3, 3], [4], [], []]",
                    "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar', 'Scalar']",
                    "[[192, 64, 8, 1], [27, 9, 3, 1], [1], [], []]", "['', '', '', '2', '0']");
}

constexpr const char* kConvBiasParams =
    "convNd='conv2d';input_shape=(2, 3, 8, 8);filter_shape=(4, 3, 3, 3);"
    "dtype_input_weight=('c10::BFloat16', 'c10::BFloat16');input_stride=(192, 64, 8, 1);"
    "weight_stride=(27, 9, 3, 1);bias=True;stride=(2, 2);padding=(0, 0);dilation=(1, 1);"
    "transposed_conv=False;output_padding=(0, 0);groups=1;";

}  // namespace

TEST_CASE("CONV: ConvBias_ counts its bias", "[perf]") {
  // out = (2, 4, o, o), o = int((8 + 0 - (3 - 1) - 1) / 2 + 1) = int(3.5) = 3: 72 elements.
  // flops = 72·2·(3·3·3) + 72 (bias) = 3888 + 72 = 3960
  // bytes = (x 384 + w 108 + bias 4 + out 72)·2 = 568·2 = 1136
  // flops_bwd = dX 72·54 + dW 108·2·(2·3·3) + bias 72 = 3888 + 3888 + 72 = 7848
  // bytes_bwd = 2·(72 + 108 + 384)·2 + (72 + 4) elements = 2256 + 76 = 2332
  const ModelResult r = evaluate_op("ConvBias_", conv_bias_args());
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == kConvBiasParams);
  CHECK(r.fwd.flops == Count::of(3960));
  CHECK(r.fwd.bytes == Count::of(1136));
  CHECK(r.bwd.flops == Count::of(7848));
  CHECK(r.bwd.bytes == Count::of(2332));
  CHECK(compute_spec(r) == "matrix_bf16");
  CHECK(registered("ConvBias_").bwd_category == std::string_view("CONV_bwd"));
  CHECK_FALSE(registered("ConvBias_").is_bwd_model);
}

TEST_CASE("CONV: ConvBiasReLU_ without stride and padding takes 1 and 0", "[perf]") {
  // Concrete Inputs shorter than 4: stride 1, padding 0. out = (2, 4, 6, 6): 288 elements.
  // flops = 288·54 + 288 = 15552 + 288 = 15840; bytes = (384 + 108 + 4 + 288)·2 = 1568
  EventArgs a = conv_bias_args();
  a.concrete = lit("['', '', '']");
  const ModelResult r = evaluate_op("ConvBiasReLU_", a);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(r.fwd.flops == Count::of(15840));
  CHECK(r.fwd.bytes == Count::of(1568));
  CHECK(r.find_param("stride") != nullptr);
  CHECK(repr(*r.find_param("stride")) == "(1, 1)");
  // A list where TraceLens calls int(): ValueError, no model.
  a.concrete = lit("['', '', '', '[2, 2]', '0']");
  CHECK(evaluate_op("ConvBiasReLU_", a).status != perf::Status::kOk);
}

TEST_CASE("CONV: ConvBias_Backward takes its forward's params", "[perf]") {
  // The backward node's own args (grad_output) are not read: params and counts are the
  // forward's, its flops()/bytes() the backward formulas (7848 and 2332 above).
  const EventArgs forward = conv_bias_args();
  const EventArgs own = event_args("[[2, 4, 3, 3]]", "['c10::BFloat16']");
  for (const char* op : {"ConvBias_Backward", "ConvBiasReLU_Backward"}) {
    INFO(op);
    const PerfModelEntry& entry = registered(op);
    CHECK(entry.is_bwd_model);
    const ModelResult r = evaluate(entry.model, {op, own, {}, {}, &forward});
    REQUIRE(r.status == perf::Status::kOk);
    CHECK(params_repr(r) == kConvBiasParams);
    CHECK(r.fwd.flops == Count::of(7848));
    CHECK(r.fwd.bytes == Count::of(2332));
    CHECK(compute_spec(r) == "matrix_bf16");
    // No forward with its Sequence number: TraceLens's fallback params make the model raise.
    CHECK(evaluate(entry.model, {op, own, {}}).status != perf::Status::kOk);
  }
}

TEST_CASE("CONV: a traced ConvBias_Backward finds its forward by Sequence number", "[perf]") {
  using test::complete_event;
  // Row 0: the forward (the args of conv_bias_args) with Sequence number 5; row 1 a
  // forward with another number; row 2 the backward node with 5 on the backward thread;
  // row 3 one whose number no forward has.
  const std::string fwd_args =
      R"("Input Dims":[[2,3,8,8],[4,3,3,3],[4],[],[]],)"
      R"("Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"],)"
      R"("Input Strides":[[192,64,8,1],[27,9,3,1],[1],[],[]],"Concrete Inputs":["","","","2","0"])";
  const std::string other_args =
      R"("Input Dims":[[2,3,8,8],[4,3,3,3],[4],[],[]],)"
      R"("Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"],)"
      R"("Concrete Inputs":["","","","1","1"])";
  const std::string trace =
      R"({"traceEvents":[)" + complete_event("cpu_op", "ConvBias_", "10", "5", "{" + fwd_args + R"(,"Sequence number":5})") +
      "," + complete_event("cpu_op", "ConvBias_", "20", "5", "{" + other_args + R"(,"Sequence number":6})") + "," +
      complete_event("cpu_op", "ConvBias_Backward", "30", "5",
                     R"({"Input Dims":[[2,4,3,3]],"Input type":["c10::BFloat16"],"Sequence number":5})", 1, 2) +
      "," +
      complete_event("cpu_op", "ConvBias_Backward", "40", "5",
                     R"({"Input Dims":[[2,4,3,3]],"Input type":["c10::BFloat16"],"Sequence number":9})", 1, 2) +
      "]}";
  Session session;
  REQUIRE(test::load_text(session, trace).ok());
  const ModeledOps ops = evaluate_modeled_ops(session.store(), session.tree());
  REQUIRE(ops.eval_of_event[2] >= 0);
  const ModelResult& r = ops.evals[static_cast<size_t>(ops.eval_of_event[2])].result;
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == kConvBiasParams);
  CHECK(r.fwd.flops == Count::of(7848));  // as worked out above
  REQUIRE(ops.eval_of_event[3] >= 0);
  CHECK(ops.evals[static_cast<size_t>(ops.eval_of_event[3])].result.status != perf::Status::kOk);
}

TEST_CASE("Normalization: primus::fused_ln_modulate and its backward", "[perf]") {
  // x (T 4, B 2, H 8), scale and shift (B, H), bf16: N = 64.
  // flops = 12·N = 768
  // bytes = 2·N·2 (x, y) + 2·B·H·2 (scale, shift) + 2·T·B·4 (fp32 mean, rstd) = 256 + 64 + 64 = 384
  const EventArgs fwd = event_args("[[4, 2, 8], [2, 8], [2, 8], []]",
                                   "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar']");
  const ModelResult f = evaluate_op("primus::fused_ln_modulate", fwd);
  REQUIRE(f.status == perf::Status::kOk);
  CHECK(params_repr(f) ==
        "op_shape=(4, 2, 8);dtype_in_out=('c10::BFloat16', None);stride_input=None;stride_output=None;"
        "num_channels=8;has_bias=False;is_affine=False;is_training=True;");
  CHECK(f.fwd.flops == Count::of(768));
  CHECK(f.fwd.bytes == Count::of(384));
  CHECK(compute_spec(f) == "vector_bf16");

  // grad_out and x_norm (T, B, H), mean and rstd (T·B,), modulation grad (B, H).
  // flops = 15·N = 960
  // bytes = 2·N·2 + 2·B·T·4 + N·2 + 2·B·H·2 + B·H·2 = 256 + 64 + 128 + 64 + 32 = 544
  const EventArgs bwd = event_args("[[4, 2, 8], [4, 2, 8], [8], [8], [2, 8]]",
                                   "['c10::BFloat16', 'c10::BFloat16', 'float', 'float', 'c10::BFloat16']");
  const ModelResult b = evaluate_op("primus::fused_ln_modulate_backward", bwd);
  REQUIRE(b.status == perf::Status::kOk);
  CHECK(b.fwd.flops == Count::of(960));
  CHECK(b.fwd.bytes == Count::of(544));
  CHECK(registered("primus::fused_ln_modulate_backward").bwd_category == std::string_view("NORM_bwd"));
}
