#include "metacube/completion.h"

#include <algorithm>
#include <bit>
#include <queue>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "core/status.h"

namespace topocheck::metacube {
namespace {

// The flow: a set of directed arcs u -> w (u, w addresses). Every internal node has at most one
// arc in and one arc out (node capacity 1); s has only arcs out, t only arcs in.
struct Flow {
  std::set<std::pair<uint64_t, uint64_t>> arcs;
  std::unordered_map<uint64_t, uint64_t> out_of, in_of;  // internal nodes only

  bool has(uint64_t u, uint64_t w) const { return arcs.count({u, w}) != 0; }
  void rebuild(uint64_t s, uint64_t t) {
    out_of.clear();
    in_of.clear();
    for (const auto& [u, w] : arcs) {
      if (u != s) out_of[u] = w;
      if (w != t) in_of[w] = u;
    }
  }
  bool carries(uint64_t v) const { return in_of.count(v) != 0; }
};

// A residual state: bit 0 = side (0 in, 1 out), the rest the address. Widths are <= 63 bits.
constexpr uint64_t kIn = 0, kOut = 1;
uint64_t state(uint64_t v, uint64_t side) { return (v << 1) | side; }
uint64_t node_of(uint64_t st) { return st >> 1; }
uint64_t side_of(uint64_t st) { return st & 1; }

// One augmenting path by A* (see the header); false if none within max_states expansions.
bool augment(const Topology& topo, Node s, Node t, Flow& flow, const DistanceBound& bound, long max_states) {
  const int width = s.width;
  const uint64_t start = state(s.bits, kOut);
  struct Entry {
    int f, g;
    uint64_t seq, st;
    // std::priority_queue pops the largest: smallest f first, then deepest g, then first pushed.
    bool operator<(const Entry& o) const { return std::tie(o.f, g, o.seq) < std::tie(f, o.g, seq); }
  };
  std::priority_queue<Entry> open;
  std::unordered_map<uint64_t, std::pair<int, uint64_t>> best;  // state -> (g, parent state)
  uint64_t seq = 0;
  const auto h = [&](uint64_t v) { return bound ? bound(Node{v, width}) : std::popcount(v ^ t.bits); };
  const auto push = [&](uint64_t st, int g, uint64_t parent) {
    auto it = best.find(st);
    if (it != best.end() && it->second.first <= g) return;
    best[st] = {g, parent};
    open.push(Entry{g + h(node_of(st)), g, seq++, st});
  };
  push(start, 0, start);
  long expanded = 0;
  std::unordered_set<uint64_t> closed;
  uint64_t goal = 0;
  bool found = false;
  while (!open.empty()) {
    const Entry e = open.top();
    open.pop();
    if (closed.count(e.st) || best.at(e.st).first != e.g) continue;
    closed.insert(e.st);
    const uint64_t v = node_of(e.st);
    if (v == t.bits) {  // only (t, in) is ever pushed
      goal = e.st;
      found = true;
      break;
    }
    if (++expanded > max_states) return false;
    if (side_of(e.st) == kOut) {
      for (const Node& w : topo.neighbors(Node{v, width})) {
        if (w.bits == s.bits || flow.has(v, w.bits)) continue;
        push(state(w.bits, kIn), e.g + 1, e.st);
      }
      if (v != s.bits && flow.carries(v)) push(state(v, kIn), e.g, e.st);
    } else {
      if (!flow.carries(v)) {
        push(state(v, kOut), e.g, e.st);
      } else {
        const uint64_t p = flow.in_of.at(v);
        if (p != s.bits) push(state(p, kOut), e.g + 1, e.st);
      }
    }
  }
  if (!found) return false;
  // Walk back from the goal and apply the arcs: a forward arc (v,out)->(w,in) adds v->w (or
  // cancels an opposite w->v); a reverse arc (v,in)->(p,out) removes p->v.
  std::vector<uint64_t> chain{goal};
  while (chain.back() != start) chain.push_back(best.at(chain.back()).second);
  std::reverse(chain.begin(), chain.end());
  for (size_t q = 1; q < chain.size(); ++q) {
    const uint64_t a = chain[q - 1], b = chain[q];
    if (node_of(a) == node_of(b)) continue;  // an in/out arc: implied by the node's arcs
    if (side_of(a) == kOut) {
      if (flow.has(node_of(b), node_of(a))) flow.arcs.erase({node_of(b), node_of(a)});
      else flow.arcs.insert({node_of(a), node_of(b)});
    } else {
      flow.arcs.erase({node_of(b), node_of(a)});
    }
  }
  flow.rebuild(s.bits, t.bits);
  return true;
}

// Accepts `p` into the seed flow if it is a valid simple s-t path internally disjoint from `used`.
bool accept(const Topology& topo, Node s, Node t, const Path& p, std::unordered_set<uint64_t>& used, Flow& flow) {
  if (p.nodes.size() < 2 || p.nodes.front() != s || p.nodes.back() != t) return false;
  std::unordered_set<uint64_t> mine;
  for (size_t q = 0; q + 1 < p.nodes.size(); ++q)
    if (!topo.contains(p.nodes[q + 1]) || !topo.is_edge(p.nodes[q], p.nodes[q + 1])) return false;
  for (size_t q = 1; q + 1 < p.nodes.size(); ++q) {
    const uint64_t v = p.nodes[q].bits;
    if (v == s.bits || v == t.bits || used.count(v) || !mine.insert(v).second) return false;
  }
  if (p.nodes.size() == 2 && flow.has(s.bits, t.bits)) return false;  // the edge s-t, once
  used.insert(mine.begin(), mine.end());
  for (size_t q = 0; q + 1 < p.nodes.size(); ++q) flow.arcs.insert({p.nodes[q].bits, p.nodes[q + 1].bits});
  return true;
}

}  // namespace

CompletionResult complete_disjoint_paths(const Topology& topo, Node s, Node t, const std::vector<Path>& seed, int want,
                                         const DistanceBound& bound, long max_states) {
  TC_CHECK(topo.contains(s) && topo.contains(t) && s != t, "complete_disjoint_paths: bad endpoints");
  TC_CHECK(want >= 1 && want == static_cast<int>(topo.neighbors(s).size()), "complete_disjoint_paths: want != degree");
  CompletionResult r;
  Flow flow;
  std::unordered_set<uint64_t> used;
  std::vector<bool> kept(seed.size(), false);
  for (size_t i = 0; i < seed.size(); ++i)
    if (accept(topo, s, t, seed[i], used, flow)) {
      kept[i] = true;
      ++r.kept;
    }
  flow.rebuild(s.bits, t.bits);
  int have = r.kept;
  while (have < want) {
    if (!augment(topo, s, t, flow, bound, max_states)) break;
    ++have;
    ++r.augmentations;
  }
  r.complete = have == want;
  // Decompose: one path per arc out of s, indexed by the dimension of that first hop.
  r.paths.assign(static_cast<size_t>(want), Path{});
  for (const auto& [u, w] : flow.arcs) {
    if (u != s.bits) continue;
    Path p{{s}};
    uint64_t v = w;
    for (int steps = 0; steps <= (1 << 22); ++steps) {
      p.nodes.push_back(Node{v, s.width});
      if (v == t.bits) break;
      auto it = flow.out_of.find(v);
      TC_CHECK(it != flow.out_of.end(), "complete_disjoint_paths: flow path breaks off");
      v = it->second;
    }
    const auto d = topo.edge_dimension(s, Node{w, s.width});
    TC_CHECK(d.has_value() && *d >= 0 && *d < want, "complete_disjoint_paths: first hop is not an edge");
    r.paths[static_cast<size_t>(*d)] = std::move(p);
  }
  if (!r.complete) {  // leave the unfinished seed paths visible in the free slots
    for (size_t i = 0; i < seed.size() && i < r.paths.size(); ++i)
      if (!kept[i] && r.paths[i].empty()) r.paths[i] = seed[i];
  }
  r.note = r.augmentations == 0
      ? fmt::format("repaired: all {} paths kept from Algorithm 4", r.kept)
      : fmt::format("repaired: {} of {} paths kept from Algorithm 4, {} augmenting path(s){}", r.kept, want,
                    r.augmentations, r.complete ? "" : " - INCOMPLETE (search limit reached)");
  return r;
}

}  // namespace topocheck::metacube
