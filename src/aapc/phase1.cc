// Phase 1 of A_2 and A_f, and A_1 itself (Masuyama & Masuyama, papers/004, Section 3.1.1: A_1's
// five steps in a subcube with one fault; Sections 3.2.1 / 3.3.1: A_1 in every faulty coset with
// shared step boundaries, the inner AAPC in every nonfaulty one). Contract in phases.h; readings
// in schedules.h. Cost: one ListScheduler placement per hop.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "aapc/phases.h"
#include "aapc/subcube_masks.h"

namespace topocheck::aapc {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();  // no fault in the coset

// A_1 on the subcube base + span(mask) (one fault phi in it), divided along d (in mask).
// H = the half without phi, F = the half with it, p(x) = x ^ 2^d.
struct A1Cube {
  uint32_t mask = 0;
  NodeId phi = 0;
  int d = 0;
  std::vector<NodeId> h;  // nodes of H
  std::vector<NodeId> f;  // nonfaulty nodes of F

  A1Cube(uint32_t mask_in, NodeId phi_in, int d_in) : mask(mask_in), phi(phi_in), d(d_in) {
    for (NodeId x : subcube_nodes(phi, mask)) {
      if (in_h(x)) h.push_back(x);
      else if (x != phi) f.push_back(x);
    }
  }
  uint32_t hmask() const { return mask & ~bit(d); }
  bool in_h(NodeId x) const { return ((x ^ phi) & bit(d)) != 0; }
  NodeId p(NodeId x) const { return x ^ bit(d); }
};

// Places step k (1..5) of A_1 on `cube`, starting at `begin`; returns the step's end (the unit
// after its last move; `begin` if it has none).
int a1_step(ListScheduler& sched, const A1Cube& c, int k, int begin, const ScheduleOptions& options,
            OrderStream& order) {
  int end = begin;
  auto note = [&](int arrival) { end = std::max(end, arrival); };
  const uint32_t hmask = c.hmask();
  const uint32_t h_size = static_cast<uint32_t>(c.h.size());
  std::vector<Transfer> inner;
  switch (k) {
    case 1: {
      // Data H -> H: the inner AAPC in H. Simultaneously data F -> H cross y -> p(y), placed
      // after the inner AAPC (its timetable first; the crossings fill around it), round t
      // carrying the datum to p(y) ^ t from every y.
      for (NodeId s : c.h)
        for (NodeId w : c.h)
          if (s != w) inner.push_back(Transfer{Datum{s, w}, s, w});
      for (int a : place_inner_aapc(sched, hmask, inner, begin, options.inner)) note(a);
      for (uint32_t t = 0; t < h_size; ++t)
        for (NodeId y : c.f) {
          const NodeId route[] = {y, c.p(y)};
          note(sched.place(Datum{y, c.p(y) ^ expand(t, hmask)}, route, begin));
        }
      break;
    }
    case 2:  // data F -> H, now at p(y): the inner AAPC in H to their destinations
      for (NodeId y : c.f)
        for (NodeId w : c.h)
          if (w != c.p(y)) inner.push_back(Transfer{Datum{y, w}, c.p(y), w});
      for (int a : place_inner_aapc(sched, hmask, inner, begin, options.inner)) note(a);
      break;
    case 3:  // data H -> F: the inner AAPC in H to p(w)
      for (NodeId s : c.h)
        for (NodeId w : c.f)
          if (s != c.p(w)) inner.push_back(Transfer{Datum{s, w}, s, c.p(w)});
      for (int a : place_inner_aapc(sched, hmask, inner, begin, options.inner)) note(a);
      break;
    case 4: {
      // Data H -> F cross p(w) -> w (round t: the datum from p(w) ^ t); simultaneously data
      // F -> F cross y -> p(y) (round t: the datum to p(y) ^ t's partner).
      for (uint32_t t = 0; t < h_size; ++t)
        for (NodeId w : c.f) {
          const NodeId route[] = {c.p(w), w};
          note(sched.place(Datum{c.p(w) ^ expand(t, hmask), w}, route, begin));
        }
      for (uint32_t t = 1; t < h_size; ++t)
        for (NodeId y : c.f) {
          const NodeId w = y ^ expand(t, hmask);
          if (w == c.phi) continue;
          const NodeId route[] = {y, c.p(y)};
          note(sched.place(Datum{y, w}, route, begin));
        }
      break;
    }
    case 5: {
      // Data F -> F, at p(y): the inner AAPC in H to p(w); each crosses p(w) -> w in the order
      // of arrival at p(w).
      for (NodeId y : c.f)
        for (NodeId w : c.f)
          if (y != w) inner.push_back(Transfer{Datum{y, w}, c.p(y), c.p(w)});
      const std::vector<int> arrival = place_inner_aapc(sched, hmask, inner, begin, options.inner);
      std::vector<size_t> by_arrival(inner.size());
      std::iota(by_arrival.begin(), by_arrival.end(), size_t{0});
      order.shuffle(by_arrival);  // ties among same-unit arrivals (ListOrder; none by default)
      std::stable_sort(by_arrival.begin(), by_arrival.end(),
                       [&](size_t a, size_t b) { return arrival[a] < arrival[b]; });
      for (size_t i : by_arrival) {
        const NodeId route[] = {inner[i].to, inner[i].datum.dest};
        note(sched.place(inner[i].datum, route, arrival[i]));
      }
      break;
    }
    default:
      TC_CHECK(false, fmt::format("A_1 has no step {}", k));
  }
  return end;
}

}  // namespace

int phase1(ListScheduler& sched, const Partition& part, int begin, const std::string& prefix,
           const ScheduleOptions& options, std::vector<Step>& steps) {
  const FaultSet& faults = sched.faults();
  std::vector<A1Cube> faulty;
  int other_end = begin;
  for (NodeId base : subcube_nodes(0, part.outer_mask)) {
    NodeId phi = kNone;
    for (NodeId x : faults.faulty())
      if ((x & part.outer_mask) == base) phi = x;
    if (phi != kNone) {
      faulty.emplace_back(part.inner_mask, phi, part.split(base));
    } else {
      for (int a : place_inner_aapc(sched, part.inner_mask, subcube_data(base, part.inner_mask), begin, options.inner))
        other_end = std::max(other_end, a);
    }
  }
  if (faulty.empty()) {
    steps.push_back(Step{prefix.empty() ? "phase 1" : prefix.substr(0, prefix.size() - 1), begin, other_end});
    return other_end;
  }
  int step_begin = begin;
  OrderStream order(options.order, 0x5157'3121'0001ULL);
  for (int k = 1; k <= 5; ++k) {
    int end = step_begin;
    for (const A1Cube& c : faulty) end = std::max(end, a1_step(sched, c, k, step_begin, options, order));
    if (k == 5) end = std::max(end, other_end);
    steps.push_back(Step{fmt::format("{}step {}", prefix, k), step_begin, end});
    step_begin = end;
  }
  return step_begin;
}

}  // namespace topocheck::aapc
