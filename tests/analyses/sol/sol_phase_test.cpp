// The phase of an op: a user annotation where one holds it, else the LLM phase inferred
// from the shapes (analyses/phases); tokens per second per phase and per step, on the
// unannotated decode loop of tests/fixtures/synthetic/hf_decode_loop.json
// (make_hf_decode_loop.py: forward f starts at 1310 f µs; its kernels start 7 µs after
// each 10 µs op; prefill kernels 30 µs back to back, decode kernels 3 µs).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyses/cycles/cycles.h"
#include "devices/device_db.h"
#include "analyses/sol/sol.h"
#include "analyses/sol/sol_phase.h"
#include "ingest/trace_reader.h"
#include "support/table_column.h"
#include "support/test_trace.h"

using namespace sollens;
using test::col;

namespace {

DeviceIdentification h100() { return test::user_device("H100_SXM5_80GB"); }
using test::row_of;
std::unique_ptr<EventStore> load_json(const std::string& json) { return test::load_store(json); }
std::unique_ptr<EventStore> load_decode_loop() { return load_json(test::fixture_text("synthetic/hf_decode_loop.json")); }

}  // namespace

TEST_CASE("sol_by_phase: an unannotated decode loop has a prefill and a decode row, with tokens per second",
          "[sol][phases]") {
  const auto store = load_decode_loop();
  const TraceTree tree = TraceTree::build(*store, {});
  const CycleReport cycles = analyze_cycles(*store);
  const SolReport r = analyze_sol(*store, tree, h100(), {}, &cycles);
  const Table& t = r.by_phase;
  REQUIRE(t.num_rows() == 2);  // no "(no phase)": every op is in a forward
  const size_t prefill = row_of(t, "prefill"), decode = row_of(t, "decode");
  CHECK(col(t, "forwards").int_at(prefill) == 1);
  CHECK(col(t, "forwards").int_at(decode) == 31);
  CHECK(col(t, "tokens").int_at(prefill) == 1024);  // 4 x 256
  CHECK(col(t, "tokens").int_at(decode) == 124);    // 31 forwards x 4 sequences x 1 token
  // Wall: the prefill run reaches to the first decode kernel (1310 + 7) from its first
  // kernel (7): 1.310 ms; decode from 1317 to the last kernel's end, 1310·31 + 7 + 30·10
  // + 3 = 40920: 39.603 ms.
  CHECK(col(t, "wall_time_ms").float_at(prefill) == Approx(1.310));
  CHECK(col(t, "wall_time_ms").float_at(decode) == Approx(39.603));
  CHECK(col(t, "tokens_per_s").float_at(prefill) == Approx(1024 / 1.310e-3));  // 781,679
  CHECK(col(t, "tokens_per_s").float_at(decode) == Approx(124 / 39.603e-3));   // 3,131.1

  // sol_by_step: the decode step's wall is its period, 1310 µs, 30 times, and the last
  // step's span 40920 − 40617 = 303 µs: mean 39603 / 31 µs; 4 tokens per step.
  const Table& s = r.by_step;
  bool saw_decode = false;
  for (size_t row = 0; row < s.num_rows(); ++row) {
    if (col(s, "level").string_at(row) != "step" || col(s, "llm_phase").string_at(row) != "decode") continue;
    saw_decode = true;
    CHECK(col(s, "repetitions").int_at(row) == 31);
    CHECK(col(s, "tokens").int_at(row) == 4);
    CHECK(col(s, "tokens_per_s").float_at(row) == Approx(4 / (39603e-6 / 31)));
    // Walls: 303 (the last step), then 30 × 1310: median and 90th percentile 1310.
    CHECK(col(s, "wall_us").float_at(row) == Approx(39603.0 / 31));
    CHECK(col(s, "wall_p50_us").float_at(row) == Approx(1310));
    CHECK(col(s, "wall_p90_us").float_at(row) == Approx(1310));
  }
  CHECK(saw_decode);
  // The prefill step runs to the first decode kernel (as its sol_by_phase row): 1310 µs,
  // 1024 tokens in it, as sol_by_phase's prefill rate.
  for (size_t row = 0; row < s.num_rows(); ++row) {
    if (col(s, "level").string_at(row) != "step" || col(s, "llm_phase").string_at(row) != "prefill") continue;
    CHECK(col(s, "wall_us").float_at(row) == Approx(1310));
    CHECK(col(s, "tokens_per_s").float_at(row) == Approx(1024 / 1.310e-3));
  }
}

TEST_CASE("PhaseLookup: an annotation wins over the inferred phase", "[sol][phases]") {
  // Forward 1 (prefill, 0–20 µs) and forward 2 (decode, 20–40 µs), the decode's
  // attention inside a vLLM-style annotation.
  const std::string json = R"({"traceEvents":[
    {"ph":"X","cat":"cpu_op","name":"aten::embedding","pid":1,"tid":1,"ts":0,"dur":5,"args":{"Input Dims":[[10,4],[1,16]]}},
    {"ph":"X","cat":"cpu_op","name":"aten::scaled_dot_product_attention","pid":1,"tid":1,"ts":10,"dur":5,
     "args":{"Input Dims":[[1,2,16,8],[1,2,16,8],[1,2,16,8]]}},
    {"ph":"X","cat":"cpu_op","name":"aten::embedding","pid":1,"tid":1,"ts":20,"dur":5,"args":{"Input Dims":[[10,4],[1,1]]}},
    {"ph":"X","cat":"user_annotation","name":"execute_decode_1","pid":1,"tid":1,"ts":29,"dur":8},
    {"ph":"X","cat":"cpu_op","name":"aten::scaled_dot_product_attention","pid":1,"tid":1,"ts":30,"dur":5,
     "args":{"Input Dims":[[1,2,1,8],[1,2,17,8],[1,2,17,8]]}}]})";
  const auto store = load_json(json);
  const PhaseLookup phases(*store);
  CHECK(phases.phase_of(1) == "prefill");
  CHECK(phases.phase_of(2) == "decode");
  CHECK(phases.phase_of(4) == "execute_decode_1");
}
