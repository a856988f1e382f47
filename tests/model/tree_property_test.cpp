// Properties of the host call-stack tree (model/trace_tree.h, tracelens-semantics.md
// §2.4) on random threads of nested events with planted intruders. The expected tree
// is known from how each case is made, not from the algorithm:
//  * a forest per thread, each child strictly inside its parent, siblings apart (the
//    generated parent is the answer), some leaves with an identical twin (same ts and
//    dur: the one earlier in the file is the other's parent, the stable sort by ts);
//  * zero-length events inside a leaf (children of that leaf);
//  * intruders on leaves that stick out of them. TraceLens's bleed rule: starting
//    under 1 µs before the leaf ends and ending after it, the intruder is attached one
//    level up (re-parented) when the stack holds two or more events, and is dropped on
//    a root; starting 1 µs or more before the end (exactly 1 µs included), dropped.
// Events of all threads are shuffled in the file. Times are on a quarter-µs grid and
// at 1.7e15 µs too (an epoch timestamp), exact in doubles.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "model/trace_tree.h"
#include "store/event_store.h"
#include "support/property.h"

using namespace sollens;
using sollens::test::PropertyRng;

namespace {

struct Planned {
  Category category = Category::kCpuOp;
  int thread = 0;
  double ts = 0, dur = 0;
  int parent = -1;       // planned index of the expected parent, -1: none
  int twin_of = -1;      // an identical leaf's planned index
  bool dropped = false;
  bool reparented = false;
};

struct Plan {
  std::vector<Planned> events;
  double base = 0;
};

int add(Plan& p, Planned e) {
  p.events.push_back(e);
  return static_cast<int>(p.events.size()) - 1;
}

// Intruders on leaf `leaf` (no children, dur >= 3, no twin).
void plant_intruders(PropertyRng& rng, Plan& p, int leaf, int depth) {
  const Planned x = p.events[static_cast<size_t>(leaf)];
  const double end = x.ts + x.dur;
  if (rng.chance(0.3)) {  // sticks out by far more than 1 µs of overlap: dropped
    Planned e{Category::kCpuOp, x.thread, x.ts + 0.5, 0, -1};
    e.dur = end + static_cast<double>(rng.pick(std::vector<int>{1, 3, 400})) * 0.5 - e.ts;
    e.dropped = true;
    add(p, e);
  }
  if (rng.chance(0.3)) {  // zero-length, inside the leaf
    add(p, Planned{Category::kCpuOp, x.thread, x.ts + 1.25, 0, leaf});
  }
  if (rng.chance(0.5)) {  // starts just before the leaf's end and ends after it
    const double overlap = rng.pick(std::vector<double>{0.25, 0.5, 0.75, 1.0});
    Planned e{rng.chance(0.5) ? Category::kCpuOp : Category::kCudaRuntime, x.thread, end - overlap, 0, -1};
    e.dur = overlap + rng.pick(std::vector<double>{0.25, 0.5, 1.5});  // ends before the next event
    if (overlap < 1.0 && depth >= 1) {
      e.parent = x.parent;
      e.reparented = true;
    } else {
      e.dropped = true;  // 1 µs of overlap or more, or a root has no level up
    }
    add(p, e);
  }
}

// Children of `parent` (or roots) inside [lo, hi], integer µs: each starts >= 1 µs after
// the previous one (or the parent) starts and ends >= 2 µs before the next one (or the
// parent's end) starts.
void plant_children(PropertyRng& rng, Plan& p, int thread, int parent, int64_t lo, int64_t hi, int depth) {
  int64_t cursor = lo + 1;
  while (cursor + 3 + 2 <= hi && rng.chance(depth == 0 ? 0.9 : 0.7)) {
    const int64_t dur = rng.between(3, std::min<int64_t>(hi - 2 - cursor, depth == 0 ? 60 : 30));
    Planned e{rng.chance(0.8) ? Category::kCpuOp : Category::kCudaRuntime, thread,
              p.base + static_cast<double>(cursor), static_cast<double>(dur), parent};
    const bool inner = depth < 4 && dur >= 8 && rng.chance(0.6);
    if (inner) e.category = Category::kCpuOp;
    const int self = add(p, e);
    if (inner) {
      plant_children(rng, p, thread, self, cursor, cursor + dur, depth + 1);
    } else if (rng.chance(0.15)) {
      Planned twin = e;
      twin.twin_of = self;
      add(p, twin);
    } else {
      plant_intruders(rng, p, self, depth);
    }
    cursor += dur + rng.between(2, 6);
  }
}

EventStore store_of(const Plan& p, const std::vector<size_t>& file_order) {
  EventStore s;
  const StrId name = s.strings.intern("op");
  const StrId pid = s.strings.intern("7");
  const StrId tids[3] = {s.strings.intern("1"), s.strings.intern("2"), s.strings.intern("3")};
  for (size_t k : file_order) {
    const Planned& e = p.events[k];
    EventRow row;
    row.phase = Phase::kComplete;
    row.category = e.category;
    row.name = name;
    row.pid = pid;
    row.tid = tids[e.thread];
    row.ts = e.ts;
    row.dur = e.dur;
    s.push_row(row);
  }
  return s;
}

constexpr int kCases = 1500;

}  // namespace

TEST_CASE("the host tree: planned parents, bleed-rule re-parents and drops, children by start", "[property][tree]") {
  const uint64_t seed = sollens::test::property_seed();
  size_t total_events = 0, total_dropped = 0, total_reparented = 0, total_twins = 0;
  for (int c = 0; c < kCases; ++c) {
    PropertyRng rng(seed, static_cast<uint64_t>(c));
    INFO("SOLLENS_PROPERTY_SEED=" << seed << " case " << c);
    Plan plan;
    plan.base = rng.chance(0.3) ? 1.7e15 : 0.0;
    const int threads = static_cast<int>(rng.between(1, 3));
    for (int t = 0; t < threads; ++t) plant_children(rng, plan, t, -1, 0, rng.between(10, 400), 0);

    std::vector<size_t> order(plan.events.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng.engine());
    std::vector<size_t> row_of(order.size());
    for (size_t r = 0; r < order.size(); ++r) row_of[order[r]] = r;
    // Twins: the one earlier in the file is the parent of the other.
    for (size_t k = 0; k < plan.events.size(); ++k) {
      Planned& twin = plan.events[k];
      if (twin.twin_of < 0) continue;
      Planned& first = plan.events[static_cast<size_t>(twin.twin_of)];
      if (row_of[k] < row_of[static_cast<size_t>(twin.twin_of)]) {
        first.parent = static_cast<int>(k);
      } else {
        twin.parent = twin.twin_of;
      }
      ++total_twins;
    }

    const EventStore s = store_of(plan, order);
    const TraceTree tree = TraceTree::build(s);
    PROPERTY_REQUIRE(tree.host_events == s.size());

    size_t dropped = 0, reparented = 0;
    std::vector<uint32_t> expected_roots;
    for (size_t k = 0; k < plan.events.size(); ++k) {
      const Planned& e = plan.events[k];
      const uint32_t row = static_cast<uint32_t>(row_of[k]);
      PROPERTY_REQUIRE(tree.in_tree[row] == 1);
      const int32_t expected = e.parent < 0 ? kNoParent : static_cast<int32_t>(row_of[static_cast<size_t>(e.parent)]);
      PROPERTY_REQUIRE(tree.parent[row] == expected);
      if (e.dropped) PROPERTY_REQUIRE(tree.children(row).empty());
      dropped += e.dropped ? 1 : 0;
      reparented += e.reparented ? 1 : 0;
      // A cpu_op root: no cpu_op on the stack below it (a runtime call may be).
      bool cpu_op_above = false;
      for (int a = e.parent; a >= 0; a = plan.events[static_cast<size_t>(a)].parent)
        cpu_op_above = cpu_op_above || plan.events[static_cast<size_t>(a)].category == Category::kCpuOp;
      if (e.category == Category::kCpuOp && !e.dropped && !cpu_op_above) expected_roots.push_back(row);
    }
    PROPERTY_REQUIRE(tree.host_events_dropped == dropped);
    PROPERTY_REQUIRE(tree.host_events_reparented == reparented);

    // Shape: one parent each (every event is listed once, under its parent), the parent
    // starts no later and ends no earlier than the child except where re-parented
    // (then the child started inside it); children listed by start.
    std::vector<int> listed(s.size(), 0);
    for (uint32_t p = 0; p < s.size(); ++p) {
      const auto kids = tree.children(p);
      for (size_t i = 0; i < kids.size(); ++i) {
        const uint32_t k = kids[i];
        ++listed[k];
        PROPERTY_REQUIRE(tree.parent[k] == static_cast<int32_t>(p));
        PROPERTY_REQUIRE(s.tid[k] == s.tid[p]);
        PROPERTY_REQUIRE(s.ts[p] <= s.ts[k]);
        PROPERTY_REQUIRE(s.ts[k] < s.t_end(p));
        if (!plan.events[order[k]].reparented) PROPERTY_REQUIRE(s.t_end(k) <= s.t_end(p));
        if (i > 0) PROPERTY_REQUIRE(s.ts[kids[i - 1]] <= s.ts[k]);
      }
    }
    for (uint32_t e = 0; e < s.size(); ++e) PROPERTY_REQUIRE(listed[e] == (tree.parent[e] == kNoParent ? 0 : 1));

    std::vector<uint32_t> roots = tree.cpu_roots;
    std::sort(roots.begin(), roots.end());
    std::sort(expected_roots.begin(), expected_roots.end());
    PROPERTY_REQUIRE(roots == expected_roots);

    total_events += s.size();
    total_dropped += dropped;
    total_reparented += reparented;
  }
  // The cases must exercise every rule, not just pass vacuously.
  CHECK(total_dropped > 100);
  CHECK(total_reparented > 100);
  CHECK(total_twins > 50);
  CHECK(total_events > 10000);
}

// GPU events linked by correlation id (LinkMode::kCorrelation, HTA's rule): each GPU
// event goes to the runtime launch carrying its id, the last such launch in the file;
// an id launched from two processes is ambiguous and its GPU events stay unlinked; an
// id no launch carries links nothing. Expected from a brute-force scan of all launches
// per GPU event.
TEST_CASE("correlation links: the last launch with the id, none when two processes launch it", "[property][tree]") {
  const uint64_t seed = sollens::test::property_seed();
  size_t total_linked = 0, total_ambiguous = 0, total_unlaunched = 0;
  for (int c = 0; c < kCases; ++c) {
    PropertyRng rng(seed, static_cast<uint64_t>(c));
    INFO("SOLLENS_PROPERTY_SEED=" << seed << " case " << c);
    EventStore s;
    const StrId launch_name = s.strings.intern("cudaLaunchKernel"), kernel_name = s.strings.intern("gemm");
    const StrId pids[2] = {s.strings.intern("1"), s.strings.intern("2")}, gpu_pid = s.strings.intern("0");
    const int64_t ids = rng.between(1, 12);
    const int64_t events = rng.between(1, 60);
    for (int64_t e = 0; e < events; ++e) {
      EventRow row;
      row.phase = Phase::kComplete;
      row.ts = static_cast<double>(10 * e);  // apart: launches have no host children
      row.dur = 1;
      row.correlation = rng.chance(0.1) ? kNoValue : rng.between(1, ids);
      if (rng.chance(0.5)) {
        row.category = rng.chance(0.8) ? Category::kCudaRuntime : Category::kCudaDriver;
        row.name = launch_name;
        row.pid = pids[rng.chance(0.15) ? 1 : 0];
        row.tid = row.pid;
      } else {
        row.category = rng.pick(std::vector<Category>{Category::kKernel, Category::kGpuMemcpy, Category::kGpuMemset});
        row.name = kernel_name;
        row.pid = gpu_pid;
        row.tid = gpu_pid;
      }
      s.push_row(row);
    }
    TreeOptions options;
    options.link = LinkMode::kCorrelation;
    const TraceTree tree = TraceTree::build(s, options);

    size_t linked = 0, ambiguous = 0;
    std::map<uint32_t, std::vector<uint32_t>> expected_children;
    for (uint32_t g = 0; g < s.size(); ++g) {
      if (!is_gpu_activity(s.category[g])) continue;
      int32_t expected = kNoParent;
      std::set<StrId> launching_pids;
      if (s.correlation[g] != kNoValue)
        for (uint32_t r = 0; r < s.size(); ++r)
          if (is_runtime(s.category[r]) && s.correlation[r] == s.correlation[g]) {
            expected = static_cast<int32_t>(r);
            launching_pids.insert(s.pid[r]);
          }
      if (launching_pids.size() > 1) {
        expected = kNoParent;
        ++ambiguous;
      }
      if (s.correlation[g] != kNoValue && launching_pids.empty()) ++total_unlaunched;
      PROPERTY_REQUIRE(tree.parent[g] == expected);
      PROPERTY_REQUIRE(tree.in_tree[g] == (expected == kNoParent ? 0 : 1));
      if (expected != kNoParent) {
        ++linked;
        expected_children[static_cast<uint32_t>(expected)].push_back(g);
      }
    }
    PROPERTY_REQUIRE(tree.linked_gpu_events == linked);
    PROPERTY_REQUIRE(tree.ambiguous_correlations == ambiguous);
    for (uint32_t r = 0; r < s.size(); ++r) {
      if (!is_runtime(s.category[r])) continue;
      const auto kids = tree.children(r);
      PROPERTY_REQUIRE(std::vector<uint32_t>(kids.begin(), kids.end()) == expected_children[r]);  // file order
    }
    total_linked += linked;
    total_ambiguous += ambiguous;
  }
  CHECK(total_linked > 1000);
  CHECK(total_ambiguous > 100);
  CHECK(total_unlaunched > 100);
}
