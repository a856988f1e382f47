// Device identification on synthetic deviceProperties: names, odd names, the AMD
// cases of devices.md, and refusals (never a guessed peak).
#include <catch2/catch.hpp>

#include "writers/device_json.h"
#include "devices/device_identify.h"
#include "ingest/trace_reader.h"

using namespace sollens;

namespace {

constexpr int64_t GiB = int64_t(1) << 30;

DeviceProperties dev(std::string name, int64_t major, int64_t minor, int64_t sms, int64_t mem,
                     int64_t warp) {
  DeviceProperties d;
  d.id = 0;
  d.name = std::move(name);
  d.compute_major = major;
  d.compute_minor = minor;
  d.num_sms = sms;
  d.total_global_mem = mem;
  d.warp_size = warp;
  return d;
}

std::string id_of(const DeviceProperties& d) {
  const DeviceIdentification r = identify_device(d);
  INFO(r.notice);
  return r.spec ? r.spec->id : std::string("-");
}

DeviceStatus status_of(const DeviceProperties& d) { return identify_device(d).status; }

}  // namespace

TEST_CASE("identify: NVIDIA by name, verified by SMs, cc and memory") {
  CHECK(id_of(dev("NVIDIA H100 80GB HBM3", 9, 0, 132, 85018279936, 32)) == "H100_SXM5_80GB");
  CHECK(id_of(dev("NVIDIA H100 PCIe", 9, 0, 114, 85E9, 32)) == "H100_PCIe_80GB");
  CHECK(id_of(dev("NVIDIA H200", 9, 0, 132, 150E9, 32)) == "H200_SXM_141GB");
  CHECK(id_of(dev("NVIDIA B200", 10, 0, 148, 191503138816, 32)) == "B200_HGX_1000W");
  CHECK(id_of(dev("NVIDIA GB200", 10, 0, 148, 186 * GiB, 32)) == "GB200_per_GPU");
  CHECK(id_of(dev("NVIDIA A100-SXM4-80GB", 8, 0, 108, 81920LL << 20, 32)) == "A100_SXM4_80GB");
  CHECK(id_of(dev("NVIDIA A100-SXM4-40GB", 8, 0, 108, 40536LL << 20, 32)) == "A100_SXM4_40GB");
  CHECK(id_of(dev("NVIDIA A100-PG509-200", 8, 0, 108, 42297524224, 32)) == "A100_SXM4_40GB");
  CHECK(id_of(dev("NVIDIA L40S", 8, 9, 142, 46 * GiB, 32)) == "L40S");
  CHECK(status_of(dev("NVIDIA H100 80GB HBM3", 9, 0, 132, 85018279936, 32)) ==
        DeviceStatus::kIdentified);
}

TEST_CASE("identify: look-alikes not in the database are refused") {
  CHECK(status_of(dev("NVIDIA H100 NVL", 9, 0, 132, 94 * GiB, 32)) == DeviceStatus::kUnknown);
  CHECK(status_of(dev("NVIDIA H20", 9, 0, 78, 96 * GiB, 32)) == DeviceStatus::kUnknown);
  CHECK(status_of(dev("NVIDIA H800", 9, 0, 132, 80 * GiB, 32)) == DeviceStatus::kUnknown);
  CHECK(status_of(dev("NVIDIA A100-PCIE-40GB", 8, 0, 108, 40 * GiB, 32)) == DeviceStatus::kUnknown);
  CHECK(status_of(dev("NVIDIA L40", 8, 9, 142, 46 * GiB, 32)) == DeviceStatus::kUnknown);
  CHECK(status_of(dev("NVIDIA GeForce RTX 2080 Ti", 7, 5, 68, 11554586624, 32)) ==
        DeviceStatus::kUnknown);
  // B200 must not match GB200's name and the other way round.
  CHECK(id_of(dev("NVIDIA GB200", 10, 0, 148, 186 * GiB, 32)) != "B200_HGX_1000W");
}

TEST_CASE("identify: a name contradicted by the trace's keys is refused, with the reason") {
  const DeviceIdentification r = identify_device(dev("NVIDIA H100 80GB HBM3", 8, 0, 108, 80 * GiB, 32));
  CHECK(r.status == DeviceStatus::kUnknown);
  CHECK(r.roofline_spec() == nullptr);
  CHECK(r.notice.find("looks like H100_SXM5_80GB") != std::string::npos);
  CHECK(r.notice.find("compute capability 8.0 is not 9.0") != std::string::npos);
  // An A100 with an unexpected memory size: neither row.
  CHECK(status_of(dev("NVIDIA A100-SXM4-64GB", 8, 0, 108, 60 * GiB, 32)) == DeviceStatus::kUnknown);
}

TEST_CASE("identify: NVIDIA without a name is never guessed") {
  CHECK(status_of(dev("", 9, 0, 132, 85018279936, 32)) == DeviceStatus::kUnknown);
  CHECK(status_of(dev("", 8, 9, 142, 46 * GiB, 32)) == DeviceStatus::kUnknown);  // L40 or L40S
}

TEST_CASE("identify: AMD MI300X names and the empty name (devices.md)") {
  CHECK(id_of(dev("AMD Instinct MI300X", 9, 4, 304, 206141652992, 64)) == "MI300X");
  CHECK(id_of(dev("AMD Instinct MI300X VF", 9, 4, 304, 205571227648, 64)) == "MI300X");
  CHECK(id_of(dev("AMD Instinct MI325X", 9, 4, 304, 256 * GiB, 64)) == "MI325X");
  // Empty name, gfx942 with 304 CUs: MI300X or MI325X, decided by memory.
  CHECK(id_of(dev("", 9, 4, 304, 205571227648, 64)) == "MI300X");
  CHECK(id_of(dev("", 9, 4, 304, 256 * GiB, 64)) == "MI325X");
  const DeviceIdentification no_mem = identify_device(dev("", 9, 4, 304, kNoValue, 64));
  CHECK(no_mem.status == DeviceStatus::kUnknown);
  CHECK(no_mem.notice.find("no roofline") != std::string::npos);
  CHECK(status_of(dev("AMD Instinct MI300A", 9, 4, 228, 128 * GiB, 64)) == DeviceStatus::kUnknown);
  CHECK(id_of(dev("AMD Instinct MI355X", 9, 5, 256, 288 * GiB, 64)) == "MI355X");
  CHECK(status_of(dev("", 9, 5, 256, 288 * GiB, 64)) == DeviceStatus::kUnknown);  // 350X or 355X
}

TEST_CASE("identify: MI250 / MI250X GCDs and MI210") {
  // hta-mi250-minitoy: "AMD Radeon Graphics", cc 9.0, 104 CUs per GCD = one MI250 GCD.
  const DeviceIdentification mi250 =
      identify_device(dev("AMD Radeon Graphics", 9, 0, 104, 68702699520, 64));
  CHECK(mi250.status == DeviceStatus::kIdentified);
  REQUIRE(mi250.roofline_spec());
  CHECK(mi250.spec->id == "MI250");
  // AMD's MI250: 362.1 TFLOPS BF16 for the package of two GCDs (deviceDB S39, S40).
  CHECK(*mi250.roofline_spec()->device_dense_tflops(PeakKey::kBf16) == Approx(362.1 / 2));
  // 110 CUs per GCD = MI250X, whatever the marketing name says.
  CHECK(id_of(dev("AMD Radeon Graphics", 9, 0, 110, 64 * GiB, 64)) == "MI250X");
  CHECK(id_of(dev("AMD Instinct MI250X / MI250", 9, 0, 110, 64 * GiB, 64)) == "MI250X");
  CHECK(id_of(dev("AMD Instinct MI250X / MI250", 9, 0, 104, 64 * GiB, 64)) == "MI250");
  CHECK(id_of(dev("AMD Instinct MI250X", 9, 0, 110, 64 * GiB, 64)) == "MI250X");
  CHECK(id_of(dev("", 9, 0, 110, 64 * GiB, 64)) == "MI250X");
  CHECK(status_of(dev("", 9, 0, 104, 64 * GiB, 64)) == DeviceStatus::kUnknown);  // MI210 or MI250
  CHECK(id_of(dev("AMD Instinct MI210", 9, 0, 104, 68702699520, 64)) == "MI210");
  CHECK(status_of(dev("AMD Instinct MI210", 9, 0, 104, 68702699520, 64)) == DeviceStatus::kIdentified);
  // An AMD APU called "AMD Radeon Graphics" (gfx1103): not an MI250.
  CHECK(status_of(dev("AMD Radeon Graphics", 11, 0, 12, 16 * GiB, 32)) == DeviceStatus::kUnknown);
  // cc 9.0 and 132 compute units with AMD's 64-wide waves is no H100.
  CHECK(status_of(dev("", 9, 0, 132, 80 * GiB, 64)) == DeviceStatus::kUnknown);
}

TEST_CASE("identify: V100 SXM2 and DGXS get the SXM2 datasheet figures, PCIe does not") {
  for (const char* name : {"Tesla V100-SXM2-32GB", "Tesla V100-DGXS-32GB", "Tesla V100-SXM2-16GB"}) {
    const DeviceIdentification r = identify_device(dev(name, 7, 0, 80, 34079899648, 32));
    CHECK(r.status == DeviceStatus::kIdentified);
    REQUIRE(r.roofline_spec());
    CHECK(r.spec->id == "V100_SXM2");
  }
  // V100 PCIe has lower clocks (14 / 112 TFLOPS): not the SXM2 entry.
  CHECK(status_of(dev("Tesla V100-PCIE-16GB", 7, 0, 80, 16 * GiB, 32)) == DeviceStatus::kUnknown);
}

TEST_CASE("identify: the device the GPU events ran on, --device, no deviceProperties") {
  const std::string trace = R"({"deviceProperties": [
      {"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8, "computeMinor": 0,
       "numSms": 108, "totalGlobalMem": 85899345920, "warpSize": 32},
      {"id": 1, "name": "NVIDIA H100 80GB HBM3", "computeMajor": 9, "computeMinor": 0,
       "numSms": 132, "totalGlobalMem": 85018279936, "warpSize": 32}],
    "traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 7, "ts": 1, "dur": 2,
       "args": {"device": 1, "stream": 7}},
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 7, "ts": 4, "dur": 2,
       "args": {"device": 1, "stream": 7}}]})";
  Result<std::unique_ptr<EventStore>> loaded = load_trace(PaddedBuffer::copy_of(trace));
  REQUIRE(loaded.ok());
  DeviceIdentification r = identify_trace_device(*loaded.value());
  CHECK(r.device_index == 1);
  CHECK(r.from_gpu_events);
  REQUIRE(r.roofline_spec());
  CHECK(r.roofline_spec()->id == "H100_SXM5_80GB");

  r = identify_trace_device(*loaded.value(), "a100 80gb");
  CHECK(r.status == DeviceStatus::kUserChosen);
  REQUIRE(r.roofline_spec());
  CHECK(r.roofline_spec()->id == "A100_SXM4_80GB");

  r = identify_trace_device(*loaded.value(), "TPU v5");
  CHECK(r.status == DeviceStatus::kUnknown);
  CHECK(r.roofline_spec() == nullptr);
  CHECK(r.notice.find("unknown device 'TPU v5' (known: ") != std::string::npos);

  Result<std::unique_ptr<EventStore>> bare = load_trace(PaddedBuffer::copy_of(R"({"traceEvents": []})"));
  REQUIRE(bare.ok());
  r = identify_trace_device(*bare.value());
  CHECK(r.status == DeviceStatus::kNoDevices);
  CHECK(r.roofline_spec() == nullptr);
  CHECK(r.notice.find("no deviceProperties") != std::string::npos);
}

TEST_CASE("identify: the roofline ceilings as JSON, only with a roofline") {
  const DeviceIdentification h100 = identify_device(dev("NVIDIA H100 80GB HBM3", 9, 0, 132, 85018279936, 32));
  REQUIRE(h100.roofline_spec());
  const std::string json = roofline_ceilings_json(h100);
  // deviceDB/H100_SXM5_80GB.json: bf16 989.4; FP32 GEMMs fall back to fp32_vector 66.9.
  CHECK(json.starts_with("{\"matrix_fp64\": {\"peak\": \"fp64_matrix\", \"tflops\": 66.9}, "
                         "\"matrix_fp32\": {\"peak\": \"fp32_vector\", \"tflops\": 66.9}, "));
  CHECK(json.find("\"matrix_bf16\": {\"peak\": \"bf16\", \"tflops\": 989.4}") != std::string::npos);
  CHECK(json.find("matrix_fp4") == std::string::npos);  // no fp4 peak on an H100
  CHECK(json.ends_with("\"vector_bf16\": {\"peak\": \"fp32_vector\", \"tflops\": 66.9}}"));
  // V100 SXM2 (deviceDB S36): tensor cores for FP16 only, 125 TFLOPS; no BF16 unit.
  const std::string v100 =
      roofline_ceilings_json(identify_device(dev("Tesla V100-SXM2-32GB", 7, 0, 80, 34079899648, 32)));
  CHECK(v100.find("\"matrix_fp16\": {\"peak\": \"fp16\", \"tflops\": 125.0}") != std::string::npos);
  CHECK(v100.find("matrix_bf16") == std::string::npos);
  // Unknown GPU: no ceilings to draw.
  CHECK(roofline_ceilings_json(identify_device(dev("Tesla V100-PCIE-16GB", 7, 0, 80, 16 * GiB, 32))) == "{}");
}
