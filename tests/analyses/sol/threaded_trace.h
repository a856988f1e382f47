#pragma once
// Small hand-made Kineto traces with several host threads (a forward thread and the
// autograd thread), for the SOL attention and pass tests: cpu_ops with args, python
// frames, user annotations, and launches linked to GPU events by ac2g flows.
#include <string>

namespace sollens::test {

class ThreadedTrace {
 public:
  ThreadedTrace& cpu_op(int tid, const std::string& name, double ts, double dur, const std::string& args = "") {
    return host(tid, "cpu_op", name, ts, dur, args);
  }
  ThreadedTrace& python(int tid, const std::string& name, double ts, double dur) {
    return host(tid, "python_function", name, ts, dur, R"("Python id":)" + std::to_string(++py_));
  }
  ThreadedTrace& annotation(int tid, const std::string& name, double ts, double dur) {
    return host(tid, "user_annotation", name, ts, dur, "");
  }
  // A launch at ts (0.5 µs) on thread tid of one kernel [gpu_ts, gpu_ts + gpu_dur].
  ThreadedTrace& launch(int tid, double ts, const std::string& kernel, double gpu_ts, double gpu_dur) {
    const std::string c = std::to_string(++corr_);
    add(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":)" + std::to_string(tid) +
        R"(,"ts":)" + std::to_string(ts) + R"(,"dur":0.5,"args":{"correlation":)" + c + "}}");
    add(R"({"ph":"s","cat":"ac2g","name":"ac2g","id":)" + c + R"(,"pid":1,"tid":)" + std::to_string(tid) +
        R"(,"ts":)" + std::to_string(ts) + "}");
    add(R"({"ph":"f","cat":"ac2g","name":"ac2g","id":)" + c + R"(,"pid":0,"tid":7,"ts":)" +
        std::to_string(gpu_ts) + R"(,"bp":"e"})");
    add(R"({"ph":"X","cat":"kernel","name":")" + kernel + R"(","pid":0,"tid":7,"ts":)" + std::to_string(gpu_ts) +
        R"(,"dur":)" + std::to_string(gpu_dur) + R"(,"args":{"correlation":)" + c + R"(,"stream":7}})");
    return *this;
  }
  std::string json() const { return R"({"traceEvents":[)" + events_ + "]}"; }

 private:
  ThreadedTrace& host(int tid, const std::string& cat, const std::string& name, double ts, double dur,
                      const std::string& args) {
    add(R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":1,"tid":)" + std::to_string(tid) +
        R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{)" + args + "}}");
    return *this;
  }
  void add(const std::string& e) {
    if (!events_.empty()) events_ += ',';
    events_ += e;
  }
  std::string events_;
  int corr_ = 0;
  int py_ = 0;
};

}  // namespace sollens::test
