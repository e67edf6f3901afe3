// RapidCheck generators for core's value types: Node, Subcube, Path and address widths, and the
// building blocks every family's generator header shares (gen::bits, gen::draw; contracts below).
//
// Contract:
//  - `width(max)`: an address width in 1..max (rc::gen::inRange: the upper end grows with the
//    generation size, size 0 gives 1, size >= rc::kNominalSize the whole range); shrinks
//    toward 1.
//  - `node(width)`: a Node of exactly `width` bits (bits above the width are zero). A share of
//    all-zero and all-one addresses, the rest uniform. Shrinks by clearing bits (all at once
//    first, then one at a time, most significant first) toward 0...0.
//  - `subcube(width)`: each position 0, 1 or '*' with equal odds; shrinks by turning '*' and '1'
//    into '0' toward 0...0.
//  - `path(width, max_len)`: an ARBITRARY list of 1..max_len+1 nodes of `width` bits (so at most
//    max_len hops; the count grows with the size). It is not necessarily a valid path: about
//    half of the hops cross one dimension, the others jump anywhere or repeat the node, so that
//    checkers see valid, invalid and non-simple paths. Shrinks by dropping nodes (keeping the
//    first node), then by clearing bits of a node.
//  - `node_set(width, max_count)`: 0..max_count DISTINCT nodes of `width` bits in ascending order
//    (a fault set, a set of blocked nodes); the count grows with the size (size 0: empty) and is at
//    most 2^width. Half the sets are crowded into a random subcube just large enough to hold them
//    (where faults do most harm), the others uniform. Shrinks to the empty set, the first half,
//    each node dropped (the last first), then each node's bits cleared one at a time where the
//    result is not already in the set.
//  - `path_system(topology, s, t, max_paths)`: 1..max_paths VALID SIMPLE paths of `topology` from
//    s to t (the count grows with the size). Each path is a random simple walk from s of up to
//    `width` hops completed by a breadth-first shortest path to t that avoids the walk. Half the
//    systems are drawn greedily disjoint: each path also avoids the internal nodes of the earlier
//    ones where the topology allows (so internally node-disjoint systems, and near misses, are
//    common); the other half draw every path on its own. Not necessarily disjoint, not
//    necessarily shortest: the judges decide. Shrinks to the first path alone, the first half,
//    each path dropped (the last first), then each path replaced by a shortest s-t path; every
//    candidate is again a system of valid simple s-t paths.
// Every generator is deterministic given the rc::Random and size it is called with. Values print
// through the existing `showValue` overloads (ADL), i.e. in the papers' text forms.
// Preconditions: 1 <= width <= kMaxWidth, max >= 1, max_len >= 0, max_count >= 0, max_paths >= 1;
// path_system: s != t both nodes of the topology, t reachable from s, at most 2^20 nodes (the
// searches visit the whole topology); violations abort (TC_CHECK).
// Cost: O(width) per node to generate; a shrink step lists O(width) (node, subcube) or
// O(len * width) (path) candidates. node_set: O(count * width) expected draws. path_system: one or
// two breadth-first searches of the topology per path (O(nodes * degree)), to generate and per
// shrink candidate.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "core/node.h"
#include "core/path.h"
#include "core/status.h"
#include "core/subcube.h"
#include "core/topology.h"

namespace topocheck::gen {

// The building blocks the generators of every family share (hypercube_gen.h, metacube_gen.h,
// itm_gen.h, migration_gen.h, and the generators below), public so that those headers and the
// properties that check them use one definition. Two kinds:
//  - `bits`: arithmetic on addresses (bit i is dimension i, as in Node): pure functions, no
//    randomness, O(1) or O(64);
//  - `draw`: how a generator draws from an rc::Random, and how a range grows with the
//    generation size. Each advances the rc::Random it is given (so a generator that calls them in
//    a fixed order is a function of (rc::Random, size), as every generator here must be).
// Preconditions are stated per function; none is checked (they sit inside generators' loops).
namespace bits {

// 2^width - 1: the bits an address of `width` bits may use. width in 0..64 (64 and over: all ones).
inline uint64_t low_mask(int width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// `bits` without dimension k: the bits above k move down one place, the bits below stay.
// Implements (bits >> (k+1)) << k  |  bits & (2^k - 1). k in 0..62. Example: 1011 without
// dimension 1 is 101; without dimension 3 (the top one) it is 011, a truncation.
inline uint64_t remove_dimension(uint64_t bits, int k) {
  return ((bits >> (k + 1)) << k) | (bits & low_mask(k));
}

// Parallel bit extract (x86 PEXT): the bits of `value` at the positions set in `mask`, packed
// low in the same order. Example: extract_bits(101101, 001110) = 110. O(popcount(mask)).
inline uint64_t extract_bits(uint64_t value, uint64_t mask) {
  uint64_t out = 0;
  int next = 0;
  for (; mask != 0; mask &= mask - 1) out |= ((value >> std::countr_zero(mask)) & 1) << next++;
  return out;
}

// Parallel bit deposit (x86 PDEP), the inverse of extract_bits on `mask`: the low
// popcount(mask) bits of `value`, spread in order to the positions set in `mask` (higher bits of
// `value` are ignored). Example: deposit_bits(110, 001110) = 001100. O(popcount(mask)).
inline uint64_t deposit_bits(uint64_t value, uint64_t mask) {
  uint64_t out = 0;
  for (int next = 0; mask != 0; mask &= mask - 1, ++next)
    out |= ((value >> next) & 1) << std::countr_zero(mask);
  return out;
}

}  // namespace bits

namespace draw {

// The size convention of rc::gen::inRange, rounded up: at size s the range 0..max is cut to
// 0..ceil(max * s / 100) (s clamped to 0..rc::kNominalSize = 100). Size 0 gives 0; rounding up
// makes size 99 (the largest size of a `k % 100` schedule, as the `random` verify method uses)
// already reach `max` for max <= 100. max >= 0.
inline int scale_to_size(int max, int size) {
  const int64_t clamped = size < 0 ? 0 : (size > rc::kNominalSize ? rc::kNominalSize : size);
  return static_cast<int>((int64_t{max} * clamped + rc::kNominalSize - 1) / rc::kNominalSize);
}

// Uniform in 0..count-1; count >= 1. One random.next(). The modulo bias is irrelevant at these
// counts.
inline int pick_below(rc::Random& random, int count) {
  return static_cast<int>(random.next() % static_cast<uint64_t>(count));
}

// Address bits of `width` bits (width in 1..64): 1/8 all zero, 1/8 all one, otherwise uniform.
// One or two random.next().
inline uint64_t pick_bits(rc::Random& random, int width) {
  const uint64_t kind = random.next() % 8;
  if (kind == 0) return 0;
  if (kind == 1) return bits::low_mask(width);
  return random.next() & bits::low_mask(width);
}

}  // namespace draw

// The shrink lists of the generators below, used by them alone.
namespace internal {

// Shrinks of a bit set toward zero: everything cleared first (the biggest step), then each set
// bit cleared on its own, most significant first.
inline std::vector<uint64_t> bit_clearings(uint64_t bits) {
  std::vector<uint64_t> out;
  if (bits == 0) return out;
  if (std::popcount(bits) > 1) out.push_back(0);
  for (int b = 63; b >= 0; --b)
    if (bits & (uint64_t{1} << b)) out.push_back(bits & ~(uint64_t{1} << b));
  return out;
}

inline std::vector<Node> node_shrinks(const Node& v) {
  std::vector<Node> out;
  for (uint64_t bits : bit_clearings(v.bits)) out.push_back(Node{bits, v.width});
  return out;
}

inline std::vector<Subcube> subcube_shrinks(const Subcube& s) {
  std::vector<Subcube> out;
  if (s.free_mask != 0 && s.values != 0) out.push_back(Subcube{0, 0, s.width});
  for (uint64_t free : bit_clearings(s.free_mask))  // a '*' becomes '0'
    out.push_back(Subcube{free, s.values, s.width});
  for (uint64_t values : bit_clearings(s.values))  // a '1' becomes '0'
    out.push_back(Subcube{s.free_mask, values, s.width});
  return out;
}

inline std::vector<Path> path_shrinks(const Path& p) {
  std::vector<Path> out;
  const size_t count = p.nodes.size();
  if (count > 2) out.push_back(Path{{p.nodes.front()}});  // the single first node
  if (count > 3)                                           // the first half
    out.push_back(Path{std::vector<Node>(p.nodes.begin(), p.nodes.begin() + count / 2)});
  // Drop one node, last first (keep at least one node: parse_path rejects the empty path).
  if (count > 1)
    for (size_t k = count; k-- > 0;) {
      Path q = p;
      q.nodes.erase(q.nodes.begin() + static_cast<std::ptrdiff_t>(k));
      out.push_back(std::move(q));
    }
  for (size_t k = 0; k < count; ++k)
    for (const Node& v : node_shrinks(p.nodes[k])) {
      Path q = p;
      q.nodes[k] = v;
      out.push_back(std::move(q));
    }
  return out;
}

inline std::vector<std::vector<Node>> node_set_shrinks(const std::vector<Node>& set) {
  std::vector<std::vector<Node>> out;
  const size_t count = set.size();
  if (count == 0) return out;
  out.push_back({});
  if (count > 2) out.push_back(std::vector<Node>(set.begin(), set.begin() + static_cast<std::ptrdiff_t>(count / 2)));
  if (count > 1)
    for (size_t k = count; k-- > 0;) {
      std::vector<Node> fewer = set;
      fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(k));
      out.push_back(std::move(fewer));
    }
  for (size_t k = 0; k < count; ++k)
    for (int b = set[k].width - 1; b >= 0; --b) {
      if (!set[k].bit(b)) continue;
      const Node lower = set[k].flip(b);
      if (std::find(set.begin(), set.end(), lower) != set.end()) continue;
      std::vector<Node> moved = set;
      moved[k] = lower;
      std::sort(moved.begin(), moved.end());
      out.push_back(std::move(moved));
    }
  return out;
}

// A breadth-first shortest path of `topo` from `from` to `to` that enters no node of `avoid` (the
// endpoints excepted), or nullopt. Neighbours in the topology's order, so the result is a
// function of its arguments.
inline std::optional<Path> shortest_path_avoiding(const Topology& topo, Node from, Node to,
                                                  const std::unordered_set<uint64_t>& avoid) {
  std::unordered_map<uint64_t, uint64_t> parent{{from.bits, from.bits}};
  std::deque<Node> queue{from};
  while (!queue.empty()) {
    const Node u = queue.front();
    queue.pop_front();
    if (u == to) {
      Path p{{to}};
      for (uint64_t v = to.bits; v != from.bits;) {
        v = parent.at(v);
        p.nodes.push_back(Node{v, to.width});
      }
      std::reverse(p.nodes.begin(), p.nodes.end());
      return p;
    }
    for (const Node& v : topo.neighbors(u)) {
      if (parent.count(v.bits) != 0) continue;
      if (v != to && avoid.count(v.bits) != 0) continue;
      parent.emplace(v.bits, u.bits);
      queue.push_back(v);
    }
  }
  return std::nullopt;
}

// One path of a path system (see the header comment): a random simple walk from s, then the
// shortest completion to t avoiding the walk and `avoid`; the plain shortest path if there is none.
inline Path draw_system_path(rc::Random& r, const Topology& topo, Node s, Node t,
                             const std::unordered_set<uint64_t>& avoid) {
  const int steps = draw::pick_below(r, topo.width() + 1);
  Path walk{{s}};
  std::unordered_set<uint64_t> on_walk = avoid;
  on_walk.insert(s.bits);
  for (int k = 0; k < steps && walk.back() != t; ++k) {
    std::vector<Node> next;
    for (const Node& v : topo.neighbors(walk.back()))
      if (v == t || on_walk.count(v.bits) == 0) next.push_back(v);
    if (next.empty()) break;
    const Node v = next[static_cast<size_t>(draw::pick_below(r, static_cast<int>(next.size())))];
    walk.nodes.push_back(v);
    on_walk.insert(v.bits);
  }
  if (walk.back() == t) return walk;
  if (auto rest = shortest_path_avoiding(topo, walk.back(), t, on_walk)) {
    walk.nodes.insert(walk.nodes.end(), rest->nodes.begin() + 1, rest->nodes.end());
    return walk;
  }
  if (auto direct = shortest_path_avoiding(topo, s, t, avoid)) return *direct;
  return *shortest_path_avoiding(topo, s, t, {});
}

inline std::vector<std::vector<Path>> path_system_shrinks(const Topology& topo, const std::vector<Path>& paths) {
  std::vector<std::vector<Path>> out;
  const size_t count = paths.size();
  if (count > 1) out.push_back({paths.front()});
  if (count > 3) out.push_back(std::vector<Path>(paths.begin(), paths.begin() + static_cast<std::ptrdiff_t>(count / 2)));
  if (count > 1)
    for (size_t k = count; k-- > 0;) {
      std::vector<Path> fewer = paths;
      fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(k));
      out.push_back(std::move(fewer));
    }
  if (count == 0) return out;
  const Path shortest = *shortest_path_avoiding(topo, paths.front().front(), paths.front().back(), {});
  for (size_t k = 0; k < count; ++k)
    if (paths[k].nodes != shortest.nodes) {
      std::vector<Path> straighter = paths;
      straighter[k] = shortest;
      out.push_back(std::move(straighter));
    }
  return out;
}

}  // namespace internal

// An address width in 1..max (scaled by size as rc::gen::inRange is); shrinks toward 1.
inline rc::Gen<int> width(int max) {
  TC_CHECK(max >= 1 && max <= kMaxWidth, "gen::width: max out of range 1..63");
  return rc::gen::inRange(1, max + 1);
}

inline rc::Gen<Node> node(int width) {
  TC_CHECK(width >= 1 && width <= kMaxWidth, "gen::node: width out of range 1..63");
  return rc::Gen<Node>([width](const rc::Random& random, int /*size*/) {
    rc::Random r(random);
    return rc::shrinkable::shrinkRecur(Node{draw::pick_bits(r, width), width}, [](const Node& v) {
      return rc::seq::fromContainer(internal::node_shrinks(v));
    });
  });
}

inline rc::Gen<Subcube> subcube(int width) {
  TC_CHECK(width >= 1 && width <= kMaxWidth, "gen::subcube: width out of range 1..63");
  return rc::Gen<Subcube>([width](const rc::Random& random, int /*size*/) {
    rc::Random r(random);
    Subcube s{0, 0, width};
    for (int i = 0; i < width; ++i) {
      const int trit = draw::pick_below(r, 3);  // 0: '0', 1: '1', 2: '*'
      if (trit == 1) s.values |= uint64_t{1} << i;
      if (trit == 2) s.free_mask |= uint64_t{1} << i;
    }
    return rc::shrinkable::shrinkRecur(s, [](const Subcube& c) {
      return rc::seq::fromContainer(internal::subcube_shrinks(c));
    });
  });
}

inline rc::Gen<Path> path(int width, int max_len) {
  TC_CHECK(width >= 1 && width <= kMaxWidth, "gen::path: width out of range 1..63");
  TC_CHECK(max_len >= 0, "gen::path: negative max_len");
  return rc::Gen<Path>([width, max_len](const rc::Random& random, int size) {
    rc::Random r(random);
    const int count = 1 + draw::pick_below(r, 1 + draw::scale_to_size(max_len, size));
    Path p{{Node{draw::pick_bits(r, width), width}}};
    while (static_cast<int>(p.nodes.size()) < count) {
      const Node& prev = p.nodes.back();
      const int kind = draw::pick_below(r, 8);
      if (kind < 4) p.nodes.push_back(prev.flip(draw::pick_below(r, width)));  // a hop
      else if (kind == 4) p.nodes.push_back(prev);                             // a repeat
      else p.nodes.push_back(Node{draw::pick_bits(r, width), width});          // a jump
    }
    return rc::shrinkable::shrinkRecur(std::move(p), [](const Path& q) {
      return rc::seq::fromContainer(internal::path_shrinks(q));
    });
  });
}

inline rc::Gen<std::vector<Node>> node_set(int width, int max_count) {
  TC_CHECK(width >= 1 && width <= kMaxWidth, "gen::node_set: width out of range 1..63");
  TC_CHECK(max_count >= 0, "gen::node_set: negative max_count");
  return rc::Gen<std::vector<Node>>([width, max_count](const rc::Random& random, int size) {
    rc::Random r(random);
    int count = draw::pick_below(r, 1 + draw::scale_to_size(max_count, size));
    if (width < 31 && count > (1 << width)) count = 1 << width;
    // Crowded: a random subcube of the least dimension that holds `count` nodes, at a random place.
    int dim = width;
    uint64_t base = 0;
    if (draw::pick_below(r, 2) == 0) {
      dim = 0;
      while (dim < width && (uint64_t{1} << dim) < static_cast<uint64_t>(count)) ++dim;
      base = draw::pick_bits(r, width) & ~bits::low_mask(dim);
    }
    std::vector<Node> set;
    while (static_cast<int>(set.size()) < count) {
      const Node v{base | (r.next() & bits::low_mask(dim)), width};
      if (std::find(set.begin(), set.end(), v) == set.end()) set.push_back(v);
    }
    std::sort(set.begin(), set.end());
    return rc::shrinkable::shrinkRecur(std::move(set), [](const std::vector<Node>& nodes) {
      return rc::seq::fromContainer(internal::node_set_shrinks(nodes));
    });
  });
}

inline rc::Gen<std::vector<Path>> path_system(std::shared_ptr<const Topology> topology, Node s, Node t,
                                              int max_paths) {
  TC_CHECK(topology != nullptr, "gen::path_system: no topology");
  TC_CHECK(max_paths >= 1, "gen::path_system: max_paths below 1");
  TC_CHECK(topology->num_nodes() <= (uint64_t{1} << 20), "gen::path_system: more than 2^20 nodes");
  TC_CHECK(topology->contains(s) && topology->contains(t) && s != t,
           "gen::path_system: s and t must be distinct nodes of the topology");
  TC_CHECK(internal::shortest_path_avoiding(*topology, s, t, {}).has_value(),
           "gen::path_system: t is not reachable from s");
  return rc::Gen<std::vector<Path>>([topology, s, t, max_paths](const rc::Random& random, int size) {
    rc::Random r(random);
    const int count = 1 + draw::pick_below(r, 1 + draw::scale_to_size(max_paths - 1, size));
    const bool greedy = draw::pick_below(r, 2) == 0;
    std::vector<Path> paths;
    std::unordered_set<uint64_t> used;  // internal nodes of the earlier paths (greedy systems)
    for (int k = 0; k < count; ++k) {
      paths.push_back(internal::draw_system_path(r, *topology, s, t, greedy ? used : std::unordered_set<uint64_t>{}));
      for (size_t i = 1; i + 1 < paths.back().nodes.size(); ++i) used.insert(paths.back().nodes[i].bits);
    }
    return rc::shrinkable::shrinkRecur(std::move(paths), [topology](const std::vector<Path>& system) {
      return rc::seq::fromContainer(internal::path_system_shrinks(*topology, system));
    });
  });
}

}  // namespace topocheck::gen

// Arbitrary values of any width (1..kMaxWidth) for properties that take typed arguments. Widths
// shrink first (regenerating the value at the smaller width), then the value itself.
namespace rc {

template <>
struct Arbitrary<topocheck::Node> {
  static Gen<topocheck::Node> arbitrary() {
    return gen::mapcat(topocheck::gen::width(topocheck::kMaxWidth), topocheck::gen::node);
  }
};

template <>
struct Arbitrary<topocheck::Subcube> {
  static Gen<topocheck::Subcube> arbitrary() {
    return gen::mapcat(topocheck::gen::width(topocheck::kMaxWidth), topocheck::gen::subcube);
  }
};

template <>
struct Arbitrary<topocheck::Path> {
  static constexpr int kMaxLength = 16;  // hops; arbitrary paths stay short and readable
  static Gen<topocheck::Path> arbitrary() {
    return gen::mapcat(topocheck::gen::width(topocheck::kMaxWidth),
                       [](int w) { return topocheck::gen::path(w, kMaxLength); });
  }
};

}  // namespace rc
