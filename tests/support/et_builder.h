#pragma once
// Tiny synthetic PyTorch Execution Traces for tests, in the 1.0.1 flat layout or the
// chakra layout (attrs, inputs{values, shapes, types}).
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "ingest/execution_trace_reader.h"

namespace sollens::test {

struct EtArg {
  std::string value;  // JSON text
  std::string shape;  // JSON text
  std::string type;
};

// A tensor [id, storage, 0, numel, itemsize, "cuda:0"] of the given shape.
inline EtArg et_tensor(int64_t id, int64_t storage, std::vector<int64_t> shape,
                       std::string dtype = "float", int64_t itemsize = 4) {
  int64_t numel = 1;
  std::string dims = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    numel *= shape[i];
    dims += (i ? "," : "") + std::to_string(shape[i]);
  }
  dims += "]";
  return {"[" + std::to_string(id) + "," + std::to_string(storage) + ",0," + std::to_string(numel) +
              "," + std::to_string(itemsize) + ",\"cuda:0\"]",
          dims, "Tensor(" + dtype + ")"};
}
inline EtArg et_int(int64_t v) { return {std::to_string(v), "[]", "Int"}; }
inline EtArg et_bool(bool v) { return {v ? "true" : "false", "[]", "Bool"}; }
inline EtArg et_none() { return {"\"<None>\"", "[]", "None"}; }

struct EtNodeSpec {
  int64_t id;
  int64_t parent;
  std::string name;
  std::string schema;  // op_schema ("" for annotations)
  std::vector<EtArg> inputs, outputs;
  int64_t scope = 0;
  int64_t tid = 1;
};

inline std::string et_join(const std::vector<EtArg>& args, std::string EtArg::*field, bool quote) {
  std::string s = "[";
  for (size_t i = 0; i < args.size(); ++i)
    s += (i ? "," : "") + (quote ? "\"" + args[i].*field + "\"" : args[i].*field);
  return s + "]";
}

inline std::string et_flat(const std::vector<EtNodeSpec>& nodes) {
  std::string s = "{\"schema\": \"1.0.1\", \"pid\": 7, \"nodes\": [\n";
  s += R"({"name": "[pytorch|profiler|execution_trace|process]", "id": 1, "parent": 1, "rf_id": 0, "scope": 7, "tid": 0, "op_schema": "", "inputs": [], "input_shapes": [], "input_types": [], "outputs": [], "output_shapes": [], "output_types": []})";
  for (const EtNodeSpec& n : nodes) {
    s += ",\n{\"name\": \"" + n.name + "\", \"id\": " + std::to_string(n.id) +
         ", \"rf_id\": " + std::to_string(n.id) + ", \"parent\": " + std::to_string(n.parent) +
         ", \"scope\": " + std::to_string(n.scope) + ", \"tid\": " + std::to_string(n.tid) +
         ", \"op_schema\": \"" + n.schema + "\", \"inputs\": " + et_join(n.inputs, &EtArg::value, false) +
         ", \"input_shapes\": " + et_join(n.inputs, &EtArg::shape, false) +
         ", \"input_types\": " + et_join(n.inputs, &EtArg::type, true) +
         ", \"outputs\": " + et_join(n.outputs, &EtArg::value, false) +
         ", \"output_shapes\": " + et_join(n.outputs, &EtArg::shape, false) +
         ", \"output_types\": " + et_join(n.outputs, &EtArg::type, true) + "}";
  }
  return s + "\n]}";
}

inline std::string et_chakra_side(const std::vector<EtArg>& args) {
  return "{\"values\": " + et_join(args, &EtArg::value, false) +
         ", \"shapes\": " + et_join(args, &EtArg::shape, false) +
         ", \"types\": " + et_join(args, &EtArg::type, true) + ", \"strides\": []}";
}

inline std::string et_chakra(const std::vector<EtNodeSpec>& nodes) {
  std::string s = "{\"schema\": \"1.1.1-chakra.0.0.4\", \"pid\": 7, \"nodes\": [";
  for (size_t i = 0; i < nodes.size(); ++i) {
    const EtNodeSpec& n = nodes[i];
    // attrs before the other members: the reader must not depend on member order.
    s += std::string(i ? ",\n" : "\n") + "{\"attrs\": [" +
         R"({"name": "rf_id", "type": "uint64", "value": )" + std::to_string(n.id) + "}," +
         R"({"name": "scope", "type": "uint64", "value": )" + std::to_string(n.scope) + "}," +
         R"({"name": "tid", "type": "uint64", "value": )" + std::to_string(n.tid) + "}," +
         R"({"name": "op_schema", "type": "string", "value": ")" + n.schema + "\"}]" +
         ", \"id\": " + std::to_string(n.id) + ", \"name\": \"" + n.name +
         "\", \"ctrl_deps\": " + std::to_string(n.parent) +
         ", \"inputs\": " + et_chakra_side(n.inputs) + ", \"outputs\": " + et_chakra_side(n.outputs) +
         "}";
  }
  return s + "\n]}";
}

inline Result<std::unique_ptr<ExecutionGraph>> load_et(const std::string& text) {
  return load_execution_trace(PaddedBuffer::copy_of(text));
}

}  // namespace sollens::test
