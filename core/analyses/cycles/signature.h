#pragma once
// Kernel-name signatures for cycle detection, exactly uplifter's rules at HEAD
// (seed-systems.md §a.4): template arguments, configuration suffixes, tile shapes,
// variant suffixes and single trailing digits are cut, so that kernels differing
// only in such details compare equal inside a layer.
#include <cstdint>
#include <string>
#include <string_view>

namespace sollens {

uint64_t fnv1a64(std::string_view text);

// uplifter's getKernelSignature. Names that end up shorter than 3 characters become
// "other_<fnv1a64(name) % 1000>".
std::string kernel_signature(std::string_view name);

// uplifter's normalizeKernelName: "triton_…_<digits>" loses its numeric suffix;
// anything else is returned unchanged.
std::string normalize_kernel_name(std::string_view name);

}  // namespace sollens
