#include "ingest/stream_part.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <vector>

namespace sollens {
namespace {

constexpr std::string_view kMagic = "SOLLPRT1";
constexpr size_t kAlign = 8;

// The counters that add up across the parts, in the encoding's order; then truncated_at
// and missing_close_bracket, which only the part holding the array's end can set.
constexpr size_t IngestCounters::*kSummedCounters[] = {
    &IngestCounters::non_object,         &IngestCounters::empty_objects, &IngestCounters::empty_elements,
    &IngestCounters::bad_numbers,        &IngestCounters::huge_durations, &IngestCounters::negative_durations,
    &IngestCounters::utf8_repairs,       &IngestCounters::control_repairs};
constexpr size_t kSummed = std::size(kSummedCounters);
constexpr size_t kCounterFields = kSummed + 2;
std::array<uint64_t, kCounterFields> counter_fields(const IngestCounters& c) {
  std::array<uint64_t, kCounterFields> fields{};
  for (size_t i = 0; i < kSummed; ++i) fields[i] = c.*kSummedCounters[i];
  fields[kSummed] = c.truncated_at;
  fields[kSummed + 1] = c.missing_close_bracket;
  return fields;
}

class Writer {
 public:
  // The encoding is hundreds of megabytes for a large trace: reserved at once, as
  // growing it would copy it at every step.
  void reserve(size_t bytes) { out_.reserve(bytes); }
  void u64(uint64_t v) { bytes(&v, sizeof v); }
  void bytes(const void* p, size_t n) {
    out_.append(static_cast<const char*>(p), n);
    out_.append((kAlign - n % kAlign) % kAlign, '\0');
  }
  // A column's values as `type`, `size` of them, whatever its storage.
  template <typename T>
  void column(const std::vector<T>& c) {
    bytes(c.data(), c.size() * sizeof(T));
  }
  template <typename T>
  void column(const NarrowColumn<T>& c) {
    for (size_t i = 0; i < c.size(); ++i) {
      const T v = c[i];
      out_.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool u64(uint64_t& v) {
    const char* p = take(sizeof v);
    if (p) std::memcpy(&v, p, sizeof v);
    return p != nullptr;
  }
  // `n` bytes (then the padding to the next multiple of 8), or null past the end.
  const char* take(size_t n) {
    const size_t padded = n + (kAlign - n % kAlign) % kAlign;
    if (padded < n || padded > in_.size() - pos_) return nullptr;
    const char* p = in_.data() + pos_;
    pos_ += padded;
    return p;
  }

 private:
  std::string_view in_;
  size_t pos_ = 0;
};

struct NameBytes {
  uint64_t event;
  StrId kind, pid, tid, value;
};

template <typename T>
T read_at(const char* base, size_t i) {
  T v;
  std::memcpy(&v, base + i * sizeof(T), sizeof(T));
  return v;
}

Status unreadable(const char* what) {
  return Status(Code::split_missed, std::string("the second part of the parallel read could not be read back (") +
                                        what + ")");
}

// Where each section of a checked encoding starts.
struct Sections {
  uint64_t rows = 0, strings = 0, names = 0, arena = 0, tail = 0, bytes_read = 0, closed = 0;
  std::array<uint64_t, kCounterFields> counters{};
#define SOLLENS_SECTION(type, c, absent) const char* c = nullptr;
  SOLLENS_EVENT_COLUMNS(SOLLENS_SECTION, SOLLENS_SECTION)
#undef SOLLENS_SECTION
  const char* string_offsets = nullptr;
  const char* string_bytes = nullptr;
  const char* name_records = nullptr;
  const char* arena_bytes = nullptr;
  const char* tail_bytes = nullptr;
};

Status read_header(Reader& in, Sections& s) {
  const char* magic = in.take(kMagic.size());
  if (!magic || std::string_view(magic, kMagic.size()) != kMagic) return unreadable("no header");
  for (uint64_t* field : {&s.rows, &s.strings, &s.names, &s.arena, &s.tail, &s.bytes_read, &s.closed})
    if (!in.u64(*field)) return unreadable("header cut short");
  for (uint64_t& field : s.counters)
    if (!in.u64(field)) return unreadable("counters cut short");
  if (s.strings == 0 || s.rows > (uint64_t(1) << 40) || s.strings > (uint64_t(1) << 40) || s.names > s.rows)
    return unreadable("sizes out of range");
  return Status::success();
}

Status read_sections(Reader& in, Sections& s) {
#define SOLLENS_TAKE(type, c, absent) \
  if (!(s.c = in.take(s.rows * sizeof(type)))) return unreadable("column " #c " cut short");
  SOLLENS_EVENT_COLUMNS(SOLLENS_TAKE, SOLLENS_TAKE)
#undef SOLLENS_TAKE
  if (!(s.string_offsets = in.take((s.strings + 1) * sizeof(uint64_t)))) return unreadable("strings cut short");
  const uint64_t string_bytes = read_at<uint64_t>(s.string_offsets, s.strings);
  for (uint64_t i = 0; i < s.strings; ++i)
    if (read_at<uint64_t>(s.string_offsets, i) > read_at<uint64_t>(s.string_offsets, i + 1))
      return unreadable("string offsets out of order");
  if (read_at<uint64_t>(s.string_offsets, 0) != 0 || !(s.string_bytes = in.take(string_bytes)))
    return unreadable("string bytes cut short");
  if (!(s.name_records = in.take(s.names * sizeof(NameBytes)))) return unreadable("names cut short");
  if (!(s.arena_bytes = in.take(s.arena))) return unreadable("args cut short");
  if (!(s.tail_bytes = in.take(s.tail))) return unreadable("tail cut short");
  return Status::success();
}

// Every string id and args range in range, before anything is appended.
Status check_references(const Sections& s) {
  auto id_ok = [&](StrId id) { return id < s.strings; };
#define SOLLENS_CHECK_IDS(type, c, absent)                  \
  for (uint64_t i = 0; i < s.rows; ++i)                     \
    if (!id_ok(read_at<StrId>(s.c, i))) return unreadable("string id out of range");
#define SOLLENS_SKIP(type, c, absent)
  SOLLENS_EVENT_COLUMNS(SOLLENS_SKIP, SOLLENS_CHECK_IDS)
#undef SOLLENS_CHECK_IDS
#undef SOLLENS_SKIP
  for (uint64_t i = 0; i < s.rows; ++i) {
    const uint64_t offset = read_at<uint64_t>(s.args_offset, i);
    const uint32_t length = read_at<uint32_t>(s.args_length, i);
    if (length != 0 && (offset > s.arena || length > s.arena - offset)) return unreadable("args out of range");
  }
  for (uint64_t i = 0; i < s.names; ++i) {
    const NameBytes r = read_at<NameBytes>(s.name_records, i);
    if (r.event >= s.rows || !id_ok(r.kind) || !id_ok(r.pid) || !id_ok(r.tid) || !id_ok(r.value))
      return unreadable("name record out of range");
  }
  return Status::success();
}

void append_checked(const Sections& s, EventStore& store, ArgsArena& arena) {
  std::vector<StrId> remap(s.strings);
  for (uint64_t i = 0; i < s.strings; ++i) {
    const uint64_t begin = read_at<uint64_t>(s.string_offsets, i);
    const uint64_t end = read_at<uint64_t>(s.string_offsets, i + 1);
    remap[i] = store.strings.intern(std::string_view(s.string_bytes + begin, end - begin));
  }
  const size_t first_row = store.size();
  const size_t rows = s.rows;
  store.reserve(first_row + rows);
#define SOLLENS_APPEND_PLAIN(type, c, absent) append_column_bytes(store.c, s.c, rows);
#define SOLLENS_APPEND_IDS(type, c, absent) \
  for (size_t i = 0; i < rows; ++i) store.c.push_back(remap[read_at<StrId>(s.c, i)]);
  SOLLENS_EVENT_COLUMNS(SOLLENS_APPEND_PLAIN, SOLLENS_APPEND_IDS)
#undef SOLLENS_APPEND_PLAIN
#undef SOLLENS_APPEND_IDS
  const uint64_t shift = arena.size();
  for (size_t i = first_row; i < store.size(); ++i)
    if (store.args_length[i] != 0) store.args_offset.set(i, store.args_offset[i] + shift);
  arena.append(std::string_view(s.arena_bytes, s.arena));
  for (uint64_t i = 0; i < s.names; ++i) {
    const NameBytes r = read_at<NameBytes>(s.name_records, i);
    store.names.push_back({first_row + static_cast<size_t>(r.event), remap[r.kind], remap[r.pid], remap[r.tid], remap[r.value]});
  }
}

void add_counters(IngestCounters& c, const std::array<uint64_t, kCounterFields>& f) {
  for (size_t i = 0; i < kSummed; ++i) c.*kSummedCounters[i] += static_cast<size_t>(f[i]);
  c.truncated_at = static_cast<size_t>(f[kSummed]);
  c.missing_close_bracket = f[kSummed + 1] != 0;
}

}  // namespace

std::string encode_stream_part(const EventStore& rows, const ArgsArena& arena, const IngestCounters& counters,
                               const StreamPartEnd& end) {
  Writer out;
  const std::string_view args = arena.bytes();
  size_t string_bytes = 0;
  for (StrId id = 0; id < rows.strings.size(); ++id) string_bytes += rows.strings.view(id).size();
  size_t row_bytes = 0, columns = 0;
#define SOLLENS_ROW_BYTES(type, c, absent) row_bytes += sizeof(type), ++columns;
  SOLLENS_EVENT_COLUMNS(SOLLENS_ROW_BYTES, SOLLENS_ROW_BYTES)
#undef SOLLENS_ROW_BYTES
  out.reserve(kMagic.size() + (7 + kCounterFields) * sizeof(uint64_t) + rows.size() * row_bytes +
              (rows.strings.size() + 1) * sizeof(uint64_t) + string_bytes + rows.names.size() * sizeof(NameBytes) +
              args.size() + end.tail.size() + (columns + 8) * kAlign);
  out.bytes(kMagic.data(), kMagic.size());
  for (uint64_t v : {uint64_t(rows.size()), uint64_t(rows.strings.size()), uint64_t(rows.names.size()),
                     uint64_t(args.size()), uint64_t(end.tail.size()), uint64_t(end.bytes_read), uint64_t(end.closed)})
    out.u64(v);
  for (uint64_t v : counter_fields(counters)) out.u64(v);
#define SOLLENS_WRITE(type, c, absent) out.column(rows.c);
  SOLLENS_EVENT_COLUMNS(SOLLENS_WRITE, SOLLENS_WRITE)
#undef SOLLENS_WRITE
  std::vector<uint64_t> offsets{0};
  std::string text;
  for (StrId id = 0; id < rows.strings.size(); ++id) {
    text += rows.strings.view(id);
    offsets.push_back(text.size());
  }
  out.bytes(offsets.data(), offsets.size() * sizeof(uint64_t));
  out.bytes(text.data(), text.size());
  std::vector<NameBytes> names;
  names.reserve(rows.names.size());
  for (const NameRecord& r : rows.names) names.push_back({r.event, r.kind, r.pid, r.tid, r.value});
  out.bytes(names.data(), names.size() * sizeof(NameBytes));
  out.bytes(args.data(), args.size());
  out.bytes(end.tail.data(), end.tail.size());
  return out.take();
}

Result<StreamPartEnd> append_stream_part(std::string_view encoded, EventStore& store, ArgsArena& arena,
                                         IngestCounters& counters) {
  Reader in(encoded);
  Sections s;
  if (Status st = read_header(in, s); !st.ok()) return st;
  if (Status st = read_sections(in, s); !st.ok()) return st;
  if (Status st = check_references(s); !st.ok()) return st;
  append_checked(s, store, arena);
  add_counters(counters, s.counters);
  return StreamPartEnd{s.closed != 0, std::string_view(s.tail_bytes, s.tail), static_cast<size_t>(s.bytes_read)};
}

}  // namespace sollens
