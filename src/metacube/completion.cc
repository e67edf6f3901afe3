#include "metacube/completion.h"

#include <algorithm>
#include <bit>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "core/status.h"

namespace topocheck::metacube {
namespace {

// An open-addressing map from 64-bit keys to V (linear probing, load at most 1/2), emptied in O(1)
// by a generation count, so one table serves every search of a thread without reallocating.
template <class V>
class FlatMap {
 public:
  void clear() {
    size_ = 0;
    if (++gen_ == 0) {  // the count wrapped: stale stamps could look current
      std::fill(stamp_.begin(), stamp_.end(), 0u);
      gen_ = 1;
    }
  }
  V* find(uint64_t key) {
    if (stamp_.empty()) return nullptr;
    for (size_t i = slot(key);; i = (i + 1) & mask_) {
      if (stamp_[i] != gen_) return nullptr;
      if (keys_[i] == key) return &vals_[i];
    }
  }
  // The value of `key`, inserted (value-initialized) if absent.
  V& operator[](uint64_t key) {
    if (2 * (size_ + 1) > stamp_.size()) grow();
    size_t i = slot(key);
    for (; stamp_[i] == gen_; i = (i + 1) & mask_)
      if (keys_[i] == key) return vals_[i];
    stamp_[i] = gen_;
    keys_[i] = key;
    vals_[i] = V{};
    ++size_;
    return vals_[i];
  }

 private:
  size_t slot(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ULL) >> 20) & mask_; }
  void grow() {
    std::vector<uint32_t> stamp = std::move(stamp_);
    std::vector<uint64_t> keys = std::move(keys_);
    std::vector<V> vals = std::move(vals_);
    const uint32_t live = gen_;
    const size_t cap = std::max<size_t>(64, 2 * stamp.size());
    stamp_.assign(cap, 0u);
    keys_.assign(cap, 0);
    vals_.assign(cap, V{});
    mask_ = cap - 1;
    gen_ = 1;
    size_ = 0;
    for (size_t i = 0; i < stamp.size(); ++i)
      if (stamp[i] == live) (*this)[keys[i]] = vals[i];
  }
  std::vector<uint32_t> stamp_;
  std::vector<uint64_t> keys_;
  std::vector<V> vals_;
  size_t mask_ = 0, size_ = 0;
  uint32_t gen_ = 1;
};

// The flow: a list of directed arcs u -> w (u, w addresses), and per internal node its arc out and
// its arc in (node capacity 1: at most one of each); s has only arcs out, t only arcs in.
struct Flow {
  uint64_t s = 0, t = 0;
  std::vector<std::pair<uint64_t, uint64_t>> arcs;
  std::vector<uint64_t> s_out;        // the heads of s's arcs
  FlatMap<uint64_t> out_of, in_of;    // internal nodes only (rebuilt from `arcs`)

  // Whether u -> w is in `arcs` (the list, always current).
  std::vector<std::pair<uint64_t, uint64_t>>::iterator find_arc(uint64_t u, uint64_t w) {
    return std::find(arcs.begin(), arcs.end(), std::pair{u, w});
  }
  bool listed(uint64_t u, uint64_t w) { return find_arc(u, w) != arcs.end(); }
  // Whether u -> w carries flow (the per-node tables: valid after rebuild()).
  bool has(uint64_t u, uint64_t w) {
    if (u == s) return std::find(s_out.begin(), s_out.end(), w) != s_out.end();
    const uint64_t* out = out_of.find(u);
    return out && *out == w;
  }
  void rebuild() {
    out_of.clear();
    in_of.clear();
    s_out.clear();
    for (const auto& [u, w] : arcs) {
      if (u != s) out_of[u] = w;
      else s_out.push_back(w);
      if (w != t) in_of[w] = u;
    }
  }
  bool carries(uint64_t v) { return in_of.find(v) != nullptr; }
};

// A residual state: bit 0 = side (0 in, 1 out), the rest the address. Widths are <= 63 bits.
constexpr uint64_t kIn = 0, kOut = 1;
uint64_t state(uint64_t v, uint64_t side) { return (v << 1) | side; }
uint64_t node_of(uint64_t st) { return st >> 1; }
uint64_t side_of(uint64_t st) { return st & 1; }

struct Best {
  int g = 0;
  uint64_t parent = 0;
  bool closed = false;
};
struct Entry {
  int f, g;
  uint64_t seq, st;
  // Heap order (std::push_heap keeps the largest on top): smallest f first, then deepest g, then
  // first pushed.
  bool operator<(const Entry& o) const { return std::tie(o.f, g, o.seq) < std::tie(f, o.g, seq); }
};
// The search's tables, reused by every augmentation of the thread (cleared, not reallocated).
struct Search {
  std::vector<Entry> open;
  FlatMap<Best> best;
};
thread_local Search search;

// One augmenting path by A* (see the header); false if none within max_states expansions.
bool augment(const Metacube& mc, Node s, Node t, Flow& flow, const DistanceBound& bound, long max_states) {
  const int width = s.width;
  const uint64_t start = state(s.bits, kOut);
  std::vector<Entry>& open = search.open;
  FlatMap<Best>& best = search.best;
  open.clear();
  best.clear();
  uint64_t seq = 0;
  const auto h = [&](uint64_t v) { return bound ? bound(Node{v, width}) : std::popcount(v ^ t.bits); };
  const auto push = [&](uint64_t st, int g, uint64_t parent) {
    Best* b = best.find(st);
    if (b && b->g <= g) return;
    if (!b) b = &best[st];
    b->g = g;
    b->parent = parent;
    open.push_back(Entry{g + h(node_of(st)), g, seq++, st});
    std::push_heap(open.begin(), open.end());
  };
  push(start, 0, start);
  long expanded = 0;
  uint64_t goal = 0;
  bool found = false;
  while (!open.empty()) {
    std::pop_heap(open.begin(), open.end());
    const Entry e = open.back();
    open.pop_back();
    Best& b = *best.find(e.st);
    if (b.closed || b.g != e.g) continue;
    b.closed = true;
    const uint64_t v = node_of(e.st);
    if (v == t.bits) {  // only (t, in) is ever pushed
      goal = e.st;
      found = true;
      break;
    }
    if (++expanded > max_states) return false;
    if (side_of(e.st) == kOut) {
      for (int d = 0; d < mc.degree(); ++d) {  // in dimension order, as neighbors() lists them
        const Node w = mc.neighbor(Node{v, width}, d);
        if (w.bits == s.bits || flow.has(v, w.bits)) continue;
        push(state(w.bits, kIn), e.g + 1, e.st);
      }
      if (v != s.bits && flow.carries(v)) push(state(v, kIn), e.g, e.st);
    } else {
      if (!flow.carries(v)) {
        push(state(v, kOut), e.g, e.st);
      } else {
        const uint64_t p = *flow.in_of.find(v);
        if (p != s.bits) push(state(p, kOut), e.g + 1, e.st);
      }
    }
  }
  if (!found) return false;
  // Walk back from the goal and apply the arcs: a forward arc (v,out)->(w,in) adds v->w (or
  // cancels an opposite w->v); a reverse arc (v,in)->(p,out) removes p->v.
  std::vector<uint64_t> chain{goal};
  while (chain.back() != start) chain.push_back(best.find(chain.back())->parent);
  std::reverse(chain.begin(), chain.end());
  for (size_t q = 1; q < chain.size(); ++q) {
    const uint64_t a = chain[q - 1], b = chain[q];
    if (node_of(a) == node_of(b)) continue;  // an in/out arc: implied by the node's arcs
    if (side_of(a) == kOut) {
      auto opposite = flow.find_arc(node_of(b), node_of(a));
      if (opposite != flow.arcs.end()) flow.arcs.erase(opposite);
      else flow.arcs.emplace_back(node_of(a), node_of(b));
    } else {
      auto arc = flow.find_arc(node_of(b), node_of(a));
      if (arc != flow.arcs.end()) flow.arcs.erase(arc);
    }
  }
  flow.rebuild();
  return true;
}

// Accepts `p` into the seed flow if it is a valid simple s-t path internally disjoint from `used`.
bool accept(const Metacube& mc, Node s, Node t, const Path& p, FlatMap<char>& used, Flow& flow) {
  if (p.nodes.size() < 2 || p.nodes.front() != s || p.nodes.back() != t) return false;
  for (size_t q = 0; q + 1 < p.nodes.size(); ++q)
    if (!mc.contains(p.nodes[q + 1]) || !mc.is_edge(p.nodes[q], p.nodes[q + 1])) return false;
  // Internal nodes: none is s or t, none is used by an accepted path, none repeats. Marks: 1 used
  // by an accepted path, 2 seen on this path, 0 (or absent) free.
  bool ok = true;
  size_t q = 1;
  for (; q + 1 < p.nodes.size(); ++q) {
    const uint64_t v = p.nodes[q].bits;
    const char* mark = used.find(v);
    if (v == s.bits || v == t.bits || (mark && *mark != 0)) {
      ok = false;
      break;
    }
    used[v] = 2;
  }
  if (ok && p.nodes.size() == 2 && flow.listed(s.bits, t.bits)) ok = false;  // the edge s-t, once
  // Commit this path's marks (1) or roll them back (0).
  for (size_t r = 1; r < q; ++r) *used.find(p.nodes[r].bits) = ok ? 1 : 0;
  if (!ok) return false;
  for (size_t r = 0; r + 1 < p.nodes.size(); ++r) flow.arcs.emplace_back(p.nodes[r].bits, p.nodes[r + 1].bits);
  return true;
}

}  // namespace

CompletionResult complete_disjoint_paths(const Metacube& mc, Node s, Node t, const std::vector<Path>& seed, int want,
                                         const DistanceBound& bound, long max_states) {
  TC_CHECK(mc.contains(s) && mc.contains(t) && s != t, "complete_disjoint_paths: bad endpoints");
  TC_CHECK(want >= 1 && want == mc.degree(), "complete_disjoint_paths: want != degree");
  CompletionResult r;
  // The thread's tables, emptied (not reallocated): one completion runs at a time per thread.
  thread_local Flow flow;
  thread_local FlatMap<char> used;
  flow.s = s.bits;
  flow.t = t.bits;
  flow.arcs.clear();
  used.clear();
  std::vector<bool> kept(seed.size(), false);
  for (size_t i = 0; i < seed.size(); ++i)
    if (accept(mc, s, t, seed[i], used, flow)) {
      kept[i] = true;
      ++r.kept;
    }
  flow.rebuild();
  int have = r.kept;
  while (have < want) {
    if (!augment(mc, s, t, flow, bound, max_states)) break;
    ++have;
    ++r.augmentations;
  }
  r.complete = have == want;
  // Decompose: one path per arc out of s, indexed by the dimension of that first hop.
  r.paths.assign(static_cast<size_t>(want), Path{});
  for (const uint64_t w : flow.s_out) {
    Path p{{s}};
    uint64_t v = w;
    for (int steps = 0; steps <= (1 << 22); ++steps) {
      p.nodes.push_back(Node{v, s.width});
      if (v == t.bits) break;
      const uint64_t* next = flow.out_of.find(v);
      TC_CHECK(next != nullptr, "complete_disjoint_paths: flow path breaks off");
      v = *next;
    }
    const auto d = mc.edge_dimension(s, Node{w, s.width});
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
