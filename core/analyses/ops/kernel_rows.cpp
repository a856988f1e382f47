#include "analyses/ops/kernel_rows.h"

namespace sollens {

std::vector<KernelRow> kernel_rows(const EventStore& s, const TraceTree& tree) {
  std::vector<KernelRow> rows;
  for (uint32_t g : tree.gpu_events) {
    if (s.category[g] != Category::kKernel) continue;
    KernelRow r{g};
    r.launcher = tree.parent[g];
    for (int32_t e = r.launcher; e != kNoParent; e = tree.parent[static_cast<size_t>(e)]) {
      if (s.category[static_cast<size_t>(e)] == Category::kCpuOp) {
        r.cpu_op = e;
        break;
      }
    }
    rows.push_back(r);
  }
  return rows;
}

}  // namespace sollens
