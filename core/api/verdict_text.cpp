#include "api/verdict_text.h"

#include "analyses/verdict/verdict.h"
#include "report/report.h"

namespace sollens {

std::string report_headline(const Report& report) {
  const Table* sheet = report.find("verdict");
  return sheet ? verdict::verdict_headline(*sheet) : "";
}

}  // namespace sollens
