// A stored report.json read back as one side of a diff, then compared with itself.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "api/compare.h"
#include "api/session.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  sollens::looks_like_stored_report(text);
  const sollens::Result<sollens::DiffRun> run = sollens::read_stored_report(text);
  if (!run.ok()) return 0;
  sollens::Session::diff(*run, *run, sollens::DiffRequest{{"baseline", "variant"}, {}});
  return 0;
}
