#include <catch2/catch.hpp>

#include <cmath>

#include "analyses/solar/solar_doc.h"

using sollens::solar::Doc;

TEST_CASE("Solar document: the same content as JSON and as YAML") {
  Doc doc = Doc::object();
  Doc& total = doc.set("total", Doc::object());
  total.set("macs", Doc::number(1048576));
  total.set("runtime_ms", Doc::number(0.5));
  total.set("bottleneck", Doc::text("memory \"bound\""));
  Doc& list = doc.set("segments", Doc::array());
  Doc& first = list.push(Doc::object());
  first.set("name", Doc::text("forward"));
  first.set("inner", Doc::object()).set("x", Doc::boolean(true));
  list.push(Doc::number(3));
  doc.set("empty", Doc::array());
  doc.set("perf", Doc::null());
  doc.set("nan", Doc::number(std::nan("")));

  CHECK(doc.json() ==
        "{\"total\": {\"macs\": 1048576, \"runtime_ms\": 0.5, \"bottleneck\": \"memory \\\"bound\\\"\"}, "
        "\"segments\": [{\"name\": \"forward\", \"inner\": {\"x\": true}}, 3], \"empty\": [], "
        "\"perf\": null, \"nan\": null}\n");
  CHECK(doc.yaml() ==
        "\"total\":\n"
        "  \"macs\": 1048576\n"
        "  \"runtime_ms\": 0.5\n"
        "  \"bottleneck\": \"memory \\\"bound\\\"\"\n"
        "\"segments\":\n"
        "  - \"name\": \"forward\"\n"
        "    \"inner\":\n"
        "      \"x\": true\n"
        "  - 3\n"
        "\"empty\": []\n"
        "\"perf\": null\n"
        "\"nan\": null\n");
}
