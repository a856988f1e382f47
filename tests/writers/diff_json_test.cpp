// diff.json's metadata, written by hand below.
#include <catch2/catch.hpp>

#include "writers/diff_json.h"

using namespace sollens;

TEST_CASE("diff json: the two inputs as given and the runs' names") {
  CHECK(diff_metadata_json("sollens 9", "runs/base", "new \"x\".json.gz", CompareTags{"main", "pr"}) ==
        "{\"generator\": \"sollens 9\", \"baseline\": \"runs/base\", \"variant\": \"new \\\"x\\\".json.gz\", "
        "\"names\": [\"main\", \"pr\"]}");
}
