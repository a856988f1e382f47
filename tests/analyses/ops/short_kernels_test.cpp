// The short-kernel study's options: threshold, histogram bins and the summary's rows.
#include <catch2/catch.hpp>

#include "analyses/ops/short_kernels.h"
#include "analyses/ops/trace_builder.h"
#include "ingest/trace_reader.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

namespace {

struct Modeled {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
};

// Four ops, one kernel each, of 1, 3, 7 and 8 µs (all with the args the summary keys on).
Modeled four_kernels() {
  const std::string args = R"("Input Dims":[[4]],"Input Strides":[[1]],"Concrete Inputs":[""])";
  test::TraceBuilder t;
  t.cpu_op("op_a", 10, 5, args).launch(11, "k_a", 100, 1)
      .cpu_op("op_b", 20, 5, args).launch(21, "k_b", 110, 3)
      .cpu_op("op_c", 30, 5, args).launch(31, "k_c", 120, 7)
      .cpu_op("op_d", 40, 5, args).launch(41, "k_d", 130, 8);
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(t.json()));
  REQUIRE(r.ok());
  Modeled m{std::move(r.value()), {}};
  m.tree = TraceTree::build(*m.store);
  return m;
}

std::vector<std::string> kernel_names(const Table& t) {
  std::vector<std::string> names;
  for (size_t i = 0; i < t.num_rows(); ++i) names.emplace_back(col(t, "Kernel name").string_at(i));
  return names;
}

}  // namespace

TEST_CASE("short kernels: the threshold and the bin count") {
  const Modeled m = four_kernels();
  // Default threshold 10 µs, 4 bins: every kernel; edges 1, 2.75, 4.5, 6.25, 8
  // (width 7 / 4); 1 in the first bin, 3 in the second, 7 and 8 in the last (closed).
  ShortKernelOptions four_bins;
  four_bins.histogram_bins = 4;
  const Table h = short_kernel_histogram_table(*m.store, m.tree, four_bins);
  REQUIRE(h.num_rows() == 4);
  CHECK(col(h, "bin_start").float_at(1) == Approx(2.75));
  CHECK(col(h, "bin_end").float_at(3) == Approx(8));
  CHECK(col(h, "count").int_at(0) == 1);
  CHECK(col(h, "count").int_at(1) == 1);
  CHECK(col(h, "count").int_at(2) == 0);
  CHECK(col(h, "count").int_at(3) == 2);

  // Threshold 5 µs, 2 bins: the 1 and 3 µs kernels only; edges 1, 2, 3.
  ShortKernelOptions under_5;
  under_5.threshold_us = 5;
  under_5.histogram_bins = 2;
  const Table h5 = short_kernel_histogram_table(*m.store, m.tree, under_5);
  REQUIRE(h5.num_rows() == 2);
  CHECK(col(h5, "bin_start").float_at(0) == 1);
  CHECK(col(h5, "bin_end").float_at(1) == 3);
  CHECK(col(h5, "count").int_at(0) == 1);
  CHECK(col(h5, "count").int_at(1) == 1);
  const Table s5 = short_kernels_summary_table(*m.store, m.tree, 100, under_5);
  CHECK(kernel_names(s5) == std::vector<std::string>{"k_b", "k_a"});
}

TEST_CASE("short kernels: the summary's first N rows after sorting, as pandas' head(N)") {
  const Modeled m = four_kernels();
  // Sorted by sum descending: k_d 8, k_c 7, k_b 3, k_a 1.
  const Table all = short_kernels_summary_table(*m.store, m.tree, 100);
  CHECK(kernel_names(all) == std::vector<std::string>{"k_d", "k_c", "k_b", "k_a"});

  ShortKernelOptions top;
  top.topk = 2;
  CHECK(kernel_names(short_kernels_summary_table(*m.store, m.tree, 100, top)) ==
        std::vector<std::string>{"k_d", "k_c"});
  top.topk = 10;  // more than there are: every row
  CHECK(short_kernels_summary_table(*m.store, m.tree, 100, top).num_rows() == 4);
  top.topk = -1;  // head(-1): all but the last
  CHECK(kernel_names(short_kernels_summary_table(*m.store, m.tree, 100, top)) ==
        std::vector<std::string>{"k_d", "k_c", "k_b"});
  top.topk = 0;  // head(0): the header only
  const Table none = short_kernels_summary_table(*m.store, m.tree, 100, top);
  CHECK(none.num_rows() == 0);
  CHECK(none.num_columns() == all.num_columns());
}
