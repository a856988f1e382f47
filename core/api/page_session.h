#pragma once
// The Session as the web page uses it (through wasm/bindings.cpp, which only
// marshals): the page writes the trace's bytes straight into a buffer here, then asks
// for results as JSON text and for report tables by handle, column by column.
#include <cstdint>
#include <string>

#include "api/session.h"
#include "api/table_registry.h"
#include "model/trace_tree.h"
#include "store/padded_buffer.h"

namespace sollens {

class PageSession {
 public:
  // The input buffer: `size` bytes for the page to fill; grow keeps the bytes written
  // so far (a .gz whose trailer understated its size) and may move them; set_size
  // gives the number of bytes actually written, when fewer.
  uint8_t* allocate(size_t size);
  uint8_t* grow(size_t new_size);
  void set_size(size_t size) { buffer_.truncate(size); }
  size_t capacity() const { return buffer_.size(); }

  // Parses the filled buffer: "" when loaded, "cancelled" when `progress` returned
  // false, else the error in plain words.
  std::string load(const LoadOptions& options = {});

  size_t event_count() const { return session_.loaded() ? session_.event_count() : 0; }
  std::string warnings_json() const;           // [{"code","message"}]
  std::string info_json() const;               // api/info_json.h; "{}" before a load
  std::string gpu_timeline_json() const;       // [{"type","time ms","percent"}]
  std::string gpu_timeline_csv() const;
  std::string trace_metadata_json() const;     // as report.json's metadata.trace
  static std::string device_names_json();      // api/options.h device_names()

  // Computes every sheet; {"device", "timingsMs", "sheets": [table descriptions]}, or
  // {"error"} (an unknown device keeps the previous report).
  std::string build_report(const std::string& device_name, bool corrected, bool include_unlinked);
  // {"summary", "kernels", "preambles", "sheets"}, or {"error"} for an unknown mode or
  // order (options.h: "" is the default order, per device and stream).
  std::string build_cycles(const std::string& mode, const std::string& order);

  // Speed of light (analyses/sol) at this efficiency factor, in (0, 1]: {"device",
  // "solDevice", "efficiencyFactor", "moduleFrames", "notes", "metrics": {name: value},
  // "sheets"}, or {"error"}. Layer types need the python frames, which the loaded tree
  // leaves out: a tree with them is built on the first call and kept for this trace, as
  // is the cycle detection (Session::python_tree, Session::default_cycles).
  std::string build_sol(const std::string& device_name, double efficiency);

  // The tables of the last report, cycles and SOL, by the handles in their descriptions.
  // This trace (the variant) compared with `baseline`'s, as sollens diff compares
  // them: {"sheets": [table descriptions]} (api/compare.h), or {"error"}.
  std::string build_comparison(const PageSession& baseline);

  // The tables of the last report, cycles and comparison, by the handles in their descriptions.
  TableRegistry& tables() { return tables_; }
  std::string sheet_csv(int32_t handle) const;
  std::string sheet_json(int32_t handle) const;

  const Session& session() const { return session_; }

 private:
  Session session_;
  TableRegistry tables_;
  PaddedBuffer buffer_;
};

}  // namespace sollens
