// RapidCheck generator of ITMs (paper 002): AddNode sequences under either rule, with a shrinking
// that drops nodes and renumbers the rest.
//
// `ItmSequence{rule, steps}` is the input of every ITM property; it prints as its rule and the
// steps' text form (itm.h), e.g. `exterior "3:(0,1) 4:(1,3) 5:(0,3)"` (`exterior ""`: the kernel
// triangle alone). Every generated or shrunk value is valid: Itm::build(steps, rule) succeeds.
// Each step's corresponding edge is written (x, y) with x < y.
//
// `gen::itm_sequence(rule, max_nodes)`: n nodes, n <= limit = 3 + ceil((max_nodes - 3) * size / 100)
// (size 0: the kernel alone; size >= 100: up to max_nodes); n = limit one time in four, otherwise
// uniform in 3..limit. Each step picks a usable edge (kAnyEdge: any edge; kExterior: an exterior
// one), in one of three shapes chosen per sequence: uniform among the usable edges (bushy ITMs of
// small diameter); local, one of the two edges of the newest node with odds 7/8 (strips and fans
// of large diameter); or an even mix of the two.
//
// Shrinking (every candidate is again shrinkable; RapidCheck takes the first that still fails):
//   1. fewer nodes. Dropping a set D of nodes (never 0, 1, 2) is valid when D is closed under
//      "is the corresponding edge's endpoint of": no remaining step uses a node of D. The remaining
//      steps' edges still exist (edge (x, y) is made by the kernel or by the step of max(x, y)) and,
//      under kExterior, are still exterior when used (an edge turns interior only when used, and
//      dropping steps only frees edges). The rest is renumbered 0, 1, ... in the old order, which
//      keeps "step i adds node 3 + i". Candidates, biggest first: the first half of the steps (a
//      prefix); then for v = 3, 4, ..., n - 1 the closure of v (v and every node that depends on
//      it, directly or not), so the last candidates are the single nodes that no step uses;
//   2. smaller node numbers in the edges, n kept: for each step in order, its corresponding edge
//      replaced by a usable edge that is smaller in the order (max endpoint, min endpoint) and
//      leaves the whole sequence valid: the 7 smallest such, in increasing order, then the largest
//      (kEdgeCandidatesPerStep = 8 at most, so a sequence has O(n) candidates);
//   3. the kernel's nodes 0, 1, 2 renamed by a permutation (valid: the kernel triangle and its
//      marking are symmetric), where that makes the edges smaller in the same order.
// Every candidate lowers (n, the steps' edges as (max, min) pairs, lexicographically), so
// shrinking terminates. Candidates are computed lazily: each node drop, and each step's edge
// replacements, when RapidCheck reaches them.
//
// Deterministic: the value and its whole shrink tree are functions of (rc::Random, size) only.
// Preconditions: max_nodes >= 3 (TC_CHECK aborts).
// Cost: O(n) to generate; O(n) per node-drop candidate; O(n * e) for the edge candidates of a step
// whose edge has e smaller edges (each replacement tried is a replay of the whole sequence).
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "core/core_gen.h"
#include "core/status.h"
#include "itm/itm.h"

namespace topocheck::itm {

// One input of an ITM property: an AddNode sequence and the rule it is valid under.
struct ItmSequence {
  Rule rule = Rule::kAnyEdge;
  Steps steps;

  int n() const { return 3 + static_cast<int>(steps.size()); }
  // The ITM; aborts if the sequence is invalid (generated and shrunk ones never are).
  Itm build() const {
    auto itm = Itm::build(steps, rule);
    TC_CHECK(itm.ok(), "ItmSequence::build: invalid sequence");
    return *std::move(itm);
  }

  friend bool operator==(const ItmSequence&, const ItmSequence&) = default;
};

// `exterior "3:(0,1) 4:(1,3)"`.
inline void showValue(const ItmSequence& value, std::ostream& os) {
  os << to_string(value.rule) << " \"" << to_string(value.steps) << "\"";
}
inline std::ostream& operator<<(std::ostream& os, const ItmSequence& value) {
  showValue(value, os);
  return os;
}

namespace gen {
namespace internal {

using topocheck::gen::draw::pick_below;

// The edges of an ITM under construction, numbered in the order (max endpoint, min endpoint): the
// kernel's (0,1), (0,2), (1,2) are 0, 1, 2; node v's edges (x, v), (y, v) (x < y) are
// 3 + 2 (v - 3) and 4 + 2 (v - 3). `used`: the edge was some step's corresponding edge (so, under
// kExterior, interior). Replaying a sequence costs O(n).
class Replay {
 public:
  explicit Replay(Rule rule) : rule_(rule), ends_{{0, 1}, {0, 2}, {1, 2}}, used_(3, 0) {}

  int n() const { return 3 + static_cast<int>(corresponding_.size()); }
  int num_edges() const { return static_cast<int>(ends_.size()); }
  const std::pair<int, int>& ends(int id) const { return ends_[static_cast<size_t>(id)]; }
  bool usable(int id) const { return rule_ == Rule::kAnyEdge || used_[static_cast<size_t>(id)] == 0; }

  // The id of edge {x, y}, -1 if it is none.
  int id(int x, int y) const {
    if (x > y) std::swap(x, y);
    if (x < 0 || y >= n() || x == y) return -1;
    if (y < 3) return x + y - 1;  // (0,1) 0, (0,2) 1, (1,2) 2
    const auto& [a, b] = corresponding_[static_cast<size_t>(y - 3)];
    return x == a ? 3 + 2 * (y - 3) : x == b ? 4 + 2 * (y - 3) : -1;
  }

  // Adds node n() at the usable edge `id`.
  void add(int id) {
    TC_CHECK(id >= 0 && id < num_edges() && usable(id), "Replay::add: not a usable edge");
    const int v = n();
    const auto [x, y] = ends(id);
    used_[static_cast<size_t>(id)] = 1;
    corresponding_.emplace_back(x, y);
    ends_.emplace_back(x, v);
    ends_.emplace_back(y, v);
    used_.push_back(0);
    used_.push_back(0);
  }

  // Adds step `s` if it is the next node at a usable edge; false (nothing changed) otherwise.
  bool add(const Step& s) {
    if (s.v != n()) return false;
    const int e = id(s.x, s.y);
    if (e < 0 || !usable(e)) return false;
    add(e);
    return true;
  }

 private:
  Rule rule_;
  std::vector<std::pair<int, int>> ends_;           // edge id -> (min, max)
  std::vector<char> used_;                          // edge id -> used as a corresponding edge
  std::vector<std::pair<int, int>> corresponding_;  // node 3 + i -> its corresponding edge
};

inline bool valid(const ItmSequence& s) {
  Replay replay(s.rule);
  for (const Step& step : s.steps)
    if (!replay.add(step)) return false;
  return true;
}

// `s` without the nodes marked in `drop` (none of 0, 1, 2; closed as in the header comment), the
// rest renumbered in order.
inline ItmSequence without(const ItmSequence& s, const std::vector<char>& drop) {
  std::vector<int> renumber(static_cast<size_t>(s.n()), -1);
  int next = 0;
  for (int v = 0; v < s.n(); ++v)
    if (!drop[static_cast<size_t>(v)]) renumber[static_cast<size_t>(v)] = next++;
  ItmSequence out{s.rule, {}};
  for (const Step& step : s.steps) {
    if (drop[static_cast<size_t>(step.v)]) continue;
    const int x = renumber[static_cast<size_t>(step.x)], y = renumber[static_cast<size_t>(step.y)];
    TC_CHECK(x >= 0 && y >= 0, "gen::itm_sequence: dropped a node a remaining step uses");
    out.steps.push_back(Step{renumber[static_cast<size_t>(step.v)], x, y});
  }
  return out;
}

// The closure of v >= 3: v and every node whose corresponding edge has an endpoint in it.
inline std::vector<char> closure(const ItmSequence& s, int v) {
  std::vector<char> in(static_cast<size_t>(s.n()), 0);
  in[static_cast<size_t>(v)] = 1;
  for (const Step& step : s.steps)
    if (step.v > v && (in[static_cast<size_t>(step.x)] || in[static_cast<size_t>(step.y)]))
      in[static_cast<size_t>(step.v)] = 1;
  return in;
}

// At most this many replacements of one step's edge are tried: the smallest ones but one, and the
// largest (so that the count of candidates of a long sequence stays O(n)).
inline constexpr int kEdgeCandidatesPerStep = 8;

// Step i's corresponding edge replaced by a smaller usable edge (in Replay's numbering) that keeps
// the sequence valid: the kEdgeCandidatesPerStep - 1 smallest such in increasing order, then the
// largest if it is not among them.
inline std::vector<ItmSequence> smaller_edges(const ItmSequence& s, size_t i) {
  Replay before(s.rule);
  for (size_t k = 0; k < i; ++k) before.add(s.steps[k]);
  const Step& step = s.steps[i];
  const int current = before.id(step.x, step.y);
  auto replaced = [&](int e) -> rc::Maybe<ItmSequence> {
    if (!before.usable(e)) return rc::Nothing;
    ItmSequence candidate = s;
    const auto [x, y] = before.ends(e);
    candidate.steps[i] = Step{step.v, x, y};
    if (!valid(candidate)) return rc::Nothing;
    return candidate;
  };
  std::vector<ItmSequence> out;
  int last = -1;  // the largest edge id taken so far
  for (int e = 0; e < current && static_cast<int>(out.size()) < kEdgeCandidatesPerStep - 1; ++e)
    if (auto c = replaced(e)) {
      out.push_back(*std::move(c));
      last = e;
    }
  for (int e = current - 1; e > last; --e)
    if (auto c = replaced(e)) {
      out.push_back(*std::move(c));
      break;
    }
  return out;
}

// The steps' edges as (max endpoint, min endpoint) pairs: the order shrinking lowers for a fixed n.
inline std::vector<std::pair<int, int>> edge_key(const ItmSequence& s) {
  std::vector<std::pair<int, int>> out;
  for (const Step& step : s.steps) out.emplace_back(std::max(step.x, step.y), std::min(step.x, step.y));
  return out;
}

// `s` with the kernel's nodes 0, 1, 2 renamed by the k-th permutation of them (k = 0..5, 0 the
// identity, in lexicographic order), each edge written (min, max) again.
inline ItmSequence relabel_kernel(const ItmSequence& s, int k) {
  constexpr int kPermutations[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  auto rename = [&](int v) { return v < 3 ? kPermutations[k][v] : v; };
  ItmSequence out{s.rule, {}};
  for (const Step& step : s.steps) {
    const int x = rename(step.x), y = rename(step.y);
    out.steps.push_back(Step{step.v, std::min(x, y), std::max(x, y)});
  }
  return out;
}

}  // namespace internal

// The shrink candidates of `s`, in the order of the header comment's "Shrinking" (fewer nodes,
// smaller edges, the kernel relabelled), computed lazily as the sequence is walked; each is a
// valid sequence under s.rule, and lowers (n, the steps' edges as (max, min) pairs). This is the
// shrinking itm_sequence gives its values (rc::shrinkable::shrinkRecur(s, &itm_sequence_shrinks)
// is the shrink tree of a generated s), public so that a test can shrink a value it holds.
// Precondition: `s` is valid (Itm::build(s.steps, s.rule) succeeds); on an invalid one the
// candidates are unspecified and a TC_CHECK may abort. Cost: see the header comment.
inline rc::Seq<ItmSequence> itm_sequence_shrinks(const ItmSequence& s) {
  using internal::closure, internal::edge_key, internal::relabel_kernel, internal::smaller_edges, internal::without;
  const size_t steps = s.steps.size();
  // 1. Fewer nodes: the first half of the steps, then the closure of each node v = 3 .. n-1.
  rc::Seq<ItmSequence> prefix;
  if (steps >= 2)
    prefix = rc::seq::just(ItmSequence{s.rule, Steps(s.steps.begin(), s.steps.begin() + static_cast<long>(steps / 2))});
  rc::Seq<ItmSequence> drops = rc::seq::map(rc::seq::range(3, s.n()), [s](int v) { return without(s, closure(s, v)); });
  // 2. Smaller edges, step by step (each step's candidates computed when RapidCheck reaches them).
  rc::Seq<ItmSequence> edges = rc::seq::mapcat(rc::seq::range(size_t{0}, steps),
                                               [s](size_t i) { return rc::seq::fromContainer(smaller_edges(s, i)); });
  // 3. The kernel's nodes relabelled (0, 1, 2 permuted: the kernel and its marking are symmetric,
  //    so the sequence stays valid), where that lowers the edges.
  rc::Seq<ItmSequence> relabels = rc::seq::mapMaybe(rc::seq::range(1, 6), [s](int k) -> rc::Maybe<ItmSequence> {
    ItmSequence candidate = relabel_kernel(s, k);
    if (!(edge_key(candidate) < edge_key(s))) return rc::Nothing;
    return candidate;
  });
  return rc::seq::concat(std::move(prefix), std::move(drops), std::move(edges), std::move(relabels));
}

// The largest n of Arbitrary<ItmSequence>.
inline constexpr int kArbitraryMaxNodes = 300;

inline rc::Gen<ItmSequence> itm_sequence(Rule rule, int max_nodes) {
  TC_CHECK(max_nodes >= 3, "gen::itm_sequence: max_nodes < 3");
  return rc::Gen<ItmSequence>([rule, max_nodes](const rc::Random& random, int size) {
    rc::Random r(random);
    const int limit = 3 + topocheck::gen::draw::scale_to_size(max_nodes - 3, size);
    const int n = internal::pick_below(r, 4) == 0 ? limit : 3 + internal::pick_below(r, limit - 2);
    // Odds in eighths of taking one of the newest node's two edges: uniform, local, even mix.
    constexpr int kLocalEighths[3] = {0, 7, 4};
    const int local_eighths = kLocalEighths[internal::pick_below(r, 3)];
    internal::Replay replay(rule);
    std::vector<int> open{0, 1, 2};  // kExterior: the unused (exterior) edge ids
    ItmSequence value{rule, {}};
    while (replay.n() < n) {
      int e;
      if (replay.n() > 3 && internal::pick_below(r, 8) < local_eighths) {
        e = replay.num_edges() - 1 - internal::pick_below(r, 2);  // the newest node's: never used yet
      } else if (rule == Rule::kAnyEdge) {
        e = internal::pick_below(r, replay.num_edges());
      } else {
        e = open[static_cast<size_t>(internal::pick_below(r, static_cast<int>(open.size())))];
      }
      const auto [x, y] = replay.ends(e);
      value.steps.push_back(Step{replay.n(), x, y});
      replay.add(e);
      if (rule == Rule::kExterior) {
        open.erase(std::find(open.begin(), open.end(), e));
        open.push_back(replay.num_edges() - 2);
        open.push_back(replay.num_edges() - 1);
      }
    }
    return rc::shrinkable::shrinkRecur(std::move(value), &itm_sequence_shrinks);
  });
}

}  // namespace gen
}  // namespace topocheck::itm

namespace rc {

// Either rule (even odds), up to gen::kArbitraryMaxNodes = 300 nodes.
template <>
struct Arbitrary<topocheck::itm::ItmSequence> {
  static Gen<topocheck::itm::ItmSequence> arbitrary() {
    return gen::mapcat(gen::element(topocheck::itm::Rule::kAnyEdge, topocheck::itm::Rule::kExterior),
                       [](topocheck::itm::Rule rule) {
                         return topocheck::itm::gen::itm_sequence(rule, topocheck::itm::gen::kArbitraryMaxNodes);
                       });
  }
};

}  // namespace rc
