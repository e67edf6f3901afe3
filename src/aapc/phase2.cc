// Phase 2 of A_2 and A_f (Masuyama & Masuyama, papers/004, Sections 3.2.1 and 3.3.1): Step 1
// sends the data that cannot go straight along fault-free shortest paths (a breadth-first path
// when every rotation is blocked); Step 2 exchanges the data among the cosets round by round and
// takes each on inside its destination coset in the order of arrival. Contract in phases.h;
// readings (Step1Scope, FaultyInnerRoutes, Rounds) in schedules.h. Cost: every candidate route
// is timed by ListScheduler::probe before the chosen one is placed.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <numeric>
#include <queue>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "aapc/phases.h"
#include "aapc/subcube_masks.h"

namespace topocheck::aapc {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();  // no fault in the coset

// The route from `from` crossing dims[k], dims[k+1], ... (cyclically, each once): rotation k of
// the dimension list.
std::vector<NodeId> rotation_route(NodeId from, const std::vector<int>& dims, size_t k) {
  std::vector<NodeId> route{from};
  for (size_t i = 0; i < dims.size(); ++i) route.push_back(route.back() ^ bit(dims[(k + i) % dims.size()]));
  return route;
}

bool fault_free(const std::vector<NodeId>& route, const FaultSet& faults) {
  return std::none_of(route.begin(), route.end(), [&](NodeId x) { return faults.is_faulty(x); });
}

// Every fault-free rotation of the ascending dimensions of from ^ to (shortest paths).
std::vector<std::vector<NodeId>> fault_free_rotations(NodeId from, NodeId to, const FaultSet& faults) {
  const std::vector<int> dims = dims_of(from ^ to);
  std::vector<std::vector<NodeId>> out;
  if (dims.empty()) out.push_back({from});
  for (size_t k = 0; k < dims.size(); ++k) {
    std::vector<NodeId> route = rotation_route(from, dims, k);
    if (fault_free(route, faults)) out.push_back(std::move(route));
  }
  return out;
}

// A shortest path from -> to avoiding the faults (breadth-first from `to`, then from `from` always
// to the lowest-dimension neighbour one step closer). Aborts if `to` is unreachable.
std::vector<NodeId> bfs_route(NodeId from, NodeId to, const FaultSet& faults) {
  const int n = faults.n();
  std::vector<int> dist(faults.num_nodes(), -1);
  std::queue<NodeId> queue;
  dist[to] = 0;
  queue.push(to);
  while (!queue.empty()) {
    const NodeId x = queue.front();
    queue.pop();
    for (int j = 0; j < n; ++j) {
      const NodeId y = x ^ bit(j);
      if (dist[y] < 0 && !faults.is_faulty(y)) {
        dist[y] = dist[x] + 1;
        queue.push(y);
      }
    }
  }
  TC_CHECK(dist[from] >= 0, fmt::format("no fault-free path {} -> {}", from, to));
  std::vector<NodeId> route{from};
  while (route.back() != to) {
    const NodeId x = route.back();
    for (int j = 0; j < n; ++j)
      if (dist[x ^ bit(j)] == dist[x] - 1) {
        route.push_back(x ^ bit(j));
        break;
      }
  }
  return route;
}

// Places `datum` on the candidate route that arrives first (ties: the first candidate), or, under
// an active ListOrder, on a drawn candidate; returns the arrival and the route taken.
std::pair<int, std::vector<NodeId>> place_earliest(ListScheduler& sched, Datum datum,
                                                   std::vector<std::vector<NodeId>> candidates, int release,
                                                   OrderStream& order) {
  TC_CHECK(!candidates.empty(), "no candidate route for " + datum.to_string());
  if (order.active()) {
    const size_t k = order.pick(candidates.size());
    const int arrival = sched.place(datum, candidates[k], release);
    return {arrival, std::move(candidates[k])};
  }
  size_t best = 0;
  int best_arrival = std::numeric_limits<int>::max();
  for (size_t k = 0; k < candidates.size(); ++k) {
    const int a = candidates.size() == 1 ? release : sched.probe(candidates[k], release);
    if (a < best_arrival) {
      best = k;
      best_arrival = a;
    }
  }
  const int arrival = sched.place(datum, candidates[best], release);
  return {arrival, std::move(candidates[best])};
}

// The candidate routes of a datum at c to w inside the coset of c (Phase 2 Step 2 after the
// exchange): e-cube in a nonfaulty coset; in a faulty one every fault-free rotation
// (kShortestFaultFree) or A_1's route through the nonfaulty half (kViaNonfaultyHalf).
std::vector<std::vector<NodeId>> inner_routes(NodeId c, NodeId w, const Partition& part, const FaultSet& faults,
                                              FaultyInnerRoutes how) {
  NodeId phi = kNone;
  for (NodeId x : faults.faulty())
    if ((x & part.outer_mask) == (c & part.outer_mask)) phi = x;
  if (c == w) return {{c}};
  if (phi == kNone) return {rotation_route(c, dims_of(c ^ w), 0)};
  if (how == FaultyInnerRoutes::kViaNonfaultyHalf) {
    const int d = part.split(c & part.outer_mask);
    const bool c_in_h = ((c ^ phi) & bit(d)) != 0, w_in_h = ((w ^ phi) & bit(d)) != 0;
    const NodeId from = c_in_h ? c : c ^ bit(d);  // enter H
    const NodeId to = w_in_h ? w : w ^ bit(d);    // leave H at p(w)
    std::vector<NodeId> route{c};
    if (from != c) route.push_back(from);
    for (int j : dims_of(from ^ to)) route.push_back(route.back() ^ bit(j));
    if (to != w) route.push_back(w);
    return {route};
  }
  auto routes = fault_free_rotations(c, w, faults);
  TC_CHECK(!routes.empty(), fmt::format("no fault-free shortest path {} -> {} in a coset with one fault", c, w));
  return routes;
}

// The straight routes of an inter-coset datum: the fault-free rotations of the outer dimensions
// of s ^ w, to the corresponding node of s in w's coset; none if every one is blocked.
std::vector<std::vector<NodeId>> straight_routes(NodeId s, NodeId w, const Partition& part, const FaultSet& faults) {
  return fault_free_rotations(s, s ^ ((s ^ w) & part.outer_mask), faults);
}

}  // namespace

int phase2(ListScheduler& sched, const Partition& part, int begin, const ScheduleOptions& options,
           std::vector<Step>& steps) {
  const FaultSet& faults = sched.faults();
  const std::vector<NodeId> live = faults.nonfaulty();
  // column_fault[x & inner]: some fault has the inner bits of x, so x is a corresponding node of
  // a fault (or the fault); straight routes only touch nodes with the inner bits of their source.
  std::vector<bool> column_fault(faults.num_nodes(), false);
  for (NodeId phi : faults.faulty()) column_fault[phi & part.inner_mask] = true;
  auto in_step1 = [&](NodeId s, NodeId w) {
    if (!column_fault[s & part.inner_mask]) return false;
    if (options.step1 == Step1Scope::kWholeSources) return true;
    return straight_routes(s, w, part, faults).empty();
  };

  // Step 1: longest first; each datum on the fault-free rotation that arrives first, a
  // breadth-first path if every rotation is blocked.
  std::vector<Datum> first;
  for (NodeId s : live)
    for (NodeId w : live)
      if (((s ^ w) & part.outer_mask) != 0 && in_step1(s, w)) first.push_back(Datum{s, w});
  OrderStream order(options.order, 0x5157'3121'0002ULL);
  if (order.active()) {
    order.shuffle(first);  // ListOrder: any order of Step 1's list
  } else {
    std::stable_sort(first.begin(), first.end(), [](const Datum& a, const Datum& b) {
      return std::popcount(a.source ^ a.dest) > std::popcount(b.source ^ b.dest);
    });
  }
  int end = begin;
  for (const Datum& datum : first) {
    auto routes = fault_free_rotations(datum.source, datum.dest, faults);
    if (routes.empty()) routes.push_back(bfs_route(datum.source, datum.dest, faults));
    end = std::max(end, place_earliest(sched, datum, std::move(routes), begin, order).first);
  }
  steps.push_back(Step{"phase 2 step 1", begin, end});

  // Step 2: round r moves the data from every coset J to J ^ r. Per source s the data go in the
  // order of their inner phase t = (corresponding node) ^ w, longest first (t = 0, the
  // corresponding node itself, last), so that each round's exchange is a lockstep permutation.
  std::vector<uint32_t> inner_phases;
  for (uint32_t t = 0; t < bit(std::popcount(part.inner_mask)); ++t) inner_phases.push_back(t);
  std::stable_sort(inner_phases.begin(), inner_phases.end(),
                   [](uint32_t a, uint32_t b) { return std::popcount(a) > std::popcount(b); });
  const std::vector<NodeId> offsets = [&] {
    std::vector<NodeId> all = subcube_nodes(0, part.outer_mask);
    all.erase(all.begin());  // r = 0 is not a round
    return all;
  }();
  const bool sequential = options.rounds == Rounds::kSequential;
  int round_begin = end;
  const int step2_begin = end;
  int round_index = 0;
  for (NodeId r : offsets) {
    ++round_index;
    std::vector<Datum> data;
    std::vector<NodeId> corresponding;
    std::vector<int> arrival;
    int round_end = round_begin;
    for (uint32_t t : inner_phases)
      for (NodeId s : live) {
        const NodeId w = s ^ r ^ expand(t, part.inner_mask);
        if (faults.is_faulty(w) || in_step1(s, w)) continue;
        data.push_back(Datum{s, w});
      }
    order.shuffle(data);  // ListOrder: any order of the round's list (none by default)
    for (const Datum& datum : data) corresponding.push_back(datum.source ^ r);  // c = s ^ r
    for (const Datum& datum : data) {
      arrival.push_back(
          place_earliest(sched, datum, straight_routes(datum.source, datum.dest, part, faults), round_begin, order).first);
      round_end = std::max(round_end, arrival.back());
    }
    std::vector<size_t> by_arrival(data.size());
    std::iota(by_arrival.begin(), by_arrival.end(), size_t{0});
    order.shuffle(by_arrival);  // ties among same-unit arrivals
    std::stable_sort(by_arrival.begin(), by_arrival.end(), [&](size_t a, size_t b) { return arrival[a] < arrival[b]; });
    for (size_t i : by_arrival) {
      auto routes = inner_routes(corresponding[i], data[i].dest, part, faults, options.faulty_inner);
      round_end = std::max(round_end, place_earliest(sched, data[i], std::move(routes), arrival[i], order).first);
    }
    end = std::max(end, round_end);
    if (sequential) {
      steps.push_back(Step{fmt::format("phase 2 step 2 round {}", round_index), round_begin, round_end});
      round_begin = round_end;
    }
  }
  if (!sequential || offsets.empty()) steps.push_back(Step{"phase 2 step 2", step2_begin, end});
  return end;
}

}  // namespace topocheck::aapc
