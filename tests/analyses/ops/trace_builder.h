#pragma once
// Small hand-made Kineto traces for the ops tests: cpu_ops, python frames, launches
// linked to GPU events through ac2g flows on the correlation id.
#include <string>

namespace sollens::test {

class TraceBuilder {
 public:
  TraceBuilder& cpu_op(const std::string& name, double ts, double dur, const std::string& args = "") {
    return host("cpu_op", name, ts, dur, args);
  }
  TraceBuilder& python(const std::string& name, double ts, double dur) {
    return host("python_function", name, ts, dur, R"("Python id":)" + std::to_string(++py_));
  }
  TraceBuilder& user_annotation(const std::string& name, double ts, double dur) {
    return host("user_annotation", name, ts, dur, "");
  }
  // The host thread of the events added after it (1 until set): a forward thread and
  // the autograd thread, say.
  TraceBuilder& thread(int tid) {
    tid_ = std::to_string(tid);
    return *this;
  }
  // A launch at ts (0.5 µs long) of one GPU event [gpu_ts, gpu_ts + gpu_dur]; gpu_args:
  // more members for the GPU event's args (e.g. a collective's record_param_comms fields).
  TraceBuilder& launch(double ts, const std::string& kernel, double gpu_ts, double gpu_dur,
                       const std::string& cat = "kernel", int stream = 7,
                       const std::string& runtime = "cudaLaunchKernel", const std::string& gpu_args = "") {
    const std::string c = std::to_string(++corr_);
    add(R"({"ph":"X","cat":"cuda_runtime","name":")" + runtime + R"(","pid":1,"tid":)" + tid_ + R"(,"ts":)" +
        num(ts) + R"(,"dur":0.5,"args":{"correlation":)" + c + "}}");
    add(R"({"ph":"s","cat":"ac2g","name":"ac2g","id":)" + c + R"(,"pid":1,"tid":)" + tid_ + R"(,"ts":)" + num(ts) +
        "}");
    add(R"({"ph":"f","cat":"ac2g","name":"ac2g","id":)" + c + R"(,"pid":0,"tid":7,"ts":)" + num(gpu_ts) +
        R"(,"bp":"e"})");
    add(R"({"ph":"X","cat":")" + cat + R"(","name":")" + kernel + R"(","pid":0,"tid":7,"ts":)" +
        num(gpu_ts) + R"(,"dur":)" + num(gpu_dur) + R"(,"args":{"correlation":)" + c +
        R"(,"stream":)" + std::to_string(stream) + (gpu_args.empty() ? "" : "," + gpu_args) + "}}");
    return *this;
  }
  TraceBuilder& raw(const std::string& event) {
    add(event);
    return *this;
  }
  std::string json() const { return R"({"traceEvents":[)" + events_ + "]}"; }

 private:
  static std::string num(double v) {
    std::string s = std::to_string(v);
    return s;
  }
  TraceBuilder& host(const std::string& cat, const std::string& name, double ts, double dur,
                     const std::string& args) {
    add(R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":1,"tid":)" + tid_ + R"(,"ts":)" +
        num(ts) + R"(,"dur":)" + num(dur) + R"(,"args":{)" + args + "}}");
    return *this;
  }
  void add(const std::string& e) {
    if (!events_.empty()) events_ += ',';
    events_ += e;
  }
  std::string events_;
  std::string tid_ = "1";
  int corr_ = 0;
  int py_ = 0;
};

}  // namespace sollens::test
