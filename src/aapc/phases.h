// The two phases of A_2 and A_f (Masuyama & Masuyama, papers/004, Sections 3.2.1 and 3.3.1),
// which A_1 (Section 3.1.1) runs as Phase 1 alone, on a ListScheduler: phase1.cc and phase2.cc
// implement them, schedules.cc calls them. Private to src/aapc; other folders use schedules.h,
// whose header comment states the readings (steps, rounds, routes) these follow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "aapc/schedules.h"

namespace topocheck::aapc {

// The pseudo-random stream of a ListOrder (schedules.h): splitmix64 of the seed, with its own
// Fisher-Yates shuffle (std::shuffle's algorithm is unspecified, so it would not pin a seed's
// schedule across standard libraries). Inactive (seed 0): shuffle and pick change nothing.
class OrderStream {
 public:
  // `salt` separates the streams of the phases (the same seed draws differently in each).
  OrderStream(ListOrder order, uint64_t salt) : state_(order.seed ^ salt), active_(!order.is_default()) {}
  bool active() const { return active_; }
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in 0..n-1 (n >= 1); 0 when inactive.
  size_t pick(size_t n) { return active_ && n > 1 ? static_cast<size_t>(next() % n) : 0; }
  template <class T>
  void shuffle(std::vector<T>& v) {
    if (!active_) return;
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<size_t>(next() % i)]);
  }

 private:
  uint64_t state_;
  bool active_;
};

// The subcubes are the cosets of span(inner_mask). split(base) is the dividing dimension of A_1 in
// the faulty coset with that base (base = coset node with the inner bits zero).
struct Partition {
  uint32_t inner_mask = 0;
  uint32_t outer_mask = 0;
  std::function<int(NodeId)> split;
};

// Phase 1: A_1 in every faulty coset (shared step boundaries), the inner AAPC in every nonfaulty
// one (from `begin`). Appends the steps (prefix + "step k", or prefix "phase 1" alone when no coset
// is faulty); returns the phase's end. Preconditions: at most one fault per coset, and split(base)
// a dimension of the inner mask for each faulty coset.
int phase1(ListScheduler& sched, const Partition& part, int begin, const std::string& prefix,
           const ScheduleOptions& options, std::vector<Step>& steps);

// Phase 2: Step 1 (the data that cannot go straight, or all data of the corresponding nodes of
// faults) along fault-free shortest paths; Step 2 the exchange among the cosets, round by round
// over the outer offsets r, each datum going on inside its destination coset in the order of
// arrival. Wherever several routes qualify, a datum takes the one that arrives first.
// Appends "phase 2 step 1" and "phase 2 step 2 round k" (Rounds::kSequential) or "phase 2 step 2";
// returns the phase's end.
int phase2(ListScheduler& sched, const Partition& part, int begin, const ScheduleOptions& options,
           std::vector<Step>& steps);

}  // namespace topocheck::aapc
