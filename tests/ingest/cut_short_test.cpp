// A trace cut short: every complete event before the cut is read, whether the whole
// file is read at once (the command line) or fed in chunks with the gzip's end reported
// by the page (TraceStreamReader::input_cut_short), and both say what the cut lost:
// launches whose GPU events Kineto had not yet written.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "ingest/cut_short.h"
#include "ingest/gzip.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_stream.h"
#include "ingest_test_util.h"

using namespace sollens;
using sollens::test::find_warning;
using sollens::test::has_warning;
using sollens::test::warning_list;

namespace {

// As Kineto writes them: the CPU side first (an op, three calls that put work on the
// GPU with correlation ids 1, 2, 3, a synchronize that does not), then the GPU events.
const std::string kEvents[] = {
    R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":50})",
    R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":2,"args":{"correlation":1}})",
    R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":4,"dur":2,"args":{"correlation":2}})",
    R"({"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":7,"dur":2,"args":{"correlation":3}})",
    R"({"ph":"X","cat":"cuda_runtime","name":"cudaStreamSynchronize","pid":1,"tid":1,"ts":10,"dur":30,"args":{"correlation":4}})",
    R"({"ph":"X","cat":"kernel","name":"gemm_a","pid":0,"tid":7,"ts":20,"dur":5,"args":{"correlation":1}})",
    R"({"ph":"X","cat":"kernel","name":"gemm_b","pid":0,"tid":7,"ts":26,"dur":5,"args":{"correlation":2}})",
    R"({"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH","pid":0,"tid":8,"ts":32,"dur":3,"args":{"correlation":3}})",
};

std::string whole_trace() {
  std::string text = R"({"schemaVersion":1,"traceEvents":[)";
  for (size_t i = 0; i < std::size(kEvents); ++i) text += (i ? "," : "") + kEvents[i];
  return text + "]}";
}

// The text cut `into` bytes into event `event` (0-based): events before it are whole.
std::string cut_inside(size_t event, size_t into = 20) {
  const std::string text = whole_trace();
  return text.substr(0, text.find(kEvents[event]) + into);
}

Result<std::unique_ptr<EventStore>> streamed(std::string_view text, bool gzip_cut, size_t chunk = 7) {
  IngestOptions options;
  options.window_bytes = 64;
  TraceStreamReader reader(options);
  for (size_t at = 0; at < text.size(); at += chunk) {
    const size_t n = std::min(chunk, text.size() - at);
    char* to = reader.prepare(n);
    REQUIRE(to);
    std::copy_n(text.data() + at, n, to);
    if (!reader.commit(n)) break;
  }
  if (gzip_cut) reader.input_cut_short();
  return reader.finish();
}

// One gzip member of stored (uncompressed) deflate blocks with no trailer: as a file cut
// after `text`, whose inflated bytes are exactly `text`.
std::string gzip_cut_after(std::string_view text) {
  std::string out = {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, 0, '\xff'};
  for (size_t at = 0; at < text.size(); at += 40) {
    const size_t n = std::min<size_t>(40, text.size() - at);
    out.push_back(0);  // not the final block: the stream goes on past the cut
    out.push_back(static_cast<char>(n & 0xFF));
    out.push_back(static_cast<char>(n >> 8));
    out.push_back(static_cast<char>(~n & 0xFF));
    out.push_back(static_cast<char>((~n >> 8) & 0xFF));
    out.append(text.substr(at, n));
  }
  return out;
}

std::string message_of(const EventStore& store, std::string_view code) {
  const Diagnostic* w = find_warning(store, code);
  return w ? w->message : "";
}

}  // namespace

TEST_CASE("a trace cut inside a GPU event: the launches whose kernel was not read are counted", "[ingest][cut_short]") {
  // Cut inside event 6 (gemm_b): events 0-5 are whole, 6 events read. Launches read:
  // correlation 1, 2 (cudaLaunchKernel) and 3 (cudaMemcpyAsync); the synchronize puts
  // no work on the GPU. GPU events read: gemm_a (correlation 1). Without one: 2 and 3.
  Result<std::unique_ptr<EventStore>> r = sollens::test::load(cut_inside(6));
  REQUIRE(r.ok());
  INFO(warning_list(*r.value()));
  CHECK(r.value()->size() == 6);
  CHECK(has_warning(*r.value(), "truncated"));
  CHECK(message_of(*r.value(), "cut_short_gpu") ==
        "2 launches of 3 have no kernel: the GPU timeline covers only the 1 GPU event read before the cut "
        "(Kineto writes the GPU events (kernels, memcpy) after the CPU ones, and the file was probably cut while it "
        "was written or copied)");
}

TEST_CASE("a trace cut before its first GPU event says no GPU events were read", "[ingest][cut_short]") {
  // Cut inside event 5 (gemm_a): events 0-4 read, no GPU event; three launches.
  Result<std::unique_ptr<EventStore>> r = sollens::test::load(cut_inside(5));
  REQUIRE(r.ok());
  INFO(warning_list(*r.value()));
  CHECK(r.value()->size() == 5);
  CHECK(message_of(*r.value(), "cut_short_gpu").starts_with(
      "no GPU events were read before the cut: the 3 launches read have no kernel, so there is no GPU timeline"));
}

TEST_CASE("a cut in the last GPU event, a whole trace, a cut before any launch", "[ingest][cut_short]") {
  // Cut inside the last event (the memcpy, correlation 3): 7 events, the launches of 1
  // and 2 have their kernels but 3 has lost its memcpy: one launch without.
  Result<std::unique_ptr<EventStore>> last = sollens::test::load(cut_inside(7));
  REQUIRE(last.ok());
  CHECK(last.value()->size() == 7);
  CHECK(message_of(*last.value(), "cut_short_gpu").starts_with("1 launch of 3 has no kernel: the GPU timeline covers only the 2 GPU events"));

  Result<std::unique_ptr<EventStore>> whole = sollens::test::load(whole_trace());
  REQUIRE(whole.ok());
  CHECK(whole.value()->size() == 8);
  CHECK_FALSE(cut_short(*whole.value()));
  CHECK_FALSE(has_warning(*whole.value(), "cut_short_gpu"));

  // Cut inside the first launch: one cpu_op, no launch and no GPU event read.
  Result<std::unique_ptr<EventStore>> cpu = sollens::test::load(cut_inside(1));
  REQUIRE(cpu.ok());
  CHECK(cpu.value()->size() == 1);
  CHECK(cut_short(*cpu.value()));
  CHECK(message_of(*cpu.value(), "cut_short_gpu").starts_with(
      "no GPU events were read before the cut, so there is no GPU timeline (Kineto writes"));
}

TEST_CASE("the reader fed in chunks keeps the same events and says the same as the whole-file reader", "[ingest][cut_short]") {
  for (size_t event : {1, 5, 6, 7}) {
    for (size_t into : {1, 20, 60}) {
      const std::string text = cut_inside(event, into);
      INFO("cut " << into << " bytes into event " << event);
      Result<std::unique_ptr<EventStore>> whole = sollens::test::load(text, 64);
      Result<std::unique_ptr<EventStore>> chunks = streamed(text, /*gzip_cut=*/false);
      REQUIRE(whole.ok());
      REQUIRE(chunks.ok());
      CHECK(whole.value()->size() == event);
      CHECK(chunks.value()->size() == event);
      CHECK(warning_list(*chunks.value()) == warning_list(*whole.value()));
    }
  }
}

TEST_CASE("a .json.gz cut short: the command line's inflate and the page's say the same", "[ingest][cut_short][gzip]") {
  // The gzip stream ends inside event 6: the inflated text is cut_inside(6), 6 events.
  const std::string text = cut_inside(6);
  const std::string gz = gzip_cut_after(text);
  Result<Gunzipped> probe = gunzip(gz);
  if (probe.code() == Code::gzip_unsupported) {
    WARN("gzip decompression is not available in this build: the command line's side skipped");
    return;
  }
  REQUIRE(probe.ok());
  CHECK(probe->truncated);
  CHECK(probe->data.view() == text);
  Result<std::unique_ptr<EventStore>> cli = load_trace(PaddedBuffer::copy_of(gz));
  // The page inflates in the browser and tells the reader the gzip stream ended early.
  Result<std::unique_ptr<EventStore>> page = streamed(text, /*gzip_cut=*/true, 4096);
  REQUIRE(cli.ok());
  REQUIRE(page.ok());
  INFO("cli: " << warning_list(*cli.value()));
  INFO("page: " << warning_list(*page.value()));
  CHECK(cli.value()->size() == 6);
  CHECK(page.value()->size() == 6);
  CHECK(warning_list(*page.value()) == warning_list(*cli.value()));
  CHECK(has_warning(*page.value(), "gzip_truncated"));
  CHECK(has_warning(*page.value(), "cut_short_gpu"));
}
