// The embedded device database: every entry parses, and the figures match devices.csv.
#include <catch2/catch.hpp>

#include "devices/device_db.h"

using namespace sollens;

TEST_CASE("device db: embedded and parsed") {
  // A broken entry would be left out and named here (Code::device_db_entry_invalid).
  for (const Diagnostic& problem : device_db_problems()) FAIL_CHECK(problem.message);
  const auto& db = device_db();
  CHECK(device_db_json_texts().size() == db.size());
  size_t with_peaks = 0;
  for (const DeviceSpec& d : db) {
    INFO(d.id);
    CHECK(!d.name.empty());
    if (d.has_peaks()) {
      ++with_peaks;
      CHECK(d.mem_bw_tbps.value_or(0) > 0);
      CHECK(!d.sources.empty());
      CHECK(!d.confidence.empty());
      // Sparse figures, where given, are twice the dense ones.
      for (size_t k = 0; k < kPeakKeyCount; ++k)
        if (d.sparse_tflops[k]) {
          REQUIRE(d.dense_tflops[k]);
          CHECK(*d.sparse_tflops[k] == Approx(2 * *d.dense_tflops[k]));
        }
    }
  }
  CHECK(with_peaks == 16);  // the 13 rows of devices.csv and generate.py's V100, MI210, MI250
}

TEST_CASE("device db: figures from devices.csv") {
  const DeviceSpec* h100 = find_device("H100_SXM5_80GB");
  REQUIRE(h100);
  CHECK(*h100->dense_tflops[size_t(PeakKey::kBf16)] == 989.4);
  CHECK(*h100->sparse_tflops[size_t(PeakKey::kFp8)] == Approx(3957.8));
  CHECK(!h100->dense_tflops[size_t(PeakKey::kFp4)]);
  CHECK(*h100->mem_bw_tbps == 3.35);
  CHECK(*h100->sm_or_cu == 132);
  CHECK(h100->identify.sm_count == 132);
  const DeviceSpec* mi250x = find_device("mi250x");
  REQUIRE(mi250x);
  CHECK(mi250x->devices_per_package == 2);
  CHECK(*mi250x->device_dense_tflops(PeakKey::kFp16) == Approx(191.5));
  CHECK(!mi250x->sparse_tflops[size_t(PeakKey::kFp16)]);  // CDNA2: no sparsity
  const DeviceSpec* mi300 = find_device("MI300X");
  REQUIRE(mi300);
  CHECK(mi300->tracelens_maf_tflops.size() == 10);
  CHECK(*mi300->tracelens_mem_bw_gbps == 5300);
}

TEST_CASE("device db: --device lookup is case- and separator-insensitive") {
  CHECK(find_device("h100_sxm5_80gb") == find_device("H100_SXM5_80GB"));
  CHECK(find_device("H100 SXM")->id == "H100_SXM5_80GB");
  CHECK(find_device("h100-pcie")->id == "H100_PCIe_80GB");
  CHECK(find_device("b200")->id == "B200_HGX_1000W");
  CHECK(find_device("gb200")->id == "GB200_per_GPU");
  CHECK(find_device("mi355x")->id == "MI355X");
  CHECK(find_device("") == nullptr);
  CHECK(find_device("RTX 4090") == nullptr);
  CHECK(find_device("MI250")->id == "MI250");
  CHECK(find_device("v100")->id == "V100_SXM2");
  const std::string known = known_device_names();
  CHECK(known.find("H100_SXM5_80GB (H100 SXM)") != std::string::npos);
  CHECK(known.find("MI300X") != std::string::npos);
  CHECK(known.find("V100_SXM2 (V100, V100 SXM2)") != std::string::npos);
}

TEST_CASE("device db: V100, MI210 and MI250 from their datasheets (deviceDB/README.md)") {
  // NVIDIA V100 SXM2 (S36, S38): FP64 7.8, FP32 15.7, Tensor 125 TFLOPS, 900 GB/s, L2 6 MB.
  const DeviceSpec* v100 = find_device("V100_SXM2");
  REQUIRE(v100);
  CHECK(*v100->device_dense_tflops(PeakKey::kFp16) == 125);
  CHECK(*v100->device_dense_tflops(PeakKey::kFp32Vector) == 15.7);
  CHECK(!v100->device_dense_tflops(PeakKey::kBf16));  // Volta has no BF16 unit
  CHECK(!v100->sparse_tflops[size_t(PeakKey::kFp16)]);  // nor structured sparsity
  CHECK(*v100->device_mem_bw_tbps() == 0.9);
  CHECK(*v100->device_l2_bytes() == 6e6);
  // AMD MI210 (S39): FP16 matrix 181, FP64 vector 22.6, 1.6384 TB/s, L2 8 MB (S13).
  const DeviceSpec* mi210 = find_device("MI210");
  REQUIRE(mi210);
  CHECK(*mi210->device_dense_tflops(PeakKey::kFp16) == 181);
  CHECK(*mi210->device_dense_tflops(PeakKey::kFp64Vector) == 22.6);
  CHECK(*mi210->device_mem_bw_tbps() == 1.6384);
  // AMD MI250 (S39, S40): 362.1 TFLOPS FP16/BF16 and 3.2768 TB/s for two GCDs; each GCD
  // is a device with half of each and 8 of the 16 MB of L2.
  const DeviceSpec* mi250 = find_device("MI250");
  REQUIRE(mi250);
  CHECK(mi250->devices_per_package == 2);
  CHECK(*mi250->device_dense_tflops(PeakKey::kBf16) == Approx(181.05));
  CHECK(*mi250->device_mem_bw_tbps() == Approx(1.6384));
  CHECK(*mi250->device_l2_bytes() == 8e6);
}

TEST_CASE("device db: L2 size of every GPU, L2 bandwidth where a measurement exists") {
  for (const DeviceSpec& d : device_db()) {
    INFO(d.id);
    CHECK(d.l2_mb.value_or(0) > 0);
  }
  // H200: 50 MB L2 (devices.csv); 9.9 TB/s, the best read rate te42kyfo/gpu-benches
  // measured for 12-34 MB working sets (S44).
  const DeviceSpec* h200 = find_device("H200");
  REQUIRE(h200);
  CHECK(*h200->device_l2_bytes() == 50e6);
  CHECK(*h200->device_l2_bw_tbps() == 9.9);
  CHECK(*find_device("A100 80GB")->device_l2_bw_tbps() == 5.4);
  CHECK(*find_device("MI210")->device_l2_bw_tbps() == 5.1);
  // No measurement found: left unknown, never guessed.
  CHECK(!find_device("V100")->device_l2_bw_tbps());
  CHECK(!find_device("MI300X")->device_l2_bw_tbps());
  CHECK(!find_device("B200")->device_l2_bw_tbps());
}
