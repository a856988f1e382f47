#pragma once
// Reads a trace file and builds the model, timing each step for the summary.
#include <chrono>
#include <memory>
#include <string>

#include "ingest/trace_reader.h"
#include "model/trace_tree.h"

namespace sollens::cli {

struct LoadedTrace {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
  double read_ms = 0;
  double parse_ms = 0;
  double tree_ms = 0;
};

// Prints the error to stderr and returns false when the trace cannot be used.
bool load_and_model(const std::string& path, const TreeOptions& tree_options, LoadedTrace& out);

double elapsed_ms(std::chrono::steady_clock::time_point since);
void print_warnings(const EventStore& store);

}  // namespace sollens::cli
