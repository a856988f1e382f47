#pragma once
// Bytes of a trace with slack after the end: the JSON parser reads up to 64 bytes
// past the data, and the windowed reader may write one closing bracket there.
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>

namespace sollens {

class PaddedBuffer {
 public:
  static constexpr size_t kPadding = 128;

  PaddedBuffer() = default;
  explicit PaddedBuffer(size_t size) { resize_uninitialized(size); }
  static PaddedBuffer copy_of(std::string_view bytes) {
    PaddedBuffer b(bytes.size());
    if (!bytes.empty()) std::memcpy(b.data(), bytes.data(), bytes.size());
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
      std::unique_ptr<char[]> bigger(new char[new_size + kPadding]);
      if (size_) std::memcpy(bigger.get(), data_.get(), size_ < new_size ? size_ : new_size);
      data_ = std::move(bigger);
      capacity_ = new_size + kPadding;
    }
    size_ = new_size;
    std::memset(data_.get() + size_, 0, kPadding);
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
    data_.reset(new char[size + kPadding]);
    capacity_ = size + kPadding;
    size_ = size;
    std::memset(data_.get() + size_, 0, kPadding);
  }

  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace sollens
