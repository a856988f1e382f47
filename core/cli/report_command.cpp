// sollens report: every sheet this build computes, one CSV each.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "analyses/info/trace_info.h"  // correlation_linking_notice
#include "cli/commands.h"
#include "cli/output_files.h"
#include "cli/loaded_trace.h"
#include "cli/ranks_report.h"
#include "cli/trace_args.h"
#include "cli/xlsx_writer.h"
#include "writers/csv_writer.h"
#include "writers/json_writer.h"
#include "writers/report_json.h"
#include "report/trace_metadata_json.h"
#include "base/number_format.h"

namespace sollens::cli {

namespace {

bool write_table(const Table& table, const std::filesystem::path& dir) {
  const auto path = dir / (table.name() + ".csv");
  std::ofstream out(path, std::ios::binary);
  if (out) write_csv(table, out);
  if (!out) {
    std::cerr << "sollens: cannot write " << path.string() << "\n";
    return false;
  }
  return true;
}

std::string ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

int write_report_dir(const std::string& trace, const LoadedTrace& loaded, const ReportRequest& request,
                     const std::string& out_dir, bool write_json, bool write_xlsx_file, std::ostream& log) {
  const Session& session = loaded.session;
  print_warnings(session, log);
  if (const std::string notice = correlation_linking_notice(session.tree()); !notice.empty())
    log << "sollens: warning: " << notice << "\n";

  // device.roofline_spec() is the GPU for roofline columns, or null: then no roofline
  // columns at all (never a guessed peak) and the notice says why.
  const DeviceIdentification device = session.identify_device(request.device_name);
  if (!device.notice.empty()) log << "sollens: notice: " << device.notice << "\n";
  else if (device.spec) log << "sollens: device: " << device.spec->id << " (" << device.how << ")\n";

  const Report report = session.report(request, device);
  const GpuTimeline& timeline = report.timeline;
  if (timeline.events == 0)
    log << "sollens: warning: no linked GPU events: the GPU timeline is empty\n";

  auto t0 = std::chrono::steady_clock::now();
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    log << "sollens: cannot create " << out_dir << ": " << ec.message() << "\n";
    return 3;
  }
  std::vector<std::string> written;
  for (const Table& t : report.sheets) {
    if (!write_table(t, out_dir)) return 3;
    written.push_back(t.name());
  }
  const double write_ms = ms_since(t0);

  const EventStore& s = session.store();
  auto pct = [&](double v) {
    return timeline.total_us > 0 ? format_python_float(std::round(v / timeline.total_us * 1000) / 10) + " %" : std::string("-");
  };
  log << "sollens: " << trace << ": " << s.size() << " events, " << session.tree().gpu_events.size()
            << " GPU events (" << timeline.events << " linked)\n"
            << "  GPU time " << ms(timeline.total_us / 1e3) << " ms: computation "
            << pct(timeline.computation_us) << ", exposed comm " << pct(timeline.exposed_comm_us)
            << ", exposed memcpy " << pct(timeline.exposed_memcpy_us) << ", idle "
            << pct(timeline.idle_us) << "\n"
            << "  timings (ms): read " << ms(loaded.read_ms) << ", parse " << ms(loaded.parse_ms)
            << ", tree " << ms(loaded.tree_ms) << ", timeline " << ms(report.timings.timeline_ms)
            << ", ops and kernel sheets " << ms(report.timings.ops_ms) << ", unified and perf-model sheets "
            << ms(report.timings.perf_ms) << ", coll_analysis " << ms(report.timings.collectives_ms)
            << ", write CSV " << ms(write_ms) << "\n";
  for (const std::string& sheet : written)
    log << "  wrote " << (std::filesystem::path(out_dir) / (sheet + ".csv")).string() << "\n";
  {
    const auto t_cycles = std::chrono::steady_clock::now();
    const CycleReport cycles = session.cycle_report();
    log << "  cycles: " << cycles_summary(cycles) << " (detection "
              << ms(ms_since(t_cycles)) << " ms; details: sollens cycles)\n";
  }
  // report.json / report.xlsx: every sheet above in one document each
  if (write_json || write_xlsx_file) {
    const auto t_all = std::chrono::steady_clock::now();
    std::vector<const Table*> sheets;
    for (const Table& t : report.sheets) sheets.push_back(&t);
    const std::filesystem::path dir(out_dir);
    if (write_json) {
      const JsonMembers metadata = {
          {"generator", json_string(std::string("sollens ") + kVersion)},
          {"trace_file", json_string(trace)},
          {"device", device_identification_json(device)},
          {"trace", trace_metadata_json(session.metadata())},
      };
      const auto path = dir / "report.json";
      std::ofstream out(path, std::ios::binary);
      if (out) write_report_json(metadata, sheets, out);
      if (!out) {
        log << "sollens: cannot write " << path.string() << "\n";
        return 3;
      }
      log << "  wrote " << path.string() << "\n";
    }
    if (write_xlsx_file) {
      const auto path = dir / "report.xlsx";
      const std::string problem = write_xlsx(path.string(), sheets);
      if (!problem.empty()) {
        log << "sollens: " << problem << "\n";
        return 3;
      }
      log << "  wrote " << path.string() << "\n";
    }
    log << "  report.json/xlsx: " << ms(ms_since(t_all)) << " ms\n";
  }
  return 0;
}

int run_report(const std::vector<std::string>& args) {
  std::vector<std::string> inputs;
  std::string out_dir = "sollens-report";
  TreeOptions tree_options;
  ReportRequest request;
  bool write_json = true, write_xlsx_file = true;  // --no-json / --no-xlsx
  const auto option = [&](size_t& i) {
    const std::string& a = args[i];
    if (a == "--device") return read_device_option(args, i, request.device_name);
    if (apply_report_flag(a, request)) return OptionResult::kTaken;
    if (a == "--link") return read_link_option(args, i, tree_options.link);
    if (a == "--out") {
      if (i + 1 >= args.size()) {
        std::cerr << "sollens: --out needs a directory\n";
        return OptionResult::kUsageError;
      }
      out_dir = args[++i];
    } else if (a == "--no-json") {
      write_json = false;
    } else if (a == "--no-xlsx") {
      write_xlsx_file = false;
    } else if (is_report_value_option(a)) {
      const std::string problem = apply_report_value(a, i + 1 < args.size() ? args[i + 1] : "", request);
      if (!problem.empty()) {
        std::cerr << "sollens: " << problem << "\n";
        return OptionResult::kUsageError;
      }
      ++i;
    } else if (a == "--include-python") {
      tree_options.include_python = true;
    } else if (a == "--strip-sglang-suffixes") {
      tree_options.strip_sglang_profiler_suffixes = true;
    } else {
      return OptionResult::kNotMine;
    }
    return OptionResult::kTaken;
  };
  if (!parse_traces_args("report", args, option, inputs)) return 2;
  std::vector<std::string> traces;
  if (!resolve_traces(inputs, traces)) return 2;
  // Recompute is found from the checkpoint python frames, so they must be in the tree.
  if (request.detect_recompute) tree_options.include_python = true;
  if (traces.size() != 1 || is_directory(inputs.front()))
    return run_ranks_report(traces, tree_options, request, out_dir, write_json, write_xlsx_file);
  const std::string& trace = traces.front();

  LoadedTrace loaded;
  if (!load_and_model(trace, tree_options, loaded)) return 1;
  return write_report_dir(trace, loaded, request, out_dir, write_json, write_xlsx_file, std::cerr);
}

}  // namespace sollens::cli
