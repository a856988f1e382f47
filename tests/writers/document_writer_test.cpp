// A Document written as JSON and as YAML: the same content both ways.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "table/document.h"
#include "writers/document_writer.h"

using sollens::Document;
using sollens::document_json;
using sollens::document_yaml;

TEST_CASE("Document writer: the same content as JSON and as YAML") {
  Document doc = Document::object();
  Document& total = doc.set("total", Document::object());
  total.set("macs", Document::number(1048576));
  total.set("runtime_ms", Document::number(0.5));
  total.set("bottleneck", Document::text("memory \"bound\""));
  Document& list = doc.set("segments", Document::array());
  Document& first = list.push(Document::object());
  first.set("name", Document::text("forward"));
  first.set("inner", Document::object()).set("x", Document::boolean(true));
  list.push(Document::number(3));
  doc.set("empty", Document::array());
  doc.set("none", Document::object());
  doc.set("perf", Document::null());
  doc.set("nan", Document::number(std::nan("")));

  CHECK(document_json(doc) ==
        "{\"total\": {\"macs\": 1048576, \"runtime_ms\": 0.5, \"bottleneck\": \"memory \\\"bound\\\"\"}, "
        "\"segments\": [{\"name\": \"forward\", \"inner\": {\"x\": true}}, 3], \"empty\": [], \"none\": {}, "
        "\"perf\": null, \"nan\": null}");
  CHECK(document_yaml(doc) ==
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
        "\"none\": {}\n"
        "\"perf\": null\n"
        "\"nan\": null\n");
}

TEST_CASE("Document writer: whole numbers below 2^53 as integers, others in Python's repr") {
  Document doc = Document::array();
  doc.push(Document::number(-7));
  doc.push(Document::number(9007199254740991.0));  // 2^53 - 1
  doc.push(Document::number(9007199254740992.0));  // 2^53
  doc.push(Document::number(0.1));
  doc.push(Document::number(1e-05));
  doc.push(Document::number(std::numeric_limits<double>::infinity()));
  doc.push(Document::number(-std::numeric_limits<double>::infinity()));
  doc.push(Document::boolean(false));
  CHECK(document_json(doc) == "[-7, 9007199254740991, 9007199254740992.0, 0.1, 1e-05, null, null, false]");
  CHECK(document_yaml(doc) ==
        "- -7\n- 9007199254740991\n- 9007199254740992.0\n- 0.1\n- 1e-05\n- null\n- null\n- false\n");
}

TEST_CASE("Document writer: keys and strings escaped once, both ways") {
  Document doc = Document::object();
  doc.set("tab\there", Document::text("line\nbreak \\ and \x01"));
  doc.set("list", Document::array()).push(Document::array()).push(Document::text("nested"));
  CHECK(document_json(doc) ==
        "{\"tab\\there\": \"line\\nbreak \\\\ and \\u0001\", \"list\": [[\"nested\"]]}");
  CHECK(document_yaml(doc) ==
        "\"tab\\there\": \"line\\nbreak \\\\ and \\u0001\"\n"
        "\"list\":\n"
        "  - - \"nested\"\n");
}
