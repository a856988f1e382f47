// What a non-JSON file is, in words: the kinds people open by mistake by their first
// bytes, and plain words for the rest (no doubled parentheses).
#include <catch2/catch.hpp>

#include <string>

#include "ingest/file_magic.h"
#include "ingest/gzip.h"
#include "ingest/trace_reader.h"

using namespace sollens;

TEST_CASE("file magic: common files are named", "[ingest][messages]") {
  CHECK(not_json_reason("\x89PNG\r\n\x1A\n", 0, false) == "this is a PNG image");
  CHECK(not_json_reason("\xFF\xD8\xFF\xE0", 0, false) == "this is a JPEG image");
  CHECK(not_json_reason("%PDF-1.7", 0, false) == "this is a PDF document");
  CHECK(not_json_reason(std::string("PK\x03\x04", 4), 0, false) == "this is a zip archive");
  CHECK(not_json_reason("GIF89a", 0, false) == "this is a GIF image");
  CHECK(not_json_reason("\x1F\x8B\x08", 0, true) == "the gzip file holds gzip data (compressed twice?)");
}

TEST_CASE("file magic: other bytes are worded plainly", "[ingest][messages]") {
  // Binary: the byte's value, and where it is only when blanks came before it.
  CHECK(not_json_reason(std::string("\x00\x01", 2), 0, false) ==
        "the file is binary data, not text (it starts with byte 0x00)");
  CHECK(not_json_reason("  \x07", 2, false) == "the file is binary data, not text (it starts with byte 0x07 at byte 2)");
  CHECK(not_json_reason("hello", 0, false) == "the file starts with 'h' where JSON starts with '{'");
  CHECK(not_json_reason("\n12", 1, true) == "the gzip file's content starts with '1' at byte 1 where JSON starts with '{'");
}

TEST_CASE("file magic: a PNG opened as a trace says so, once", "[ingest][messages]") {
  const std::string png = "\x89PNG\r\n\x1A\n\x00\x00\x00\rIHDR";
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(png), {});
  CHECK_FALSE(r.ok());
  CHECK(r.message() == "not JSON: this is a PNG image; expected a Kineto trace (.json or .json.gz)");
  CHECK(r.message().find(") (") == std::string::npos);
}
