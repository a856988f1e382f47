#pragma once
// Bytes of a trace with slack after the end: the JSON parser reads up to 64 bytes
// past the data, and the windowed reader may write one closing bracket there.
#include <cstddef>
#include <cstring>
#include <utility>
#include <memory>
#include <string_view>

namespace sollens {

// Frees a PaddedBuffer's bytes: delete[], or the release function of adopted memory.
struct PaddedBufferDeleter {
  using Release = void (*)(char* data, size_t capacity);
  Release release = nullptr;
  size_t capacity = 0;
  void operator()(char* p) const {
    if (release) release(p, capacity);
    else delete[] p;
  }
};

class PaddedBuffer {
 public:
  static constexpr size_t kPadding = 128;

  PaddedBuffer() = default;
  explicit PaddedBuffer(size_t size) { resize_uninitialized(size); }
  // A moved-from buffer is empty: its size must not outlive the memory it no longer has.
  PaddedBuffer(PaddedBuffer&& other) noexcept
      : data_(std::move(other.data_)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  PaddedBuffer& operator=(PaddedBuffer&& other) noexcept {
    data_ = std::move(other.data_);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    return *this;
  }
  static PaddedBuffer copy_of(std::string_view bytes) {
    PaddedBuffer b(bytes.size());
    if (!bytes.empty()) std::memcpy(b.data(), bytes.data(), bytes.size());
    return b;
  }
  // Takes memory allocated elsewhere (the CLI's private file mapping): `size` bytes of
  // data, then zeroed, writable bytes up to `capacity` >= size + kPadding. `release`
  // frees it (it gets the data pointer and the capacity).
  using Release = PaddedBufferDeleter::Release;
  static PaddedBuffer adopt(char* data, size_t size, size_t capacity, Release release) {
    PaddedBuffer b;
    b.data_ = Storage(data, PaddedBufferDeleter{release, capacity});
    b.size_ = size;
    b.capacity_ = capacity;
    return b;
  }

  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {data_.get(), size_}; }

  // Keeps the first min(size, new_size) bytes; the padding is zeroed.
  void resize(size_t new_size) {
    if (new_size + kPadding > capacity_) {
      Storage bigger(new char[new_size + kPadding]);
      if (size_) std::memcpy(bigger.get(), data_.get(), size_ < new_size ? size_ : new_size);
      data_ = std::move(bigger);
      capacity_ = new_size + kPadding;
    }
    size_ = new_size;
    std::memset(data_.get() + size_, 0, kPadding);
  }
  // Grows the logical size within the capacity over bytes already written there (a
  // buffer that a decompressor fills); the padding after them must already be zero.
  void extend(size_t new_size) {
    if (new_size + kPadding <= capacity_ && new_size > size_) size_ = new_size;
  }
  // Shrinks the logical size without reallocating.
  void truncate(size_t new_size) {
    if (new_size < size_) {
      size_ = new_size;
      std::memset(data_.get() + size_, 0, kPadding);
    }
  }

 private:
  void resize_uninitialized(size_t size) {
    data_ = Storage(new char[size + kPadding]);
    capacity_ = size + kPadding;
    size_ = size;
    std::memset(data_.get() + size_, 0, kPadding);
  }

  using Storage = std::unique_ptr<char[], PaddedBufferDeleter>;

  Storage data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace sollens
