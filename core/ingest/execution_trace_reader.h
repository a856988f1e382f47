#pragma once
// PyTorch Execution Trace JSON (or gzip of it) → ExecutionGraph. Reads every schema
// in the wild: 1.0.1's flat node keys (parent, input_shapes, ...) and the chakra
// layout of 1.0.2 to 1.1.x (ctrl_deps, inputs{values, shapes, types[, strides]},
// attrs). Facts: core/ingest/README.md, "Execution Traces".
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "store/execution_graph.h"
#include "store/padded_buffer.h"

namespace sollens {

struct EtLoadResult {
  std::unique_ptr<ExecutionGraph> graph;  // null on error
  std::string error;                      // plain words, with the byte offset where known
};

// Takes the file's bytes (JSON or gzip JSON).
EtLoadResult load_execution_trace(PaddedBuffer bytes);

// The argument names of an op_schema, in order, "*" left out:
// "aten::addmm(Tensor self, Tensor mat1, ...) -> Tensor" → {"self", "mat1", ...}.
std::vector<std::string> schema_argument_names(std::string_view op_schema);

}  // namespace sollens
