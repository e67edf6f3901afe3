// "Totally triangulated" (theorem3.h, the right-hand side of Theorem 3 of the ITM paper, 002):
// the Hamiltonian cycles of g, whether g is totally triangulated for one of them under each
// reading (every-chord-crosses, maximal-outerplanar, planar-drawing), and rhs. The nodes sit on a
// circle in the cycle's order; chords are judged by bit masks. Cost per cycle: O(n^2) masks;
// planar-drawing 2^(components - 1) colourings of the chords' crossing graph after the 3n - 6
// edge count. Preconditions: at most kMaxTheorem3Nodes nodes (TC_CHECK).
#include "itm/theorem3.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "itm/small_graph.h"

namespace topocheck::itm {
namespace {

// Chords on a cycle. The nodes sit on a circle in the cycle's order; arc(u, v) is the set of
// nodes strictly between u and v going one way round, other(u, v) those strictly between going
// the other way. Two chords with four distinct ends cross iff one end of the second is in
// arc(u, v) and the other in other(u, v); chords sharing an end never cross.

struct Circle {
  const Bits& b;
  std::array<int, kMaxTheorem3Nodes> pos{};
  std::array<Mask, kMaxTheorem3Nodes + 1> prefix{};  // prefix[k]: the nodes at positions < k

  Circle(const Bits& bits, const int* cycle) : b(bits) {
    for (int i = 0; i < b.n; ++i) {
      pos[static_cast<size_t>(cycle[i])] = i;
      prefix[static_cast<size_t>(i + 1)] = prefix[static_cast<size_t>(i)] | bit(cycle[i]);
    }
  }
  Mask arc(int u, int v) const {
    int p = pos[static_cast<size_t>(u)], q = pos[static_cast<size_t>(v)];
    if (p > q) std::swap(p, q);
    return prefix[static_cast<size_t>(q)] & ~prefix[static_cast<size_t>(p + 1)];  // positions p+1..q-1
  }
  Mask other(int u, int v) const { return b.all & ~arc(u, v) & ~bit(u) & ~bit(v); }
  bool side(int u, int v) const {  // consecutive on the cycle: a side of the polygon
    const int d = std::abs(pos[static_cast<size_t>(u)] - pos[static_cast<size_t>(v)]);
    return d == 1 || d == b.n - 1;
  }
  // Whether the chord (u, v) properly crosses some edge of the graph `edges` (adjacency masks).
  bool crosses_some(int u, int v, const std::array<Mask, kMaxTheorem3Nodes>& edges) const {
    const Mask beyond = other(u, v);
    for (Mask in = arc(u, v); in != 0; in &= in - 1)
      if ((edges[static_cast<size_t>(std::countr_zero(in))] & beyond) != 0) return true;
    return false;
  }
  bool cross(int u, int v, int x, int y) const {
    if (u == x || u == y || v == x || v == y) return false;
    const Mask a = arc(u, v);
    return ((a >> x & 1u) != 0) != ((a >> y & 1u) != 0);
  }
};

// Every node pair not adjacent in g, drawn as a chord, properly crosses an edge of g.
bool every_non_edge_crosses(const Circle& c) {
  for (int u = 0; u < c.b.n; ++u)
    for (int v = u + 1; v < c.b.n; ++v)
      if (!c.b.adjacent(u, v) && !c.crosses_some(u, v, c.b.adj)) return false;
  return true;
}

bool no_two_edges_cross(const Circle& c) {
  for (int u = 0; u < c.b.n; ++u)
    for (int v = u + 1; v < c.b.n; ++v)
      if (c.b.adjacent(u, v) && c.crosses_some(u, v, c.b.adj)) return false;
  return true;
}

// The planar-drawing reading: some assignment of g's chords to the inside and the outside of
// the circle has no crossing on either side and leaves no non-edge addable on either side.
bool planar_drawing(const Circle& c) {
  const Bits& b = c.b;
  std::vector<std::pair<int, int>> chords;
  for (int u = 0; u < b.n; ++u)
    for (int v = u + 1; v < b.n; ++v)
      if (b.adjacent(u, v) && !c.side(u, v)) chords.emplace_back(u, v);
  // Necessary (header: each side's chords triangulate the polygon, n - 3 chords a side).
  if (static_cast<int>(chords.size()) != 2 * (b.n - 3)) return false;
  // Crossing chords are on different sides: 2-colour each component of the crossing graph.
  const int m = static_cast<int>(chords.size());
  std::vector<int> colour(static_cast<size_t>(m), -1), component(static_cast<size_t>(m), -1);
  int components = 0;
  for (int s = 0; s < m; ++s) {
    if (colour[static_cast<size_t>(s)] >= 0) continue;
    colour[static_cast<size_t>(s)] = 0;
    component[static_cast<size_t>(s)] = components;
    std::vector<int> stack{s};
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      for (int j = 0; j < m; ++j) {
        const auto [u, v] = chords[static_cast<size_t>(i)];
        const auto [x, y] = chords[static_cast<size_t>(j)];
        if (!c.cross(u, v, x, y)) continue;
        if (colour[static_cast<size_t>(j)] < 0) {
          colour[static_cast<size_t>(j)] = 1 - colour[static_cast<size_t>(i)];
          component[static_cast<size_t>(j)] = components;
          stack.push_back(j);
        } else if (colour[static_cast<size_t>(j)] == colour[static_cast<size_t>(i)]) {
          return false;  // an odd cycle of crossings: no drawing without crossings
        }
      }
    }
    ++components;
  }
  // Swapping inside and outside maps drawings to drawings, so component 0 keeps its colours.
  for (uint32_t flips = 0; flips < (uint32_t{1} << std::max(components - 1, 0)); ++flips) {
    std::array<std::array<Mask, kMaxTheorem3Nodes>, 2> sides{};
    for (int i = 0; i < m; ++i) {
      const int comp = component[static_cast<size_t>(i)];
      const int s = colour[static_cast<size_t>(i)] ^ (comp > 0 ? static_cast<int>(flips >> (comp - 1) & 1u) : 0);
      const auto [u, v] = chords[static_cast<size_t>(i)];
      sides[static_cast<size_t>(s)][static_cast<size_t>(u)] |= bit(v);
      sides[static_cast<size_t>(s)][static_cast<size_t>(v)] |= bit(u);
    }
    // The words, literally: no crossing on either side, no non-edge addable on either side.
    bool ok = true;
    for (int u = 0; u < b.n && ok; ++u)
      for (int v = u + 1; v < b.n && ok; ++v)
        for (const auto& side_edges : sides) {
          if ((side_edges[static_cast<size_t>(u)] >> v & 1u) != 0 && c.crosses_some(u, v, side_edges)) ok = false;
          if (!b.adjacent(u, v) && !c.crosses_some(u, v, side_edges)) ok = false;
        }
    if (ok) return true;
  }
  return false;
}

bool totally_triangulated_on(const Circle& c, TriangulatedReading reading) {
  switch (reading) {
    case TriangulatedReading::kEveryChordCrosses:
      return every_non_edge_crosses(c);
    case TriangulatedReading::kMaximalOuterplanar:
      return no_two_edges_cross(c) && every_non_edge_crosses(c);
    case TriangulatedReading::kPlanarDrawing:
      return planar_drawing(c);
  }
  return false;
}

}  // namespace

std::vector<std::vector<int>> hamiltonian_cycles(const Graph& g) {
  const Bits b = bits_of(g);
  std::vector<std::vector<int>> out;
  for_each_hamiltonian_cycle(b, [&](const std::array<int, kMaxTheorem3Nodes>& cycle) {
    out.emplace_back(cycle.begin(), cycle.begin() + b.n);
    return false;
  });
  return out;
}

std::string to_string(TriangulatedReading reading) {
  switch (reading) {
    case TriangulatedReading::kEveryChordCrosses:
      return "every-chord-crosses";
    case TriangulatedReading::kMaximalOuterplanar:
      return "maximal-outerplanar";
    case TriangulatedReading::kPlanarDrawing:
      return "planar-drawing";
  }
  return "?";
}

std::optional<TriangulatedReading> parse_triangulated_reading(std::string_view text) {
  for (TriangulatedReading r : kTriangulatedReadings)
    if (to_string(r) == text) return r;
  return std::nullopt;
}

bool totally_triangulated(const Graph& g, const std::vector<int>& cycle, TriangulatedReading reading) {
  const Bits b = bits_of(g);
  Mask seen = 0;
  TC_CHECK(static_cast<int>(cycle.size()) == b.n && b.n >= 3, "totally_triangulated: not a Hamiltonian cycle");
  for (size_t i = 0; i < cycle.size(); ++i) {
    const int v = cycle[i], w = cycle[(i + 1) % cycle.size()];
    TC_CHECK(v >= 0 && v < b.n && (seen & bit(v)) == 0 && w >= 0 && w < b.n && b.adjacent(v, w),
             fmt::format("totally_triangulated: not a Hamiltonian cycle of {}", g.to_string()));
    seen |= bit(v);
  }
  return totally_triangulated_on(Circle(b, cycle.data()), reading);
}

bool rhs(const Graph& g, TriangulatedReading reading, std::vector<int>* cycle) {
  const Bits b = bits_of(g);
  return for_each_hamiltonian_cycle(b, [&](const std::array<int, kMaxTheorem3Nodes>& path) {
    if (!totally_triangulated_on(Circle(b, path.data()), reading)) return false;
    if (cycle != nullptr) cycle->assign(path.begin(), path.begin() + b.n);
    return true;
  });
}

}  // namespace topocheck::itm
