// RapidCheck generator of fault sets of the hypercube Q_n (paper 004's inputs): the faulty nodes of
// an AAPC schedule, a fault-tolerance property, a blocked region.
//
// `gen::fault_set(n, max_faults)`: an aapc::FaultSet of Q_n with 0..min(max_faults, 2^n - 1) faulty
// nodes (at least one node stays nonfaulty, FaultSet's invariant for a schedule). It is
// core_gen.h's `node_set(n, ...)` turned into node numbers, so it draws and shrinks as that does:
// the count grows with the size, half the sets are crowded into a small subcube, and a set shrinks
// toward fewer faults, then toward lower node numbers. Prints as FaultSet::to_string, "{6,9}".
//
// Deterministic: the value and its shrink tree are functions of (rc::Random, size) only.
// Preconditions: 1 <= n <= aapc::kMaxN, max_faults >= 0; violations abort (TC_CHECK).
// Cost: as node_set: O(faults * n) expected draws; a shrink step lists O(faults * n) candidates.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <vector>

#include <rapidcheck.h>

#include "aapc/aapc.h"
#include "core/core_gen.h"
#include "core/status.h"

namespace topocheck::aapc {

// "{6,9}": counterexamples print as the CLI's --faults text, in braces.
inline void showValue(const FaultSet& value, std::ostream& os) { os << value.to_string(); }

namespace gen {

inline rc::Gen<FaultSet> fault_set(int n, int max_faults) {
  TC_CHECK(n >= 1 && n <= kMaxN, "gen::fault_set: n out of range 1..kMaxN");
  TC_CHECK(max_faults >= 0, "gen::fault_set: negative max_faults");
  const int most = std::min(max_faults, (1 << n) - 1);
  return rc::gen::map(topocheck::gen::node_set(n, most), [n](const std::vector<Node>& nodes) {
    std::vector<NodeId> faulty;
    for (const Node& v : nodes) faulty.push_back(static_cast<NodeId>(v.bits));
    return FaultSet(n, std::move(faulty));
  });
}

}  // namespace gen
}  // namespace topocheck::aapc
