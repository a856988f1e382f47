// Properties of the interval unions and differences (base/interval_math.h) on random
// lists, against a brute-force reference: every endpoint lies on a grid of half µs, so
// which points an interval list covers, and its length (the covered grid cells times a
// half), can be counted cell by cell, each by its middle. Halves and the quarters in
// the middle are exact in doubles even at 1.7e15 µs (a 2024 epoch timestamp, whose
// doubles are a quarter apart), so every comparison below is exact.
#include <catch2/catch.hpp>

#include <algorithm>

#include "base/interval_math.h"
#include "support/property.h"

using namespace sollens;
using sollens::test::PropertyRng;

namespace {

constexpr double kUnit = 0.5;
constexpr int64_t kGridCells = 64;  // endpoints at base + k/2 for k in [0, 64]

struct Grid {
  double base;
  double at(double k) const { return base + k * kUnit; }
};

// Random intervals of every awkward kind: zero-length, identical to an earlier one,
// nested in one, touching one at either end, overlapping, apart.
IntervalList random_intervals(PropertyRng& rng, const Grid& g, int max_count) {
  IntervalList out;
  const int64_t count = rng.between(0, max_count);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t kind = out.empty() ? 0 : rng.between(0, 5);
    int64_t s = rng.between(0, kGridCells), e = s;
    if (kind == 0 || kind == 5) {  // fresh, zero-length one time in five
      e = rng.chance(0.2) ? s : std::min<int64_t>(kGridCells, s + rng.between(0, 12));
      out.push_back({g.at(static_cast<double>(s)), g.at(static_cast<double>(e))});
      continue;
    }
    const Interval& prev = rng.pick(out);
    const int64_t ps = static_cast<int64_t>((prev.start - g.base) / kUnit);
    const int64_t pe = static_cast<int64_t>((prev.end - g.base) / kUnit);
    if (kind == 1) {  // identical
      s = ps, e = pe;
    } else if (kind == 2) {  // nested
      s = rng.between(ps, pe), e = rng.between(s, pe);
    } else if (kind == 3) {  // touching its end
      s = pe, e = std::min<int64_t>(kGridCells, pe + rng.between(0, 8));
    } else {  // touching its start
      e = ps, s = std::max<int64_t>(0, ps - rng.between(0, 8));
    }
    out.push_back({g.at(static_cast<double>(s)), g.at(static_cast<double>(e))});
  }
  return out;
}

bool covers(const IntervalList& list, double x) {
  for (const Interval& i : list)
    if (i.start <= x && x <= i.end) return true;
  return false;
}

// Cell k spans [k, k+1] grid steps; its midpoint decides whether it is covered.
double cell_mid(const Grid& g, int64_t k) { return g.at(static_cast<double>(k) + 0.5); }

template <class Pred>
double measure(const Grid& g, Pred covered) {
  int64_t cells = 0;
  for (int64_t k = -2; k < kGridCells + 2; ++k) cells += covered(cell_mid(g, k)) ? 1 : 0;
  return static_cast<double>(cells) * kUnit;
}

Grid random_grid(PropertyRng& rng) {
  static const std::vector<double> bases = {0.0, 1000.5, 1.7e15};
  return {rng.pick(bases)};
}

constexpr int kCases = 3000;

}  // namespace

TEST_CASE("merge_intervals covers exactly the input's points, sorted and apart", "[property][interval]") {
  const uint64_t seed = sollens::test::property_seed();
  for (int c = 0; c < kCases; ++c) {
    PropertyRng rng(seed, static_cast<uint64_t>(c));
    INFO("SOLLENS_PROPERTY_SEED=" << seed << " case " << c);
    const Grid g = random_grid(rng);
    const IntervalList input = random_intervals(rng, g, 10);
    const IntervalList m = merge_intervals(input);
    for (size_t i = 0; i < m.size(); ++i) {
      PROPERTY_REQUIRE(m[i].start <= m[i].end);
      if (i > 0) PROPERTY_REQUIRE(m[i].start > m[i - 1].end);  // touching ones were joined
    }
    for (int64_t k = -2; k <= kGridCells + 2; ++k) {  // grid points (endpoints) and cell middles
      PROPERTY_REQUIRE(covers(m, g.at(static_cast<double>(k))) == covers(input, g.at(static_cast<double>(k))));
      PROPERTY_REQUIRE(covers(m, cell_mid(g, k)) == covers(input, cell_mid(g, k)));
    }
    PROPERTY_REQUIRE(total_length(m) == measure(g, [&](double x) { return covers(input, x); }));
    // Idempotent, and blind to the input's order.
    const IntervalList again = merge_intervals(m);
    PROPERTY_REQUIRE(again.size() == m.size());
    IntervalList shuffled = input;
    std::shuffle(shuffled.begin(), shuffled.end(), rng.engine());
    const IntervalList m2 = merge_intervals(shuffled);
    PROPERTY_REQUIRE(m2.size() == m.size());
    for (size_t i = 0; i < m.size(); ++i) {
      PROPERTY_REQUIRE(again[i].start == m[i].start);
      PROPERTY_REQUIRE(again[i].end == m[i].end);
      PROPERTY_REQUIRE(m2[i].start == m[i].start);
      PROPERTY_REQUIRE(m2[i].end == m[i].end);
    }
  }
}

TEST_CASE("subtract_intervals leaves what a covers and b does not; its length is that measure", "[property][interval]") {
  const uint64_t seed = sollens::test::property_seed();
  for (int c = 0; c < kCases; ++c) {
    PropertyRng rng(seed, static_cast<uint64_t>(c));
    INFO("SOLLENS_PROPERTY_SEED=" << seed << " case " << c);
    const Grid g = random_grid(rng);
    const IntervalList a = merge_intervals(random_intervals(rng, g, 8));
    const IntervalList b = merge_intervals(random_intervals(rng, g, 8));
    const IntervalList d = subtract_intervals(a, b);
    // Sorted, no overlap; merged (pieces apart) unless b holds a zero-length interval,
    // which splits a piece of a into two that touch at that point.
    const bool b_has_point = std::any_of(b.begin(), b.end(), [](const Interval& i) { return i.start == i.end; });
    for (size_t i = 0; i < d.size(); ++i) {
      PROPERTY_REQUIRE(d[i].start <= d[i].end);
      if (i > 0) PROPERTY_REQUIRE(d[i].start >= d[i - 1].end);
      if (i > 0 && !b_has_point) PROPERTY_REQUIRE(d[i].start > d[i - 1].end);
    }
    // Inside every cell the boundaries do not matter: covered by d iff by a and not b.
    for (int64_t k = -2; k < kGridCells + 2; ++k) {
      const double x = cell_mid(g, k);
      PROPERTY_REQUIRE(covers(d, x) == (covers(a, x) && !covers(b, x)));
    }
    // d never reaches outside a.
    for (const Interval& piece : d) {
      PROPERTY_REQUIRE(covers(a, piece.start));
      PROPERTY_REQUIRE(covers(a, piece.end));
    }
    PROPERTY_REQUIRE(total_length(d) == measure(g, [&](double x) { return covers(a, x) && !covers(b, x); }));
    // Nothing taken away; everything taken away.
    PROPERTY_REQUIRE(total_length(subtract_intervals(a, {})) == total_length(a));
    PROPERTY_REQUIRE(total_length(subtract_intervals(a, a)) == 0);
  }
}

TEST_CASE("a − (a − b) is the intersection: its length is the common cells'", "[property][interval]") {
  const uint64_t seed = sollens::test::property_seed();
  for (int c = 0; c < kCases; ++c) {
    PropertyRng rng(seed, static_cast<uint64_t>(c));
    INFO("SOLLENS_PROPERTY_SEED=" << seed << " case " << c);
    const Grid g = random_grid(rng);
    const IntervalList a = merge_intervals(random_intervals(rng, g, 8));
    const IntervalList b = merge_intervals(random_intervals(rng, g, 8));
    const IntervalList both = subtract_intervals(a, subtract_intervals(a, b));
    const double expected = measure(g, [&](double x) { return covers(a, x) && covers(b, x); });
    PROPERTY_REQUIRE(total_length(both) == expected);
    // Inclusion–exclusion on the union.
    IntervalList ab = a;
    ab.insert(ab.end(), b.begin(), b.end());
    PROPERTY_REQUIRE(total_length(merge_intervals(ab)) + expected == total_length(a) + total_length(b));
  }
}
