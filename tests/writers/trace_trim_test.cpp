// A trace cut to a time range for Perfetto UI: the cut text parses again, keeps its
// metadata and top-level keys, and has exactly the events the rule keeps (worked out
// by hand below for a trace written here).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "support/test_trace.h"
#include "writers/trace_trim.h"

using namespace sollens;

namespace {

// Range [1100, 1200]:
//   M process_name          kept (metadata)
//   X a   [1000, 1050)      dropped (ends before)
//   X b   [1090, 1110)      kept (overlaps the start)
//   X c   [1150, 1160)      kept (inside), its args hold a "ts" key that must not be read
//   X d   [1190, 1300)      kept (overlaps the end)
//   X e   [1250, 1260)      dropped (after)
//   i     1120              kept;  i 1400 dropped
//   flow 7: s 1105, f 1150  kept (both ends inside)
//   flow 8: s 1050, f 1150  dropped (its start is outside)
const char* kTrace = R"({
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA H100"}],
  "traceEvents": [
    {"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}},
    {"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1000,"dur":50},
    {"ph":"X","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":1090,"dur":20},
    {"ph":"X","cat":"cpu_op","name":"c","pid":1,"tid":1,"ts":1150,"dur":10,"args":{"ts":5000,"note":"a ] and } in text"}},
    {"ph":"X","cat":"cpu_op","name":"d","pid":1,"tid":1,"ts":1190,"dur":110},
    {"ph":"X","cat":"cpu_op","name":"e","pid":1,"tid":1,"ts":1250,"dur":10},
    {"ph":"i","cat":"cpu_instant_event","name":"mark","pid":1,"tid":1,"ts":1120,"s":"t"},
    {"ph":"i","cat":"cpu_instant_event","name":"late","pid":1,"tid":1,"ts":1400,"s":"t"},
    {"ph":"s","cat":"ac2g","name":"ac2g","id":7,"pid":1,"tid":1,"ts":1105},
    {"ph":"f","cat":"ac2g","name":"ac2g","id":7,"pid":0,"tid":7,"ts":1150,"bp":"e"},
    {"ph":"s","cat":"ac2g","name":"ac2g","id":8,"pid":1,"tid":1,"ts":1050},
    {"ph":"f","cat":"ac2g","name":"ac2g","id":8,"pid":0,"tid":7,"ts":1150,"bp":"e"}
  ],
  "baseTimeNanoseconds": 1700000000000000000,
  "traceName": "t"
})";

std::string names_of(const EventStore& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) out += std::string(out.empty() ? "" : ",") + std::string(s.name_of(i));
  return out;
}

}  // namespace

TEST_CASE("trimmed trace: metadata, overlapping events and whole flows, other keys kept", "[writers][trim]") {
  std::ostringstream out;
  TrimCounts counts;
  REQUIRE(write_trimmed_trace(kTrace, 1100, 1200, out, &counts));
  CHECK(counts.events == 12);
  CHECK(counts.kept == 7);
  const std::string text = out.str();
  CHECK(text.find("\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100\"}]") != std::string::npos);
  CHECK(text.find("\"baseTimeNanoseconds\": 1700000000000000000") != std::string::npos);
  CHECK(text.find("a ] and } in text") != std::string::npos);  // the event's own text
  const std::unique_ptr<EventStore> store = test::load_store(text);
  CHECK(names_of(*store) == "process_name,b,c,d,mark,ac2g,ac2g");
  CHECK(store->metadata.devices.size() == 1);
  CHECK(store->flow_id[5] == 7);
  CHECK(store->flow_id[6] == 7);
}

TEST_CASE("trimmed trace: an empty range keeps the metadata only; a text without events is refused", "[writers][trim]") {
  std::ostringstream out;
  REQUIRE(write_trimmed_trace(kTrace, 5000, 6000, out));
  const std::unique_ptr<EventStore> store = test::load_store(out.str());
  CHECK(names_of(*store) == "process_name");
  std::ostringstream none;
  CHECK_FALSE(write_trimmed_trace(R"({"schemaVersion": 1})", 0, 1, none));
  CHECK(none.str().empty());
  CHECK_FALSE(write_trimmed_trace("not json", 0, 1, none));
}

TEST_CASE("trimmed trace: the 2021 form, a bare array of events", "[writers][trim]") {
  std::ostringstream out;
  REQUIRE(write_trimmed_trace(R"([{"ph":"X","name":"x","pid":1,"tid":1,"ts":10,"dur":5},
    {"ph":"X","name":"y","pid":1,"tid":1,"ts":100,"dur":5}])",
                              0, 20, out));
  CHECK(out.str() == "[\n{\"ph\":\"X\",\"name\":\"x\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5}\n]");
}
