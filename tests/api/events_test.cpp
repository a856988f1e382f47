// The events view against the values written in api_test_traces.h's one_gemm_trace.
#include <catch2/catch.hpp>

#include "api/session.h"
#include "api/api_test_traces.h"

using namespace sollens;

namespace {

const Event* find(const std::vector<Event>& events, std::string_view name) {
  for (const Event& e : events)
    if (e.name() == name) return &e;
  return nullptr;
}

std::vector<Event> all(const EventView& view) {
  std::vector<Event> out;
  for (size_t i = 0; i < view.size(); ++i) out.push_back(view[i]);
  return out;
}

}  // namespace

TEST_CASE("events: names, times in ns, devices and correlation as the trace wrote them") {
  Session session;
  REQUIRE(test::load_text(session, test::one_gemm_trace()).ok());
  const std::vector<Event> events = all(session.events());
  REQUIRE(events.size() == 5);  // the complete events; the two flow events are not listed
  const Event* mm = find(events, "aten::mm");
  const Event* kernel = find(events, "gemm");
  REQUIRE(mm);
  REQUIRE(kernel);
  // ts 10 µs, dur 50.5 µs
  CHECK(mm->start_ns() == 10'000);
  CHECK(mm->duration_ns() == 50'500);
  CHECK(mm->end_ns() == 60'500);
  CHECK(mm->device_type() == DeviceType::kCpu);
  CHECK(mm->device_index() == -1);
  CHECK(mm->correlation_id() == 0);
  // ts 60.25 µs, dur 10.125 µs, args device 0, correlation 42
  CHECK(kernel->start_ns() == 60'250);
  CHECK(kernel->duration_ns() == 10'125);
  CHECK(kernel->end_ns() == 70'375);
  CHECK(kernel->device_type() == DeviceType::kGpu);
  CHECK(kernel->device_index() == 0);
  CHECK(kernel->correlation_id() == 42);
  CHECK(kernel->category() == "kernel");
}

TEST_CASE("events: input shapes from Input Dims, one list per input") {
  Session session;
  REQUIRE(test::load_text(session, test::one_gemm_trace()).ok());
  const std::vector<Event> events = all(session.events());
  const auto shapes = find(events, "aten::mm")->input_shapes();
  REQUIRE(shapes.size() == 3);
  CHECK(shapes[0] == std::vector<int64_t>{2, 3});
  CHECK(shapes[1] == std::vector<int64_t>{3, 4});
  CHECK(shapes[2].empty());
  CHECK(find(events, "gemm")->input_shapes().empty());
}

TEST_CASE("events: the tree from the op down to its kernel") {
  Session session;
  REQUIRE(test::load_text(session, test::one_gemm_trace()).ok());
  const EventView view = session.events();
  const std::vector<Event> events = all(view);
  const Event* mm = find(events, "aten::mm");
  const auto kernel_parent = find(events, "gemm")->parent();
  REQUIRE(kernel_parent);
  CHECK(kernel_parent->name() == "cudaLaunchKernel");
  REQUIRE(kernel_parent->parent());
  CHECK(kernel_parent->parent()->name() == "aten::mm");
  const auto children = mm->children();
  REQUIRE(children.size() == 1);
  CHECK(children[0].name() == "cudaLaunchKernel");
  // Without Python frames the op is the top of its stack, and has no Python stack.
  CHECK_FALSE(mm->parent());
  CHECK(mm->stack().empty());
  const auto roots = view.roots();
  REQUIRE(roots.size() == 1);
  CHECK(roots[0].name() == "aten::mm");
}

TEST_CASE("events: with Python frames, the stack is the enclosing python_function names") {
  Session session;
  LoadOptions options;
  options.tree.include_python = true;
  REQUIRE(test::load_text(session, test::one_gemm_trace(), options).ok());
  const EventView view = session.events();
  const std::vector<Event> events = all(view);
  const auto stack = find(events, "aten::mm")->stack();
  REQUIRE(stack.size() == 2);
  CHECK(stack[0] == "model.py(20): forward");
  CHECK(stack[1] == "train.py(10): step");
  CHECK(find(events, "gemm")->stack() == stack);  // the kernel's launch sits in the same frames
  const auto roots = view.roots();
  REQUIRE(roots.size() == 1);
  CHECK(roots[0].name() == "train.py(10): step");
}
