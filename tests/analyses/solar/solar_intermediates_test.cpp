// The intermediates that fusion would remove, one row per tensor written by a counted
// op and read by a later one, on Linear -> ReLU -> Linear (float32, 4 bytes each).
#include <catch2/catch.hpp>

#include "analyses/solar/solar_graph.h"
#include "analyses/solar/solar_intermediates.h"
#include "support/et_builder.h"
#include "support/table_column.h"

using namespace sollens;
using namespace sollens::solar;
using namespace sollens::test;

TEST_CASE("Solar intermediates: each written once and read once, weights and I/O left out") {
  const char* kLinear = "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor";
  const char* kRelu = "aten::relu(Tensor self) -> Tensor";
  // x[4,8] → linear → h[4,16] → relu → r[4,16] → linear → y[4,2]; a second relu reads
  // h too, and its output is read by nothing (a model output).
  Result<std::unique_ptr<ExecutionGraph>> loaded = load_et(et_flat({
      {2, 1, "aten::linear", kLinear,
       {et_tensor(10, 11, {4, 8}), et_tensor(20, 21, {16, 8}), et_tensor(22, 23, {16})},
       {et_tensor(30, 31, {4, 16})}},
      {3, 1, "aten::relu", kRelu, {et_tensor(30, 31, {4, 16})}, {et_tensor(32, 33, {4, 16})}},
      {4, 1, "aten::linear", kLinear,
       {et_tensor(32, 33, {4, 16}), et_tensor(24, 25, {2, 16}), et_tensor(26, 27, {2})},
       {et_tensor(34, 35, {4, 2})}},
      {5, 1, "aten::relu", kRelu, {et_tensor(30, 31, {4, 16})}, {et_tensor(36, 37, {4, 16})}},
  }));
  REQUIRE(loaded.ok());
  const SolarGraph solar = build_solar_graph(*loaded.value());
  const Table t = intermediates_table(*loaded.value(), solar);
  REQUIRE(t.num_rows() == 2);
  // h: written by node 2 (64 elements, 256 B), read by nodes 3 and 5 (2 × 256 B).
  CHECK(col(t, "producer_et_id").int_at(0) == 2);
  CHECK(col(t, "producer").string_at(0) == "aten::linear");
  CHECK(col(t, "tensor_id").int_at(0) == 30);
  CHECK(col(t, "shape").string_at(0) == "[4, 16]");
  CHECK(col(t, "dtype").string_at(0) == "float");
  CHECK(col(t, "elements").float_at(0) == 64);
  CHECK(col(t, "write_bytes").float_at(0) == 256);
  CHECK(col(t, "reads").int_at(0) == 2);
  CHECK(col(t, "read_bytes").float_at(0) == 512);
  CHECK(col(t, "bytes_removed").float_at(0) == 768);
  // r: written by the relu (node 3), read once by the second linear.
  CHECK(col(t, "producer_et_id").int_at(1) == 3);
  CHECK(col(t, "tensor_id").int_at(1) == 32);
  CHECK(col(t, "reads").int_at(1) == 1);
  CHECK(col(t, "bytes_removed").float_at(1) == 512);
  // 768 + 512 B: every intermediate byte of the graph, no more.
  double intermediate_bytes = 0;
  for (const SolarNode& n : solar.nodes) intermediate_bytes += n.intermediate_bytes;
  CHECK(intermediate_bytes == 1280);
}
