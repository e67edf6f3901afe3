// The bit-mask view of a graph on at most kMaxTheorem3Nodes nodes that the Theorem 3 deciders
// share (spanning_itm.cc, triangulated.cc): adjacency masks, node pairs as bits of a 64-bit edge
// set, and the enumeration of Hamiltonian cycles by depth-first search (O(n!) at worst). Private
// to src/itm; other folders use theorem3.h.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <utility>

#include <fmt/format.h>

#include "itm/theorem3.h"

namespace topocheck::itm {

// Bit-mask view of a small graph: bit v of adj[u] is set iff {u, v} is an edge.

using Mask = uint32_t;

struct Bits {
  int n = 0;
  Mask all = 0;  // bits 0..n-1
  std::array<Mask, kMaxTheorem3Nodes> adj{};
  bool adjacent(int u, int v) const { return (adj[static_cast<size_t>(u)] >> v & 1u) != 0; }
};

// Aborts (TC_CHECK) beyond kMaxTheorem3Nodes nodes.
inline Bits bits_of(const Graph& g) {
  TC_CHECK(g.n() >= 0 && g.n() <= kMaxTheorem3Nodes,
           fmt::format("theorem 3 deciders take at most {} nodes, not {}", kMaxTheorem3Nodes, g.n()));
  Bits b;
  b.n = g.n();
  b.all = (Mask{1} << b.n) - 1;
  for (const auto& [u, v] : g.edges()) {
    b.adj[static_cast<size_t>(u)] |= Mask{1} << v;
    b.adj[static_cast<size_t>(v)] |= Mask{1} << u;
  }
  return b;
}

inline Mask bit(int v) { return Mask{1} << v; }

// Index of the node pair {u, v} (u != v) in 0..n(n-1)/2 - 1 for n <= kMaxTheorem3Nodes: the
// pairs of larger endpoint w come after the w(w-1)/2 pairs of smaller larger endpoint.
inline int pair_index(int u, int v) {
  if (u > v) std::swap(u, v);
  return v * (v - 1) / 2 + u;
}
inline uint64_t pair_bit(int u, int v) { return uint64_t{1} << pair_index(u, v); }

// Hamiltonian cycles by depth-first search from node 0. `visit(path)` gets each cycle once
// (path[1] < path[n-1]); returning true stops the enumeration, and then this returns true.

template <class Visit>
bool for_each_hamiltonian_cycle(const Bits& b, Visit&& visit) {
  if (b.n < 3) return false;
  std::array<int, kMaxTheorem3Nodes> path{};
  path[0] = 0;
  auto extend = [&](auto&& self, int depth, Mask visited) -> bool {
    const int last = path[static_cast<size_t>(depth - 1)];
    if (depth == b.n) {
      if (!b.adjacent(last, 0) || path[1] > path[static_cast<size_t>(b.n - 1)]) return false;
      return visit(std::as_const(path));
    }
    for (Mask next = b.adj[static_cast<size_t>(last)] & ~visited; next != 0; next &= next - 1) {
      const int w = std::countr_zero(next);
      path[static_cast<size_t>(depth)] = w;
      if (self(self, depth + 1, visited | bit(w))) return true;
    }
    return false;
  };
  return extend(extend, 1, bit(0));
}

}  // namespace topocheck::itm
