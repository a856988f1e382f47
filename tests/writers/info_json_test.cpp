// `sollens info` as the page reads it.
#include <catch2/catch.hpp>

#include "writers/info_json.h"

using namespace sollens;

TEST_CASE("info json: every member, absent values as null") {
  TraceInfo info;
  info.format = "Kineto JSON object (schemaVersion 1)";
  info.version_hints = {"torch 2.4"};
  info.events_by_category = {{"kernel", 3}, {"cpu_op", 2}};
  info.events_by_phase = {{"X", 5}};
  info.events = 5;
  info.gpu_events = 3;
  info.linked_gpu_events = 2;
  info.gpu_time_us = 12.5;
  info.unlinked_gpu_time_us = 0.1;
  info.linked_by = LinkMode::kCorrelation;
  info.gpu_devices = {"0"};
  info.first_ts_us = 1000;
  info.last_end_us = 3500;
  info.warnings = {{Code::no_device_properties, "a \"quoted\" warning"}};
  EventStore store;
  store.metadata.trace_name = "t";
  store.input_bytes = 123;
  DeviceProperties gpu;
  gpu.id = 0;
  gpu.name = "H100";
  gpu.num_sms = 132;
  store.metadata.devices.push_back(gpu);
  store.metadata.distributed = DistributedInfo{"nccl", 1, 8, kNoValue, "2.21"};
  CHECK(trace_info_json(info, store) ==
        R"j({"format":"Kineto JSON object (schemaVersion 1)","traceName":"t","jsonBytes":123,"events":5,)j"
        R"j("gpuEvents":3,"linkedGpuEvents":2,"linkedBy":"correlation","gpuTimeUs":12.5,"unlinkedGpuTimeUs":0.1,)j"
        R"j("firstTsUs":1000.0,"lastEndUs":3500.0,"spanMs":2.5,"versionHints":["torch 2.4"],"gpuPids":["0"],)j"
        R"j("eventsByCategory":[["kernel",3],["cpu_op",2]],"eventsByPhase":[["X",5]],)j"
        R"j("devices":[{"id":0,"name":"H100","totalGlobalMem":null,"computeMajor":null,"computeMinor":null,)j"
        R"j("numSms":132,"warpSize":null}],)j"
        R"j("distributed":{"backend":"nccl","rank":1,"worldSize":8,"pgCount":null,"ncclVersion":"2.21"},)j"
        R"j("warnings":["a \"quoted\" warning"]})j");
}

TEST_CASE("info json: a trace without distributed info") {
  const std::string json = trace_info_json(TraceInfo{}, EventStore{});
  CHECK(json.find(R"j("devices":[],"distributed":null,"warnings":[]})j") != std::string::npos);
}
