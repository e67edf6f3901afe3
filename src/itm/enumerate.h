// Every ITM on n nodes up to isomorphism (paper 002), for the exhaustive method of the ITM claims.
//
// Classes: two ITMs are the same class when their graphs are isomorphic; the step sequences and
// (under kAnyEdge) the marking play no part. Under kAnyEdge the classes are the unlabelled
// 2-trees (OEIS A054581); under kExterior the maximal outerplanar graphs, i.e. the triangulations
// of an n-gon up to rotation and reflection (A000207 at n - 2).
//
// Method: McKay's canonical construction path ("Isomorph-free exhaustive generation",
// J. Algorithms 26 (1998)), with nauty (densenauty) for automorphism groups and canonical
// labellings. The generation tree has the triangle {0, 1, 2} as its root; the children of an ITM
// G on n - 1 nodes are G + v (v = n - 1) at one usable edge per orbit of Aut(G) on usable edges
// (kAnyEdge: every edge; kExterior: the exterior edges, which in a maximal outerplanar graph are
// the edges on exactly one triangle, so Aut(G) preserves them). A child C is kept iff v lies in
// the Aut(C)-orbit of C's canonical deletion: among C's nodes of degree 2 (for n >= 4 exactly the
// nodes whose removal leaves an ITM of the same rule on n - 1 nodes) those with the largest
// invariant (neighbour degrees and their neighbours' degrees), and among them the one nauty labels
// last. By McKay's theorem each class is then produced exactly once. No labelled sequences are
// listed and nothing is deduplicated.
//
// Example: under kExterior, n = 6 has 3 classes (the hexagon's triangulations), visited as
// `3:(0,1) 4:(0,2) 5:(0,3)` (the fan: node 0 has degree 5), `3:(0,1) 4:(0,2) 5:(1,2)` (the inner
// triangle 0, 1, 2) and `3:(0,1) 4:(0,2) 5:(2,4)` (the zig-zag); under kAnyEdge, 5 classes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "itm/itm.h"

namespace topocheck::itm {

// The largest n the enumeration accepts (one nauty set word per node). Far beyond what fits in
// any budget: n = 16 under kAnyEdge already has 4,115,060 classes.
inline constexpr int kMaxEnumerationNodes = 64;

struct EnumerationCounts {
  std::vector<uint64_t> per_n;  // per_n[k]: classes on k nodes visited; size n_max + 1, 0 below n_min
  uint64_t candidates = 0;      // children formed and tested by the canonical-deletion rule (the cost)

  uint64_t total() const;
};

using ItmVisitor = std::function<void(const Itm&)>;

// Calls visit once for every class of ITMs with n_min <= nodes <= n_max under `rule`, each as an
// Itm whose steps are its generation-tree parent's steps plus one step adding node n - 1 (so the
// sequence is valid under `rule` by construction), parents before their children, in a
// deterministic order. An empty `visit` only counts (no Itm is built). Returns the counts.
//
// Work split: the generation tree is expanded breadth-first until a level holds at least
// 128 * parts nodes (or is level n_max); those nodes are dealt round-robin, node i to part
// i % parts, which enumerates its subtree; levels above are visited by part 0. So parts
// 0..parts-1 together visit every class exactly once, e.g. one part per process.
//
// Preconditions (TC_CHECK aborts): 3 <= n_min <= n_max <= kMaxEnumerationNodes, 0 <= part < parts.
// Cost (one core, release): about 0.6 us per candidate, 5 candidates per class under kAnyEdge and
// 7 under kExterior: 4,115,060 classes at n = 16 under kAnyEdge in about 15 s, 983,244 at n = 18
// under kExterior in about 2.5 s; plus about 2.5 us per visited class for the Itm (a copy of the
// parent's and add_node) when `visit` is set. Exceptions thrown by `visit` propagate (the
// enumeration stops).
EnumerationCounts enumerate_itms(int n_min, int n_max, Rule rule, const ItmVisitor& visit, int part = 0,
                                 int parts = 1);

// The classes on exactly n nodes cut into subtrees, for sweeps split across processes in order
// (verify --shard): the generation tree is expanded breadth-first until a level holds at least
// min_roots nodes (or is level n), whose nodes are the roots; enumerate_subtrees visits the level-n
// classes below the roots [first, last). Roots in
// order and each subtree depth-first: concatenated over contiguous ranges, the visits are those of
// enumerate_itms(n, n, rule, visit) in the same order. Both compute the same cut for the same
// (n, rule, min_roots). Preconditions as above; first <= last <= the number of roots.
// An estimate of each subtree's classes on n nodes, in root order (one per root): its
// nodes `lookahead` levels below the root (or on level n, when nearer) counted exactly, times
// growth^(levels left). Counting only, no Itm built: about lookahead levels' worth of the tree.
std::vector<double> subtree_weights(int n, Rule rule, size_t min_roots, int lookahead, double growth);
EnumerationCounts enumerate_subtrees(int n, Rule rule, const ItmVisitor& visit, size_t min_roots, uint64_t first,
                                     uint64_t last);

// The same classes on `threads` std::threads pulling subtrees from one shared split (threads == 1
// runs on the calling thread). `visit` is called concurrently from several threads: making it
// thread-safe is the caller's job. The order of visits is not deterministic, but each class is
// visited once and every parent is visited before its children. The first exception thrown by
// `visit` stops all threads and is rethrown here. nauty keeps its work arrays in thread-local
// storage (Debian's libnauty is built with USE_TLS; enumerate.cc checks HAVE_TLS), so the threads
// share nothing but the split.
EnumerationCounts enumerate_itms_parallel(int n_min, int n_max, Rule rule, const ItmVisitor& visit, int threads);

// The graph6 string of nauty's canonical form of g: equal for two graphs iff they are isomorphic.
// Any n >= 1 (graph6's 1-char size up to 62 nodes, 4 chars up to 258047). Thread-safe.
std::string canonical_graph6(const Graph& g);

}  // namespace topocheck::itm
