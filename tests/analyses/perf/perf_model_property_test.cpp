// Properties of the perf models (analyses/perf).
#include <catch2/catch.hpp>

#include "analyses/perf/model_registry.h"
#include "analyses/perf/models.h"
#include "base/python_literal.h"

using namespace sollens;
using namespace sollens::perf;

namespace {

ModelResult run(Model model, const char* op, const char* dims, const char* types, const char* concrete) {
  EventArgs a;
  a.dims = *literal_eval(dims);
  a.types = *literal_eval(types);
  a.concrete = *literal_eval(concrete);
  return evaluate(model, ModelInput{op, a, {}});
}

}  // namespace

TEST_CASE("a norm over zero channels divides by zero: no count, as TraceLens skips it", "[property][perf]") {
  // aten::_fused_rms_norm on (8, 0), normalized_shape [0]: N = 0, C = 0. TraceLens's
  // flops = (N / C)·(2·C + 2) + 2·N raises ZeroDivisionError on 0 / 0 and the row is
  // skipped; computed in doubles it was 0 / 0 = nan FLOPs in the report.
  const ModelResult r = run(Model::kRmsNorm, "aten::_fused_rms_norm", "[[8, 0], [], [0], []]",
                            "['c10::BFloat16', '', 'c10::BFloat16', 'Scalar']", "['', '[0]', '', '1e-06']");
  CHECK(r.status == Status::kOk);  // the params are read
  CHECK(r.fwd.status == Status::kError);
  // aten::native_layer_norm_backward on (4, 0), normalized_shape [0]: flops_bwd =
  // C·(4·N/C + …) divides 0 by 0 as well.
  CHECK(run(Model::kLayerNormBwd, "aten::native_layer_norm_backward", "[[4, 0], [4, 0], [], [4, 1], [4, 1], [0], [0], []]",
            "['float', 'float', '', 'float', 'float', 'float', 'float', '']",
            "['', '', '[0]', '', '', '', '', '[True, True, True]']")
            .fwd.status == Status::kError);
  // One channel more and both count again: rms_norm on (8, 1): N = 8, C = 1,
  // flops = 8·(2 + 2) + 2·8 = 48.
  const ModelResult r1 = run(Model::kRmsNorm, "aten::_fused_rms_norm", "[[8, 1], [], [1], []]",
                             "['c10::BFloat16', '', 'c10::BFloat16', 'Scalar']", "['', '[1]', '', '1e-06']");
  REQUIRE(r1.fwd.status == Status::kOk);
  CHECK(r1.fwd.flops.value() == 48);
}
