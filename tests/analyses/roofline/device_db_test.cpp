// The embedded device database: every entry parses, and the figures match devices.csv.
#include <catch2/catch.hpp>

#include "analyses/roofline/device_db.h"

using namespace sollens;

TEST_CASE("device db: embedded and parsed") {
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
  CHECK(with_peaks == 13);  // the 13 rows of devices.csv
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
  CHECK(find_device("MI250") == nullptr);  // recognised but no peaks: not selectable
  const std::string known = known_device_names();
  CHECK(known.find("H100_SXM5_80GB (H100 SXM)") != std::string::npos);
  CHECK(known.find("MI300X") != std::string::npos);
  CHECK(known.find("V100") == std::string::npos);
}
