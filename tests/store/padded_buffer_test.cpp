// PaddedBuffer::adopt: memory allocated elsewhere (the CLI's file mapping) is used in
// place and handed back to its release function exactly once.
#include <catch2/catch.hpp>

#include <cstring>

#include "store/padded_buffer.h"

using sollens::PaddedBuffer;

namespace {

int releases = 0;
size_t released_capacity = 0;
void release(char* data, size_t capacity) {
  ++releases;
  released_capacity = capacity;
  delete[] data;
}

}  // namespace

TEST_CASE("an adopted buffer is used in place and released once", "[store]") {
  releases = 0;
  const size_t capacity = 4 + PaddedBuffer::kPadding + 12;
  char* memory = new char[capacity]();
  std::memcpy(memory, "[{}]", 4);
  {
    PaddedBuffer b = PaddedBuffer::adopt(memory, 4, capacity, release);
    CHECK(b.data() == memory);
    CHECK(b.view() == "[{}]");
    CHECK(b.capacity() == capacity);
    PaddedBuffer moved = std::move(b);
    CHECK(moved.data() == memory);
    CHECK(releases == 0);
  }
  CHECK(releases == 1);
  CHECK(released_capacity == capacity);
}

TEST_CASE("growing an adopted buffer past its capacity copies it and releases the original", "[store]") {
  releases = 0;
  const size_t capacity = 2 + PaddedBuffer::kPadding;
  char* memory = new char[capacity]();
  std::memcpy(memory, "[]", 2);
  PaddedBuffer b = PaddedBuffer::adopt(memory, 2, capacity, release);
  b.resize(2);  // within capacity: stays in place
  CHECK(b.data() == memory);
  b.resize(1000);
  CHECK(releases == 1);
  CHECK(b.view().substr(0, 2) == "[]");
  CHECK(b.size() == 1000);
}

TEST_CASE("a moved-from buffer is empty, not a size without its memory", "[store]") {
  PaddedBuffer from = PaddedBuffer::copy_of("hello");
  PaddedBuffer to(std::move(from));
  CHECK(to.view() == "hello");
  CHECK(from.empty());  // NOLINT(bugprone-use-after-move): what is left is what is tested
  CHECK(from.view().empty());
  PaddedBuffer assigned;
  assigned = std::move(to);
  CHECK(assigned.view() == "hello");
  CHECK(to.empty());  // NOLINT(bugprone-use-after-move)
}
