// JSON put together by concatenation outside writers/: check_json.py must reject this tree
// (the literal opens an object and a member, and json_string splices a value in).
#include <string>

#include "base/json_text.h"

std::string error_json(const std::string& message) { return "{\"error\":" + sollens::json_string(message) + "}"; }
