// Session::sol and Session::solar: the one door for speed of light, on the GPT-2 run
// recorded on an H200 (tests/fixtures/traces/h200-pt211-gpt2-train: its Kineto trace and
// its Execution Trace), and on hand-made bytes for the errors.
#include <catch2/catch.hpp>

#include <string>

#include "api/api_test_traces.h"
#include "api/session.h"
#include "support/golden_fixtures.h"

using namespace sollens;

namespace {

[[maybe_unused]] double metric(const SolResult& result, const std::string& name) {
  const Table& metrics = result.report.metrics;
  for (size_t r = 0; r < metrics.num_rows(); ++r)
    if (metrics.column(0).string_at(r) == name) return metrics.column(1).float_at(r);
  FAIL("no metric " << name);
  return 0;
}

[[maybe_unused]] const Document* member(const Document& doc, const std::string& key) {
  for (const auto& [name, value] : doc.members())
    if (name == key) return &value;
  return nullptr;
}

}  // namespace

TEST_CASE("Session::solar: an Execution Trace is needed, and an unreadable one keeps none") {
  Session session;
  CHECK_FALSE(session.has_execution_trace());
  const Result<LoadStats> kineto = session.load_execution_trace(PaddedBuffer::copy_of(test::one_gemm_trace()));
  CHECK(kineto.code() == Code::et_is_kineto);
  CHECK(kineto.message().find("this is a Kineto trace") == 0);
  CHECK_FALSE(session.has_execution_trace());
}

#ifdef SOLLENS_HAVE_ZLIB  // .json.gz fixtures: the wasm build reads plain JSON only
namespace {
const test::fs::path kGpt2 = test::kTraces / "h200-pt211-gpt2-train";
}

TEST_CASE("Session::sol: the GPT-2 run's GPU identified as the H200, three steps, layer types from modules") {
  Session session;
  REQUIRE(test::load_text(session, test::read_text(kGpt2 / "gpt2_train.json.gz")).ok());
  const SolResult identified = session.sol({});
  CHECK(identified.device.status == DeviceStatus::kIdentified);
  CHECK(identified.report.device == "H200_SXM_141GB");
  CHECK(identified.report.efficiency_factor == 1.0);
  CHECK(identified.report.ops.module_frames);
  CHECK(identified.report.ops.notes.empty());
  CHECK(metric(identified, "sol/steps") == 3);
  CHECK(metric(identified, "sol/total_ops") == 1602);
  CHECK(metric(identified, "sol/step_wall_time_ms") == Approx(109.29).epsilon(1e-4));
  CHECK(metric(identified, "sol/step_sol_time_ms") == Approx(9.2264).epsilon(1e-4));
  REQUIRE(identified.report.tables().size() == 11);
  CHECK(identified.report.tables()[0]->name() == "sol_metrics");
  CHECK(identified.report.by_layer_type.num_rows() > 0);

  // A GPU named by the user, its peaks derated: the same ops take longer.
  const SolResult chosen = session.sol({"h100_sxm5_80gb", 0.5});
  CHECK(chosen.device.status == DeviceStatus::kUserChosen);
  CHECK(chosen.report.device == "H100_SXM5_80GB");
  CHECK(chosen.report.efficiency_factor == 0.5);
  CHECK(metric(chosen, "sol/total_ops") == 1602);
  CHECK(metric(chosen, "sol/step_sol_time_ms") > 2 * metric(identified, "sol/step_sol_time_ms"));
}

TEST_CASE("Session::solar: the Execution Trace alone, then measured against the Kineto trace loaded beside it") {
  Session session;
  REQUIRE(session.load_execution_trace(PaddedBuffer::copy_of(test::read_text(kGpt2 / "gpt2_train_et.json.gz"))).ok());
  REQUIRE(session.has_execution_trace());
  CHECK(session.execution_trace_warnings().empty());

  // No GPU named and none to identify it by: the front end's notice, no SOL times.
  SolarRequest alone;
  alone.no_device_notice = "no device: pick one";
  const SolarResult unmeasured = session.solar(alone);
  CHECK_FALSE(unmeasured.measured);
  const Document& doc = unmeasured.report.document;
  REQUIRE(member(doc, "perf") != nullptr);
  CHECK(member(doc, "perf")->kind() == Document::Kind::kNull);
  REQUIRE(member(doc, "perf_notice") != nullptr);
  CHECK(member(doc, "perf_notice")->text_value() == "no device: pick one");
  CHECK(member(doc, "link") == nullptr);
  CHECK(unmeasured.report.nodes.num_rows() == 1893);
  CHECK(unmeasured.report.nodes.find("measured_gpu_us") == nullptr);
  CHECK(unmeasured.intermediates.name() == "solar_intermediates");

  // The Kineto trace loaded after it keeps it: its GPU (the H200) and its kernels count.
  REQUIRE(test::load_text(session, test::read_text(kGpt2 / "gpt2_train.json.gz")).ok());
  REQUIRE(session.has_execution_trace());
  const SolarResult measured = session.solar({});
  CHECK(measured.measured);
  const Document& arch = *member(measured.report.document, "arch");
  CHECK(member(arch, "name")->text_value() == "H200_SXM_141GB");
  const Document& link = *member(measured.report.document, "link");
  CHECK(member(link, "method")->text_value() == "record_function_id");
  CHECK(member(link, "compute_nodes_linked")->number_value() == 1893);
  CHECK(measured.report.nodes.find("measured_gpu_us") != nullptr);

  // A GPU named wins over the trace's.
  SolarRequest on_h100;
  on_h100.device_name = "H100_SXM5_80GB";
  CHECK(member(*member(session.solar(on_h100).report.document, "arch"), "name")->text_value() == "H100_SXM5_80GB");
}
#endif  // SOLLENS_HAVE_ZLIB
