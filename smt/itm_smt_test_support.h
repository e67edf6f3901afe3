// What the ITM SMT tests (itm_smt_test.cc, itm_smt_encoding_test.cc; one binary) share: the
// sizes of the cross-checks, the solver limits, the Theorem 5 readings, and every labelled
// AddNode sequence of n nodes (for_each_itm, the brute force both sides compare with).
#pragma once

#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "catalog/itm/scope.h"
#include "claims/claim.h"
#include "itm/itm.h"
#include "smt/itm_smt.h"

namespace topocheck::smt::itm_smt_test {

using claims::SolverLimits;
using itm::Contention;
using itm::Graph;
using itm::Itm;
using itm::Rule;

inline constexpr int kCrossCheckMaxN = 8;        // brute force: 10395 any-edge, 2520 exterior sequences at n = 8
inline constexpr int kStepsCrossCheckMaxN = 7;   // kSteps Theorem 5 takes 5-10 s at n = 8
inline constexpr int kStepsPointwiseMaxN = 6;    // Theorem 5 input by input, kSteps: 1 s (n = 7: 12 s)
inline constexpr int kPolygonPointwiseMaxN = 7;  // and the polygons: 2 s
inline const SolverLimits kLimits{claims::itm_scope::kSmtContentionRlimit.standard, 0};
inline constexpr Contention kReadings[] = {Contention::kPaper, Contention::kReversed, Contention::kUndirected,
                                           Contention::kSharedEndpoint};

// Calls visit on every ITM with n nodes under `rule`, one per labelled AddNode sequence.
inline void for_each_itm(int n, Rule rule, const std::function<void(const Itm&)>& visit) {
  std::function<void(const Itm&)> grow = [&](const Itm& g) {
    if (g.n() == n) {
      visit(g);
      return;
    }
    const auto usable = rule == Rule::kAnyEdge ? g.graph().edges() : g.exterior_edges();
    for (const auto& [x, y] : usable) {
      Itm next = g;
      ASSERT_TRUE(next.add_node(x, y).ok());
      grow(next);
    }
  };
  grow(Itm::kernel(rule));
}

inline std::string reading_name(Contention c) {
  return c == Contention::kPaper ? "exterior" : "exterior-" + itm::to_string(c);
}

}  // namespace topocheck::smt::itm_smt_test
