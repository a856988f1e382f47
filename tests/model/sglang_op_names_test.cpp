// SGLang's per-call-site op names, renamed as TraceLens's pseudo-op pass does
// (`^(sglang_profiler::.+?)_\d+$` on cpu_op names).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "api/api_test_traces.h"
#include "model/sglang_op_names.h"

using namespace sollens;

TEST_CASE("sglang names: the trailing _<digits> of sglang_profiler ops") {
  CHECK(sglang_profiler_base_name("sglang_profiler::attention_paged_attention_ragged_100") ==
        "sglang_profiler::attention_paged_attention_ragged");
  CHECK(sglang_profiler_base_name("sglang_profiler::a_1_23") == "sglang_profiler::a_1");  // the last one only
  CHECK(sglang_profiler_base_name("sglang_profiler::step_42\n") == "sglang_profiler::step");  // `$` before \n
  CHECK_FALSE(sglang_profiler_base_name("sglang_profiler::_5"));      // `.+?` needs a character
  CHECK_FALSE(sglang_profiler_base_name("sglang_profiler::step"));    // no suffix
  CHECK_FALSE(sglang_profiler_base_name("sglang_profiler::step42"));  // no underscore
  CHECK_FALSE(sglang_profiler_base_name("sglang_profiler::step_"));   // no digits
  CHECK_FALSE(sglang_profiler_base_name("aten::mm_1"));               // another namespace
}

TEST_CASE("sglang names: the option renames the trace's cpu_ops before the tree") {
  using test::complete_event;
  // Two layers' attention ops, and a name whose first event is a kernel (left as is).
  const std::string trace =
      R"({"traceEvents":[)" +
      complete_event("cpu_op", "sglang_profiler::attention_paged_attention_ragged_100", "10", "5") + "," +
      complete_event("cpu_op", "sglang_profiler::attention_paged_attention_ragged_101", "20", "5") + "," +
      complete_event("kernel", "sglang_profiler::k_7", "30", "5") + "," +
      complete_event("cpu_op", "sglang_profiler::k_7", "40", "5") + "]}";
  auto names = [&](bool strip) {
    Session session;
    LoadOptions options;
    options.tree.strip_sglang_profiler_suffixes = strip;
    REQUIRE(test::load_text(session, trace, options).ok());
    std::vector<std::string> out;
    for (size_t e = 0; e < session.store().size(); ++e) out.emplace_back(session.store().name_of(e));
    return out;
  };
  CHECK(names(false) == std::vector<std::string>{"sglang_profiler::attention_paged_attention_ragged_100",
                                                 "sglang_profiler::attention_paged_attention_ragged_101",
                                                 "sglang_profiler::k_7", "sglang_profiler::k_7"});
  CHECK(names(true) == std::vector<std::string>{"sglang_profiler::attention_paged_attention_ragged",
                                                "sglang_profiler::attention_paged_attention_ragged",
                                                "sglang_profiler::k_7", "sglang_profiler::k_7"});
}
