#include "base/diagnostics.h"
#include "base/status.h"

#include <catch2/catch.hpp>
#include <memory>
#include <set>
#include <string>

namespace sollens {

TEST_CASE("A Result holds its value or the Status that says why not", "[status]") {
  Result<int> answer = 42;
  REQUIRE(answer.ok());
  CHECK(*answer == 42);
  CHECK(answer.code() == Code::ok);

  Result<std::unique_ptr<int>> missing(Code::file_empty, "the file is empty");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.code() == Code::file_empty);
  CHECK(missing.message() == "the file is empty");
  CHECK(missing.status().diagnostic().code == Code::file_empty);

  Result<std::unique_ptr<int>> moved = std::make_unique<int>(7);
  std::unique_ptr<int> taken = std::move(moved).value();
  CHECK(*taken == 7);
}

TEST_CASE("Every catalogue entry has a unique id, a meaning and an action", "[status]") {
  std::set<std::string> ids;
  for (const auto& entry : diagnostic_catalogue()) {
    INFO(entry.id);
    CHECK(ids.insert(std::string(entry.id)).second);
    CHECK(!entry.meaning.empty());
    CHECK(!entry.action.empty());
    CHECK(code_named(entry.id) == entry.code);
    CHECK(describe(entry.code).id == entry.id);
  }
  CHECK(describe(Code::gzip_truncated).severity == Severity::Warning);
  CHECK(describe(Code::file_empty).severity == Severity::Error);
  CHECK(code_id(Code::ok) == "ok");
  CHECK_FALSE(code_named("no_such_code").has_value());
}

}  // namespace sollens
