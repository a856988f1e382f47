// The page's Solar answer: the document as solar.json has it, the summary lines, whether
// it was measured, and the sheets' descriptions, compact around the spaced document.
#include <catch2/catch.hpp>

#include "writers/solar_json.h"

using namespace sollens;

TEST_CASE("Solar page answer: the document, summary, measured and sheets") {
  Document doc = Document::object();
  doc.set("perf", Document::null());
  doc.set("perf_notice", Document::text("no device: \"choose one\""));
  CHECK(page_solar_json(doc, {"graph: 3 ET nodes", "bytes"}, false, "[]") ==
        R"({"solar":{"perf": null, "perf_notice": "no device: \"choose one\""},)"
        R"("summary":["graph: 3 ET nodes","bytes"],"measured":false,"sheets":[]})");
  CHECK(page_solar_json(Document::object(), {}, true, R"([{"id":4}])") ==
        R"({"solar":{},"summary":[],"measured":true,"sheets":[{"id":4}]})");
}
