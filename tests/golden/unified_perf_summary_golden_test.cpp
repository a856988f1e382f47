// unified_perf_summary with a device: TraceLens's arch-file header (§4.6) and its
// roofline worked out by hand. Against the reference reports (torch.compile Triton ops'
// model cells included): the golden report cases (cases.tsv).
#include <catch2/catch.hpp>

#include <filesystem>

#include "devices/device_db.h"
#include "support/golden_fixtures.h"
#include "support/golden_report.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

// The report's unified_perf_summary for the roofline GPU `device` (null: none).
Table unified_of(const fs::path& trace, const DeviceSpec* device = nullptr) {
  ReportOptions options;
  options.device = device;
  const test::GoldenReport ours = test::report_of(trace, options);
  REQUIRE(ours.loaded);
  const Table* unified = ours.sheet("unified_perf_summary");
  REQUIRE(unified != nullptr);
  return *unified;
}

std::string header_of(const Table& t) {
  std::string h;
  for (size_t c = 0; c < t.num_columns(); ++c) h += (c ? "," : "") + t.column(c).name();
  return h;
}

}  // namespace

TEST_CASE("unified_perf_summary with a device has TraceLens's arch-file header", "[golden]") {
  const fs::path trace = test::kTraces / "tracelens-h100-bert-small" / "gaunernst_bert-small-uncased__1016001.json.gz";
  const DeviceSpec* h100 = find_device("H100_SXM5_80GB");
  REQUIRE(h100 != nullptr);
  const Table with = unified_of(trace, h100);
  CHECK(header_of(with) ==
        "name,op category,process_name,process_label,thread_name,Input Dims,Input type,Input Strides,Concrete Inputs,"
        "ex_UID,operation_count,total_duration_us,mean_duration_us,std_duration_us,GFLOPS,Data Moved (MB),FLOPS/Byte,"
        "Compute Spec,Roofline Bound,TB/s_mean,TB/s_std,TFLOPS/s_mean,TFLOPS/s_std,Kernel Time (µs)_mean,"
        "Kernel Time (µs)_std,Kernel Time (µs)_sum,duration_us_median,duration_us_min,duration_us_max,TB/s_median,"
        "TB/s_min,TB/s_max,TFLOPS/s_median,TFLOPS/s_min,TFLOPS/s_max,Roofline Time (µs)_first,Pct Roofline_mean,"
        "Pct Roofline_median,Pct Roofline_std,Pct Roofline_min,Pct Roofline_max,Kernel Time (µs)_median,"
        "Kernel Time (µs)_min,Kernel Time (µs)_max,kernel_details_summary,trunc_kernel_details,perf_params,"
        "has_perf_model,Percentage (%),Cumulative Percentage (%)");
  // Every column TraceLens has without an arch file is unchanged by the device.
  const Table without = unified_of(trace);
  REQUIRE(with.num_rows() == without.num_rows());
  for (size_t c = 0; c < without.num_columns(); ++c) {
    const Column* same = with.find(without.column(c).name());
    REQUIRE(same != nullptr);
    for (size_t r = 0; r < without.num_rows(); ++r) {
      REQUIRE(same->is_null(r) == without.column(c).is_null(r));
      if (same->type() == ColumnType::kFloat && !same->is_null(r))
        CHECK(same->float_at(r) == without.column(c).float_at(r));
    }
  }
  // The first row is aten::addmm (141x512x512 bf16, 17 calls): its roofline on the
  // H100 SXM (bf16 dense 989.4 TFLOPS, 3.35 TB/s; ridge 295 FLOP/B) is memory-bound at
  // FLOPS/Byte 90.9: 814,080 B / 3.35e12 B/s = 0.243009 µs.
  REQUIRE(with.find("name")->string_at(0) == "aten::addmm");
  CHECK(with.find("Roofline Bound")->string_at(0) == "MEMORY_BOUND");
  CHECK(with.find("Roofline Time (µs)_first")->float_at(0) == Approx(814080 / 3.35e12 * 1e6).epsilon(1e-12));
  // A row without a model has no roofline.
  bool saw_unmodeled = false;
  for (size_t r = 0; r < with.num_rows(); ++r)
    if (!with.find("has_perf_model")->bool_at(r)) {
      saw_unmodeled = true;
      CHECK(with.find("Roofline Bound")->is_null(r));
      CHECK(with.find("Pct Roofline_mean")->is_null(r));
    }
  CHECK(saw_unmodeled);
}
