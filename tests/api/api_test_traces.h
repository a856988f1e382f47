#pragma once
// Small traces written out in full for the api tests, so each expected value can be
// read off the JSON text.
#include <string>

#include "api/session.h"

namespace sollens::test {

inline std::string complete_event(const std::string& cat, const std::string& name, const std::string& ts,
                                  const std::string& dur, const std::string& args = "{}", int pid = 1,
                                  int tid = 1) {
  return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" + std::to_string(pid) +
         R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" + ts + R"(,"dur":)" + dur + R"(,"args":)" + args + "}";
}

inline std::string flow_event(char ph, int id, int pid, int tid) {
  return std::string(R"({"ph":")") + ph + R"(","cat":"ac2g","name":"ac2g","id":)" + std::to_string(id) +
         R"(,"pid":)" + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":15})";
}

// Rows: 0 python step, 1 python forward, 2 aten::mm, 3 cudaLaunchKernel, 4-5 its flow,
// 6 the gemm kernel on device 0 (pid 0, stream 7).
inline std::string one_gemm_trace() {
  return R"({"traceEvents":[)" + complete_event("python_function", "train.py(10): step", "0", "200") + "," +
         complete_event("python_function", "model.py(20): forward", "5", "150") + "," +
         complete_event("cpu_op", "aten::mm", "10", "50.5",
                        R"({"External id":7,"Input Dims":[[2,3],[3,4],[]]})") + "," +
         complete_event("cuda_runtime", "cudaLaunchKernel", "15", "5", R"({"External id":7,"correlation":42})") +
         "," + flow_event('s', 42, 1, 1) + "," + flow_event('f', 42, 0, 7) + "," +
         complete_event("kernel", "gemm", "60.25", "10.125",
                        R"({"External id":7,"correlation":42,"device":0,"stream":7})", 0, 7) +
         "]}";
}

// `repeats` steps of 10 kernels (embed, k0..k7, head) on stream 7 of device 0, each
// 1 µs, 1 µs apart, without launches: a GPU-only trace with one obvious cycle (embed is
// its anchor: at least 5 times, at most a fifth of the kernels). With `side_stream`, a
// kernel z on stream 8 in each gap, so that the order per device (embed z k0 z ...)
// differs from the order per stream.
inline std::string repeating_kernels_trace(int repeats, bool side_stream = false) {
  std::string out = R"({"traceEvents":[)";
  int ts = 0;
  for (int r = 0; r < repeats; ++r)
    for (const char* name : {"embed", "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "head"}) {
      if (ts) out += ",";
      out += complete_event("kernel", name, std::to_string(ts), "1", R"({"device":0,"stream":7})", 0, 7);
      if (side_stream)
        out += "," + complete_event("kernel", "z", std::to_string(ts + 1) + ".25", "0.5",
                                    R"({"device":0,"stream":8})", 0, 8);
      ts += 2;
    }
  return out + "]}";
}

inline Result<LoadStats> load_text(Session& session, const std::string& text, const LoadOptions& options = {}) {
  return session.load(PaddedBuffer::copy_of(text), options);
}

}  // namespace sollens::test
