#include <catch2/catch.hpp>

#include <sstream>

#include "analyses/hta/counter_series.h"
#include "support/test_trace.h"
#include "writers/trace_with_counters.h"

using namespace sollens;

namespace {

// A launch, its kernel and an HtoD copy with its launch; whole µs; a string pid on the host.
const char* kTrace = R"T({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": "host", "tid": 1, "ts": 10, "dur": 3, "args": {"correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": "host", "tid": 1, "ts": 12, "dur": 3, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 20, "dur": 5, "args": {"correlation": 1, "stream": 7}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 30, "dur": 4, "args": {"correlation": 2, "stream": 7, "memory bandwidth (GB/s)": 2.5}}
], "traceName": "t"})T";

hta::CounterSeries series_of(const EventStore& store) { return hta::counter_series(hta::HtaTrace(store)); }

}  // namespace

TEST_CASE("trace with counters: counter events as HTA names them, on the GPU's pid", "[writers][trace_with_counters]") {
  auto store = test::load_store(kTrace);
  const std::vector<std::string> events = counter_events_json(*store, series_of(*store));
  // Queue length at 10, 12 (launches), 20, 30 (starts); bandwidth at 30 (start) and 34 (end).
  REQUIRE(events.size() == 6);
  CHECK(events[0] == R"({"ph":"C","name":"Queue Length","pid":0,"ts":10,"id":7,"args":{"Queue Length":1}})");
  CHECK(events[1] == R"({"ph":"C","name":"Queue Length","pid":0,"ts":12,"id":7,"args":{"Queue Length":2}})");
  CHECK(events[4] == R"({"ph":"C","name":"Memcpy HtoD","pid":0,"ts":30,"args":{"Memcpy BW":2.5}})");
  CHECK(events[5] == R"({"ph":"C","name":"Memcpy HtoD","pid":0,"ts":34,"args":{"Memcpy BW":0.0}})");
}

TEST_CASE("trace with counters: the written trace loads back with the original events unchanged",
          "[writers][trace_with_counters]") {
  auto store = test::load_store(kTrace);
  std::ostringstream out;
  REQUIRE(write_trace_with_counters(*store, series_of(*store), out));
  const std::string written = out.str();
  // The original text up to the end of its last event is kept byte for byte.
  const std::string original(kTrace);
  const size_t last_event_end = original.find("2.5}}") + 5;
  CHECK(written.substr(0, last_event_end) == original.substr(0, last_event_end));

  auto again = test::load_store(written);
  REQUIRE(again->size() == store->size() + 6);
  for (size_t i = 0; i < store->size(); ++i) {
    CHECK(again->name_of(i) == store->name_of(i));
    CHECK(again->ts[i] == store->ts[i]);
    CHECK(again->dur[i] == store->dur[i]);
    CHECK(again->phase[i] == store->phase[i]);
  }
  size_t counters = 0;
  for (size_t i = store->size(); i < again->size(); ++i) counters += again->phase[i] == Phase::kCounter;
  CHECK(counters == 6);
  CHECK(again->name_of(store->size()) == "Queue Length");
  CHECK(again->metadata.trace_name == "t");
}
