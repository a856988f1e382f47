// sollens info: what a trace is, in a few lines.
#include <iostream>

#include "api/command_options.h"
#include "cli/commands.h"
#include "cli/diagnostic_lines.h"
#include "cli/loaded_trace.h"
#include "cli/trace_args.h"

namespace sollens::cli {

namespace {
std::string or_unknown(int64_t v) { return v == kNoValue ? "?" : std::to_string(v); }
}  // namespace

int run_info(const std::vector<std::string>& args) {
  std::string trace;
  InfoCliOptions options;
  if (!parse_trace_args("info", args, option_reader(args, options_in(info_cli_options(), options)), trace)) return 2;
  const std::string& device_name = options.device_name;
  TreeOptions tree_options;
  tree_options.link = options.link;
  LoadedTrace loaded;
  if (!load_and_model(trace, tree_options, loaded)) return 1;
  const EventStore& s = loaded.session.store();
  const TraceInfo info = loaded.session.info();

  std::cout << "trace:    " << trace << "\n";
  std::cout << "size:     " << s.input_bytes << " bytes of JSON";
  if (s.compressed_bytes) std::cout << " (" << s.compressed_bytes << " gzip)";
  std::cout << "\nformat:   " << info.format << "\n";
  for (const auto& h : info.version_hints) std::cout << "hint:     " << h << "\n";
  if (s.metadata.devices.empty()) std::cout << "devices:  none listed (no deviceProperties)\n";
  for (const auto& d : s.metadata.devices) {
    std::cout << "device:   id " << or_unknown(d.id) << " \"" << d.name << "\" cc "
              << or_unknown(d.compute_major) << "." << or_unknown(d.compute_minor) << ", "
              << or_unknown(d.num_sms) << " SMs/CUs";
    if (d.total_global_mem != kNoValue)
      std::cout << ", " << (d.total_global_mem >> 20) << " MiB";
    std::cout << "\n";
  }
  // The identified GPU and its peaks (core/analyses/roofline).
  {
    const DeviceIdentification gpu = loaded.session.identify_device(device_name);
    if (const DeviceSpec* spec = gpu.roofline_spec()) {
      std::cout << "gpu:      " << spec->id << ": " << spec->name << " (by " << gpu.how;
      if (gpu.device_index >= 0)
        std::cout << "; device index " << gpu.device_index
                  << (gpu.from_gpu_events ? ", where the GPU events ran" : ", the first listed");
      std::cout << ")\n";
      std::cout << "peaks:    dense TFLOPS per device:";
      for (size_t k = 0; k < kPeakKeyCount; ++k)
        if (auto v = spec->device_dense_tflops(static_cast<PeakKey>(k)))
          std::cout << " " << peak_key_name(static_cast<PeakKey>(k)) << " " << *v;
      std::cout << "\n";
      if (auto bw = spec->device_mem_bw_tbps())
        std::cout << "memory:   " << *bw << " TB/s per device";
      if (spec->devices_per_package > 1)
        std::cout << " (package / " << spec->devices_per_package << " devices)";
      std::cout << "; confidence " << spec->confidence << "; sources deviceDB/" << spec->id
                << ".json\n";
    } else {
      std::cout << "gpu:      no roofline: "
                << gpu.notice << "\n";
    }
  }
  if (s.metadata.distributed) {
    const auto& di = *s.metadata.distributed;
    std::cout << "ranks:    rank " << or_unknown(di.rank) << " of " << or_unknown(di.world_size)
              << " (" << (di.backend.empty() ? "?" : di.backend) << ")\n";
  } else {
    std::cout << "ranks:    single process (no distributedInfo)\n";
  }
  std::cout << "events:   " << info.events << " (" << info.gpu_events << " GPU, "
            << info.linked_gpu_events << " linked to a launch)\n";
  // Only the exception is named: TraceLens's flow links are what every report assumes.
  if (info.linked_by == LinkMode::kCorrelation)
    std::cout << "linking:  by correlation id, as HTA does (not TraceLens's flow events)\n";
  std::cout << "GPU pids: ";
  for (size_t i = 0; i < info.gpu_devices.size(); ++i)
    std::cout << (i ? ", " : "") << info.gpu_devices[i];
  std::cout << (info.gpu_devices.empty() ? "none\n" : "\n");
  std::cout << "span:     " << (info.last_end_us - info.first_ts_us) / 1e3 << " ms\n";
  std::cout << "by category:\n";
  for (const auto& [cat, n] : info.events_by_category)
    std::cout << "  " << cat << ": " << n << "\n";
  std::cout << "by phase:\n";
  for (const auto& [ph, n] : info.events_by_phase) std::cout << "  " << ph << ": " << n << "\n";
  for (const auto& w : info.warnings) std::cout << diagnostic_line(w) << "\n";
  return 0;
}

}  // namespace sollens::cli
