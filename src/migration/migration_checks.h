// The naive checkers of the migration claims (Theorems 1 and 2, Section 5). Each states its
// definition directly and returns the first violation in words (nullopt: the property holds).
// Paths are judged by core/checks.h (validity, endpoints, simplicity, disjointness); g and the
// dimension sets are recomputed from their definitions, never taken from the plan.
//
// Disjointness readings ("totally disjoint", "pairwise disjoint", READING.md):
//  - node: no internal node (neither first nor last) of one path occurs anywhere in another;
//  - link: no undirected link is used by two paths;
//  - directed link: no link is used by two paths in the same direction (links are full duplex).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/checks.h"
#include "migration/migration.h"

namespace topocheck::migration {

enum class Disjointness { kNode, kLink, kDirectedLink };
std::string to_string(Disjointness d);  // "node", "link", "directed-link"
std::optional<Disjointness> parse_disjointness(std::string_view s);
inline constexpr Disjointness kAllDisjointness[] = {Disjointness::kNode, Disjointness::kLink,
                                                    Disjointness::kDirectedLink};

// The core checker of one reading over a set of paths.
Violation check_disjoint(const std::vector<Path>& paths, Disjointness d);

// Every path of the plan is a valid simple path of Q_n from u to g(u) (g recomputed).
Violation check_plan_paths_valid(const Plan& plan);
// The theorems' "two paths exist": every node u of S with u != g(u) has two paths. (The
// proviso of Theorem 2 is checked separately: see proviso_holds.)
Violation check_plan_complete(const Plan& plan);
// The two paths of each node are disjoint (reading d).
Violation check_plan_pairs_disjoint(const Plan& plan, Disjointness d);
// Paths of different nodes are disjoint (reading d).
Violation check_plan_all_disjoint(const Plan& plan, Disjointness d);
// No hop is a block link.
Violation check_plan_no_block_link(const Plan& plan);
// No hop joins two nodes of T, except inside a path's extension (nodes[ext_begin..]).
Violation check_plan_t_links(const Plan& plan);
// Every path is at most zeta + 2 beta long (Section 5).
Violation check_plan_length(const Plan& plan);

// Theorem 2's proviso: for every B, beta > 0 and not every aggressive path from B traverses
// link k last (recomputed from the plan's aggressive paths).
bool proviso_holds(const Plan& plan);

}  // namespace topocheck::migration
