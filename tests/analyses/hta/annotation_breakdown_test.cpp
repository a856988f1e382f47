// HTA's GPU user-annotation breakdown and each kernel's annotation, on a hand-made trace.
#include <catch2/catch.hpp>

#include <cmath>

#include "analyses/hta/annotation_breakdown.h"
#include "support/table_column.h"
#include "support/test_trace.h"

using namespace sollens;
using namespace sollens::hta;
using sollens::test::col;

namespace {

std::string event(const char* cat, const char* name, int ts, int dur) {
  return std::string(R"({"ph": "X", "cat": ")") + cat + R"(", "name": ")" + name +
         R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) +
         R"(, "args": {"stream": 7}})";
}

// "fwd" twice on the GPU (10 and 20 µs), "opt" once (5 µs) inside the second "fwd";
// kernels at [2, 4] (inside the first fwd), [25, 27] (inside opt and the second fwd)
// and [60, 61] (no annotation).
std::string trace_json() {
  return R"({"traceEvents": [)" + event("gpu_user_annotation", "fwd", 0, 10) + "," +
         event("gpu_user_annotation", "fwd", 20, 20) + "," + event("gpu_user_annotation", "opt", 24, 5) + "," +
         event("kernel", "k1", 2, 2) + "," + event("kernel", "k2", 25, 2) + "," + event("kernel", "k3", 60, 1) + "]}";
}

}  // namespace

TEST_CASE("user annotation breakdown: statistics per annotation name", "[hta][annotation_breakdown]") {
  const auto t = test::load_with_tree(trace_json());
  const HtaTrace trace(*t.store);
  const Table a = gpu_user_annotation_breakdown_table(trace, t.tree, HtaOptions{});
  REQUIRE(a.num_rows() == 2);
  CHECK(col(a, "name").string_at(0) == "fwd");
  CHECK(col(a, "sum (us)").float_at(0) == 30);
  CHECK(col(a, "max (us)").float_at(0) == 20);
  CHECK(col(a, "min (us)").float_at(0) == 10);
  CHECK(col(a, "mean (us)").float_at(0) == 15);
  CHECK(col(a, "stddev").float_at(0) == Approx(std::sqrt(50.0)));  // ((−5)² + 5²) / (2 − 1)
  CHECK(col(a, "name").string_at(1) == "opt");
  CHECK(col(a, "rank").int_at(1) == 0);
}

TEST_CASE("kernels with user annotations: the innermost annotation over each kernel", "[hta][annotation_breakdown]") {
  const auto t = test::load_with_tree(trace_json());
  const HtaTrace trace(*t.store);
  const Table k = gpu_kernels_with_user_annotations_table(trace, t.tree, HtaOptions{});
  REQUIRE(k.num_rows() == 3);
  CHECK(col(k, "name").string_at(0) == "k1");
  CHECK(col(k, "user_annotation").string_at(0) == "fwd");
  CHECK(col(k, "user_annotation").string_at(1) == "opt");  // inside fwd and opt: opt, the inner
  CHECK(col(k, "user_annotation").string_at(2) == "");
}
