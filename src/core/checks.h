// The naive checkers every method shares (examples, exhaustive, random, SMT models, oracles).
//
// Naive on purpose: each check states its definition directly and returns the FIRST violation in
// words (std::nullopt when the property holds). A construction is never its own judge: every
// verdict about paths goes through these functions.
//
// Definitions (paths are lists of nodes; a "link" is an undirected edge {u,v}; a "directed link"
// is an ordered pair (u,v)):
//  - valid: every node is an address of the topology and every hop is an edge;
//  - endpoints: the path starts at s and ends at t;
//  - simple: no node occurs twice, except that a closed path (first node == last node, as
//    Algorithm 2's paths for x = y, x:x^(i):x) repeats its endpoint once;
//  - internally node-disjoint set: for i != j, no internal node of P_i (neither first nor last)
//    occurs anywhere in P_j;
//  - link-disjoint set: no undirected link is used by two different paths;
//  - directed-link-disjoint set: no directed link is used by two different paths;
//  - avoids links: no hop of any path is one of the forbidden undirected links;
//  - longest length <= bound.
// Cost: linear in the total path length (hash sets), no cleverness beyond that.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/path.h"
#include "core/topology.h"

namespace topocheck {

using Violation = std::optional<std::string>;

// An undirected link {u, v}, stored with the smaller node first.
struct Link {
  Node a, b;
  static Link of(Node u, Node v) { return u < v ? Link{u, v} : Link{v, u}; }
  friend auto operator<=>(const Link&, const Link&) = default;
  friend bool operator==(const Link&, const Link&) = default;
};

Violation check_path_valid(const Topology& topo, const Path& path);
Violation check_endpoints(const Path& path, Node s, Node t);
Violation check_simple(const Path& path);
Violation check_internally_node_disjoint(const std::vector<Path>& paths);
Violation check_link_disjoint(const std::vector<Path>& paths);
Violation check_directed_link_disjoint(const std::vector<Path>& paths);
Violation check_avoids_links(const std::vector<Path>& paths, const std::set<Link>& forbidden);
Violation check_max_length(const std::vector<Path>& paths, int bound);

// Convenience: every path valid in `topo`, from s to t, and simple — the usual precondition of a
// disjointness claim. Path indices in messages are 0-based, as the papers' P_0 ... P_{n-1}.
Violation check_paths_valid_simple(const Topology& topo, const std::vector<Path>& paths, Node s,
                                   Node t);

}  // namespace topocheck
