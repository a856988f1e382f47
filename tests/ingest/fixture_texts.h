#pragma once
// The text of every fixture trace (.json, and .json.gz inflated where this build has
// zlib: the wasm build reads plain JSON only), by path, for the readers' checks.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "ingest/gzip.h"
#include "support/golden_fixtures.h"

namespace sollens::test {

inline std::vector<std::pair<std::string, std::string>> fixture_trace_texts() {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& entry : fs::recursive_directory_iterator(kTraces)) {
    const std::string path = entry.path().string();
    const bool gz = path.size() > 8 && path.ends_with(".json.gz");
    if (!entry.is_regular_file() || !(gz || path.ends_with(".json"))) continue;
    std::string text = read_text(entry.path());
#ifdef SOLLENS_HAVE_ZLIB
    if (gz) {
      Result<Gunzipped> unzipped = gunzip(text);
      REQUIRE(unzipped.ok());
      text.assign(unzipped->data.view());
    }
#else
    if (gz) continue;
#endif
    out.emplace_back(path, std::move(text));
  }
  return out;
}

}  // namespace sollens::test
