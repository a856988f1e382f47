#include "store/raw_args.h"

#include <cstdlib>

#include "base/number_format.h"
#include "base/python_repr.h"

namespace sollens {

namespace od = simdjson::ondemand;
using simdjson::error_code;
using simdjson::SUCCESS;

namespace {

void append_number(std::string& out, std::string_view token) {
  if (token.find_first_of(".eE") != std::string_view::npos) {
    out += format_python_float(std::strtod(std::string(token).c_str(), nullptr));
    return;
  }
  // JSON integers are Python ints of any size; "-0" reads as 0.
  if (token == "-0") token = "0";
  out += token;
}

}  // namespace

simdjson::padded_string_view padded_input_view(const EventStore& store, std::string_view json) {
  const char* end_of_buffer = store.input.data() + store.input.size() + PaddedBuffer::kPadding;
  return simdjson::padded_string_view(json.data(), json.size(), static_cast<size_t>(end_of_buffer - json.data()));
}

std::string_view trim_json_token(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

error_code append_python_repr(od::value v, std::string& out, bool lists_as_tuples) {
  od::json_type type;
  if (auto e = v.type().get(type)) return e;
  switch (type) {
    case od::json_type::array: {
      od::array array;
      if (auto e = v.get_array().get(array)) return e;
      PythonReprBuilder b(lists_as_tuples ? PythonReprBuilder::Kind::kTuple
                                          : PythonReprBuilder::Kind::kList);
      for (auto element : array) {
        od::value item;
        if (auto e = std::move(element).get(item)) return e;
        if (auto e = append_python_repr(item, b.element(), lists_as_tuples)) return e;
      }
      out += b.finish();
      return SUCCESS;
    }
    case od::json_type::object: {
      od::object object;
      if (auto e = v.get_object().get(object)) return e;
      PythonReprBuilder b(PythonReprBuilder::Kind::kDict);
      for (auto field_result : object) {
        od::field field;
        if (auto e = std::move(field_result).get(field)) return e;
        std::string_view key;
        if (auto e = field.unescaped_key(false).get(key)) return e;
        if (auto e = append_python_repr(field.value(), b.str_key(key), false)) return e;
      }
      out += b.finish();
      return SUCCESS;
    }
    case od::json_type::number:
      append_number(out, trim_json_token(v.raw_json_token()));
      return SUCCESS;
    case od::json_type::string: {
      std::string_view s;
      if (auto e = v.get_string().get(s)) return e;
      append_python_str_repr(out, s);
      return SUCCESS;
    }
    case od::json_type::boolean: {
      bool b;
      if (auto e = v.get_bool().get(b)) return e;
      out += b ? "True" : "False";
      return SUCCESS;
    }
    case od::json_type::null:
      out += "None";
      return SUCCESS;
    default:
      return simdjson::INCORRECT_TYPE;
  }
}

}  // namespace sollens
