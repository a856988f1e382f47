// HTA's communication–computation overlap on hand-made traces.
#include <catch2/catch.hpp>

#include "analyses/hta/comm_comp_overlap.h"
#include "support/table_column.h"
#include "support/test_trace.h"

using namespace sollens;
using namespace sollens::hta;
using sollens::test::col;

namespace {

std::string kernel(const char* name, int ts, int dur, int stream) {
  return std::string(R"({"ph": "X", "cat": "kernel", "name": ")") + name + R"(", "pid": 0, "tid": 7, "ts": )" +
         std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": {"stream": )" +
         std::to_string(stream) + "}}";
}

}  // namespace

TEST_CASE("comm-comp overlap: share of merged communication time with computation running",
          "[hta][comm_comp_overlap]") {
  // Communication [0, 10] and [8, 12] merge to [0, 12] (12 µs); computation [5, 8] and
  // [9, 20] overlap it for 3 + 3 = 6 µs: 50 %.
  const auto t = test::load_with_tree(R"({"traceEvents": [)" + kernel("ncclKernel_AllReduce", 0, 10, 20) + "," +
                                      kernel("ncclKernel_AllGather", 8, 4, 21) + "," + kernel("gemm", 5, 3, 7) +
                                      "," + kernel("gemm", 9, 11, 7) + "]}");
  const HtaTrace trace(*t.store);
  const CommCompOverlap o = comm_comp_overlap(trace, breakdown_events(trace));
  CHECK(o.comm_us == 12);
  CHECK(o.overlapped_us == 6);
  const Table table = comm_comp_overlap_table(trace, t.tree, HtaOptions{});
  REQUIRE(table.num_rows() == 1);
  CHECK(col(table, "comp_comm_overlap_pctg").float_at(0) == 50);
}

TEST_CASE("comm-comp overlap: empty without communication", "[hta][comm_comp_overlap]") {
  const auto t = test::load_with_tree(R"({"traceEvents": [)" + kernel("gemm", 5, 3, 7) + "]}");
  const HtaTrace trace(*t.store);
  const Table table = comm_comp_overlap_table(trace, t.tree, HtaOptions{});
  REQUIRE(table.num_rows() == 1);
  CHECK(col(table, "comp_comm_overlap_pctg").is_null(0));
}
