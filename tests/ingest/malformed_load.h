#pragma once
// One shape for what a load of malformed bytes gave, whichever layer loaded them
// (ingest's load_trace, Session::load, load_execution_trace): a store or graph and its
// diagnostics, or the error's code and words. The malformed-input tests compare this
// against their tables. Header only; not a test translation unit.
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "api/session.h"
#include "base/diagnostics.h"
#include "base/status.h"
#include "ingest/execution_trace_reader.h"
#include "ingest/trace_reader.h"

namespace sollens::test {

struct LoadSummary {
  bool loaded = false;
  size_t events = 0;       // events in the store, or nodes in the graph
  Code error = Code::ok;   // the error's code where the layer gives one
  std::string error_text;  // the error's words
  bool error_has_code = true;  // false where the layer's errors are words alone
  std::vector<Diagnostic> diagnostics;

  bool has(Code code) const {
    for (const Diagnostic& d : diagnostics)
      if (d.code == code) return true;
    return false;
  }
  // For INFO(): what happened, in one line.
  std::string describe() const {
    std::string s = loaded ? std::to_string(events) + " read" : "error " + std::string(code_id(error));
    if (!error_text.empty()) s += " (" + error_text + ")";
    for (const Diagnostic& d : diagnostics) s += "; " + std::string(code_id(d.code)) + ": " + d.message;
    return s;
  }
};

template <class T, class Read>
LoadSummary summarize(const Result<std::unique_ptr<T>>& r, Read read) {
  LoadSummary s;
  if (!r.ok()) {
    s.error = r.code();
    s.error_text = r.message();
    return s;
  }
  s.loaded = true;
  read(**r, s);
  return s;
}

inline LoadSummary load_through_ingest(std::string_view bytes) {
  return summarize(load_trace(PaddedBuffer::copy_of(bytes)), [](const EventStore& store, LoadSummary& s) {
    s.events = store.size();
    s.diagnostics = store.warnings;
  });
}

inline LoadSummary load_through_et_reader(std::string_view bytes) {
  return summarize(load_execution_trace(PaddedBuffer::copy_of(bytes)), [](const ExecutionGraph& graph, LoadSummary& s) {
    s.events = graph.nodes.size();
    s.diagnostics = graph.warnings;
  });
}

// Session::load's outcome: a Status-like result (code(), message()) or a struct whose
// error is plain words.
template <class Outcome>
bool read_session_outcome(const Outcome& outcome, LoadSummary& s) {
  if constexpr (requires { outcome.code(); outcome.message(); }) {
    if (outcome.ok()) return true;
    s.error = outcome.code();
    s.error_text = outcome.message();
  } else {
    if (outcome.ok) return true;
    s.error_text = outcome.error;
    s.error_has_code = false;
  }
  return false;
}

inline LoadSummary load_through_session(std::string_view bytes) {
  Session session;
  LoadSummary s;
  if (!read_session_outcome(session.load(PaddedBuffer::copy_of(bytes)), s)) return s;
  s.loaded = true;
  s.events = session.event_count();
  s.diagnostics = session.warnings();
  return s;
}

// Session::load_execution_trace: the graph's node count is not public there, so
// `events` stays 0.
inline LoadSummary load_et_through_session(std::string_view bytes) {
  Session session;
  LoadSummary s;
  if (!read_session_outcome(session.load_execution_trace(PaddedBuffer::copy_of(bytes)), s)) return s;
  s.loaded = session.has_execution_trace();
  if (s.loaded) s.diagnostics = session.execution_trace_warnings();
  return s;
}

}  // namespace sollens::test
