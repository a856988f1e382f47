// Malformed PyTorch Execution Traces: node graphs whose parent links loop, point at no
// node or share an id, and the two kinds of trace given one for the other. Each must
// give its diagnostic (a catalogue code) and, where the graph is still sound, the graph.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "malformed_load.h"
#include "support/et_builder.h"

using namespace sollens;
using sollens::test::EtNodeSpec;
using sollens::test::et_chakra;
using sollens::test::et_flat;
using sollens::test::et_tensor;
using sollens::test::LoadSummary;
using sollens::test::load_through_et_reader;
using sollens::test::load_through_ingest;

namespace {

constexpr long kError = -1;

const char* kMmSchema = "aten::mm(Tensor self, Tensor mat2) -> Tensor";

EtNodeSpec mm(int64_t id, int64_t parent) {
  return {id, parent, "aten::mm", kMmSchema,
          {et_tensor(10 * id, 10 * id + 1, {8, 8}), et_tensor(10 * id + 2, 10 * id + 3, {8, 8})},
          {et_tensor(10 * id + 4, 10 * id + 5, {8, 8})}};
}

EtNodeSpec annotation(int64_t id, int64_t parent) { return {id, parent, "## step ##", "", {}, {}, 7}; }

struct EtCase {
  const char* name;
  std::string bytes;
  std::vector<std::string_view> codes;  // catalogue ids: among the warnings, or the error's
  long nodes;                           // nodes the graph must hold, or kError
};

// et_flat adds the root node (id 1, its own parent, as PyTorch writes it) before these;
// the chakra cases give theirs. A node that is its own parent is a root, not a loop.
std::vector<EtCase> corpus() {
  return {
      {"a well-formed graph (no diagnostic)", et_flat({annotation(2, 1), mm(3, 2)}), {}, 3},
      {"two nodes that are each other's parent", et_flat({annotation(2, 3), mm(3, 2)}), {"et_parent_cycle"}, 3},
      {"a loop of three in the chakra layout", et_chakra({annotation(1, 1), annotation(2, 4), annotation(3, 2), mm(4, 3)}),
       {"et_parent_cycle"}, 4},
      {"a parent that is no node", et_flat({annotation(2, 1), mm(3, 99)}), {"et_dangling_parent"}, 3},
      {"a ctrl_deps that is no node", et_chakra({annotation(1, 1), annotation(2, 1), mm(3, 42)}), {"et_dangling_parent"}, 3},
      {"two nodes with one id", et_flat({annotation(2, 1), mm(3, 2), mm(3, 2)}), {"et_duplicate_ids"}, 4},
      {"a Kineto trace given as an Execution Trace",
       R"({"schemaVersion": 1, "traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}]})",
       {"et_is_kineto"}, kError},
  };
}

Code catalogue_code(std::string_view id) {
  const std::optional<Code> code = code_named(id);
  INFO("the catalogue (base/diagnostics.def) has no code " << id);
  REQUIRE(code.has_value());
  return *code;
}

}  // namespace

TEST_CASE("malformed ET: each graph gives its diagnostic and keeps what is sound", "[malformed][execution_trace]") {
  for (const EtCase& c : corpus()) {
    DYNAMIC_SECTION(c.name) {
      const LoadSummary got = load_through_et_reader(c.bytes);
      INFO("got " << got.describe());
      if (c.nodes == kError) {
        CHECK_FALSE(got.loaded);
        CHECK(got.error == catalogue_code(c.codes.front()));
        continue;
      }
      REQUIRE(got.loaded);
      CHECK(got.events == static_cast<size_t>(c.nodes));
      for (std::string_view id : c.codes) CHECK(got.has(catalogue_code(id)));
      if (c.codes.empty()) CHECK(got.diagnostics.empty());
    }
  }
}

TEST_CASE("malformed ET: through Session, the same diagnostics", "[malformed][execution_trace]") {
  for (const EtCase& c : corpus()) {
    DYNAMIC_SECTION(c.name) {
      const LoadSummary got = sollens::test::load_et_through_session(c.bytes);
      INFO("got " << got.describe());
      CHECK(got.loaded == (c.nodes != kError));
      if (got.error_has_code && !got.loaded) CHECK(got.error == catalogue_code(c.codes.front()));
      if (!got.loaded) continue;
      for (std::string_view id : c.codes) CHECK(got.has(catalogue_code(id)));
      if (c.codes.empty()) CHECK(got.diagnostics.empty());
    }
  }
}

TEST_CASE("malformed ET: an Execution Trace given as a Kineto trace reads as no events, with a word", "[malformed][execution_trace]") {
  const std::string et = et_flat({annotation(2, 1), mm(3, 2)});
  for (const LoadSummary& got : {load_through_ingest(et), sollens::test::load_through_session(et)}) {
    INFO("got " << got.describe());
    REQUIRE(got.loaded);
    CHECK(got.events == 0);
    CHECK(got.has(Code::execution_trace));
  }
}
