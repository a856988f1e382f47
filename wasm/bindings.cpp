// Minimal placeholder Embind surface so the wasm module builds; to be replaced
// by the real bindings.
#include <emscripten/bind.h>

#include <string>

namespace {
std::string version() { return "0.1.0"; }
}  // namespace

EMSCRIPTEN_BINDINGS(sollens) {
  emscripten::function("version", &version);
}
