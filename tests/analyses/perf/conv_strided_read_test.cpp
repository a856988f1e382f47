// sollens's corrected forward convolution bytes (CORRECTIONS.md): a kernel smaller than
// its stride reads only the input pixels under its windows, when the input is
// channels-last (each pixel's channels one contiguous run of at least one 32-byte sector).
#include <catch2/catch.hpp>

#include <string>

#include "analyses/perf/modeled_ops.h"
#include "support/perf_model_cases.h"

using namespace sollens;
using namespace sollens::perf;
using namespace sollens::test;

namespace {

// x (2, 64, 8, 8) bf16 with the given strides, w (32, 64, 1, 1), no bias, stride 2.
EventArgs conv_1x1_stride2(const char* x_strides) {
  const std::string strides = std::string("[") + x_strides + ", [64, 1, 64, 64], [], [], [], [], [], [], []]";
  return event_args("[[2, 64, 8, 8], [32, 64, 1, 1], [], [], [], [], [], [], []]",
                    "['c10::BFloat16', 'c10::BFloat16', '', 'ScalarList', 'ScalarList', 'ScalarList', "
                    "'Scalar', 'ScalarList', 'Scalar']",
                    strides.c_str(),
                    "['', '', '', '[2, 2]', '[0, 0]', '[1, 1]', 'False', '[0, 0]', '1']");
}

}  // namespace

TEST_CASE("CONV: a 1x1 stride-2 channels-last convolution reads a quarter of its input", "[perf]") {
  // out = (2, 32, o, o), o = int((8 - 0 - 1) / 2 + 1) = 4: 1024 elements.
  // TraceLens: bytes = (x 2·64·8·8 = 8192 + w 32·64 = 2048 + out 1024)·2 = 22528.
  // Read: 2·64 channels × 4 × 4 pixels (every other row and column) = 2048 elements,
  // bytes = (2048 + 2048 + 1024)·2 = 10240. FLOPs = 1024·2·64 = 131072 either way.
  const ModelResult r = evaluate_op("aten::convolution", conv_1x1_stride2("[4096, 1, 512, 64]"));
  REQUIRE(r.status == perf::Status::kOk);
  CHECK(r.fwd.flops == Count::of(131072));
  CHECK(r.fwd.bytes == Count::of(22528));
  REQUIRE(r.fwd.bytes_corrected);
  CHECK(*r.fwd.bytes_corrected == Count::of(10240));
  CHECK(!r.fwd.flops_corrected);
}

TEST_CASE("CONV: no strided-read correction in NCHW or when the kernel covers the stride", "[perf]") {
  // NCHW (width stride 1): the skipped columns share 32-byte sectors with the read ones.
  CHECK(!evaluate_op("aten::convolution", conv_1x1_stride2("[4096, 64, 8, 1]")).fwd.bytes_corrected);
  // 3x3 kernel, stride 2: the windows overlap and every pixel is read.
  EventArgs a = conv_1x1_stride2("[4096, 1, 512, 64]");
  a.dims = lit("[[2, 64, 8, 8], [32, 64, 3, 3], [], [], [], [], [], [], []]");
  CHECK(!evaluate_op("aten::convolution", a).fwd.bytes_corrected);
}
