#pragma once
// Seeded random cases for the property tests ("[property]"): a fixed default seed so a
// run repeats exactly, SOLLENS_PROPERTY_SEED=<n> to try another (or Catch's
// --rng-seed <n>, which also reaches the wasm build: under node it does not see the
// host environment). Each case draws from its own generator seeded by (seed, case
// number), so a failure is replayed from the two numbers the test prints with INFO.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

// REQUIRE / CHECK only once the condition fails: the property tests check millions of
// facts in loops, and Catch's bookkeeping per assertion would dominate their time under
// the sanitizers. The failure reads as the plain macro's would.
#define PROPERTY_REQUIRE(...)      \
  do {                             \
    if (!(__VA_ARGS__)) REQUIRE(__VA_ARGS__); \
  } while (0)
#define PROPERTY_CHECK(...)        \
  do {                             \
    if (!(__VA_ARGS__)) CHECK(__VA_ARGS__); \
  } while (0)

namespace sollens::test {

inline uint64_t property_seed() {
  const char* text = std::getenv("SOLLENS_PROPERTY_SEED");
  if (text && *text) return std::strtoull(text, nullptr, 0);
  if (Catch::rngSeed() != 0) return Catch::rngSeed();
  return 20261128;
}

class PropertyRng {
 public:
  PropertyRng(uint64_t seed, uint64_t case_number)
      : engine_(seed * 0x9e3779b97f4a7c15ULL + case_number) {}

  // Uniform in [lo, hi], both included.
  int64_t between(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(engine_);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(engine_); }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(between(0, static_cast<int64_t>(v.size()) - 1))];
  }
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace sollens::test
