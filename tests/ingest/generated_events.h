#pragma once
// Synthetic traceEvents with what each event must become in the store, for the ingest
// tests (header only; not a test translation unit).
#include <cstdint>
#include <string>
#include <vector>

#include "store/event_store.h"

namespace sollens::test {

struct ExpectedEvent {
  std::string json;
  Phase phase = Phase::kNone;
  Category category = Category::kUnknown;
  std::string cat, name, pid, tid;
  double ts = 0, dur = 0;
  int64_t correlation = kNoValue, external_id = kNoValue, flow_id = kNoValue,
          stream = kNoValue, device = kNoValue, python_id = kNoValue,
          python_parent_id = kNoValue, sequence_number = kNoValue;
  std::string args;  // expected args_json(): empty when not kept
  bool has_args_object = false;
  bool is_meta = false;
  std::string meta_kind, meta_value;
};

// n events of 8 kinds. `tricky` puts "},{", "}, {" and "}]" in names and string
// values, and nested arrays of objects in args, so that window cuts land inside
// strings and nested values (at most 6 such places per event).
inline std::vector<ExpectedEvent> generate_events(int n, bool tricky) {
  std::vector<ExpectedEvent> events;
  for (int i = 0; i < n; ++i) {
    ExpectedEvent e;
    const std::string I = std::to_string(i);
    const std::string ts = std::to_string(5000000 + 3 * i) + ".125";
    e.ts = 5000000.0 + 3.0 * i + 0.125;
    std::string dur;
    if (i % 4) {
      dur = ", \"dur\": " + I + ".5";
      e.dur = i + 0.5;
    }
    switch (i % 8) {
      case 0: {  // cpu_op
        const std::string name_json = tricky ? "aten::op" + I + R"(},{\"q\"}]\\)" : "aten::op" + I;
        e.name = tricky ? "aten::op" + I + R"(},{"q"}]\)" : "aten::op" + I;
        e.phase = Phase::kComplete;
        e.category = Category::kCpuOp;
        e.cat = "cpu_op";
        e.pid = "100";
        e.tid = "101";
        e.args = R"({"External id": )" + I + R"(, "Sequence number": )" + std::to_string(2 * i) +
                 R"(, "Input Dims": [[2, 3], [], [[1], [2]]])" +
                 (tricky ? R"(, "l": [{"a": )" + I + R"(}, {"b": [{"c": "}]"}]}])" : "") + "}";
        e.external_id = i;
        e.sequence_number = 2 * i;
        e.has_args_object = true;
        e.json = R"({"ph": "X", "cat": "cpu_op", "name": ")" + name_json +
                 R"(", "pid": 100, "tid": 101, "ts": )" + ts + dur + R"(, "args": )" + e.args + "}";
        break;
      }
      case 1: {  // kernel, args first
        e.name = tricky ? "kern}, {" + I + "}]" : "kern" + I;
        e.phase = Phase::kComplete;
        e.category = Category::kKernel;
        e.cat = "kernel";
        e.pid = "0";
        e.tid = "7";
        e.args = R"({"External id": )" + I + R"(, "device": 0, "stream": 7, "correlation": )" +
                 std::to_string(1000 + i) + R"(, "grid": [1, 2, 3])" +
                 (tricky ? R"(, "nested": [{"x": {"y": "},{"}}, {"z": []}, {"w": "a}, {b"}])" : "") +
                 "}";
        e.external_id = i;
        e.device = 0;
        e.stream = 7;
        e.correlation = 1000 + i;
        e.has_args_object = true;
        e.json = R"({"args": )" + e.args + R"(, "ph": "X", "cat": "kernel", "name": ")" + e.name +
                 R"(", "pid": 0, "tid": 7, "ts": )" + ts + dur + "}";
        break;
      }
      case 2: {  // python_function: ids, no args kept
        e.name = "m.py(" + I + "): f\\g \xC3\xA9";
        e.phase = Phase::kComplete;
        e.category = Category::kPythonFunction;
        e.cat = "python_function";
        e.pid = "100";
        e.tid = "101";
        e.python_id = i;
        const bool null_parent = i % 16 == 2;
        e.python_parent_id = null_parent ? kNoValue : i - 8;
        e.has_args_object = true;
        e.json = R"({"ph": "X", "cat": "python_function", "name": "m.py()" + I +
                 R"(): f\\g \u00e9", "pid": 100, "tid": 101, "ts": )" + ts + dur +
                 R"(, "args": {"Python parent id": )" + (null_parent ? "null" : std::to_string(i - 8)) +
                 R"(, "Python id": )" + I + R"(, "Python thread": 0}})";
        break;
      }
      case 3: {  // M thread_name
        e.name = "thread_name";
        e.phase = Phase::kMetadata;
        e.pid = "100";
        e.tid = I;
        e.is_meta = true;
        e.meta_kind = "thread_name";
        e.meta_value = tricky ? "thread },{ " + I : "thread " + I;
        e.has_args_object = true;
        e.json = R"({"name": "thread_name", "ph": "M", "ts": )" + ts + dur +
                 R"(, "pid": 100, "tid": )" + I + R"(, "args": {"name": ")" + e.meta_value + R"("}})";
        break;
      }
      case 4: {  // flow start
        e.name = "ac2g";
        e.phase = Phase::kFlowStart;
        e.category = Category::kFlowAc2g;
        e.cat = "ac2g";
        e.pid = "100";
        e.tid = "101";
        e.flow_id = i;
        e.dur = 0;
        e.json = R"({"ph": "s", "id": )" + I + R"(, "pid": 100, "tid": 101, "ts": )" + ts +
                 R"(, "cat": "ac2g", "name": "ac2g"})";
        break;
      }
      case 5: {  // flow end
        e.name = "ac2g";
        e.phase = Phase::kFlowEnd;
        e.category = Category::kFlowAc2g;
        e.cat = "ac2g";
        e.pid = "0";
        e.tid = "7";
        e.flow_id = i - 1;
        e.dur = 0;
        e.json = R"({"ph": "f", "id": )" + std::to_string(i - 1) + R"(, "pid": 0, "tid": 7, "ts": )" +
                 ts + R"(, "cat": "ac2g", "name": "ac2g", "bp": "e"})";
        break;
      }
      case 6: {  // counter
        e.name = "GPU 0 Utilization";
        e.phase = Phase::kCounter;
        e.category = Category::kCounterTrack;
        e.cat = "hardware_counters";
        e.pid = "GPU 0 Counters";
        e.tid = "0";
        e.dur = 0;
        e.args = R"({"v": )" + I + "}";
        e.has_args_object = true;
        e.json = R"({"ph": "C", "cat": "hardware_counters", "name": "GPU 0 Utilization", )"
                 R"("pid": "GPU 0 Counters", "tid": 0, "ts": )" + ts + R"(, "args": )" + e.args + "}";
        break;
      }
      default: {  // cuda_runtime with escapes in the name
        e.name = "cudaLaunchKernel\xC3\xA9 \"q\"";
        e.phase = Phase::kComplete;
        e.category = Category::kCudaRuntime;
        e.cat = "cuda_runtime";
        e.pid = "100";
        e.tid = "101";
        e.external_id = i;
        e.correlation = 1000 + i;
        e.args = R"({"External id": )" + I + R"(, "cbid": 211, "correlation": )" +
                 std::to_string(1000 + i) + "}";
        e.has_args_object = true;
        e.json = R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel\u00e9 \"q\"", )"
                 R"("pid": 100, "tid": 101, "ts": )" + ts + dur + R"(, "args": )" + e.args + "}";
        break;
      }
    }
    if (i % 37 == 36) {  // an empty event: a placeholder row
      e = ExpectedEvent{};
      e.json = "{}";
    } else if (i == 100) {  // not an object: a placeholder row too
      e = ExpectedEvent{};
      e.json = "7";
    }
    events.push_back(std::move(e));
  }
  return events;
}

inline std::string join_events(const std::vector<ExpectedEvent>& events) {
  static const char* const separators[] = {",", ", ", " ,\n  "};
  std::string out;
  for (size_t i = 0; i < events.size(); ++i) {
    if (i) out += separators[i % 3];
    out += events[i].json;
  }
  return out;
}

}  // namespace sollens::test
