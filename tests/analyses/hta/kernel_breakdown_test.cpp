// HTA's kernel-type and kernel breakdowns on hand-made traces (whole µs: HTA reads the
// times as they are).
#include <catch2/catch.hpp>

#include <cmath>

#include "analyses/hta/kernel_breakdown.h"
#include "support/table_column.h"
#include "support/test_trace.h"

using namespace sollens;
using namespace sollens::hta;
using sollens::test::col;

namespace {

std::string gpu(const char* cat, const char* name, int ts, int dur, int stream = 7) {
  return std::string(R"({"ph": "X", "cat": ")") + cat + R"(", "name": ")" + name +
         R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) +
         R"(, "args": {"stream": )" + std::to_string(stream) + "}}";
}

}  // namespace

TEST_CASE("kernel type breakdown: time per combination of running types", "[hta][kernel_breakdown]") {
  // gemm [0, 10] and an allreduce [4, 15] on another stream, a memcpy [20, 22]:
  // COMPUTATION alone 0–4 (4), both 4–10 (6), COMMUNICATION alone 10–15 (5), MEMORY 2.
  const auto t = test::load_with_tree(R"({"traceEvents": [)" + gpu("kernel", "gemm", 0, 10) + "," +
                                      gpu("kernel", "ncclKernel_AllReduce", 4, 11, 20) + "," +
                                      gpu("gpu_memcpy", "Memcpy HtoD", 20, 2) + "]}");
  const HtaTrace trace(*t.store);
  const Table types = gpu_kernel_type_breakdown_table(trace, t.tree, HtaOptions{});
  REQUIRE(types.num_rows() == 4);
  // By sum descending; percentages of 17 µs rounded to 1 decimal.
  CHECK(col(types, "kernel_type").string_at(0) == "COMPUTATION overlapping COMMUNICATION");
  CHECK(col(types, "sum").int_at(0) == 6);
  CHECK(col(types, "percentage").float_at(0) == 35.3);  // 6 / 17 = 35.29 %
  CHECK(col(types, "kernel_type").string_at(1) == "COMMUNICATION");
  CHECK(col(types, "percentage").float_at(1) == 29.4);
  CHECK(col(types, "kernel_type").string_at(2) == "COMPUTATION");
  CHECK(col(types, "sum").int_at(2) == 4);
  CHECK(col(types, "kernel_type").string_at(3) == "MEMORY");
  CHECK(col(types, "percentage").float_at(3) == 11.8);  // 2 / 17 = 11.76 %
}

TEST_CASE("kernel breakdown: per-name statistics, few names", "[hta][kernel_breakdown]") {
  // "a" twice (4 and 6 µs), "b" once (3 µs): at most num_kernels names, so each row has
  // its own durations' statistics; rows by type, then name.
  const auto t = test::load_with_tree(R"({"traceEvents": [)" + gpu("kernel", "b", 0, 3) + "," +
                                      gpu("kernel", "a", 10, 4) + "," + gpu("kernel", "a", 20, 6) + "]}");
  const HtaTrace trace(*t.store);
  const Table k = gpu_kernel_breakdown_table(trace, t.tree, HtaOptions{});
  REQUIRE(k.num_rows() == 2);
  CHECK(col(k, "name").string_at(0) == "a");
  CHECK(col(k, "sum (us)").float_at(0) == 10);
  CHECK(col(k, "max (us)").float_at(0) == 6);
  CHECK(col(k, "min (us)").float_at(0) == 4);
  CHECK(col(k, "mean (us)").float_at(0) == 5);
  CHECK(col(k, "stddev").float_at(0) == Approx(std::sqrt(2.0)));  // sample std of {4, 6}
  CHECK(col(k, "kernel_type").string_at(0) == "COMPUTATION");
  CHECK(col(k, "stddev").float_at(1) == 0);  // one duration: HTA fills the NaN with 0
}

TEST_CASE("kernel breakdown: names beyond num_kernels become others; a negative total keeps its row",
          "[hta][kernel_breakdown]") {
  // Totals per name: big 10 (4 + 6), mid 6, small 3, and "neg" −1 (HTA's rounding of a
  // sub-µs kernel: start 30.2 → 31, end 30.7 → 30). num_kernels = 2.
  // By sum: 10, 6, 3, −1; running sums 10, 16, 19, 18; their 0.8 quantile (sorted 10,
  // 16, 18, 19; index 2.4) = 18.4. Beyond it or at position ≥ 2: small and neg; neg's
  // total is negative, so it keeps its row (as HTA's references show); small → others.
  const auto t = test::load_with_tree(
      R"({"traceEvents": [)" + gpu("kernel", "big", 0, 4) + "," + gpu("kernel", "big", 10, 6) + "," +
      gpu("kernel", "mid", 20, 6) + "," + gpu("kernel", "small", 40, 3) + "," +
      R"({"ph": "X", "cat": "kernel", "name": "neg", "pid": 0, "tid": 7, "ts": 30.2, "dur": 0.5, "args": {"stream": 7}}]})");
  const HtaTrace trace(*t.store);
  HtaOptions options;
  options.num_kernels = 2;
  const Table k = gpu_kernel_breakdown_table(trace, t.tree, options);
  REQUIRE(k.num_rows() == 4);
  // Rows by name: big, mid, neg, others; statistics over the names' totals.
  CHECK(col(k, "name").string_at(0) == "big");
  CHECK(col(k, "sum (us)").float_at(0) == 10);
  CHECK(col(k, "min (us)").float_at(0) == 10);  // over totals, no longer over durations
  CHECK(col(k, "name").string_at(2) == "neg");
  CHECK(col(k, "sum (us)").float_at(2) == -1);
  CHECK(col(k, "name").string_at(3) == "others");
  CHECK(col(k, "sum (us)").float_at(3) == 3);
  CHECK(col(k, "stddev").float_at(3) == 0);
}
