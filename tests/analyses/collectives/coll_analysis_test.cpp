// coll_analysis on hand-made traces: which kernels count (§8.1), dtype sizes, the
// dropna rule, ddof-1 std, simplified mode, pandas' dtype quirks and the row order.
// Expected values are worked out in the comments.
#include <catch2/catch.hpp>

#include <string>

#include "analyses/collectives/coll_analysis.h"
#include "analyses/ops/trace_builder.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "report/report.h"
#include "writers/csv_writer.h"

using namespace sollens;

namespace {

const std::string kHeader =
    "rank,Process Group Name,Process Group Ranks,Collective name,Group size,dtype,In msg nelems,"
    "Out msg nelems,In split size,Out split size,stream,In msg size (MB)_first,Out msg size (MB)_first,"
    "dur_sum,dur_mean,dur_std,dur_min,dur_max,operation_count\n";

// The record_param_comms fields Kineto copies onto an NCCL kernel, as in HTA's nccl_data.
struct Comms {
  std::string collective = R"("allreduce")";
  std::string dtype = R"("Float")";
  std::string in_nelems = "1048576", out_nelems = "1048576";
  std::string group_size = "2";
  std::string pg_name = R"("0")";
  std::string pg_ranks = R"("[0, 1]")";
  std::string split = R"("[]")";
  int stream = 40;
  std::string link = R"("correlation":1,"External id":1)";

  std::string args() const {
    std::string a = link + ",\"stream\":" + std::to_string(stream);
    auto add = [&](const char* key, const std::string& v) {
      if (!v.empty()) a += std::string(",\"") + key + "\":" + v;  // empty: key absent
    };
    add("Collective name", collective);
    add("In msg nelems", in_nelems);
    add("Out msg nelems", out_nelems);
    add("Group size", group_size);
    add("dtype", dtype);
    add("In split size", split);
    add("Out split size", split);
    add("Process Group Name", pg_name);
    add("Process Group Ranks", pg_ranks);
    return a;
  }
};

std::string kernel(const std::string& name, double ts, const std::string& dur, const Comms& c,
                   const std::string& cat = "kernel") {
  return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":0,"tid":7,"ts":)" +
         std::to_string(ts) + R"(,"dur":)" + dur + R"(,"args":{)" + c.args() + "}}";
}

const char* kAllReduce = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";

std::unique_ptr<EventStore> load(const test::TraceBuilder& b) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(b.json()));
  REQUIRE(r.ok());
  return std::move(r.value());
}

std::string sheet_csv(const test::TraceBuilder& b) {
  CollAnalysisOptions tracelens_only;
  tracelens_only.bandwidth_columns = false;
  return to_csv(coll_analysis_table(*load(b), tracelens_only));
}

}  // namespace

TEST_CASE("coll_analysis: message sizes use TraceLens's dtype table", "[collectives]") {
  // 1048576 elements: MB = bytes per element exactly.
  const std::pair<const char*, double> kSizes[] = {{"Float", 4},  {"Int", 4},    {"Long", 8},
                                                   {"BFloat16", 2}, {"Bool", 1}, {"Byte", 1},
                                                   {"Double", 8}, {"Half", 2},   {"Short", 2}};
  for (const auto& [dtype, bytes] : kSizes) {
    INFO(dtype);
    Comms c;
    c.dtype = std::string("\"") + dtype + "\"";
    test::TraceBuilder b;
    b.raw(kernel(kAllReduce, 100, "10.5", c));
    const Table t = coll_analysis_table(*load(b));
    REQUIRE(t.num_rows() == 1);
    CHECK(t.find("In msg size (MB)_first")->float_at(0) == bytes);
    CHECK(t.find("Out msg size (MB)_first")->float_at(0) == bytes);
  }
  // A dtype TraceLens does not size keeps its row, with empty sizes.
  Comms fp8;
  fp8.dtype = R"("Float8_e4m3fn")";
  test::TraceBuilder b;
  b.raw(kernel(kAllReduce, 100, "10.5", fp8));
  CHECK(sheet_csv(b) == kHeader + "0,0,\"[0, 1]\",allreduce,2,Float8_e4m3fn,1048576,1048576,[],[],40,,,10.5,10.5,,10.5,10.5,1\n");
}

TEST_CASE("coll_analysis: std is ddof 1, empty for a single call", "[collectives]") {
  Comms big;
  big.in_nelems = big.out_nelems = "2097152";  // 8 MiB of Float
  test::TraceBuilder b;
  b.raw(kernel(kAllReduce, 100, "10.0", Comms{}))
      .raw(kernel(kAllReduce, 200, "14.0", Comms{}))
      .raw(kernel(kAllReduce, 300, "30.5", big));
  // Group of 10 and 14: mean 12, std sqrt(((10-12)² + (14-12)²) / (2-1)) = sqrt(8).
  // The single 30.5 call sorts first (dur_sum 30.5 > 24) and has no std.
  CHECK(sheet_csv(b) == kHeader +
                            "0,0,\"[0, 1]\",allreduce,2,Float,2097152,2097152,[],[],40,8.0,8.0,30.5,30.5,,30.5,30.5,1\n"
                            "0,0,\"[0, 1]\",allreduce,2,Float,1048576,1048576,[],[],40,4.0,4.0,24.0,12.0,"
                            "2.8284271247461903,10.0,14.0,2\n");
}

TEST_CASE("coll_analysis: a kernel with any missing key is dropped (dropna)", "[collectives]") {
  Comms no_group_size;
  no_group_size.group_size = "";
  test::TraceBuilder b;
  b.raw(kernel(kAllReduce, 100, "10.5", Comms{})).raw(kernel(kAllReduce, 200, "99.5", no_group_size));
  // The 99.5 µs call is gone. Its missing value still made "Group size" a float64
  // column in pandas, so the kept row prints 2.0 (tracelens-semantics.md §10.2).
  CHECK(sheet_csv(b) == kHeader + "0,0,\"[0, 1]\",allreduce,2.0,Float,1048576,1048576,[],[],40,4.0,4.0,10.5,10.5,,10.5,10.5,1\n");

  SECTION("every kernel missing a key: a table with the header and no rows") {
    test::TraceBuilder only_missing;
    only_missing.raw(kernel(kAllReduce, 200, "99.5", no_group_size));
    const Table t = coll_analysis_table(*load(only_missing));
    CHECK(t.num_rows() == 0);
    CHECK(t.num_columns() == 19 + 3);
  }
}

TEST_CASE("coll_analysis: which kernels are collectives", "[collectives]") {
  Comms unlinked;
  unlinked.link = R"("device":0)";
  Comms null_link;
  null_link.link = R"("correlation":null)";
  Comms only_external_id;
  only_external_id.link = R"("External id":5)";
  Comms custom;  // vLLM's custom all-reduce kernel carries no collective name
  custom.collective = "";
  test::TraceBuilder b;
  b.raw(kernel("multimem_all_reduce_kernel", 100, "5.5", Comms{}))       // name does not match
      .raw(kernel(kAllReduce, 110, "6.5", unlinked))                      // no correlation / External id
      .raw(kernel(kAllReduce, 120, "7.5", null_link))                     // null is absent
      .raw(kernel(kAllReduce, 130, "8.5", Comms{}, "Kernel"))             // legacy category: not "kernel"
      .raw(kernel("ncclDevKernel_Generic", 140, "9.5", only_external_id))  // counts
      .raw(kernel("void CROSS_DEVICE_REDUCE_1stage<bf16>", 150, "20.5", custom));  // counts, as allreduce
  // Both kept kernels share every key (the custom one gets "allreduce" inferred): one row.
  CHECK(sheet_csv(b) == kHeader + "0,0,\"[0, 1]\",allreduce,2,Float,1048576,1048576,[],[],40,4.0,4.0,30.0,15.0,"
                                  "7.7781745930520225,9.5,20.5,2\n");
  // std of {9.5, 20.5}: mean 15, sqrt((5.5² + 5.5²) / 1) = 5.5·sqrt(2) = 7.7781745930520225.
}

TEST_CASE("coll_analysis: process group names when they are missing", "[collectives]") {
  Comms no_pg;
  no_pg.pg_name = "";
  SECTION("one stream and no process group anywhere: simplified mode, every name is 'all'") {
    test::TraceBuilder b;
    b.raw(kernel(kAllReduce, 100, "10.5", no_pg));
    CHECK(sheet_csv(b) == kHeader + "0,all,\"[0, 1]\",allreduce,2,Float,1048576,1048576,[],[],40,4.0,4.0,10.5,10.5,,10.5,10.5,1\n");
  }
  SECTION("two streams: missing names become Unknown_Group, present ones stay") {
    Comms other_stream = no_pg;
    other_stream.stream = 41;
    test::TraceBuilder b;
    b.raw(kernel(kAllReduce, 100, "10.5", no_pg)).raw(kernel(kAllReduce, 200, "20.5", other_stream));
    CHECK(sheet_csv(b) == kHeader +
                              "0,Unknown_Group,\"[0, 1]\",allreduce,2,Float,1048576,1048576,[],[],41,4.0,4.0,20.5,20.5,,20.5,20.5,1\n"
                              "0,Unknown_Group,\"[0, 1]\",allreduce,2,Float,1048576,1048576,[],[],40,4.0,4.0,10.5,10.5,,10.5,10.5,1\n");
  }
}

TEST_CASE("coll_analysis: JSON lists print as tuples, integer durations as integers", "[collectives]") {
  Comms lists;
  lists.pg_ranks = "[0, 1]";  // a JSON list (traces written through PyTorch), not a string
  lists.split = "[]";
  test::TraceBuilder b;
  b.raw(kernel(kAllReduce, 100, "131", lists)).raw(kernel(kAllReduce, 200, "952", lists));
  // list_to_tuple: "(0, 1)" and "()". Every dur is a whole number (legacy integer-µs
  // traces): pandas keeps an int64 column, so sum/min/max have no ".0"; the mean is
  // (131 + 952) / 2 = 541.5 and the std |952 - 131| / sqrt(2) = 580.5346673541555.
  CHECK(sheet_csv(b) == kHeader + "0,0,\"(0, 1)\",allreduce,2,Float,1048576,1048576,(),(),40,4.0,4.0,1083,541.5,"
                                  "580.5346673541555,131,952,2\n");
}

TEST_CASE("coll_analysis: rows by dur_sum descending, ties in group-key order", "[collectives]") {
  Comms broadcast, gather;
  broadcast.collective = R"("broadcast")";
  gather.collective = R"("_allgather_base")";
  gather.out_nelems = "2097152";
  test::TraceBuilder b;
  b.raw(kernel(kAllReduce, 100, "5.5", Comms{}))
      .raw(kernel(kAllReduce, 150, "5.5", broadcast))  // ties with the all-gather: "_allgather_base" < "broadcast"
      .raw(kernel(kAllReduce, 200, "5.5", gather))
      .raw(kernel(kAllReduce, 300, "5.5", Comms{}));  // allreduce: 11.0 in all, first
  const Table t = coll_analysis_table(*load(b));
  REQUIRE(t.num_rows() == 3);
  const Column& name = *t.find("Collective name");
  CHECK(name.string_at(0) == "allreduce");
  CHECK(name.string_at(1) == "_allgather_base");
  CHECK(name.string_at(2) == "broadcast");
  // Bandwidth columns: all-gather's full message is its output (8 MiB): (8 / 1024) / (5.5e-6)
  // = 1420.4545454545455 GB/s; bus factor (2-1)/2. Broadcast: factor 1.
  CHECK(t.find("Full msg size (MB)")->float_at(1) == 8.0);
  CHECK(t.find("algo bw (GB/s)")->float_at(1) == Approx(1420.4545454545455).epsilon(1e-12));
  CHECK(t.find("bus bw (GB/s)")->float_at(1) == Approx(710.2272727272727).epsilon(1e-12));
  CHECK(t.find("bus bw (GB/s)")->float_at(2) == t.find("algo bw (GB/s)")->float_at(2));
  // All-reduce: 4 MiB in 5.5 µs on average (11 / 2): 710.2272727272727 GB/s, factor 2·1/2.
  CHECK(t.find("algo bw (GB/s)")->float_at(0) == Approx(710.2272727272727).epsilon(1e-12));
  CHECK(t.find("bus bw (GB/s)")->float_at(0) == t.find("algo bw (GB/s)")->float_at(0));
}

TEST_CASE("coll_analysis: no collective kernel, no sheet in the report", "[collectives]") {
  test::TraceBuilder b;
  b.cpu_op("aten::mm", 10, 20).launch(12, "gemm_kernel", 30, 5);
  auto store = load(b);
  const Table t = coll_analysis_table(*store);
  CHECK(t.num_rows() == 0);
  CHECK(t.num_columns() == 0);
  const TraceTree tree = TraceTree::build(*store);
  CHECK(build_report(*store, tree).find("coll_analysis") == nullptr);

  SECTION("with one, it is TraceLens's last sheet (before HTA's); --disable_coll_analysis drops it") {
    test::TraceBuilder with;
    with.cpu_op("aten::mm", 10, 20).launch(12, "gemm_kernel", 30, 5).raw(kernel(kAllReduce, 100, "10.5", Comms{}));
    auto s = load(with);
    const TraceTree tr = TraceTree::build(*s);
    ReportOptions tracelens_only;
    tracelens_only.hta.enabled = false;
    const Report report = build_report(*s, tr, tracelens_only);
    REQUIRE(report.sheets.size() >= 2);
    CHECK(report.sheets[report.sheets.size() - 2].name() == "coll_analysis");  // the verdict after it
    CHECK(build_report(*s, tr).find("temporal_breakdown") != nullptr);
    ReportOptions off;
    off.collectives.enabled = false;
    CHECK(build_report(*s, tr, off).find("coll_analysis") == nullptr);
  }
}
