// The cross-rank report.json's metadata, written by hand below.
#include <catch2/catch.hpp>

#include "writers/ranks_report_json.h"

using namespace sollens;

TEST_CASE("ranks report json: the generator and how many ranks") {
  CHECK(ranks_report_metadata_json("sollens 9", 8) == "{\"generator\": \"sollens 9\", \"ranks\": 8}");
  CHECK(ranks_report_metadata_json("a\\b", 0) == "{\"generator\": \"a\\\\b\", \"ranks\": 0}");
}
