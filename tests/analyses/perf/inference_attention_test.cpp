// The inference attention models (TraceLens's InferenceAttention extensions) on
// hand-computed cases, one per model class, and the step annotations they read. The
// first case is TraceLens's own vllm_decode_full reference row (InferenceAttention_fwd:
// GFLOPS 0.902529024, Data Moved 108.08984375 MB); every other number is worked out in
// the comments.
#include <catch2/catch.hpp>

#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/trace_builder.h"
#include "analyses/perf/iteration_annotation.h"
#include "analyses/perf/unified_perf_summary.h"
#include "ingest/trace_reader.h"
#include "support/perf_model_cases.h"
#include "support/table_column.h"

using namespace sollens;
using namespace sollens::perf;
using namespace sollens::test;

namespace {

constexpr const char* kDecodeStep = "execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)";
// Two chunked-prefill requests (Σsq 6144, Σsk 7144) and three decodes (Σsk 6144).
constexpr const char* kMixedStep =
    "execute_6147_context_2(sq6144sk7144sqsq20971520sqsk23019520)_generation_3(sq3sk6144sqsq3sqsk6144)";

ModelResult run(const char* op, const char* annotation, const char* dims, const char* types,
                const char* concrete = nullptr) {
  CHECK(registered(op).family == Family::kInferenceAttention);
  const EventArgs args = event_args(dims, types, nullptr, concrete);
  return evaluate(registered(op).model, {op, args, {}, annotation});
}

std::string twenty_concrete_inputs(const char* slot19) {
  std::string c = "[";
  for (int k = 0; k < 19; ++k) c += "'', ";
  return c + "'" + slot19 + "']";
}

}  // namespace

TEST_CASE("step annotations: the aggregates of each serving format", "[perf]") {
  const auto vllm = chunk_stats(kMixedStep);
  REQUIRE(vllm);
  CHECK(vllm->c_sq == 6144);
  CHECK(vllm->c_sk == 7144);
  CHECK(vllm->c_sqsq == 20971520);
  CHECK(vllm->c_sqsk == 23019520);
  CHECK(vllm->g_sq == 3);
  CHECK(vllm->g_sk == 6144);
  CHECK(vllm->g_sqsk == 6144);
  const auto sglang = chunk_stats("step[MIXED bs=2 c=1 g=1 c_sq=5 c_sk=8 c_sqsq=25 c_sqsk=40 g_sq=1 g_sk=12 g_sqsq=1 g_sqsk=12]");
  REQUIRE(sglang);
  CHECK(sglang->c_sk == 8);
  CHECK(sglang->c_sqsk == 40);
  CHECK(sglang->g_sk == 12);
  const auto atom = chunk_stats("decode[bs=32 tok=128 d=32 spec=3 sqsq=512 sqsk=262144 sk=65536]");
  REQUIRE(atom);
  CHECK(atom->g_sq == 128);
  CHECK(atom->g_sk == 65536);
  CHECK(atom->g_sqsq == 512);
  CHECK(atom->g_sqsk == 262144);
  // SGLang's native EXTEND: toks = 100 over bs = 2 equal causal requests → Σsq² = 100²/2.
  const auto extend = chunk_stats("step[EXTEND bs=2 toks=100]");
  REQUIRE(extend);
  CHECK(extend->c_sq == 100);
  CHECK(extend->c_sqsq == 5000.0);
  CHECK(extend->c_products_are_float);
  CHECK(chunk_stats("step[DECODE bs=8]")->kv_unknown);
  // No aggregates: vLLM's native labels, ATOM without sqsk, anything else.
  CHECK_FALSE(chunk_stats("execute_context_2(14721)_generation_0(0)"));
  CHECK(is_iteration_annotation("execute_context_2(14721)_generation_0(0)"));
  CHECK_FALSE(chunk_stats("prefill[bs=2 tok=14721 ctx=[7803, 6918]]"));
  CHECK_FALSE(is_iteration_annotation("execute_context_1(888_788544)_generation_0(0)"));
  CHECK_FALSE(is_iteration_annotation("## Call CompiledFxGraph abc ##"));
  CHECK_FALSE(chunk_stats(""));
}

TEST_CASE("inference attention: vLLM unified attention on a decode step (TraceLens's reference row)", "[perf]") {
  // q (32, 64, 64), k = v = (32, 8, 64), bf16; 32 decodes over Σsk = 55,086 cached tokens.
  // flops = 64·2·55,086·64 + 64·2·55,086·64 = 902,529,024
  // bytes = 32·(64·64 + 64·64 + 8·64 + 8·64)·2 + (55,086 − 32)·8·(64 + 64)·2
  //       = 294,912·2 + 56,375,296·2 = 113,340,416 (108.08984375 MiB)
  const char* dims = "[[32, 64, 64], [32, 8, 64], [32, 8, 64], [32, 64, 64], [], [], [], [0]]";
  const char* types = "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', '', '', '', 'c10::BFloat16']";
  const ModelResult r = run("vllm::unified_attention_with_output", kDecodeStep, dims, types);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "B=1;N_Q=32;H_Q=64;H_V=8;H_K=8;N_KV=32;H_KV=8;d_h_qk=64;d_h_v=64;dropout=0.0;causal=False;"
        "flash_impl=True;c_sq=0;c_sk=0;c_sqsq=0;c_sqsk=0;g_sq=32;g_sk=55086;g_sqsq=32;g_sqsk=55086;"
        "dtype_Q='c10::BFloat16';dtype_KV='c10::BFloat16';");
  CHECK(r.fwd.flops == Count::of(902529024));
  CHECK(r.fwd.bytes == Count::of(113340416));
  CHECK(compute_spec(r) == "matrix_bf16");
  CHECK(r.bwd.status == perf::Status::kNotImplemented);
  // The same base model under aiter's varlen and MLA decode names.
  CHECK(run("aiter::mha_varlen_fwd", kDecodeStep, dims, types).fwd.flops == Count::of(902529024));
  CHECK(run("pseudo_mla_decode_fwd", kDecodeStep, dims, types).fwd.bytes == Count::of(113340416));
  // No readable annotation: TraceLens's "no perf" placeholder (the b200 vLLM trace's
  // older label), no params and no metrics; an empty step raises in flops().
  CHECK(run("vllm::unified_attention_with_output", "execute_context_1(888_788544)_generation_0(0)", dims, types).status ==
        perf::Status::kError);
  CHECK(run("vllm::unified_attention_with_output", "", dims, types).status == perf::Status::kError);
  const ModelResult empty = run("vllm::unified_attention_with_output",
                                "execute_0_context_0(sq0sk0sqsq0sqsk0)_generation_0(sq0sk0sqsq0sqsk0)", dims, types);
  CHECK(empty.status == perf::Status::kOk);
  CHECK(empty.fwd.status == perf::Status::kNotImplemented);
}

TEST_CASE("inference attention: aiter varlen / batch prefill / MLA prefill take d_v from v", "[perf]") {
  // q (6147, 8, 128), k (6147, 2, 128) bf16, v (6147, 2, 64), fp8 KV: H_Q 8, H_KV 2, d_qk 128, d_v 64.
  // flops = 8·2·23,019,520·128 + 8·2·23,019,520·64 − 8·20,971,520·128 − 8·20,971,520·64
  //       + 8·2·6,144·128 + 8·2·6,144·64 = 38,522,585,088
  // bytes = (6,144 + 3)·(8·128 + 8·64 + 2·128 + 2·64)·2 + ((7,144 − 6,144) + (6,144 − 3))·2·(128 + 64)·1
  //       = 6,147·1,920·2 + 7,141·384 = 23,604,480 + 2,742,144 = 26,346,624
  const char* dims = "[[6147, 8, 128], [6147, 2, 128], [6147, 2, 64]]";
  const char* types = "['c10::BFloat16', 'c10::Float8_e4m3fn', 'c10::Float8_e4m3fn']";
  for (const char* op : {"aiter::fmha_v3_varlen_fwd", "aiter::mha_batch_prefill", "pseudo_mla_prefill_fwd"}) {
    const ModelResult r = run(op, kMixedStep, dims, types);
    REQUIRE(r.status == perf::Status::kOk);
    CHECK(r.find_param("d_h_v")->i == 64);
    CHECK(r.fwd.flops == Count::of(38522585088));
    CHECK(r.fwd.bytes == Count::of(26346624));
  }
}

TEST_CASE("inference attention: SGLang native steps (reconstructed prefill, decode without KV length)", "[perf]") {
  // EXTEND bs=2 toks=100: c_sq = c_sk = 100, Σsq² = Σsq·sk = 5,000.0 (a float); q = k = (100, 8, 64):
  // flops = 8·2·5,000·64·2 − 8·5,000·64·2 = 5,120,000.0; bytes = 100·(4·8·64)·2 = 409,600.
  const char* dims = "[[100, 8, 64], [100, 8, 64]]";
  const char* types = "['c10::BFloat16', 'c10::BFloat16']";
  const ModelResult r = run("aiter::mha_varlen_fwd", "step[EXTEND bs=2 toks=100]", dims, types);
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(repr(*r.find_param("c_sqsq")) == "5000.0");
  CHECK(r.fwd.flops == Count::real(5120000.0));
  CHECK(r.fwd.bytes == Count::of(409600));
  // DECODE: g_sk set to g_sq, flagged; TraceLens's flops() is None, which sollens
  // reports as no metrics.
  const ModelResult d = run("aiter::mha_varlen_fwd", "step[DECODE bs=8]", dims, types);
  REQUIRE(d.status == perf::Status::kOk);
  CHECK(params_repr(d).ends_with("g_sq=8;g_sk=8;g_sqsq=0;g_sqsk=0;dtype_Q='c10::BFloat16';dtype_KV='c10::BFloat16';"
                                 "_no_flops=True;_kv_unknown=True;"));
  CHECK(d.fwd.status == perf::Status::kError);
}

TEST_CASE("inference attention: SGLang paged_attention_ragged reads q and the paged caches", "[perf]") {
  // q = dims[2] (4, 32, 128) bf16; k cache (100, 16, 8, 128): H_KV 8; v cache d_v 128;
  // N_KV = c_sk + g_sk = 4,096. flops = 2·(32·2·4,096·128) = 67,108,864
  // bytes = 4·(32·128·2 + 8·128·2)·2 + (4,096 − 4)·8·256·2 = 16,842,752
  const ModelResult r =
      run("sglang_profiler::attention_paged_attention_ragged", "step[DECODE bs=4 g_sq=4 g_sqsq=4 g_sqsk=4096 g_sk=4096]",
          "[[4, 4096], [4], [4, 32, 128], [100, 16, 8, 128], [100, 16, 8, 128]]",
          "['c10::BFloat16', 'int', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16']");
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "B=1;N_Q=4;H_Q=32;H_V=8;H_K=8;N_KV=4096;H_KV=8;d_h_qk=128;d_h_v=128;dropout=0.0;causal=False;"
        "flash_impl=True;c_sq=0;c_sk=0;c_sqsq=0;c_sqsk=0;g_sq=4;g_sk=4096;g_sqsq=4;g_sqsk=4096;"
        "dtype_Q='c10::BFloat16';");
  CHECK(r.fwd.flops == Count::of(67108864));
  CHECK(r.fwd.bytes == Count::of(16842752));
}

TEST_CASE("inference attention: pa_decode_gluon is decode only, windowed, over an fp8 cache", "[perf]") {
  // The step's context part is dropped; 32 decodes over Σsk 65,536 with window 1,024:
  // g_sqsk and g_sk capped at 32·1,024 = 32,768. q (32, 16, 128) bf16, H_KV = dims[2][1] = 2, fp8 cache.
  // flops = 2·(16·2·32,768·128) = 268,435,456
  // bytes = 32·(16·128·2 + 2·128·2)·2 + (32,768 − 32)·2·256·1 = 294,912 + 16,760,832 = 17,055,744
  const std::string concrete = twenty_concrete_inputs("1024");
  const ModelResult r =
      run("aiter::pa_decode_gluon", "execute_35_context_1(sq3sk10sqsq9sqsk30)_generation_32(sq32sk65536sqsq32sqsk65536)",
          "[[32, 16, 128], [32, 16, 128], [1000, 2, 16, 128, 8], [1000, 2, 128, 16]]",
          "['c10::BFloat16', 'c10::BFloat16', 'c10::Float8_e4m3fn', 'c10::Float8_e4m3fn']", concrete.c_str());
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "B=1;N_Q=32;H_Q=16;H_V=2;H_K=2;N_KV=65536;H_KV=2;d_h_qk=128;d_h_v=128;dropout=0.0;causal=False;"
        "flash_impl=True;c_sq=0;c_sk=0;c_sqsq=0;c_sqsk=0;g_sq=32;g_sk=65536;g_sqsq=32;g_sqsk=65536;"
        "dtype_Q='c10::BFloat16';dtype_KV='c10::Float8_e4m3fn';sliding_window=1024;");
  CHECK(r.fwd.flops == Count::of(268435456));
  CHECK(r.fwd.bytes == Count::of(17055744));
}

TEST_CASE("inference attention: the DeepSeek-V4 paged decode pseudo ops", "[perf]") {
  // Defaults (no v4_* args): H_Q 64, d 512, one latent KV head, bf16, window 128, top-k 512.
  // 4 decodes over Σsk 8,192 (mean context 2,048). swa caps at 4·128 = 512:
  // flops = 64·2·512·512·2 = 67,108,864; bytes = (4·(64·512·2 + 512·2) + (512 − 4)·1,024)·2 = 1,572,864
  const char* step = "execute_4_context_0(sq0sk0sqsq0sqsk0)_generation_4(sq4sk8192sqsq4sqsk8192)";
  const char* dims = "[[4, 64, 512]]";
  const char* types = "['c10::BFloat16']";
  const ModelResult swa = run("pseudo_v4_paged_decode_swa", step, dims, types);
  REQUIRE(swa.status == perf::Status::kOk);
  CHECK(params_repr(swa) ==
        "B=1;N_Q=4;H_Q=64;H_V=1;H_K=1;N_KV=8192;H_KV=1;d_h_qk=512;d_h_v=512;dropout=0.0;causal=False;"
        "flash_impl=True;c_sq=0;c_sk=0;c_sqsq=0;c_sqsk=0;g_sq=4;g_sk=8192;g_sqsq=4;g_sqsk=8192;"
        "dtype_Q='c10::bfloat16';dtype_KV='c10::bfloat16';sliding_window=128;");
  CHECK(swa.fwd.flops == Count::of(67108864));
  CHECK(swa.fwd.bytes == Count::of(1572864));
  CHECK(compute_spec(swa) == "matrix_bf16");
  // csa: 128 + min(⌈2,048/4⌉, 512) = 640, cap 2,560: flops = 64·2·2,560·1,024 = 335,544,320
  const ModelResult csa = run("pseudo_v4_paged_decode_csa", step, dims, types);
  CHECK(csa.find_param("sliding_window")->i == 640);
  CHECK(csa.fwd.flops == Count::of(335544320));
  // hca: 128 + ⌈2,048/128⌉ = 144, cap 576: flops = 64·2·576·1,024 = 75,497,472
  const ModelResult hca = run("pseudo_v4_paged_decode_hca", step, dims, types);
  CHECK(hca.find_param("sliding_window")->i == 144);
  CHECK(hca.fwd.flops == Count::of(75497472));
}

TEST_CASE("inference attention: the sparse MLA prefill counts (query, KV slot) pairs", "[perf]") {
  // q (100, 16, 512) bf16; 4,000 history + 2,000 in-chunk slots = 6,000 pairs, fp8 KV.
  // flops = 6,000·16·2·(512 + 512) = 196,608,000; bytes = 2·100·16·512·2 + 6,000·512·1 = 6,348,800
  const ModelResult r = run("aiter::pa_sparse_prefill_opus_fwd", "", "[[100, 16, 512], [50000, 1, 512], [4000], [], [], [2000]]",
                            "['c10::BFloat16', 'c10::Float8_e4m3fn', 'int', '', '', 'int']");
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) ==
        "B=1;N_Q=100;H_Q=16;H_V=1;H_K=1;N_KV=6000;H_KV=1;d_h_qk=512;d_h_v=512;dropout=0.0;causal=False;"
        "flash_impl=True;prefill_pairs=6000;dtype_Q='c10::BFloat16';dtype_KV='c10::Float8_e4m3fn';");
  CHECK(r.fwd.flops == Count::of(196608000));
  CHECK(r.fwd.bytes == Count::of(6348800));
}

TEST_CASE("inference attention: the tilelang sparse MLA forward has d_v 512", "[perf]") {
  // TraceLens reads the V head dim from the event's top-level "Concrete Inputs", which
  // events do not have, so it is always 512. One prefill of 100 tokens, q (100, 16, 576),
  // k (100, 1, 576) bf16: flops = 16·2·10,000·(576 + 512) − 16·10,000·(576 + 512) = 174,080,000;
  // bytes = 100·(16·576 + 16·512 + 576 + 512)·2 = 3,699,200
  const ModelResult r =
      run("sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
          "execute_100_context_1(sq100sk100sqsq10000sqsk10000)_generation_0(sq0sk0sqsq0sqsk0)",
          "[[100, 16, 576], [100, 1, 576], [100, 2048]]", "['c10::BFloat16', 'c10::BFloat16', 'int']");
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(r.find_param("d_h_v")->i == 512);
  CHECK(r.fwd.flops == Count::of(174080000));
  CHECK(r.fwd.bytes == Count::of(3699200));
}

TEST_CASE("inference attention: GDN linear attention is linear in the step's tokens", "[perf]") {
  // H_V = 8 value heads, H_K = 4, d_v = 128; mixed_qkv width 2,048 = 2·4·d_k + 8·128 → d_k = 128.
  // 104 tokens (100 prefill + 4 decode): flops = 104·8·7·128·128 = 95,420,416;
  // bytes = 104·8·(128 + 2·128 + 2)·2 = 642,304
  const char* step = "execute_104_context_1(sq100sk100sqsq10000sqsk10000)_generation_4(sq4sk400sqsq4sqsk400)";
  const char* dims = "[[104, 2048], [104, 8], [104, 8], [104, 8, 128], []]";
  const char* types = "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar']";
  for (const char* op : {"vllm::gdn_attention_core", "aiter::linear_attention_with_output_base"}) {
    const ModelResult r = run(op, step, dims, types);
    REQUIRE(r.status == perf::Status::kOk);
    CHECK(params_repr(r) ==
          "B=1;N_Q=104;H_Q=4;N_KV=0;H_KV=4;H_V=8;H_K=4;d_h_qk=128;d_h_v=128;c_sq=100;c_sk=100;c_sqsq=0;"
          "c_sqsk=0;g_sq=4;g_sk=4;g_sqsq=0;g_sqsk=0;dtype_Q='c10::BFloat16';");
    CHECK(r.fwd.flops == Count::of(95420416));
    CHECK(r.fwd.bytes == Count::of(642304));
    CHECK(compute_spec(r) == "matrix_bf16");
  }
  CHECK(run("vllm::gdn_attention_core", "step[EXTEND bs=2 toks=100]", dims, types).status == perf::Status::kError);
}

TEST_CASE("inference attention: SGLang store_cache moves k and v rows, no math", "[perf]") {
  // k (64, 5120) bf16: 327,680 elements; bytes = 4·327,680·2 = 2,621,440; flops 0.
  const ModelResult r = run("sglang::store_cache", "", "[[64, 5120], [64, 5120], [168724, 5120], [168724, 5120], [64], [], []]",
                            "['c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'long int', '', '']");
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(params_repr(r) == "op_shape=(64, 5120);nelems=327680;dtype='c10::BFloat16';");
  CHECK(r.fwd.flops == Count::of(0));
  CHECK(r.fwd.bytes == Count::of(2621440));
  CHECK(compute_spec(r) == "vector_bf16");
}

TEST_CASE("inference attention: an op reads the innermost step annotation on its thread", "[perf]") {
  // The attention op lies in a torch.compile graph-call annotation inside the vLLM step
  // annotation: the step one is read (902,529,024 FLOPs, the decode case above). A second
  // attention op after the step has none: modeled, without metrics (as TraceLens's
  // b200 vLLM reference row).
  const std::string attn =
      R"("Input Dims":[[32,64,64],[32,8,64],[32,8,64],[32,64,64]],"Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16","c10::BFloat16"],"Input Strides":[[4096,64,1],[512,64,1],[512,64,1],[4096,64,1]],"Concrete Inputs":["","","",""])";
  std::string later_attn = attn;  // other shapes: a row of its own
  later_attn.replace(later_attn.find("[32,64,64]"), 10, "[16,64,64]");
  test::TraceBuilder t;
  t.raw(std::string(R"({"ph":"X","cat":"user_annotation","name":")") + kDecodeStep +
        R"(","pid":1,"tid":1,"ts":5,"dur":100,"args":{}})")
      .raw(R"({"ph":"X","cat":"user_annotation","name":"## Call CompiledFxGraph abc ##","pid":1,"tid":1,"ts":8,"dur":50,"args":{}})")
      .cpu_op("vllm::unified_attention_with_output", 10, 5, attn)
      .launch(11, "kernel_unified_attention_2d", 100, 10)
      .cpu_op("vllm::unified_attention_with_output", 200, 5, later_attn)
      .launch(201, "kernel_unified_attention_2d", 300, 10);
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(t.json()));
  REQUIRE(loaded.ok());
  const TraceTree tree = TraceTree::build(*loaded.value());
  const LauncherTable launchers = find_kernel_launchers(*loaded.value(), tree);
  const ModeledOps ops = evaluate_modeled_ops(*loaded.value(), tree);
  const Table u = unified_perf_summary_table(*loaded.value(), tree, launchers, ops);
  REQUIRE(u.num_rows() == 2);
  CHECK(col(u, "op category").string_at(0) == "InferenceAttention");
  CHECK(col(u, "has_perf_model").bool_at(0));
  CHECK(col(u, "has_perf_model").bool_at(1));
  int with_metrics = 0;
  for (size_t row = 0; row < 2; ++row) {
    if (col(u, "GFLOPS").is_null(row)) continue;
    ++with_metrics;
    CHECK(col(u, "GFLOPS").float_at(row) == Approx(0.902529024));
    CHECK(col(u, "Data Moved (MB)").float_at(row) == Approx(108.08984375));
    CHECK(col(u, "Compute Spec").string_at(row) == "matrix_bf16");
  }
  CHECK(with_metrics == 1);
}
