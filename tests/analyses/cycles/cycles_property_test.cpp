// Properties of cycle detection (analyses/cycles/cycle_detect.h) on random kernel
// sequences, in uplifter mode and structure mode (README.md there):
//  * a planted block of k distinct kernels repeated n times back to back, between
//    noise kernels seen once each, is found as exactly one pattern whose outer cycle
//    has length k, n repetitions, and starts at the block's first kernel (the canonical
//    start: the noise before the block breaks periodicity there). The thresholds make
//    that the detector's promise when 10 <= k (min_cycle_length) and n >= 5
//    (min_anchor_count; n <= kernels/5 always holds here as k >= 10);
//  * structure mode also promises a long block (k >= 30, few_steps_min_length) seen
//    only 2–4 times, covering at least half the sequence;
//  * a sequence in which no 4 kernels in a row occur twice holds no two windows of 10
//    or more kernels agreeing at 95 % (even with one kernel skipped), nor any that
//    match as iterations of one another, so nothing is reported.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "analyses/cycles/cycle_detect.h"
#include "analyses/cycles/kernel_sequence.h"
#include "analyses/cycles/signature.h"
#include "support/property.h"

using namespace sollens;
using sollens::test::PropertyRng;

namespace {

// A name without digits (uplifter's signature drops a single trailing digit).
std::string letters_name(const char* prefix, size_t id) {
  std::string s = prefix;
  do {
    s += static_cast<char>('a' + id % 26);
    id /= 26;
  } while (id);
  return s;
}

struct Planted {
  std::vector<std::string> names;
  size_t block_start = 0, length = 0, repetitions = 0;
};

Planted plant(PropertyRng& rng, size_t k, size_t n, size_t noise_before, size_t noise_after) {
  Planted p;
  p.length = k;
  p.repetitions = n;
  p.block_start = noise_before;
  size_t noise_id = 0;
  for (size_t i = 0; i < noise_before; ++i) p.names.push_back(letters_name("noise_", noise_id++));
  // Block kernels drawn from a larger pool so each case has other names.
  std::vector<std::string> block;
  std::set<std::string> signatures;
  const size_t offset = static_cast<size_t>(rng.between(0, 1000));
  for (size_t j = 0; block.size() < k; ++j) {
    std::string name = letters_name("kernel_", offset + j);
    if (signatures.insert(kernel_signature(name)).second) block.push_back(name);
  }
  for (size_t r = 0; r < n; ++r) p.names.insert(p.names.end(), block.begin(), block.end());
  for (size_t i = 0; i < noise_after; ++i) p.names.push_back(letters_name("noise_", noise_id++));
  return p;
}

KernelSequence sequence_of(PropertyRng& rng, const std::vector<std::string>& names) {
  std::vector<double> dur;
  for (size_t i = 0; i < names.size(); ++i) dur.push_back(static_cast<double>(rng.between(1, 50)));
  return make_kernel_sequence(names, dur);
}

CycleOptions mode(bool structure) {
  CycleOptions o;
  o.structure = structure;
  return o;
}

void require_planted(const std::vector<CyclePattern>& patterns, const Planted& p) {
  PROPERTY_REQUIRE(patterns.size() == 1);
  const Cycle& outer = patterns[0].outer;
  PROPERTY_REQUIRE(outer.length == p.length);
  PROPERTY_REQUIRE(outer.repetitions() == p.repetitions);
  for (size_t r = 0; r < p.repetitions; ++r) PROPERTY_REQUIRE(outer.starts[r] == p.block_start + r * p.length);
}

constexpr int kCases = 500;

}  // namespace

TEST_CASE("a block repeated 5 or more times between unique noise is found: its length, count and start", "[property][cycles]") {
  const uint64_t seed = sollens::test::property_seed();
  for (int c = 0; c < kCases; ++c) {
    PropertyRng rng(seed, static_cast<uint64_t>(c));
    INFO("SOLLENS_PROPERTY_SEED=" << seed << " case " << c);
    const size_t k = static_cast<size_t>(rng.between(10, 60));
    const size_t n = static_cast<size_t>(rng.between(5, 30));
    const Planted p = plant(rng, k, n, static_cast<size_t>(rng.between(0, 60)),
                            static_cast<size_t>(rng.between(0, 60)));
    INFO("k " << k << ", n " << n << ", block at " << p.block_start);
    const KernelSequence seq = sequence_of(rng, p.names);
    for (bool structure : {false, true}) {
      INFO((structure ? "structure mode" : "uplifter mode"));
      require_planted(detect_cycles(seq, mode(structure)), p);
    }
  }
}

TEST_CASE("structure mode: a long block seen 2 to 4 times covering half the sequence is found", "[property][cycles]") {
  const uint64_t seed = sollens::test::property_seed();
  for (int c = 0; c < kCases; ++c) {
    PropertyRng rng(seed, static_cast<uint64_t>(c));
    INFO("SOLLENS_PROPERTY_SEED=" << seed << " case " << c);
    const size_t k = static_cast<size_t>(rng.between(30, 80));
    const size_t n = static_cast<size_t>(rng.between(2, 4));
    const size_t noise = static_cast<size_t>(rng.between(0, static_cast<int64_t>(k * n) - 1));
    const size_t before = static_cast<size_t>(rng.between(0, static_cast<int64_t>(noise)));
    const Planted p = plant(rng, k, n, before, noise - before);
    INFO("k " << k << ", n " << n << ", block at " << p.block_start);
    require_planted(detect_cycles(sequence_of(rng, p.names), mode(true)), p);
  }
}

TEST_CASE("no repeated run of 4 kernels: no cycle is reported", "[property][cycles]") {
  const uint64_t seed = sollens::test::property_seed();
  std::vector<std::string> pool;
  for (size_t i = 0; i < 16; ++i) pool.push_back(letters_name("kernel_", i));
  for (int c = 0; c < kCases; ++c) {
    PropertyRng rng(seed, static_cast<uint64_t>(c));
    INFO("SOLLENS_PROPERTY_SEED=" << seed << " case " << c);
    const size_t length = static_cast<size_t>(rng.between(20, 400));
    std::vector<std::string> names;
    std::vector<size_t> ids;
    std::set<std::vector<size_t>> seen;  // every run of 4 so far
    while (names.size() < length) {
      // 16 tries at a name whose run of 4 ending here is new (16⁴ runs: never short).
      bool placed = false;
      for (int t = 0; t < 16 && !placed; ++t) {
        const size_t id = static_cast<size_t>(rng.between(0, 15));
        std::vector<size_t> run;
        if (ids.size() >= 3) run = {ids[ids.size() - 3], ids[ids.size() - 2], ids.back(), id};
        if (!run.empty() && seen.count(run)) continue;
        if (!run.empty()) seen.insert(run);
        ids.push_back(id);
        names.push_back(pool[id]);
        placed = true;
      }
      if (!placed) break;
    }
    INFO(names.size() << " kernels");
    const KernelSequence seq = sequence_of(rng, names);
    for (bool structure : {false, true}) {
      INFO((structure ? "structure mode" : "uplifter mode"));
      PROPERTY_REQUIRE(detect_cycles(seq, mode(structure)).empty());
    }
  }
}
