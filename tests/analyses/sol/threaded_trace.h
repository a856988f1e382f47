#pragma once
// Small hand-made Kineto traces with several host threads (a forward thread and the
// autograd thread), for the SOL attention and pass tests: TraceBuilder's events, each
// on the thread it names.
#include <string>

#include "analyses/ops/trace_builder.h"

namespace sollens::test {

class ThreadedTrace {
 public:
  ThreadedTrace& cpu_op(int tid, const std::string& name, double ts, double dur, const std::string& args = "") {
    trace_.thread(tid).cpu_op(name, ts, dur, args);
    return *this;
  }
  ThreadedTrace& python(int tid, const std::string& name, double ts, double dur) {
    trace_.thread(tid).python(name, ts, dur);
    return *this;
  }
  ThreadedTrace& annotation(int tid, const std::string& name, double ts, double dur) {
    trace_.thread(tid).user_annotation(name, ts, dur);
    return *this;
  }
  // A launch at ts (0.5 µs) on thread tid of one kernel [gpu_ts, gpu_ts + gpu_dur].
  ThreadedTrace& launch(int tid, double ts, const std::string& kernel, double gpu_ts, double gpu_dur) {
    trace_.thread(tid).launch(ts, kernel, gpu_ts, gpu_dur);
    return *this;
  }
  std::string json() const { return trace_.json(); }

 private:
  TraceBuilder trace_;
};

}  // namespace sollens::test
