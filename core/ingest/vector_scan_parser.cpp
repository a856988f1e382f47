#include "ingest/vector_scan_parser.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>

#include "ingest/structural_scan.h"

namespace sollens {
namespace {

using simdjson::error_code;
using simdjson::stage1_mode;
using simdjson::internal::dom_parser_implementation;

const simdjson::implementation& scalar_implementation() {
  const simdjson::implementation* fallback = simdjson::get_available_implementations()["fallback"];
  return fallback ? *fallback : *simdjson::builtin_implementation();
}

class VectorScanParser final : public dom_parser_implementation {
 public:
  error_code init(size_t capacity, size_t max_depth) {
    // The scalar parser's own index is sized only when a call needs it (On-Demand
    // never does): it would hold 4 bytes per byte of text beside ours.
    if (error_code e = scalar_implementation().create_dom_parser_implementation(0, max_depth, scalar_)) return e;
    if (error_code e = set_capacity(capacity)) return e;
    return set_max_depth(max_depth);
  }

  error_code stage1(const uint8_t* buf, size_t len, stage1_mode mode) noexcept override {
    if (mode != stage1_mode::regular) return scalar_stage1(buf, len, mode);
    buf_ = buf;
    len_ = len;
    scalar_scanned_ = false;
    const StructuralScan scan = scan_structurals(buf, len, structural_indexes.get());
    n_structural_indexes = scan.count;
    next_structural_index = 0;
    return scan.error;
  }

  error_code parse(const uint8_t* buf, size_t len, simdjson::dom::document& doc) noexcept override {
    if (error_code e = size_scalar()) return e;
    return scalar_->parse(buf, len, doc);
  }
  error_code stage2(simdjson::dom::document& doc) noexcept override {
    return scalar_stage2([&] { return scalar_->stage2(doc); });
  }
  error_code stage2_next(simdjson::dom::document& doc) noexcept override {
    return scalar_stage2([&] { return scalar_->stage2_next(doc); });
  }
  uint8_t* parse_string(const uint8_t* src, uint8_t* dst, bool allow_replacement) const noexcept override {
    return scalar_->parse_string(src, dst, allow_replacement);
  }
  uint8_t* parse_wobbly_string(const uint8_t* src, uint8_t* dst) const noexcept override {
    return scalar_->parse_wobbly_string(src, dst);
  }

  error_code set_capacity(size_t capacity) noexcept override {
    if (capacity > simdjson::SIMDJSON_MAXSIZE_BYTES) return simdjson::CAPACITY;
    room_ = structural_room(capacity);
    structural_indexes.reset(new (std::nothrow) uint32_t[room_]);
    n_structural_indexes = 0;
    if (!structural_indexes) {
      _capacity = room_ = 0;
      return simdjson::MEMALLOC;
    }
    _capacity = capacity;
    return simdjson::SUCCESS;
  }
  error_code set_max_depth(size_t max_depth) noexcept override {
    _max_depth = max_depth;
    return scalar_->set_max_depth(max_depth);
  }

 private:
  error_code size_scalar() {
    if (scalar_capacity_ == _capacity) return simdjson::SUCCESS;
    if (error_code e = scalar_->set_capacity(_capacity)) return e;
    scalar_capacity_ = _capacity;
    return simdjson::SUCCESS;
  }

  // The scalar parser's stage 1, its index copied to ours, which callers read.
  error_code scalar_stage1(const uint8_t* buf, size_t len, stage1_mode mode) {
    if (error_code e = size_scalar()) return e;
    const error_code e = scalar_->stage1(buf, len, mode);
    scalar_scanned_ = true;
    const size_t entries = std::min<size_t>(size_t(scalar_->n_structural_indexes) + 3, room_);
    std::memcpy(structural_indexes.get(), scalar_->structural_indexes.get(), entries * sizeof(uint32_t));
    n_structural_indexes = scalar_->n_structural_indexes;
    next_structural_index = scalar_->next_structural_index;
    return e;
  }

  // The scalar parser's stage 2 over its own index (made from the text first, where ours
  // was); where it stopped is copied back, which document streams read from ours.
  template <typename Stage2>
  error_code scalar_stage2(Stage2 stage2) {
    if (!scalar_scanned_)
      if (error_code e = scalar_stage1(buf_, len_, stage1_mode::regular)) return e;
    const error_code e = stage2();
    next_structural_index = scalar_->next_structural_index;
    return e;
  }

  std::unique_ptr<dom_parser_implementation> scalar_;
  size_t scalar_capacity_ = 0, room_ = 0;
  const uint8_t* buf_ = nullptr;
  size_t len_ = 0;
  bool scalar_scanned_ = false;
};

class VectorScanImplementation final : public simdjson::implementation {
 public:
  VectorScanImplementation()
      : simdjson::implementation("sollens_vector_scan", "stage 1 in 128-bit vectors, the rest simdjson's fallback", 0) {}

  error_code create_dom_parser_implementation(size_t capacity, size_t max_depth,
                                              std::unique_ptr<dom_parser_implementation>& dst) const noexcept override {
    std::unique_ptr<VectorScanParser> parser(new (std::nothrow) VectorScanParser());
    if (!parser) return simdjson::MEMALLOC;
    if (error_code e = parser->init(capacity, max_depth)) return e;
    dst = std::move(parser);
    return simdjson::SUCCESS;
  }
  error_code minify(const uint8_t* buf, size_t len, uint8_t* dst, size_t& dst_len) const noexcept override {
    return scalar_implementation().minify(buf, len, dst, dst_len);
  }
  bool validate_utf8(const char* buf, size_t len) const noexcept override {
    return scalar_implementation().validate_utf8(buf, len);
  }
};

}  // namespace

const simdjson::implementation& vector_scan_implementation() {
  static const VectorScanImplementation implementation;
  return implementation;
}

bool prefer_vector_scan() {
  static const bool chosen = [] {
    // The active one is the best this machine runs: natively AVX2 or SSE4.2 kernels.
    if (simdjson::get_active_implementation()->name() != "fallback") return false;
    simdjson::get_active_implementation() = &vector_scan_implementation();
    return true;
  }();
  return chosen;
}

}  // namespace sollens
