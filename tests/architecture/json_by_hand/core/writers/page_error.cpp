// The same text inside writers/, where JSON is written: check_json.py must accept it.
#include <string>

#include "base/json_text.h"

std::string error_json(const std::string& message) { return "{\"error\":" + sollens::json_string(message) + "}"; }
