// build_report's SheetSink: each sheet is handed over once, in sheet order, as the very
// object the report keeps, and it stays where it is when the report is moved (a writer
// thread reads it while the rest of the report is computed). The bundled traces are
// gzip files, which only the native build reads.
#include <algorithm>
#include <catch2/catch.hpp>

#if SOLLENS_HAVE_ZLIB

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "devices/device_db.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "report/report.h"
#include "support/golden_fixtures.h"

using namespace sollens;

namespace {

// bert-small with every sheet: the SOL sheets come last, after every TraceLens sheet.
struct BertSmallReport {
  BertSmallReport()
      : loaded(load_trace(PaddedBuffer::copy_of(test::read_text(
            test::kTraces / "tracelens-h100-bert-small" / "gaunernst_bert-small-uncased__1016001.json.gz")))) {
    REQUIRE(loaded.ok());
    tree = TraceTree::build(*loaded.value());
    options.device = find_device("H100_SXM5_80GB");
    options.sol.enabled = true;
    options.sol.device = options.device;
  }
  Result<std::unique_ptr<EventStore>> loaded;
  TraceTree tree;
  ReportOptions options;
};

}  // namespace

TEST_CASE("sheet sink: every sheet once, in order, where the report keeps it") {
  BertSmallReport b;
  REQUIRE(b.options.device != nullptr);
  const EventStore& store = *b.loaded.value();
  const TraceTree& tree = b.tree;
  ReportOptions& options = b.options;

  std::vector<const Table*> handed;
  std::vector<std::string> names_when_handed;
  Report report = build_report(store, tree, options, {[&](const Table& sheet) {
                                  handed.push_back(&sheet);
                                  names_when_handed.push_back(sheet.name());
                                },
                                {}});

  REQUIRE(handed.size() == report.sheets.size());
  CHECK(names_when_handed.front() == "gpu_timeline");
  // The SOL sheets after TraceLens's, then HTA's, the verdict last.
  CHECK(names_when_handed[names_when_handed.size() - 2] == "critical_path_inferred_breakdown");
  CHECK(names_when_handed.back() == "verdict");
  CHECK(std::find(names_when_handed.begin(), names_when_handed.end(), "sol_metrics") <
        std::find(names_when_handed.begin(), names_when_handed.end(), "temporal_breakdown"));
  for (size_t i = 0; i < handed.size(); ++i) {
    INFO(names_when_handed[i]);
    CHECK(handed[i] == &report.sheets[i]);
    CHECK(handed[i]->name() == names_when_handed[i]);
  }

  // The CLI declares its Report before the writer thread starts and move-assigns the
  // result into it: the sheets must not move.
  Report kept;
  kept = std::move(report);
  REQUIRE(kept.sheets.size() == handed.size());
  for (size_t i = 0; i < handed.size(); ++i) CHECK(handed[i] == &kept.sheets[i]);

  // Without a sink the same sheets, unchanged.
  const Report plain = build_report(store, tree, options);
  REQUIRE(plain.sheets.size() == kept.sheets.size());
  for (size_t i = 0; i < plain.sheets.size(); ++i) CHECK(plain.sheets[i].name() == kept.sheets[i].name());
}

TEST_CASE("sheet sink: a report that fails tells the sink while the sheets handed over still exist") {
  BertSmallReport b;
  REQUIRE(b.options.device != nullptr);
  const EventStore& store = *b.loaded.value();
  const TraceTree& tree = b.tree;
  ReportOptions& options = b.options;
  // The SOL sheets' inputs are asked for after every TraceLens sheet is handed over.
  options.sol.inputs = []() -> SolInputs { throw std::runtime_error("no inputs"); };

  std::vector<const Table*> handed;
  std::vector<std::string> names_at_abort;
  int aborts = 0;
  SheetSink sink{[&](const Table& sheet) { handed.push_back(&sheet); },
                 [&] {
                   ++aborts;
                   for (const Table* t : handed) names_at_abort.push_back(t->name());  // still alive
                 }};
  CHECK_THROWS_AS(build_report(store, tree, options, sink), std::runtime_error);
  CHECK(aborts == 1);
  REQUIRE(!handed.empty());
  CHECK(names_at_abort.size() == handed.size());
  CHECK(names_at_abort.front() == "gpu_timeline");
}

#endif  // SOLLENS_HAVE_ZLIB
