#pragma once
// Traces loaded for the analyses' unit tests: a hand-made JSON text or a fixture file,
// its store and tree (python frames in by default, as `sollens sol` builds it), a GPU
// the user named, and a table's row by its key.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "devices/device_identify.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "table/table.h"

namespace sollens::test {

struct TestTrace {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
};

inline std::unique_ptr<EventStore> load_store(const std::string& json) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  return std::move(r.value());
}

inline TestTrace load_with_tree(const std::string& json, bool python_frames = true) {
  std::unique_ptr<EventStore> store = load_store(json);
  TreeOptions options;
  options.include_python = python_frames;
  TraceTree tree = TraceTree::build(*store, options);
  return {std::move(store), std::move(tree)};
}

// A file under tests/fixtures, whole.
inline std::string fixture_text(const std::string& relative) {
  std::ifstream in(std::filesystem::path(SOLLENS_FIXTURES_DIR) / relative, std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline DeviceIdentification user_device(const std::string& id) {
  DeviceIdentification d;
  d.status = DeviceStatus::kUserChosen;
  d.spec = find_device(id);
  REQUIRE(d.spec != nullptr);
  return d;
}

inline size_t row_of(const Table& t, const std::string& key) {
  for (size_t r = 0; r < t.num_rows(); ++r)
    if (t.column(0).string_at(r) == key) return r;
  FAIL("no row '" << key << "' in " << t.name());
  return 0;
}

}  // namespace sollens::test
