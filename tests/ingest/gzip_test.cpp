// gzip input. The gzip bytes are built here with "stored" (uncompressed) deflate
// blocks and a hand-rolled CRC-32, so the test needs no zlib and knows exactly
// which input bytes are in every prefix of the stream. Native builds decompress;
// the WebAssembly build has no zlib: there gunzip() must say so and load_trace()
// must pass that error on, and the decompression checks are skipped at run time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/gzip.h"
#include "ingest/trace_reader.h"
#include "ingest_test_util.h"

using namespace sollens;
using sollens::test::has_warning;
using sollens::test::warning_list;
using Catch::Matchers::Contains;

namespace {

uint32_t crc32(std::string_view data) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : data) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

void put_le(std::string& out, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

struct Gzip {
  std::string bytes;
  // data_at[j]: offset in `bytes` of byte j of the uncompressed data.
  std::vector<size_t> data_at;
};

// Appends one gzip member holding `data` in stored blocks of at most `block` bytes.
void add_member(Gzip& gz, std::string_view data, size_t block = 40) {
  std::string& out = gz.bytes;
  const char header[] = {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, 0, '\xff'};
  out.append(header, sizeof header);
  size_t pos = 0;
  do {
    const size_t n = std::min(block, data.size() - pos);
    const bool last = pos + n == data.size();
    out.push_back(last ? 1 : 0);  // BFINAL, BTYPE = 00 (stored)
    put_le(out, static_cast<uint32_t>(n), 2);
    put_le(out, static_cast<uint32_t>(~n & 0xFFFF), 2);
    for (size_t j = 0; j < n; ++j) gz.data_at.push_back(out.size() + j);
    out.append(data.substr(pos, n));
    pos += n;
  } while (pos < data.size());
  put_le(out, crc32(data), 4);
  put_le(out, static_cast<uint32_t>(data.size()), 4);
}

Gzip gzip_of(std::string_view data, size_t block = 40) {
  Gzip gz;
  add_member(gz, data, block);
  return gz;
}

// True where this build decompresses; false (after checking how it refuses) in
// the WebAssembly build.
bool gzip_supported(const std::string& gz) {
  Result<Gunzipped> probe = gunzip(gz);
  if (probe.code() != Code::gzip_unsupported) return true;
  CHECK_THAT(probe.message(), Contains("cannot decompress"));
  // No zlib: load_trace must refuse gzip with the same code and message, not read garbage.
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(gz));
  CHECK(r.code() == Code::gzip_unsupported);
  CHECK(r.message() == probe.message());
  WARN("gzip decompression is not available in this build: decompression checks skipped");
  return false;
}

const std::string kTrace =
    R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1.5,"dur":2},)"
    R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":2.5,"dur":1,"args":{"correlation":3}},)"
    R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":2,"dur":0.25,"args":{"correlation":3}}],)"
    R"("deviceProperties":[{"id":0,"name":"A"},{"id":1,"name":"B"}]})";

}  // namespace

TEST_CASE("gzip magic bytes are recognised", "[ingest][gzip]") {
  CHECK(looks_like_gzip(gzip_of("{}").bytes));
  CHECK(looks_like_gzip("\x1f\x8b"));
  CHECK_FALSE(looks_like_gzip("\x1f"));
  CHECK_FALSE(looks_like_gzip("{\"traceEvents\":[]}"));
  CHECK_FALSE(looks_like_gzip(""));
}

TEST_CASE("a single-member gzip trace loads like the plain text", "[ingest][gzip]") {
  const Gzip gz = gzip_of(kTrace);
  if (!gzip_supported(gz.bytes)) return;
  Result<Gunzipped> g = gunzip(gz.bytes);
  REQUIRE(g.ok());
  CHECK_FALSE(g->truncated);
  CHECK(g->data.view() == kTrace);

  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(gz.bytes));
  INFO(r.message());
  REQUIRE(r.ok());
  INFO(warning_list(*r.value()));
  REQUIRE(r.value()->size() == 3);
  CHECK(r.value()->name_of(1) == "gemm");
  CHECK(r.value()->correlation[1] == 3);
  CHECK(r.value()->args_json(1) == R"({"correlation":3})");
  CHECK(r.value()->compressed_bytes == gz.bytes.size());
  CHECK(r.value()->input_bytes == kTrace.size());
  CHECK(r.value()->metadata.devices.size() == 2);
  CHECK(r.value()->warnings.empty());
}

TEST_CASE("every member of a multi-member gzip is decompressed", "[ingest][gzip]") {
  // Three members, cut at arbitrary places, even inside an event.
  const size_t cut1 = 57, cut2 = 190;
  REQUIRE(cut2 < kTrace.size());
  Gzip gz;
  add_member(gz, std::string_view(kTrace).substr(0, cut1), 16);
  add_member(gz, std::string_view(kTrace).substr(cut1, cut2 - cut1), 64);
  add_member(gz, std::string_view(kTrace).substr(cut2), 1000);
  if (!gzip_supported(gz.bytes)) return;

  Result<Gunzipped> g = gunzip(gz.bytes);
  REQUIRE(g.ok());
  CHECK_FALSE(g->truncated);
  CHECK(g->data.view() == kTrace);

  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(gz.bytes));
  INFO(r.message());
  REQUIRE(r.ok());
  REQUIRE(r.value()->size() == 3);
  CHECK(r.value()->name_of(0) == "aten::mm");
  CHECK(r.value()->name_of(2) == "cudaLaunchKernel");
  CHECK(r.value()->ts[2] == 2.0);
  CHECK(r.value()->input_bytes == kTrace.size());
  CHECK(r.value()->compressed_bytes == gz.bytes.size());
}

TEST_CASE("a truncated gzip stream keeps what came before the cut and warns",
          "[ingest][gzip][truncated]") {
  const Gzip gz = gzip_of(kTrace, 40);
  if (!gzip_supported(gz.bytes)) return;
  // Where the three events end in the uncompressed text.
  std::vector<size_t> ends;
  for (size_t p = kTrace.find("},{\"ph\""); p != std::string::npos; p = kTrace.find("},{\"ph\"", p + 1))
    ends.push_back(p);
  ends.push_back(kTrace.find("}],"));
  REQUIRE(ends.size() == 3);
  const size_t array_close = ends[2] + 1;  // the ']' of traceEvents

  // Cuts inside the deflate data (a block header, block data) and in the trailer.
  const size_t data_end = gz.data_at.back() + 1;
  std::vector<size_t> cuts = {11, 13, 16, 30, gz.data_at[100], gz.data_at[100] + 1,
                              gz.data_at[ends[0]] + 1, gz.data_at[ends[1]],
                              gz.data_at[ends[2]] + 1, data_end - 1, data_end, data_end + 3,
                              gz.bytes.size() - 1};
  for (size_t cut : cuts) {
    INFO("cut at byte " << cut << " of " << gz.bytes.size());
    const std::string truncated = gz.bytes.substr(0, cut);
    // Uncompressed bytes that precede the cut.
    size_t kept = 0;
    while (kept < gz.data_at.size() && gz.data_at[kept] < cut) ++kept;

    Result<Gunzipped> g = gunzip(truncated);
    REQUIRE(g.ok());
    CHECK(g->truncated);
    CHECK(g->data.view() == std::string_view(kTrace).substr(0, kept));

    Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(truncated));
    if (kept == 0) {  // nothing decompressed
      CHECK(r.code() == Code::gzip_empty);
      CHECK_FALSE(r.message().empty());
      continue;
    }
    if (kept < kTrace.find('[') + 1) {  // cut before the events array opens
      CHECK_FALSE(r.ok());
      continue;
    }
    INFO(r.message());
    REQUIRE(r.ok());
    INFO(warning_list(*r.value()));
    CHECK(has_warning(*r.value(), "gzip_truncated"));
    size_t complete = 0;
    while (complete < ends.size() && ends[complete] < kept) ++complete;
    CHECK(r.value()->size() == complete);
    if (kept <= array_close)  // the events array itself is cut short
      CHECK((has_warning(*r.value(), "truncated") || has_warning(*r.value(), "unclosed_array")));
  }
}

TEST_CASE("a truncated gzip does not reserve memory from a trailer it does not have",
          "[ingest][gzip][fixed-bug]") {
  // Bug: gunzip() reads the last 4 bytes of its input as ISIZE to size the output.
  // When the stream is cut short those are data bytes (here "Xxyz" = 0x7A797858):
  // a ~2 GB buffer for a ~150-byte input (bad_alloc -> "out of memory" where
  // memory is tight).
  const std::string data = std::string(120, 'a') + "Xxyz" + std::string(40, 'b');
  const Gzip gz = gzip_of(data, 1000);
  if (!gzip_supported(gz.bytes)) return;
  const size_t cut = gz.data_at[124];  // the stream ends with "...aXxyz"
  REQUIRE(gz.bytes.substr(cut - 4, 4) == "Xxyz");
  Result<Gunzipped> g = gunzip(gz.bytes.substr(0, cut));
  REQUIRE(g.ok());
  CHECK(g->truncated);
  CHECK(g->data.view() == data.substr(0, 124));
  CHECK(g->data.capacity() < (size_t(64) << 20));
}

TEST_CASE("corrupt or empty gzip data is an error", "[ingest][gzip]") {
  SECTION("reserved block type") {
    Gzip gz = gzip_of(kTrace);
    if (!gzip_supported(gz.bytes)) return;
    gz.bytes[10] = 0x07;  // BFINAL = 1, BTYPE = 11 (reserved)
    Result<Gunzipped> g = gunzip(gz.bytes);
    CHECK(g.code() == Code::gzip_corrupt);
    CHECK_THAT(g.message(), Contains("corrupt"));
    Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(gz.bytes));
    CHECK(r.code() == Code::gzip_corrupt);
    CHECK_THAT(r.message(), Contains("corrupt"));
  }
  SECTION("bad stored-block length check") {
    Gzip gz = gzip_of(kTrace);
    if (!gzip_supported(gz.bytes)) return;
    gz.bytes[13] = static_cast<char>(gz.bytes[13] ^ 0x01);  // NLEN no longer ~LEN
    Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(gz.bytes));
    CHECK(r.code() == Code::gzip_corrupt);
    CHECK_THAT(r.message(), Contains("corrupt"));
  }
  SECTION("wrong CRC") {
    Gzip gz = gzip_of(kTrace);
    if (!gzip_supported(gz.bytes)) return;
    const size_t crc_at = gz.bytes.size() - 8;
    gz.bytes[crc_at] = static_cast<char>(gz.bytes[crc_at] ^ 0x55);
    Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(gz.bytes));
    CHECK(r.code() == Code::gzip_corrupt);
    CHECK_THAT(r.message(), Contains("corrupt"));
  }
  SECTION("decompresses to nothing") {
    Gzip gz = gzip_of("");
    if (!gzip_supported(gz.bytes)) return;
    Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(gz.bytes));
    CHECK(r.code() == Code::gzip_empty);
    CHECK_THAT(r.message(), Contains("nothing"));
  }
}

// Inflating beside the parse (IngestOptions::threads = 2): whatever the two threads'
// timing, the store must be the one a single thread reads from the same bytes.
namespace {

// `events` Kineto-like events, one a line, with args of varying length.
std::string many_events(size_t events) {
  std::string text = "{\"schemaVersion\":1,\"traceEvents\":[\n";
  for (size_t i = 0; i < events; ++i) {
    if (i) text += ",\n";
    text += R"({"ph":"X","cat":"kernel","name":"k)" + std::to_string(i % 97) +
            R"(","pid":0,"tid":7,"ts":)" + std::to_string(10 * i) + R"(.5,"dur":3,"args":{"correlation":)" +
            std::to_string(i) + R"(,"grid":[)" + std::string(i % 13, '1') + "1]}}";
  }
  return text + "\n],\"deviceProperties\":[{\"id\":0,\"name\":\"A\"}]}";
}

IngestOptions streaming_options() {
  IngestOptions options;
  options.threads = 2;
  options.window_bytes = 4 << 10;
  options.parallel_min_bytes = 64 << 10;
  return options;
}

void check_same_store(const Result<std::unique_ptr<EventStore>>& a, const Result<std::unique_ptr<EventStore>>& b) {
  INFO(a.message() << " / " << b.message());
  REQUIRE(a.ok() == b.ok());
  CHECK(a.code() == b.code());
  CHECK(a.message() == b.message());
  if (!a.ok()) return;
  const EventStore& x = *a.value();
  const EventStore& y = *b.value();
  REQUIRE(x.size() == y.size());
  CHECK(warning_list(x) == warning_list(y));
  CHECK(x.input_bytes == y.input_bytes);
  CHECK(x.metadata.devices.size() == y.metadata.devices.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (x.name_of(i) != y.name_of(i) || x.ts[i] != y.ts[i] || x.dur[i] != y.dur[i] ||
        x.correlation[i] != y.correlation[i] || x.args_json(i) != y.args_json(i)) {
      FAIL("row " << i << " differs");
    }
  }
}

}  // namespace

TEST_CASE("gzip inflated beside the parse gives the store one thread gives",
          "[ingest][gzip][streamed]") {
  const std::string text = many_events(40000);  // about 4 MB
  const Gzip one = gzip_of(text, 65535);
  if (!gzip_supported(one.bytes)) return;
  Gzip three_members;  // members cut inside events
  add_member(three_members, std::string_view(text).substr(0, 1000003), 65535);
  add_member(three_members, std::string_view(text).substr(1000003, 2000000), 65535);
  add_member(three_members, std::string_view(text).substr(3000003), 65535);
  const Gzip& three = three_members;
  for (const Gzip* gz : {&one, &three}) {
    const Result<std::unique_ptr<EventStore>> single = load_trace(PaddedBuffer::copy_of(gz->bytes));
    REQUIRE(single.ok());
    CHECK(single.value()->size() == 40000);
    for (int run = 0; run < 5; ++run) {  // several runs: several interleavings
      const Result<std::unique_ptr<EventStore>> streamed = load_trace(PaddedBuffer::copy_of(gz->bytes), streaming_options());
      check_same_store(streamed, single);
      if (streamed.ok()) CHECK(streamed.value()->inflated_beside_parse);
    }
  }
}

TEST_CASE("a truncated or corrupt gzip inflated beside the parse reads as with one thread",
          "[ingest][gzip][streamed][truncated]") {
  const std::string text = many_events(20000);
  const Gzip gz = gzip_of(text, 65535);
  if (!gzip_supported(gz.bytes)) return;
  for (size_t cut : {gz.data_at[100], gz.data_at[text.size() / 2], gz.data_at[text.size() - 5],
                     gz.bytes.size() - 3}) {
    INFO("cut at byte " << cut);
    const std::string truncated = gz.bytes.substr(0, cut);
    const Result<std::unique_ptr<EventStore>> single = load_trace(PaddedBuffer::copy_of(truncated));
    const Result<std::unique_ptr<EventStore>> streamed = load_trace(PaddedBuffer::copy_of(truncated), streaming_options());
    check_same_store(streamed, single);
    REQUIRE(streamed.ok());
    CHECK(has_warning(*streamed.value(), "gzip_truncated"));
  }
  Gzip corrupt = gz;
  const size_t crc_at = corrupt.bytes.size() - 8;
  corrupt.bytes[crc_at] = static_cast<char>(corrupt.bytes[crc_at] ^ 0x55);
  const Result<std::unique_ptr<EventStore>> streamed = load_trace(PaddedBuffer::copy_of(corrupt.bytes), streaming_options());
  CHECK(streamed.code() == Code::gzip_corrupt);
  CHECK_THAT(streamed.message(), Contains("corrupt"));
}
