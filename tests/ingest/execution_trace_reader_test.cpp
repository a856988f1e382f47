#include <catch2/catch.hpp>

#include "support/et_builder.h"

using namespace sollens;
using namespace sollens::test;

namespace {

const char* kLinearSchema = "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor";

std::vector<EtNodeSpec> one_linear() {
  return {{2, 1, "aten::linear", kLinearSchema,
           {et_tensor(10, 11, {2, 16, 64}), et_tensor(12, 13, {32, 64}), et_none()},
           {et_tensor(14, 15, {2, 16, 32})}}};
}

}  // namespace

TEST_CASE("ET reader: the 1.0.1 flat layout") {
  const Result<std::unique_ptr<ExecutionGraph>> r = load_et(et_flat(one_linear()));
  REQUIRE(r.ok());
  const ExecutionGraph& g = *r.value();
  CHECK(g.schema == "1.0.1");
  CHECK(g.pid == 7);
  REQUIRE(g.nodes.size() == 2);
  const EtNode& n = g.nodes[1];
  CHECK(n.name == "aten::linear");
  CHECK(n.parent == 1);
  CHECK(n.rf_id == 2);
  CHECK(n.scope == 0);
  REQUIRE(n.inputs.size() == 3);
  CHECK(n.inputs[0].kind == EtValue::Kind::kTensor);
  CHECK(n.inputs[1].name == "weight");
  CHECK(n.inputs[2].kind == EtValue::Kind::kOther);
  const EtTensor& w = g.tensors[n.inputs[1].tensors[0]];
  CHECK(w.id == 12);
  CHECK(w.storage == 13);
  CHECK(w.numel == 32 * 64);
  CHECK(w.itemsize == 4);
  CHECK(w.device == "cuda:0");
  CHECK(w.shape == std::vector<int64_t>{32, 64});
  CHECK(w.dtype == "float");
}

TEST_CASE("ET reader: the chakra layout reads the same graph") {
  const Result<std::unique_ptr<ExecutionGraph>> flat = load_et(et_flat(one_linear()));
  const Result<std::unique_ptr<ExecutionGraph>> chakra = load_et(et_chakra(one_linear()));
  REQUIRE(flat.ok());
  REQUIRE(chakra.ok());
  CHECK(chakra.value()->schema == "1.1.1-chakra.0.0.4");
  const EtNode& a = flat.value()->nodes[1];
  const EtNode& b = chakra.value()->nodes[0];
  CHECK(a.name == b.name);
  CHECK(a.parent == b.parent);
  CHECK(a.rf_id == b.rf_id);
  CHECK(a.op_schema == b.op_schema);
  CHECK(b.inputs[1].name == "weight");
  REQUIRE(b.outputs.size() == 1);
  CHECK(chakra.value()->tensors[b.outputs[0].tensors[0]].shape == std::vector<int64_t>{2, 16, 32});
}

TEST_CASE("ET reader: tensor lists and undefined tensors") {
  const std::string text = R"ET({"schema": "1.0.1", "nodes": [
    {"name": "aten::_foreach_add_", "id": 3, "parent": 1, "scope": 0, "tid": 1,
     "op_schema": "aten::_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()",
     "inputs": [[[5,6,0,4,4,"cuda:0"],[7,8,0,2,4,"cuda:0"]], [[9,10,0,4,4,"cuda:0"],[11,12,0,2,4,"cuda:0"]], -0.1],
     "input_shapes": [[[4],[2]], [[4],[2]], []],
     "input_types": ["GenericList[Tensor(float),Tensor(float)]", "GenericList[Tensor(float),Tensor(float)]", "Double"],
     "outputs": [[1,0,0,0,0,""]], "output_shapes": [[]], "output_types": ["Tensor(nullptr (uninitialized))"]}]})ET";
  const Result<std::unique_ptr<ExecutionGraph>> r = load_et(text);
  REQUIRE(r.ok());
  const EtNode& n = r.value()->nodes[0];
  REQUIRE(n.inputs.size() == 3);
  CHECK(n.inputs[0].kind == EtValue::Kind::kTensorList);
  CHECK(n.inputs[0].tensors.size() == 2);
  CHECK(n.inputs[0].name == "self");
  CHECK(r.value()->tensors[n.inputs[0].tensors[1]].shape == std::vector<int64_t>{2});
  CHECK(n.inputs[2].kind == EtValue::Kind::kOther);
  CHECK(n.outputs[0].kind == EtValue::Kind::kOther);  // undefined: no tensor
}

TEST_CASE("ET reader: schema argument names") {
  CHECK(schema_argument_names("aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, "
                              "Scalar alpha=1) -> Tensor") ==
        std::vector<std::string>{"self", "mat1", "mat2", "beta", "alpha"});
  CHECK(schema_argument_names("aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, "
                              "SymInt[2] stride=[1, 1]) -> Tensor") ==
        std::vector<std::string>{"input", "weight", "bias", "stride"});
  CHECK(schema_argument_names("").empty());
}

TEST_CASE("ET reader: bad input gets its code, a clear message and no graph") {
  struct Case {
    std::string text, expect;
    Code code;
  };
  const std::string good = et_flat(one_linear());
#ifdef SOLLENS_HAVE_ZLIB
  const Code gzip_failure = Code::gzip_corrupt;
#else
  const Code gzip_failure = Code::gzip_unsupported;
#endif
  const std::vector<Case> cases = {
      {"", "empty", Code::file_empty},
      {"hello", "not JSON", Code::not_json},
      {"[1, 2]", "not a JSON object", Code::not_an_execution_trace},
      {"  \n ", "only whitespace", Code::file_empty},
      {good.substr(0, 40) + "\x01" + good.substr(41), "byte 40", Code::et_invalid_json},
      {R"({"schema": "1.0.1"})", "no \"nodes\"", Code::not_an_execution_trace},
      {R"({"traceEvents": []})", "Kineto trace", Code::et_is_kineto},
      {R"({"schema": "1.0.1", "nodes": 5})", "not an array", Code::not_an_execution_trace},
      {R"({"schema": "1.0.1", "nodes": [7]})", "node 0 is not an object", Code::et_bad_node},
      {R"({"schema": "1.0.1", "nodes": [{"name": "x"}]})", "no integer \"id\"", Code::et_bad_node},
      {R"({"schema": "1.0.1", "nodes": [{"id": 1, "x": )" + std::string(70, '[') + std::string(70, ']') + "}]}",
       "deeper than 64", Code::et_bad_node},
      {good.substr(0, good.size() / 2), "byte", Code::et_invalid_json},
      {good + " {}", "byte", Code::et_invalid_json},
      // A gzip header, then a deflate block of the reserved type: corrupt, not cut short.
      {std::string("\x1f\x8b\x08\0\0\0\0\0\0\x03\x07garbage", 18), "gzip", gzip_failure},
  };
  for (const Case& c : cases) {
    INFO(c.text.substr(0, 60));
    const Result<std::unique_ptr<ExecutionGraph>> r = load_et(c.text);
    CHECK(r.code() == c.code);
    CHECK_THAT(r.message(), Catch::Contains(c.expect));
  }
}

TEST_CASE("ET reader: a graph without a schema key warns under its code") {
  std::string text = et_flat(one_linear());
  const std::string schema = R"("schema": "1.0.1", )";
  REQUIRE(text.find(schema) != std::string::npos);
  text.erase(text.find(schema), schema.size());
  const Result<std::unique_ptr<ExecutionGraph>> r = load_et(text);
  REQUIRE(r.ok());
  REQUIRE(r.value()->warnings.size() == 1);
  CHECK(r.value()->warnings[0].code == Code::et_no_schema);
  CHECK_THAT(r.value()->warnings[0].message, Catch::Contains("no \"schema\" key"));
}

TEST_CASE("ET reader: malformed tensor tuples are read as other values, with a warning") {
  std::string text = et_flat(one_linear());
  const std::string tuple = "[12,13,0,2048,4,\"cuda:0\"]";
  text.replace(text.find(tuple), tuple.size(), "[12,\"x\",0]");
  const Result<std::unique_ptr<ExecutionGraph>> r = load_et(text);
  REQUIRE(r.ok());
  CHECK(r.value()->nodes[1].inputs[1].kind == EtValue::Kind::kOther);
  REQUIRE(r.value()->warnings.size() == 1);
  CHECK(r.value()->warnings[0].code == Code::et_bad_tensors);
  CHECK_THAT(r.value()->warnings[0].message, Catch::Contains("1 tensor values"));
}

TEST_CASE("ET reader: every truncation and byte change of a small trace ends in a graph or a message") {
  const std::string good = et_chakra(one_linear());
  for (size_t cut = 0; cut < good.size(); ++cut) {
    const Result<std::unique_ptr<ExecutionGraph>> r = load_et(good.substr(0, cut));
    CHECK((r.ok()) != !r.message().empty());
  }
  for (size_t at = 0; at < good.size(); at += 3)
    for (char c : {'"', '}', ']', '[', '{', ',', '0', '\x80'}) {
      std::string bad = good;
      bad[at] = c;
      const Result<std::unique_ptr<ExecutionGraph>> r = load_et(bad);
      CHECK((r.ok()) != !r.message().empty());
    }
}
