// Device identification on the deviceProperties of every shared trace
// (tests/fixtures/traces, MANIFEST.md; expectations from devices.md). A trace added
// to the fixtures without an expectation here fails the test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "devices/device_identify.h"
#include "ingest/trace_reader.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

const fs::path kTraces = fs::path(SOLLENS_FIXTURES_DIR) / "traces";

struct Expected {
  DeviceStatus status;
  std::string id;  // database id; "" when none
};

// Path relative to tests/fixtures/traces -> what the trace ran on.
const std::map<std::string, Expected>& expectations() {
  using S = DeviceStatus;
  static const std::map<std::string, Expected> m = {
      // "NVIDIA H100 80GB HBM3", 132 SMs, 79.18 GiB -> H100 SXM
      {"tracelens-h100-bert-small/gaunernst_bert-small-uncased__1016001.json.gz", {S::kIdentified, "H100_SXM5_80GB"}},
      {"tracelens-h100-qwen1.5-0.5b/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", {S::kIdentified, "H100_SXM5_80GB"}},
      {"tracelens-h100-owlv2-large/google_owlv2-large-patch14-ensemble__1016001.json.gz", {S::kIdentified, "H100_SXM5_80GB"}},
      // "AMD Instinct MI300X VF" -> MI300X
      {"tracelens-mi300x-bert-small/gaunernst_bert-small-uncased__1016001.json.gz", {S::kIdentified, "MI300X"}},
      {"tracelens-mi300x-compile-triton/trace.json.gz", {S::kIdentified, "MI300X"}},
      // "AMD Instinct MI300X" (deviceProperties, id 0)
      {"tracelens-xdit-flux1-capture/capture_trace_rank_0.json.gz", {S::kIdentified, "MI300X"}},
      // no device name; cc 9.4, 304 CUs and 191.98 GiB: only the MI300X has these
      {"tracelens-vllm-decode-capture/graph_capture_rank_0.1773709742341309550.pt.trace.json.gz",
       {S::kIdentified, "MI300X"}},
      {"tracelens-normalization-layer-test/normalization_layer_test.json.gz", {S::kIdentified, "MI300X"}},
      // GPU events on device 9, which deviceProperties does not list: the first entry.
      {"tracelens-sglang-qwen3-8b-decode/sglang_Qwen3-8B_decode.json.gz", {S::kIdentified, "MI300X"}},
      {"tracelens-sglang-qwen3-8b-decode/capture_traces/bs_32_rank0.json.gz", {S::kIdentified, "MI300X"}},
      // No device name: cc 9.4 (gfx942), 304 CUs, 191.98 GiB -> MI300X
      {"tracelens-vllm-decode-full/graph_execution.json.gz", {S::kIdentified, "MI300X"}},
      {"tracelens-vllm-decode-full/capture_traces/graph_capture_rank_0.1773709742341309550.pt.trace.json.gz",
       {S::kIdentified, "MI300X"}},
      // "NVIDIA B200", cc 10.0, 148 SMs, 178.35 GiB
      {"tracelens-b200-vllm-tp8/eager_trace.json.gz", {S::kIdentified, "B200_HGX_1000W"}},
      // "NVIDIA A100-PG509-200" (an SXM4 board), 39.4 GiB -> the 40 GB row
      {"hta-a100-alexnet-simple-add/benchmark_result_493459_1694039959_trace.json.gz", {S::kIdentified, "A100_SXM4_40GB"}},
      {"hta-et-simple-add/benchmark_simple_add_trace.json.gz", {S::kIdentified, "A100_SXM4_40GB"}},
      {"hta-a100-ddp-nccl/nccl_data.json.gz", {S::kIdentified, "A100_SXM4_40GB"}},
      {"hta-trace-diff-pair/control.json.gz", {S::kIdentified, "A100_SXM4_40GB"}},
      // "NVIDIA H200", cc 9.0, 132 SMs, 139.80 GiB -> H200 SXM
      {"h200-pt211-gemm-bench/gemm_bench.json.gz", {S::kIdentified, "H200_SXM_141GB"}},
      {"h200-pt211-gpt2-train/gpt2_train.json.gz", {S::kIdentified, "H200_SXM_141GB"}},
      {"h200-pt211-resnet50-train/resnet50_train.json.gz", {S::kIdentified, "H200_SXM_141GB"}},
      {"h200-pt211-gpt2-train/gpt2_train_et.json.gz", {S::kNoDevices, ""}},
      // "AMD Instinct MI210", 104 CUs, 64 GB -> MI210 (AMD's MI200 table, deviceDB S39)
      {"tracelens-mi210-gpu-only/gpu_only_trace.json.gz", {S::kIdentified, "MI210"}},
      // "AMD Radeon Graphics", cc 9.0, 104 CUs, 64 GB: one GCD of an MI250
      {"hta-mi250-minitoy/mi250_minitoy_train_ROCm6_2_kineto.json.gz", {S::kIdentified, "MI250"}},
      // "Tesla V100-DGXS-32GB", 80 SMs: the DGX Station's NVLink V100, SXM2 figures
      {"kineto-tb-resnet50-v100/worker0.1623143089861.pt.trace.json.gz", {S::kIdentified, "V100_SXM2"}},
      // "Tesla V100-SXM2-16GB", 80 SMs
      {"hta-trace-diff-pair/test.json.gz", {S::kIdentified, "V100_SXM2"}},
      // "NVIDIA GeForce RTX 2080 Ti": not in the database.
      {"param-et-linear/linear_kineto.json.gz", {S::kUnknown, ""}},
      {"param-et-resnet/resnet_kineto.json.gz", {S::kUnknown, ""}},
      // No deviceProperties at all (and two Execution Traces).
      {"hta-large-integer/rank-70.Mar_25_20_48_12.2861.pt.trace.json.gz", {S::kNoDevices, ""}},
      {"hta-sampled-rank1/sampled_rank-1.json.gz", {S::kNoDevices, ""}},
      {"kineto-tb-gpu-metrics/gpu_metrics_expected.json", {S::kNoDevices, ""}},
      {"param-et-linear/linear_et.json.gz", {S::kNoDevices, ""}},
      {"param-et-resnet/resnet_et.json.gz", {S::kNoDevices, ""}},
      {"hta-et-simple-add/benchmark_simple_add_et.json.gz", {S::kNoDevices, ""}},
  };
  return m;
}

PaddedBuffer read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return PaddedBuffer::copy_of(ss.str());
}

}  // namespace

TEST_CASE("device identification: every shared trace") {
  std::vector<fs::path> traces;
  for (const auto& e : fs::recursive_directory_iterator(kTraces)) {
    const std::string n = e.path().filename().string();
    if (e.is_regular_file() && (n.ends_with(".json") || n.ends_with(".json.gz")) &&
        n != "execution_details.json")
      traces.push_back(e.path());
  }
  std::sort(traces.begin(), traces.end());
  REQUIRE(traces.size() >= 20);
  size_t checked = 0;
  for (const fs::path& p : traces) {
    const std::string rel = fs::relative(p, kTraces).generic_string();
    INFO(rel);
    Result<std::unique_ptr<EventStore>> loaded = load_trace(read_bytes(p));
    REQUIRE(loaded.ok());
    const DeviceIdentification r = identify_trace_device(*loaded.value());
    INFO("status " << device_status_name(r.status) << ", how: " << r.how << ", notice: " << r.notice);
    // PARAM DLRM: eight V100 ranks ("Tesla V100-SXM2-32GB"), each with its GPU events on
    // its own device id.
    if (rel.starts_with("param-dlrm-v100-8rank/")) {
      CHECK(r.status == DeviceStatus::kIdentified);
      REQUIRE(r.spec);
      CHECK(r.spec->id == "V100_SXM2");
      const char rank = rel[std::string("param-dlrm-v100-8rank/worker").size()];
      CHECK(r.device_index == rank - '0');
      CHECK(r.from_gpu_events);
      ++checked;
      continue;
    }
    const auto it = expectations().find(rel);
    REQUIRE(it != expectations().end());  // every fixture has an expectation
    CHECK(r.status == it->second.status);
    CHECK((r.spec ? r.spec->id : std::string()) == it->second.id);
    // A roofline exactly when identified with peaks; otherwise a notice says why.
    CHECK((r.roofline_spec() != nullptr) == (it->second.status == DeviceStatus::kIdentified));
    CHECK(r.notice.empty() == (it->second.status == DeviceStatus::kIdentified));
    ++checked;
  }
  CHECK(checked == traces.size());
}

// The peaks the older fixtures now get, per device as the trace sees it, typed from the
// datasheets (deviceDB/README.md): NVIDIA V100 SXM2 (S36, S38): FP32 15.7, Tensor (FP16)
// 125 TFLOPS, 900 GB/s. AMD MI210 (S39): FP16 matrix 181, FP32 matrix 45.3, 1.6384 TB/s.
// AMD MI250 (S39, S40): FP16/BF16 362.1, FP32 matrix 90.5, 3.2768 TB/s for its two GCDs,
// so one GCD (the trace's device) has half of each.
TEST_CASE("device identification: V100, MI210 and MI250 fixtures get datasheet peaks") {
  struct Case {
    const char* trace;
    PeakKey key;
    double tflops, tbps;
  };
  const Case cases[] = {
      {"kineto-tb-resnet50-v100/worker0.1623143089861.pt.trace.json.gz", PeakKey::kFp16, 125, 0.9},
      {"kineto-tb-resnet50-v100/worker0.1623143089861.pt.trace.json.gz", PeakKey::kFp32Vector, 15.7, 0.9},
      {"tracelens-mi210-gpu-only/gpu_only_trace.json.gz", PeakKey::kFp16, 181, 1.6384},
      {"tracelens-mi210-gpu-only/gpu_only_trace.json.gz", PeakKey::kFp32Matrix, 45.3, 1.6384},
      {"hta-mi250-minitoy/mi250_minitoy_train_ROCm6_2_kineto.json.gz", PeakKey::kBf16, 362.1 / 2, 3.2768 / 2},
      {"hta-mi250-minitoy/mi250_minitoy_train_ROCm6_2_kineto.json.gz", PeakKey::kFp32Matrix, 90.5 / 2, 3.2768 / 2},
  };
  for (const Case& c : cases) {
    INFO(c.trace << " " << peak_key_name(c.key));
    Result<std::unique_ptr<EventStore>> loaded = load_trace(read_bytes(kTraces / c.trace));
    REQUIRE(loaded.ok());
    const DeviceIdentification r = identify_trace_device(*loaded.value());
    REQUIRE(r.roofline_spec());
    CHECK(r.roofline_spec()->device_dense_tflops(c.key).value_or(0) == Approx(c.tflops));
    CHECK(r.roofline_spec()->device_mem_bw_tbps().value_or(0) == Approx(c.tbps));
  }
}
