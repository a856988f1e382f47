#pragma once
// A Document (table/document.h) as JSON and as YAML-compatible text: solar.json and
// solar.yaml, and the Solar document the page embeds.
#include <string>

#include "table/document.h"

namespace sollens {

// One line, spaced as Python's json.dumps: {"a": 1, "b": [0.5, "x"]}. Whole numbers
// below 2^53 as integers, others in Python's repr; NaN and infinities as null.
std::string document_json(const Document& doc);

// Block style, a line per scalar; keys and strings JSON-quoted (YAML reads them as the
// same text), scalars as in document_json.
std::string document_yaml(const Document& doc);

}  // namespace sollens
