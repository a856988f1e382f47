#pragma once
// Everything `sollens solar` writes: the document of solar.json and solar.yaml
// (Solar's field names; writers/document_writer writes it), and one row per counted node.
#include <optional>
#include <string>
#include <vector>

#include "analyses/solar/kineto_link.h"
#include "analyses/solar/sol_model.h"
#include "analyses/solar/solar_graph.h"
#include "table/document.h"
#include "table/table.h"

namespace sollens::solar {

// The Kineto run beside the graph.
struct MeasuredRun {
  std::string link_method;
  std::string link_note;  // why nothing was linked, when nothing was
  std::vector<double> node_gpu_us;  // per SolarNode; -1 when not linked
  size_t compute_nodes = 0, compute_nodes_linked = 0;
  size_t et_nodes = 0, et_nodes_linked = 0;
  double linked_gpu_busy_us = 0;  // union of the GPU events under linked counted nodes
  double trace_gpu_busy_us = 0;   // union of every GPU event in the trace
};
MeasuredRun measure_run(const SolarGraph& solar, const ExecutionGraph& graph,
                        const EventStore& store, const TraceTree& tree);

struct SolarInputs {
  const ExecutionGraph* graph = nullptr;
  const SolarGraph* solar = nullptr;
  std::optional<SolarHardware> hardware;  // none: no perf sections, a notice instead
  std::string hardware_notice;
  std::optional<MeasuredRun> measured;
};

struct SolarReport {
  Document document = Document::object();
  Table nodes{"solar_nodes", TableKind::kSpeedOfLight};
  std::vector<std::string> summary;  // lines for the terminal
};

SolarReport make_solar_report(const SolarInputs& in);

// Solar HEAD's SOL times with the weights read once per pass (`weight_traffic`) where
// Solar reads each once; the fused traffic never exceeds the unfused (every read).
SolModel head_sol(const SolarGraph& g, const Totals& t, const WeightTraffic& w,
                  const SolarHardware& hw);

}  // namespace sollens::solar
