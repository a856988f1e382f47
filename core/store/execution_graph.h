#pragma once
// A PyTorch Execution Trace as a compact operator graph: its nodes (operators,
// annotations, autograd functions) in file order and every tensor occurrence they
// name. Written by ingest/execution_trace_reader, read by analyses/solar.
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace sollens {

// One tensor as one node saw it: the ET tuple [id, storage, offset, numel,
// itemsize, device] plus that node's shape and dtype for it. Ids are addresses the
// writer numbered, so they are reused after a tensor is freed.
struct EtTensor {
  int64_t id = 0;
  int64_t storage = 0;
  int64_t offset = 0;
  int64_t numel = 0;
  int64_t itemsize = 0;
  std::string device;
  std::vector<int64_t> shape;  // empty when the trace gives no int dims
  std::string dtype;           // "float", "c10::Half", ... (inside "Tensor(...)")
};

// One argument or result of a node.
struct EtValue {
  enum class Kind : uint8_t { kTensor, kTensorList, kOther };
  Kind kind = Kind::kOther;
  std::vector<uint32_t> tensors;  // indices into ExecutionGraph::tensors
  std::string type;               // as written: "Tensor(float)", "Int", "GenericList[...]"
  std::string name;               // argument name from op_schema ("self", "weight"), if any
  std::string text;               // a scalar or short list as JSON text (kOther only)
};

struct EtNode {
  int64_t id = 0;
  int64_t parent = 0;  // "parent" (1.0.1) or "ctrl_deps" (chakra)
  std::string name;
  std::string op_schema;  // empty for annotations and autograd functions
  int64_t scope = -1;     // 0 aten op, 1 backward function, 7 user scope
  int64_t tid = -1;
  int64_t fw_tid = -1;
  int64_t rf_id = -1;
  int64_t fw_parent = -1;
  int64_t seq_id = -1;
  std::vector<EtValue> inputs;
  std::vector<EtValue> outputs;
  size_t byte_offset = 0;  // where the node starts in the (decompressed) JSON
};

struct ExecutionGraph {
  std::string schema;  // e.g. "1.0.1", "1.1.0-chakra.0.0.4"
  int64_t pid = -1;
  std::string time;    // the "time" key as written
  std::vector<EtNode> nodes;  // file order
  std::vector<EtTensor> tensors;
  std::vector<Diagnostic> warnings;  // codes in base/diagnostics.def
};

}  // namespace sollens
