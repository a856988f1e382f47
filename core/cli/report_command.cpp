// sollens report: every sheet this build computes, one CSV each.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <utility>

#include "api/rank_collectives.h"
#include "api/command_options.h"
#include "api/hta_traces.h"
#include "api/verdict_text.h"
#include "cli/commands.h"
#include "cli/diagnostic_lines.h"
#include "cli/output_files.h"
#include "cli/loaded_trace.h"
#include "cli/ranks_report.h"
#include "cli/trace_args.h"
#include "cli/report_stages.h"
#include "cli/sheet_files_job.h"
#include "writers/csv_writer.h"
#include "writers/diagnostics_report.h"
#include "writers/report_json.h"
#include "base/number_format.h"

namespace sollens::cli {

namespace {

// Why a report that asks for the SOL sheets has none, or "".
std::string sol_sheets_skipped(const ReportRequest& request, const DeviceIdentification& device) {
  if (!request.sol_sheets) return "";
  if (request.no_roofline) return "--no-roofline leaves out every roofline estimate";
  if (!device.roofline_spec()) return "no GPU with known peaks (name one with --device, or --no-sol)";
  return "";
}

std::string ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

// The load's warnings and the GPU the report is for; returns why the SOL sheets asked
// for are left out, or "".
std::string print_report_notices(const Session& session, const ReportRequest& request,
                                 const DeviceIdentification& device, std::ostream& log) {
  print_warnings(session, log);
  if (std::string notice = session.linking_notice(); !notice.empty())
    print_diagnostic(log, {Code::linked_by_correlation, std::move(notice)});
  if (!device.notice.empty()) print_diagnostic(log, {Code::device_unidentified, device.notice});
  else if (device.spec) log << "sollens: device: " << device.spec->id << " (" << device.how << ")\n";
  const std::string sol_skipped = sol_sheets_skipped(request, device);
  if (!sol_skipped.empty()) print_diagnostic(log, {Code::no_sol_sheets, "no SOL sheets: " + sol_skipped});
  return sol_skipped;
}

// What was read and where the GPU time went, then the time of each step.
void print_report_summary(const std::string& trace, const LoadedTrace& loaded, const Report& report,
                          double csv_ms, std::ostream& log) {
  const Session& session = loaded.session;
  const GpuTimeline& timeline = report.timeline;
  auto pct = [&](double v) {
    return timeline.total_us > 0 ? format_python_float(std::round(v / timeline.total_us * 1000) / 10) + " %"
                                 : std::string("-");
  };
  log << "sollens: " << trace << ": " << session.event_count() << " events, " << session.tree().gpu_events.size()
      << " GPU events (" << timeline.events << " linked)\n"
      << "  GPU time " << ms(timeline.total_us / 1e3) << " ms: computation " << pct(timeline.computation_us)
      << ", exposed comm " << pct(timeline.exposed_comm_us) << ", exposed memcpy "
      << pct(timeline.exposed_memcpy_us) << ", idle " << pct(timeline.idle_us) << "\n"
      << "  verdict: " << report_headline(report) << "\n"
      << "  timings (ms): read " << ms(loaded.read_ms) << ", parse " << ms(loaded.parse_ms) << ", tree "
      << ms(loaded.tree_ms) << ", timeline " << ms(report.timings.timeline_ms) << ", ops and kernel sheets "
      << ms(report.timings.ops_ms) << ", unified and perf-model sheets " << ms(report.timings.perf_ms)
      << ", coll_analysis " << ms(report.timings.collectives_ms) << ", SOL " << ms(report.timings.sol_ms)
      << " (python-frame tree and cycles " << ms(report.timings.sol_inputs_ms) << " beside the sheets before it, waited "
      << ms(report.timings.sol_inputs_wait_ms) << ")"
      << ", HTA " << ms(report.timings.hta_ms) << " (beside the sheets before it, waited "
      << ms(report.timings.hta_wait_ms) << "), write CSV " << ms(csv_ms) << "\n";
}

}  // namespace

int write_report_dir(const std::string& trace, const LoadedTrace& loaded, const ReportRequest& request,
                     const std::string& out_dir, bool write_json, bool write_xlsx_file, std::ostream& log) {
  const Session& session = loaded.session;
  // device.roofline_spec() is the GPU for roofline columns, or null: then no roofline
  // columns at all (never a guessed peak) and the notice says why.
  const DeviceIdentification device = session.identify_device(request.device_name);
  print_report_notices(session, request, device, log);

  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    print_diagnostic(log, {Code::output_unwritable, "cannot create " + out_dir + ": " + ec.message()});
    return 3;
  }
  const std::filesystem::path dir(out_dir);
  // A second thread writes each sheet's CSV and worksheet as soon as the sheet is
  // computed, while this one computes the next and, at the end, writes report.json.
  Report report;  // before the job, which reads its sheets until joined
  SheetFilesJob files;
  files.start(dir, write_xlsx_file);
  const auto t_analyses = std::chrono::steady_clock::now();
  report = session.report(request, device,
                          {[&files](const Table& sheet) { files.add(sheet); }, [&files] { files.abandon(); }});
  files.finish();
  const double analyses_ms = ms_since(t_analyses);
  // Detected once: with the SOL sheets, beside the other sheets (Session::report); the
  // summary line below shares it.
  const auto t_cycles = std::chrono::steady_clock::now();
  const CycleReport& cycles = session.default_cycles();
  const double cycles_ms = ms_since(t_cycles);
  for (const std::string& note : report.sol_notes) log << "sollens: sol: note: " << note << "\n";
  if (report.timeline.events == 0)
    print_diagnostic(log, {Code::gpu_timeline_empty, "no linked GPU events: the GPU timeline is empty"});

  std::vector<const Table*> sheets;
  for (const Table& t : report.sheets) sheets.push_back(&t);

  // report.json: every sheet in one document, written while the files are finished.
  double json_ms = 0;
  bool json_written = false;
  if (write_json) {
    const auto t_json = std::chrono::steady_clock::now();
    const std::string metadata =
        report_metadata_json(std::string("sollens ") + kVersion, trace, device, session.metadata());
    std::ofstream out(dir / "report.json", std::ios::binary);
    if (out) write_report_json(metadata, emitted_diagnostics_json(session.diagnostics()), sheets, out);
    json_written = static_cast<bool>(out);
    json_ms = ms_since(t_json);
  }
  const double files_wait_ms = files.join();
  if (!files.problem().empty()) {
    print_diagnostic(log, {Code::output_unwritable, files.problem()});
    return 3;
  }
  if (write_json && !json_written) {
    print_diagnostic(log, {Code::output_unwritable, "cannot write " + (dir / "report.json").string()});
    return 3;
  }

  print_report_summary(trace, loaded, report, files.csv_ms(), log);
  // Only when the load printed diagnostics above: their counts, as report.json has them.
  if (const std::string counts = diagnostics_counts_line(session.diagnostics()); !counts.empty())
    log << "  " << counts << " (sollens explain CODE says what each means)\n";
  for (const std::filesystem::path& csv : files.csv_files()) log << "  wrote " << csv.string() << "\n";
  log << "  cycles: " << cycles_summary(cycles) << " (detection "
      << (report.timings.sol_inputs_ms > 0 ? "beside the sheets" : ms(cycles_ms) + " ms")
      << "; details: sollens cycles)\n";
  for (const Diagnostic& notice : files.notices()) print_diagnostic(log, notice);
  if (write_json) log << "  wrote " << (dir / "report.json").string() << "\n";
  if (write_xlsx_file) log << "  wrote " << (dir / "report.xlsx").string() << "\n";
  const StageTimes stages{loaded,        analyses_ms, report.timings.sol_inputs_ms, cycles_ms, files.csv_ms(),
                          files.xlsx_ms(), json_ms,   files_wait_ms};
  log << "  stages (ms): " << stages_line(stages, session.store()) << "\n";
  return 0;
}

// The rank's collective kernels as CSV (api/rank_collectives.h), for a fleet run
// that merges many ranks' files afterwards.
int write_rank_summary(const std::string& trace, const LoadedTrace& loaded, const std::string& path) {
  const Table table = rank_collectives_sheet(loaded.session, trace);
  std::ofstream out(path, std::ios::binary);
  if (out) write_csv(table, out);
  if (!out) {
    print_error(Status(Code::output_unwritable, "cannot write " + path));
    return 3;
  }
  std::cerr << "  wrote " << path << " (" << table.num_rows() << " collective kernels)\n";
  return 0;
}

// --counters-trace FILE and the like: the trace written again by `write` (api/hta_traces.h).
// 3 when the file cannot be written, 1 when the trace cannot take the events (no file left).
int write_hta_trace(const std::string& flag, const std::string& path,
                    const std::function<Status(std::ostream&)>& write) {
  const Status unwritable(Code::output_unwritable, "cannot write " + path + " (" + flag + ")");
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    print_error(unwritable);
    return 3;
  }
  const Status written = write(out);
  if (!written.ok()) {
    out.close();
    std::filesystem::remove(path);
    print_error(Status(written.code(), flag + ": " + written.message()));
    return 1;
  }
  out.close();
  if (!out) {
    print_error(unwritable);
    return 3;
  }
  std::cerr << "  wrote " << path << "\n";
  return 0;
}

// The HTA traces asked for (--counters-trace, --critical-path-trace), after the report.
int write_hta_traces(const LoadedTrace& loaded, const ReportRequest& request, const ReportCliOptions& cli) {
  const Session& session = loaded.session;
  if (!cli.counters_trace.empty())
    if (const int code = write_hta_trace("--counters-trace", cli.counters_trace,
                                         [&session](std::ostream& out) { return write_counters_trace(session, out); }))
      return code;
  if (!cli.critical_path_trace.empty())
    return write_hta_trace("--critical-path-trace", cli.critical_path_trace, [&](std::ostream& out) {
      return write_critical_path_trace(session, request, out);
    });
  return 0;
}

int run_report(const std::vector<std::string>& args) {
  std::vector<std::string> inputs;
  ReportRequest request;
  ReportCliOptions cli;
  const ReadOption option =
      option_reader(args, options_in(report_options(), request), options_in(report_cli_options(), cli));
  if (!parse_traces_args("report", args, option, inputs)) return 2;
  request.sol_sheets = !cli.no_sol;
  TreeOptions tree_options;
  tree_options.include_python = cli.include_python;
  tree_options.strip_sglang_profiler_suffixes = cli.strip_sglang_suffixes;
  tree_options.link = cli.link;
  const std::string& out_dir = cli.out_dir;
  const bool write_json = !cli.no_json, write_xlsx_file = !cli.no_xlsx;
  const std::string& rank_summary = cli.rank_summary;
  const std::string& capture = cli.capture;
  const uint64_t max_memory = cli.max_memory_bytes;
  std::vector<std::string> traces;
  if (!resolve_traces(inputs, traces)) return 2;
  // Recompute is found from the checkpoint python frames, so they must be in the tree.
  if (request.detect_recompute) tree_options.include_python = true;
  const bool many = traces.size() != 1 || is_directory(inputs.front());
  if (many && !rank_summary.empty()) {
    print_error(Status(Code::too_many_inputs, "--rank-summary takes one trace (one rank)"));
    return 2;
  }
  if (many && !capture.empty()) {
    print_error(Status(Code::too_many_inputs, "--capture takes one trace"));
    return 2;
  }
  for (const auto& [flag, file] : {std::pair{"--counters-trace", &cli.counters_trace},
                                   std::pair{"--critical-path-trace", &cli.critical_path_trace}})
    if (many && !file->empty()) {
      print_error(Status(Code::too_many_inputs, std::string(flag) + " takes one trace"));
      return 2;
    }
  if (!cli.critical_path_trace.empty() && !request.critical_path.enabled) {
    print_error(Status(Code::conflicting_options, "--critical-path-trace needs a critical path (not --critical-path none)"));
    return 2;
  }
  if (many) return run_ranks_report(traces, tree_options, request, out_dir, write_json, write_xlsx_file, max_memory);
  const std::string& trace = traces.front();

  auto loaded = std::make_unique<LoadedTrace>();
  if (!load_and_model(trace, tree_options, *loaded)) return 1;
  if (!capture.empty() && !load_capture_trace(capture, *loaded)) return 1;
  int code = write_report_dir(trace, *loaded, request, out_dir, write_json, write_xlsx_file, std::cerr);
  if (code == 0 && !rank_summary.empty()) code = write_rank_summary(trace, *loaded, rank_summary);
  if (code == 0) code = write_hta_traces(*loaded, request, cli);
  // What exit costs before the process ends: freeing the store, the tree and the text.
  const auto t_free = std::chrono::steady_clock::now();
  loaded.reset();
  std::cerr << "  freed the trace in " << ms(ms_since(t_free)) << " ms\n";
  return code;
}

}  // namespace sollens::cli
