// The analyses over a parsed trace: the default report, the cycles, and speed of light
// for a device of the database chosen by the input's last byte (or the trace's own).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "api/session.h"
#include "devices/device_db.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& devices = sollens::device_db();
  const size_t choice = data[size - 1] % (devices.size() + 1);
  sollens::Session session;
  (void)session.load(sollens::PaddedBuffer::copy_of({reinterpret_cast<const char*>(data), size - 1}));
  if (!session.loaded()) return 0;
  session.report();
  session.cycles();
  session.sol({choice < devices.size() ? devices[choice].name : std::string(), 1.0});
  return 0;
}
