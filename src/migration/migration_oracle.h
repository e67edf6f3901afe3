// Exact oracles for the migration procedure's promise (paper 000, Section 6: it "identifies two
// migration paths from each participating node, if they exist, or otherwise tells the
// absence"), over Boost.Graph:
//  - second_path_with_others_fixed: with every other path of the plan fixed (and the node's own
//    first path), a block-free path u -> g(u) disjoint from each of them under reading d, found by
//    Boost's breadth_first_search on Q_n minus the block links and what the fixed paths use (the
//    fixed paths need not be disjoint from one another; under the node reading none exists when
//    u or g(u) is an internal node of another node's path); the path found is re-checked against
//    each fixed path by the naive checkers before it is returned;
//  - isolated_disjoint_paths: how many internally node-disjoint block-free u -> g(u) paths exist
//    at all, ignoring every other node (Boost max-flow, core/graph.h), capped at 2.
// Joint questions (re-choose several paths at once) are the SMT oracle's (smt/migration_smt.h).
// Cost: O(2^n n) per call; meant for n <= 16.
#pragma once

#include <cstddef>
#include <optional>

#include "core/path.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"

namespace topocheck::migration {

std::optional<Path> second_path_with_others_fixed(const Plan& plan, size_t node_index, Disjointness d);
int isolated_disjoint_paths(const Plan& plan, size_t node_index);

}  // namespace topocheck::migration
