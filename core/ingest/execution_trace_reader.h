#pragma once
// PyTorch Execution Trace JSON (or gzip of it) → ExecutionGraph. Reads every schema
// in the wild: 1.0.1's flat node keys (parent, input_shapes, ...) and the chakra
// layout of 1.0.2 to 1.1.x (ctrl_deps, inputs{values, shapes, types[, strides]},
// attrs). Facts: core/ingest/README.md, "Execution Traces".
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "store/execution_graph.h"
#include "store/padded_buffer.h"

namespace sollens {

// Takes the file's bytes (JSON or gzip JSON). The error's code says why there is no
// graph (et_is_kineto, not_an_execution_trace, et_invalid_json, et_bad_node,
// et_cut_short, not_json, file_empty, gzip_*, out_of_memory); its message gives the
// byte offset where known. Caveats are the graph's warnings (et_no_schema, et_bad_tensors).
Result<std::unique_ptr<ExecutionGraph>> load_execution_trace(PaddedBuffer bytes);

// The argument names of an op_schema, in order, "*" left out:
// "aten::addmm(Tensor self, Tensor mat1, ...) -> Tensor" → {"self", "mat1", ...}.
std::vector<std::string> schema_argument_names(std::string_view op_schema);

}  // namespace sollens
