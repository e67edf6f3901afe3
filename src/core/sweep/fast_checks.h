// Fast verdicts: an accelerator for the sweeps, not a judge of its own.
//
// Each function answers only whether one property of core/checks.h holds, with the same
// definition: it returns true exactly when its worded form returns std::nullopt (the twin test
// src/core/sweep/fast_checks_test.cc checks that on random and deliberately broken path sets, on
// paths and on PathBlocks). A sweep calls these first and the worded form for the message when
// one says false; a verdict that a claim reports always comes from, or equals, the naive judge.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>

#include "core/checks.h"
#include "core/sweep/path_block.h"

namespace topocheck {

// Fast verdicts: the same definitions as the worded checks above, answering only whether the
// property holds: each returns true exactly when its worded form returns std::nullopt. They do
// not allocate (they reuse one thread-local scratch buffer, grown on first use) and do not format;
// where throughput matters call them first and the worded form for the message when one says
// false (metacube/metacube_checks.cc does). src/core/sweep/fast_checks_test.cc shows on random path sets,
// valid and broken, that each agrees with its worded form.
// Still naive: a repeated node is found with a set of the nodes seen so far (a plain
// open-addressing hash table, emptied per call by a generation count; for disjoint_paths_ok on a
// PathBlock of a topology with at most 2^20 nodes, a stamp per node index). Cost: O(L) for L nodes
// in all, plus one contains() per node and one is_edge() (or hop_defects(), below) per hop.
// The verdicts that ask the topology are templates over its type, defined below: called with the
// concrete type (a Metacube, whose class is final), contains() and is_edge() are direct calls the
// compiler can inline; called with a `const Topology&` they dispatch virtually as before. Same
// code, same verdicts either way (fast_checks_test compares the two).
template <std::derived_from<Topology> Topo>
bool path_valid_ok(const Topo& topo, const Path& path);              // check_path_valid
bool endpoints_ok(const Path& path, Node s, Node t);                 // check_endpoints
bool simple_ok(const Path& path);                                    // check_simple
bool internally_node_disjoint_ok(std::span<const Path> paths);       // check_internally_node_disjoint
bool max_length_ok(std::span<const Path> paths, int bound);          // check_max_length
template <std::derived_from<Topology> Topo>
bool paths_valid_simple_ok(const Topo& topo, std::span<const Path> paths, Node s,
                           Node t);                                  // check_paths_valid_simple
// Both of check_paths_valid_simple and check_internally_node_disjoint, in one call.
template <std::derived_from<Topology> Topo>
bool disjoint_paths_ok(const Topo& topo, std::span<const Path> paths, Node s, Node t);
// The part of disjoint_paths_ok that does not ask the topology: the internal nodes of all the
// paths (neither first nor last) are pairwise distinct and none of them is s or t.
bool internal_nodes_distinct_ok(std::span<const Path> paths, Node s, Node t);

// The same verdicts on a PathBlock: every node has the block's width, so the widths are compared
// once per path (block.width() against the topology's and against s's and t's) instead of per node.
// A path of a block is given as its nodes' bits and the block's width.
template <std::derived_from<Topology> Topo>
bool path_valid_ok(const Topo& topo, std::span<const uint64_t> path, int width);  // check_path_valid
bool endpoints_ok(std::span<const uint64_t> path, int width, Node s, Node t);     // check_endpoints
bool simple_ok(std::span<const uint64_t> path, int width);                        // check_simple
bool max_length_ok(const PathBlock& block, int bound);                            // check_max_length
template <std::derived_from<Topology> Topo>
bool paths_valid_simple_ok(const Topo& topo, const PathBlock& block, Node s, Node t);
template <std::derived_from<Topology> Topo>
bool disjoint_paths_ok(const Topo& topo, const PathBlock& block, Node s, Node t);
bool internal_nodes_distinct_ok(const PathBlock& block, Node s, Node t);

// A topology that states each hop's verdict as a word: topo.hop_defects(u, v) is zero exactly when
// topo.contains(v) && topo.is_edge(u, v), for any nodes. The verdicts below then OR the words of
// every hop of a path and test once, instead of combining a bool per node and per hop.
template <class Topo>
concept HasHopDefects = requires(const Topo& topo, Node u, Node v) {
  { topo.hop_defects(u, v) } -> std::same_as<uint64_t>;
};

template <std::derived_from<Topology> Topo>
bool path_valid_ok(const Topo& topo, const Path& path) {
  if (path.nodes.empty()) return false;
  const int width = topo.width();
  const Node* nodes = path.nodes.data();
  const size_t size = path.nodes.size();
  // One pass, every node's and every hop's verdict combined with & (not &&): no exit inside the
  // loop, so no data-dependent branch in it (a sweep's paths are valid: an exit would never be
  // taken, and with an inlined is_edge the whole loop is straight-line arithmetic).
  bool ok = (nodes[0].width == width) & topo.contains(nodes[0]);
  for (size_t k = 1; k < size; ++k)
    ok &= (nodes[k].width == width) & topo.contains(nodes[k]) & topo.is_edge(nodes[k - 1], nodes[k]);
  return ok;
}

template <std::derived_from<Topology> Topo>
bool paths_valid_simple_ok(const Topo& topo, std::span<const Path> paths, Node s, Node t) {
  for (const Path& p : paths)
    if (!path_valid_ok(topo, p) || !endpoints_ok(p, s, t) || !simple_ok(p)) return false;
  return true;
}

template <std::derived_from<Topology> Topo>
bool disjoint_paths_ok(const Topo& topo, std::span<const Path> paths, Node s, Node t) {
  // Once every path is valid and runs from s to t, the two worded checks together say exactly:
  // the internal nodes of all the paths are pairwise distinct and none of them is s or t
  // (internal_nodes_distinct_ok, which says why).
  for (const Path& path : paths)
    if (!path_valid_ok(topo, path) || !endpoints_ok(path, s, t)) return false;
  return internal_nodes_distinct_ok(paths, s, t);
}

template <std::derived_from<Topology> Topo>
bool path_valid_ok(const Topo& topo, std::span<const uint64_t> path, int width) {
  if (path.empty()) return false;
  // As path_valid_ok on a Path whose nodes all have `width`: the per-node width test is the
  // same test every time, made once.
  const auto node = [width](uint64_t bits) { return Node{bits, width}; };
  if constexpr (HasHopDefects<Topo>) {
    uint64_t defects = 0;
    for (size_t k = 1; k < path.size(); ++k) defects |= topo.hop_defects(node(path[k - 1]), node(path[k]));
    return (width == topo.width()) & topo.contains(node(path[0])) & (defects == 0);
  } else {
    bool ok = (width == topo.width()) & topo.contains(node(path[0]));
    for (size_t k = 1; k < path.size(); ++k) ok &= topo.contains(node(path[k])) & topo.is_edge(node(path[k - 1]), node(path[k]));
    return ok;
  }
}

template <std::derived_from<Topology> Topo>
bool paths_valid_simple_ok(const Topo& topo, const PathBlock& block, Node s, Node t) {
  for (size_t i = 0; i < block.size(); ++i) {
    const auto p = block.path(i);
    if (!path_valid_ok(topo, p, block.width()) || !endpoints_ok(p, block.width(), s, t)) return false;
  }
  // Every path is valid and runs from s to t. If, over all of them, the internal nodes are
  // distinct and none is s or t, every path is simple (a repeat within a path is two internal
  // occurrences, or an internal one and an endpoint; its two endpoints are equal only when it is
  // closed, and then check_simple leaves the last out): one set for the whole block. A block that
  // fails this (paths that share nodes) is judged path by path.
  if (internal_nodes_distinct_ok(block, s, t)) return true;
  for (size_t i = 0; i < block.size(); ++i)
    if (!simple_ok(block.path(i), block.width())) return false;
  return true;
}

namespace detail {
// The set of disjoint_paths_ok on a block of a topology with at most kMaxStampedNodes nodes: one
// stamp per node index (index_of), one array per thread (2 bytes per node, 2 MB at most). A node
// is in the set iff its stamp is the current one; start() moves to a new stamp (clearing the array
// once every 65,535 calls, when the stamp wraps).
inline constexpr uint64_t kMaxStampedNodes = uint64_t{1} << 20;
struct NodeStamps {
  uint16_t* stamps;
  uint16_t stamp;
};
NodeStamps start_node_stamps(uint64_t num_nodes);
// Test hook: moves this thread's scratch hash tables to generation g, as if after g calls, so that
// a test reaches the wrap of the 32-bit generation (the tables must have been used once, so that
// they exist). The verdicts are unchanged by it.
void set_scratch_generation_for_test(uint32_t g);
}  // namespace detail

template <std::derived_from<Topology> Topo>
bool disjoint_paths_ok(const Topo& topo, const PathBlock& block, Node s, Node t) {
  // As disjoint_paths_ok on paths. (Measured: one pass doing each node's validity and insertion
  // together runs slower than these two passes.)
  if (block.size() == 0) return true;  // no paths: vacuously valid and disjoint
  for (size_t i = 0; i < block.size(); ++i) {
    const auto p = block.path(i);
    if (!path_valid_ok(topo, p, block.width()) || !endpoints_ok(p, block.width(), s, t)) return false;
  }
  if (topo.num_nodes() > detail::kMaxStampedNodes) return internal_nodes_distinct_ok(block, s, t);
  // internal_nodes_distinct_ok with the set as stamps per node index: every node of the block is
  // a node of the topology now (and s and t are nodes: they are the paths' endpoints), so its
  // index_of is below num_nodes(), and distinct nodes have distinct indices.
  const detail::NodeStamps set = detail::start_node_stamps(topo.num_nodes());
  const int width = block.width();
  set.stamps[topo.index_of(s)] = set.stamp;
  set.stamps[topo.index_of(t)] = set.stamp;
  for (size_t i = 0; i < block.size(); ++i) {
    const auto p = block.path(i);
    for (size_t k = 1; k + 1 < p.size(); ++k) {
      uint16_t& stamp = set.stamps[topo.index_of(Node{p[k], width})];
      if (stamp == set.stamp) return false;  // seen before: a repeat, or s or t
      stamp = set.stamp;
    }
  }
  return true;
}

}  // namespace topocheck
