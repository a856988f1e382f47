// LLM phases from the data: forwards of an unannotated generation loop told apart by
// the shapes of their embedding and attention ops (tests/fixtures/synthetic/
// hf_decode_loop.json, written by make_hf_decode_loop.py there), and small traces of
// the other cases written here.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyses/phases/llm_phases.h"
#include "ingest/trace_reader.h"
#include "support/test_trace.h"

using namespace sollens;

namespace {

std::unique_ptr<EventStore> load_json(const std::string& json) { return test::load_store(json); }
std::unique_ptr<EventStore> load_decode_loop() { return load_json(test::fixture_text("synthetic/hf_decode_loop.json")); }

// CPU ops on one thread, 10 µs apart, each 5 µs long; no kernels (phases read CPU ops).
struct Ops {
  std::string events;
  double t = 0;
  void op(const std::string& name, const std::string& dims) {
    events += std::string(events.empty() ? "" : ",") + R"({"ph":"X","cat":"cpu_op","name":")" + name +
              R"(","pid":1,"tid":1,"ts":)" + std::to_string(t) + R"(,"dur":5,"args":{"Input Dims":)" + dims + "}}";
    t += 10;
  }
  // One forward: embedding [B, S], then an attention with q [B, 2, S, 8], k/v [B, 2, KV, 8].
  void forward(int b, int s, int kv) {
    const std::string bs = std::to_string(b), ss = std::to_string(s), kvs = std::to_string(kv);
    op("aten::embedding", "[[100, 16], [" + bs + ", " + ss + "]]");
    attention(b, s, kv);
  }
  void attention(int b, int s, int kv) {
    const std::string bs = std::to_string(b), ss = std::to_string(s), kvs = std::to_string(kv);
    op("aten::scaled_dot_product_attention", "[[" + bs + ", 2, " + ss + ", 8], [" + bs + ", 2, " + kvs +
                                                 ", 8], [" + bs + ", 2, " + kvs + ", 8]]");
  }
  std::string json() const { return R"({"traceEvents":[)" + events + "]}"; }
};

std::vector<LlmPhase> phases_of(const LlmPhases& p) {
  std::vector<LlmPhase> out;
  for (const LlmForward& f : p.forwards) out.push_back(f.phase);
  return out;
}

}  // namespace

TEST_CASE("an unannotated decode loop: one prefill of 4 x 256 tokens, then 31 decode forwards", "[phases]") {
  const auto store = load_decode_loop();
  const LlmPhases p = infer_llm_phases(*store);
  // The generator writes 32 forwards, each starting at its aten::embedding, 1310 µs
  // apart (31 ops of 10 µs and 1000 µs of python loop).
  REQUIRE(p.forwards.size() == 32);
  const LlmForward& prefill = p.forwards[0];
  CHECK(prefill.phase == LlmPhase::kPrefill);
  CHECK(prefill.tokens == 4 * 256);  // embedding indices [4, 256]
  CHECK(prefill.query_len == 256);
  CHECK(prefill.kv_len == 256);
  CHECK(prefill.begin == 0);
  CHECK(prefill.end == 1310);
  for (size_t f = 1; f < 32; ++f) {
    INFO("forward " << f);
    CHECK(p.forwards[f].phase == LlmPhase::kDecode);
    CHECK(p.forwards[f].tokens == 4);  // [4, 1]
    CHECK(p.forwards[f].query_len == 1);
    CHECK(p.forwards[f].kv_len == static_cast<int64_t>(256 + f));  // 257, 258, ..., 287
    CHECK(p.forwards[f].begin == 1310.0 * static_cast<double>(f));
  }
  CHECK(std::isinf(p.forwards[31].end));
  // The argmax of forward 3 (its last op, at 3930 + 300) and the python loop after it.
  const LlmForward& third = p.forwards[3];
  CHECK(p.forward_at(third.pid, third.tid, 3930 + 300) == &third);
  CHECK(p.forward_at(third.pid, third.tid, 3930 + 1000) == &third);
  CHECK(p.forward_at(third.pid, third.tid, -1) == nullptr);
  CHECK(p.forward_at(third.pid, third.tid + 1000, 3930) == nullptr);
}

TEST_CASE("phases: a cache continued by a long query is chunked prefill, a short one decode", "[phases]") {
  Ops ops;
  ops.forward(1, 128, 128);  // starts the cache
  ops.forward(1, 64, 192);   // 64 more over it: chunked prefill
  ops.forward(1, 4, 196);    // 4 speculative tokens: decode
  ops.forward(1, 1, 197);
  const auto store = load_json(ops.json());
  CHECK(phases_of(infer_llm_phases(*store)) ==
        std::vector<LlmPhase>{LlmPhase::kPrefill, LlmPhase::kChunkedPrefill, LlmPhase::kDecode, LlmPhase::kDecode});
}

TEST_CASE("phases: prefill and decode attentions in one forward are a mixed batch", "[phases]") {
  Ops ops;
  ops.forward(2, 32, 32);
  ops.op("aten::embedding", "[[100, 16], [3, 16]]");
  ops.attention(1, 16, 16);  // a new request's prefill
  ops.attention(2, 1, 33);   // the running requests' decode
  const auto store = load_json(ops.json());
  const LlmPhases p = infer_llm_phases(*store);
  CHECK(phases_of(p) == std::vector<LlmPhase>{LlmPhase::kPrefill, LlmPhase::kMixed});
  CHECK(llm_phase_name(p.forwards[1].phase) == "mixed");
}

TEST_CASE("phases: the token and position embeddings of one forward start one forward", "[phases]") {
  Ops ops;
  for (int f = 0; f < 3; ++f) {
    const int s = f == 0 ? 10 : 1;
    ops.op("aten::embedding", "[[100, 16], [1, " + std::to_string(s) + "]]");  // tokens
    ops.op("aten::embedding", "[[64, 16], [1, " + std::to_string(s) + "]]");   // positions
    ops.attention(1, s, 10 + f);
  }
  const auto store = load_json(ops.json());
  const LlmPhases p = infer_llm_phases(*store);
  REQUIRE(p.forwards.size() == 3);
  CHECK(p.forwards[0].tokens == 10);  // the first embedding's [1, 10]
  CHECK(phases_of(p) == std::vector<LlmPhase>{LlmPhase::kPrefill, LlmPhase::kDecode, LlmPhase::kDecode});
}

TEST_CASE("phases: forwards that never continue a cache (training, an encoder) have none", "[phases]") {
  Ops ops;
  for (int f = 0; f < 3; ++f) ops.forward(8, 512, 512);
  const auto store = load_json(ops.json());
  const LlmPhases p = infer_llm_phases(*store);
  CHECK(p.forwards.size() == 3);
  CHECK_FALSE(p.any());
  CHECK(phases_of(p) == std::vector<LlmPhase>(3, LlmPhase::kNone));
}

TEST_CASE("phases: tokens from the first GEMM's M when the embedding has no shapes", "[phases]") {
  Ops ops;
  ops.op("aten::embedding", "[]");
  ops.op("aten::linear", "[[2, 7, 16], [48, 16], [48]]");  // M = 2 x 7
  ops.attention(2, 7, 7);
  ops.op("aten::embedding", "[]");
  ops.op("aten::addmm", "[[48], [2, 16], [16, 48]]");  // M = 2
  ops.attention(2, 1, 8);
  const auto store = load_json(ops.json());
  const LlmPhases p = infer_llm_phases(*store);
  REQUIRE(p.forwards.size() == 2);
  CHECK(p.forwards[0].tokens == 14);
  CHECK(p.forwards[1].tokens == 2);
  CHECK(phases_of(p) == std::vector<LlmPhase>{LlmPhase::kNone, LlmPhase::kDecode});
}

namespace {

std::unique_ptr<EventStore> load_synthetic(const std::string& name) {
  std::ifstream in(std::filesystem::path(SOLLENS_FIXTURES_DIR) / "synthetic" / name, std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return load_json(ss.str());
}

// An eager forward (embedding [1, 16], SDPA over 16 tokens) launching `eager` kernels,
// then one graph launch replaying `replayed` kernels.
std::string eager_then_replay(int eager, int replayed) {
  std::string ev = R"({"ph":"X","cat":"cpu_op","name":"aten::embedding","pid":1,"tid":1,"ts":0,"dur":5,)"
                   R"("args":{"Input Dims":[[10,4],[1,16]]}},)"
                   R"({"ph":"X","cat":"cpu_op","name":"aten::scaled_dot_product_attention","pid":1,"tid":1,"ts":10,)"
                   R"("dur":5,"args":{"Input Dims":[[1,2,16,8],[1,2,16,8],[1,2,16,8]]}})";
  const auto kernel = [&](int correlation, int k) {
    ev += R"(,{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + std::to_string(1000 + k) +
          R"(,"dur":0.5,"args":{"correlation":)" + std::to_string(correlation) + R"(,"stream":7,"device":0}})";
  };
  for (int k = 0; k < eager; ++k) {
    ev += R"(,{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
          std::to_string(20 + k) + R"(,"dur":0.5,"args":{"correlation":)" + std::to_string(k + 1) + "}}";
    kernel(k + 1, k);
  }
  ev += R"(,{"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":1,"tid":1,"ts":500,"dur":5,)"
        R"("args":{"correlation":999}})";
  for (int k = 0; k < replayed; ++k) kernel(999, 100 + k);
  return R"({"traceEvents":[)" + ev + "]}";
}

}  // namespace

TEST_CASE("phases: graph replays after an eager prefill are decode forwards", "[phases]") {
  // make_cycle_traces.py graph_decode: an eager forward of 39 kernels (embedding
  // [1, 128], SDPA over 128 tokens), then 12 cudaGraphLaunch replays of 39 kernels.
  const auto store = load_synthetic("cycles/graph_decode.json");
  const LlmPhases p = infer_llm_phases(*store);
  REQUIRE(p.forwards.size() == 13);
  CHECK(p.forwards[0].phase == LlmPhase::kPrefill);
  CHECK(p.forwards[0].tokens == 128);
  for (size_t f = 1; f < 13; ++f) {
    CHECK(p.forwards[f].phase == LlmPhase::kDecode);
    CHECK(p.forwards[f].tokens == 0);  // a replay shows no shapes
  }
}

TEST_CASE("phases: a replay of another size than the eager forward is not its decode", "[phases]") {
  // 4 eager kernels: a replay of 4 (or 2..8) is the same network, 9 is not (a text
  // encoder before a replayed denoiser); a replay of one kernel is no forward at all.
  CHECK(phases_of(infer_llm_phases(*load_json(eager_then_replay(4, 4)))) ==
        std::vector<LlmPhase>{LlmPhase::kPrefill, LlmPhase::kDecode});
  CHECK(phases_of(infer_llm_phases(*load_json(eager_then_replay(4, 8)))) ==
        std::vector<LlmPhase>{LlmPhase::kPrefill, LlmPhase::kDecode});
  CHECK_FALSE(infer_llm_phases(*load_json(eager_then_replay(4, 9))).any());
  CHECK(infer_llm_phases(*load_json(eager_then_replay(1, 1))).forwards.size() == 1);
}
