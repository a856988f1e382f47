#pragma once
// Reads a trace file into a Session (core/api), timing each step for the summary.
#include <chrono>
#include <ostream>
#include <string>

#include "api/session.h"
#include "base/stopwatch.h"

namespace sollens::cli {

struct LoadedTrace {
  Session session;
  double read_ms = 0;
  double parse_ms = 0;
  double tree_ms = 0;
};

// Prints the error to stderr (cli/diagnostic_lines.h) and returns false when the trace
// cannot be used.
// `threads`: 0 = two halves at once where there are cores for it. `compact`: keep only
// what the analyses need of the file, dropping its pages as they are parsed (one pass;
// for many large traces at once).
bool load_and_model(const std::string& path, const TreeOptions& tree_options, LoadedTrace& out,
                    unsigned threads = 0, bool compact = false);

// --capture FILE: the graph-capture trace of the loaded trace's graph replays, into its
// session. Prints the error to stderr and returns false when it cannot be used.
bool load_capture_trace(const std::string& path, LoadedTrace& loaded);

// The load's warnings, a line each with its code.
void print_warnings(const Session& session, std::ostream& log);

}  // namespace sollens::cli
