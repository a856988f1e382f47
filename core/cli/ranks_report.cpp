#include "cli/ranks_report.h"

#include <glob.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "api/ranks.h"
#include "cli/commands.h"
#include "cli/diagnostic_lines.h"
#include "cli/output_files.h"
#include "writers/xlsx/xlsx_writer.h"
#include "writers/csv_writer.h"
#include "writers/ranks_report_json.h"
#include "writers/report_json.h"

namespace sollens::cli {

namespace fs = std::filesystem;

namespace {

bool is_trace_name(const std::string& name) {
  auto ends = [&](std::string_view suffix) {
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return (ends(".json") || ends(".json.gz")) && name != "report.json";
}

bool has_glob_characters(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

std::vector<std::string> glob_paths(const std::string& pattern) {
  std::vector<std::string> out;
  glob_t g{};
  if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  globfree(&g);
  std::sort(out.begin(), out.end());
  return out;
}

// One rank's peak while it is read and reported, estimated from its JSON: 1.1 × the
// bytes with the input compacted (measured: 1.06 GB for a 1.0 GB trace); a .gz, whose
// decompressed text is kept whole while it is parsed, 1.7 × the size its gzip trailer
// gives (modulo 4 GiB).
uint64_t estimated_peak_bytes(const std::string& trace) {
  std::error_code ec;
  const uint64_t size = fs::file_size(trace, ec);
  if (ec) return 0;
  if (trace.size() < 3 || trace.compare(trace.size() - 3, 3, ".gz") != 0 || size < 4) return size + size / 10;
  std::ifstream in(trace, std::ios::binary);
  unsigned char tail[4] = {};
  in.seekg(-4, std::ios::end);
  in.read(reinterpret_cast<char*>(tail), 4);
  const uint64_t plain = tail[0] | tail[1] << 8 | tail[2] << 16 | uint64_t(tail[3]) << 24;
  return plain + plain * 7 / 10;
}

// Ranks at once: one per core, fewer where `max_memory` (bytes, 0: no limit) cannot
// hold that many of the largest rank's estimated peak; at least one.
unsigned workers_for(const std::vector<std::string>& traces, uint64_t max_memory) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  unsigned workers = std::min<unsigned>(cores, static_cast<unsigned>(traces.size()));
  if (max_memory == 0) return workers;
  uint64_t largest = 1;
  for (const std::string& t : traces) largest = std::max(largest, estimated_peak_bytes(t));
  return std::max<unsigned>(1, std::min<uint64_t>(workers, max_memory / largest));
}

struct RankOutcome {
  std::optional<ranks::RankSummary> summary;
  std::string log;
  int code = 0;
};

// One rank: load, write its report, keep its summary; the trace is dropped on return.
RankOutcome run_rank(const std::string& trace, const TreeOptions& tree_options, const ReportRequest& request,
                     const fs::path& dir, bool write_json, bool write_xlsx_file, unsigned load_threads) {
  RankOutcome outcome;
  // The freed trace's memory goes back to the system, not only to malloc's free lists
  // (where a thread's arena would keep it from the other ranks).
  struct TrimOnReturn {
    ~TrimOnReturn() { malloc_trim(0); }
  } trim;
  LoadedTrace loaded;
  if (!load_and_model(trace, tree_options, loaded, load_threads, /*compact=*/true)) {
    outcome.code = 1;
    return outcome;
  }
  std::ostringstream log;
  outcome.code = write_report_dir(trace, loaded, request, dir.string(), write_json, write_xlsx_file, log);
  outcome.log = log.str();
  outcome.summary = loaded.session.rank_summary(trace);
  return outcome;
}

bool write_sheets(const std::vector<const Table*>& sheets, const fs::path& dir, bool write_json, bool write_xlsx_file,
                  size_t rank_count) {
  for (const Table* t : sheets) {
    const fs::path path = dir / (t->name() + ".csv");
    std::ofstream out(path, std::ios::binary);
    if (out) write_csv(*t, out);
    if (!out) {
      print_error(Status(Code::output_unwritable, "cannot write " + path.string()));
      return false;
    }
    std::cerr << "  wrote " << path.string() << "\n";
  }
  if (write_json) {
    const std::string metadata = ranks_report_metadata_json(std::string("sollens ") + kVersion, rank_count);
    const fs::path path = dir / "report.json";
    std::ofstream out(path, std::ios::binary);
    if (out) write_report_json(metadata, sheets, out);
    if (!out) {
      print_error(Status(Code::output_unwritable, "cannot write " + path.string()));
      return false;
    }
  }
  if (write_xlsx_file) {
    std::vector<Diagnostic> notices;
    const std::string problem = write_xlsx((dir / "report.xlsx").string(), sheets, &notices);
    for (const Diagnostic& notice : notices) print_diagnostic(std::cerr, notice);
    if (!problem.empty()) {
      print_error(Status(Code::output_unwritable, problem));
      return false;
    }
  }
  return true;
}

// Moves rank reports from their file-order folders to rank<k>.
bool name_rank_folders(const std::vector<ranks::RankSummary>& summaries, const std::vector<std::string>& traces,
                       const fs::path& out) {
  for (const ranks::RankSummary& r : summaries) {
    const size_t index = static_cast<size_t>(std::find(traces.begin(), traces.end(), r.file) - traces.begin());
    const fs::path from = out / (".file" + std::to_string(index)), to = out / ("rank" + std::to_string(r.rank));
    std::error_code ec;
    fs::remove_all(to, ec);
    fs::rename(from, to, ec);
    if (ec) {
      print_error(Status(Code::output_unwritable,
                         "cannot move " + from.string() + " to " + to.string() + ": " + ec.message()));
      return false;
    }
  }
  return true;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// Each rank's summary lines, in rank order, naming its final folder.
void print_rank_logs(const std::vector<ranks::RankSummary>& summaries, const std::vector<std::string>& traces,
                     const std::vector<RankOutcome>& outcomes, const fs::path& out) {
  for (const ranks::RankSummary& r : summaries) {
    const size_t index = static_cast<size_t>(std::find(traces.begin(), traces.end(), r.file) - traces.begin());
    std::cerr << "sollens: rank " << r.rank << ": " << r.file << "\n"
              << replace_all(outcomes[index].log, (out / (".file" + std::to_string(index))).string(),
                             (out / ("rank" + std::to_string(r.rank))).string());
  }
}

// Each rank's own report into out/.file<i>, `workers` ranks at a time; each rank's
// summary is kept and its trace dropped.
std::vector<RankOutcome> report_each_rank(const std::vector<std::string>& traces, const TreeOptions& tree_options,
                                          const ReportRequest& request, const fs::path& out, bool write_json,
                                          bool write_xlsx_file, unsigned workers, unsigned load_threads) {
  std::vector<RankOutcome> outcomes(traces.size());
  std::atomic<size_t> next{0};
  std::mutex print;
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < traces.size();) {
      outcomes[i] = run_rank(traces[i], tree_options, request, out / (".file" + std::to_string(i)), write_json,
                             write_xlsx_file, load_threads);
      const std::lock_guard<std::mutex> lock(print);
      std::cerr << "sollens: read " << traces[i] << "\n";
    }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return outcomes;
}

// How the ranks were numbered and matched, and the straggler.
void print_cross_rank_summary(const RanksResult& cross, unsigned workers) {
  std::cerr << "sollens: " << cross.ranks.size() << " ranks (" << workers << " at a time), ranks from "
            << cross.ranks.front().rank_from << "; collectives matched "
            << (cross.simplified_mode ? "by order on one stream" : "by process group and order");
  if (cross.metadata_mismatches > 0)
    std::cerr << "; warning: " << cross.metadata_mismatches << " rank(s) disagree on a collective's metadata";
  std::cerr << "\n";
  for (const Table& t : cross.sheets)
    if (t.name() == "straggler_summary" && t.num_rows() > 0)
      std::cerr << "  straggler (least total wait): rank " << t.column(0).int_at(0) << "\n";
  for (const Table& t : cross.sheets)
    if (t.name() == "straggler_verdict" && t.num_rows() > 0) std::cerr << "  " << t.column(0).string_at(0) << "\n";
}

}  // namespace

bool is_directory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

bool resolve_traces(const std::vector<std::string>& inputs, std::vector<std::string>& traces) {
  for (const std::string& input : inputs) {
    std::vector<std::string> found;
    std::error_code ec;
    if (is_directory(input)) {
      for (const auto& entry : fs::directory_iterator(input, ec))
        if (entry.is_regular_file() && is_trace_name(entry.path().filename().string())) found.push_back(entry.path().string());
      std::sort(found.begin(), found.end());
    } else if (!fs::exists(input, ec) && has_glob_characters(input)) {
      found = glob_paths(input);
    } else {
      found.push_back(input);
    }
    if (found.empty()) {
      print_error(Status(Code::file_unreadable, "no trace in '" + input + "'"));
      return false;
    }
    traces.insert(traces.end(), found.begin(), found.end());
  }
  return true;
}

int run_ranks_report(const std::vector<std::string>& traces, const TreeOptions& tree_options,
                     const ReportRequest& request, const std::string& out_dir, bool write_json,
                     bool write_xlsx_file, uint64_t max_memory) {
  const auto t0 = std::chrono::steady_clock::now();
  const fs::path out(out_dir);
  if (!make_output_dir(out_dir)) return 3;
  const unsigned workers = workers_for(traces, max_memory);
  // Ranks in parallel; a lone worker may still split one large trace in two, unless a
  // memory budget is set (two halves hold about a fifth more at their peak).
  const unsigned load_threads = workers > 1 || max_memory != 0 ? 1 : 0;
  std::vector<RankOutcome> outcomes =
      report_each_rank(traces, tree_options, request, out, write_json, write_xlsx_file, workers, load_threads);

  std::vector<ranks::RankSummary> read;
  for (RankOutcome& o : outcomes) {
    if (o.code != 0) return o.code;
    read.push_back(std::move(*o.summary));
  }
  const RanksResult cross = Session::ranks(std::move(read));
  const std::vector<ranks::RankSummary>& summaries = cross.ranks;
  if (!name_rank_folders(summaries, traces, out)) return 3;
  print_rank_logs(summaries, traces, outcomes, out);

  std::vector<const Table*> sheets;
  for (const Table& t : cross.sheets) sheets.push_back(&t);
  print_cross_rank_summary(cross, workers);
  if (!write_sheets(sheets, out, write_json, write_xlsx_file, summaries.size())) return 3;
  char took[32];
  std::snprintf(took, sizeof took, "%.3f", ms_since(t0));
  std::cerr << "  ranks report: " << took << " ms\n";
  return 0;
}

}  // namespace sollens::cli
