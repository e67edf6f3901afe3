// Spanning ITMs (theorem3.h, the left-hand side of Theorem 3 of the ITM paper, 002): whether
// some subgraph of g on all its nodes is an ITM under a rule, exactly, with a witness Itm::build
// can replay. kAnyEdge (and, as a second decider, kExterior): a depth-first search over AddNode
// steps with a memo of failed partial ITMs (deciding a spanning 2-tree is NP-complete); kExterior:
// per Hamiltonian cycle an O(n^3) interval DP triangulating the polygon. Preconditions: at most
// kMaxTheorem3Nodes nodes (TC_CHECK).
#include "itm/theorem3.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "itm/small_graph.h"

namespace topocheck::itm {
namespace {

// ---------------------------------------------------------------------------------------------
// Witnesses in g's labels, turned into SpanningItm (ITM labels).

struct LabelledStep {
  int v, x, y;  // node v of g added at the edge (x, y) of g
};

SpanningItm make_witness(const Graph& g, Rule rule, std::array<int, 3> kernel,
                         const std::vector<LabelledStep>& steps) {
  SpanningItm out;
  out.rule = rule;
  out.order = {kernel[0], kernel[1], kernel[2]};
  std::vector<int> label(static_cast<size_t>(g.n()), -1);
  for (int i = 0; i < 3; ++i) label[static_cast<size_t>(kernel[static_cast<size_t>(i)])] = i;
  auto add_edge = [&](int u, int v) {
    TC_CHECK(g.adjacent(u, v), "spanning ITM witness uses a non-edge of g");
    out.edges.emplace_back(std::min(u, v), std::max(u, v));
  };
  add_edge(kernel[0], kernel[1]);
  add_edge(kernel[0], kernel[2]);
  add_edge(kernel[1], kernel[2]);
  for (const LabelledStep& s : steps) {
    const int index = static_cast<int>(out.order.size());
    out.order.push_back(s.v);
    label[static_cast<size_t>(s.v)] = index;
    out.steps.push_back(Step{index, label[static_cast<size_t>(s.x)], label[static_cast<size_t>(s.y)]});
    add_edge(s.v, s.x);
    add_edge(s.v, s.y);
  }
  TC_CHECK(static_cast<int>(out.order.size()) == g.n() &&
               std::all_of(label.begin(), label.end(), [](int l) { return l >= 0; }),
           "spanning ITM witness does not span g");
  std::sort(out.edges.begin(), out.edges.end());
  return out;
}

// ---------------------------------------------------------------------------------------------
// The AddNode search. A partial ITM is its node set, its edge set and (kExterior) its exterior
// edges; what can still be added depends on nothing else, so a partial ITM that failed once is
// remembered by (edges, exterior) and never expanded again, whatever order reached it.

struct PartialKey {
  uint64_t edges, exterior;
  friend bool operator==(const PartialKey&, const PartialKey&) = default;
};
struct PartialKeyHash {
  size_t operator()(const PartialKey& k) const {
    return std::hash<uint64_t>()(k.edges * 0x9E3779B97F4A7C15ull ^ k.exterior);
  }
};

class AddNodeSearch {
 public:
  AddNodeSearch(const Bits& b, Rule rule) : b_(b), rule_(rule) {}

  // Tries every triangle of g as the kernel; on success kernel_ and steps_ hold the witness.
  bool run() {
    if (b_.n < 3) return false;
    // Every node of an ITM lies on a triangle of it, hence of g.
    for (int v = 0; v < b_.n; ++v) {
      bool on_triangle = false;
      for (int x = 0; x < b_.n && !on_triangle; ++x)
        if (b_.adjacent(v, x) && (b_.adj[static_cast<size_t>(v)] & b_.adj[static_cast<size_t>(x)]) != 0)
          on_triangle = true;
      if (!on_triangle) return false;
    }
    for (int a = 0; a < b_.n; ++a)
      for (int c1 = a + 1; c1 < b_.n; ++c1)
        for (int c2 = c1 + 1; c2 < b_.n; ++c2) {
          if (!b_.adjacent(a, c1) || !b_.adjacent(a, c2) || !b_.adjacent(c1, c2)) continue;
          kernel_ = {a, c1, c2};
          const uint64_t edges = pair_bit(a, c1) | pair_bit(a, c2) | pair_bit(c1, c2);
          if (grow(bit(a) | bit(c1) | bit(c2), edges, edges)) return true;
        }
    return false;
  }

  std::array<int, 3> kernel() const { return kernel_; }
  const std::vector<LabelledStep>& steps() const { return steps_; }

 private:
  // Invariant: `in` is the node set of a partial ITM with edge set `edges` whose exterior edges
  // (by the marking of itm.h; used only under kExterior) are `exterior`; steps_ built it.
  bool grow(Mask in, uint64_t edges, uint64_t exterior) {
    if (in == b_.all) return true;
    const PartialKey key{edges, rule_ == Rule::kExterior ? exterior : 0};
    if (failed_.count(key) != 0) return false;
    const uint64_t usable = rule_ == Rule::kExterior ? exterior : edges;
    for (int v = 0; v < b_.n; ++v) {
      if ((in >> v & 1u) != 0) continue;
      const Mask near = b_.adj[static_cast<size_t>(v)] & in;  // v's neighbours in the partial ITM
      for (Mask xs = near; xs != 0; xs &= xs - 1) {
        const int x = std::countr_zero(xs);
        for (Mask ys = xs & (xs - 1); ys != 0; ys &= ys - 1) {
          const int y = std::countr_zero(ys);
          if ((usable & pair_bit(x, y)) == 0) continue;
          steps_.push_back(LabelledStep{v, x, y});
          const uint64_t added = pair_bit(v, x) | pair_bit(v, y);
          // The step marks (x, y) interior and its two new edges exterior.
          if (grow(in | bit(v), edges | added, (exterior & ~pair_bit(x, y)) | added)) return true;
          steps_.pop_back();
        }
      }
    }
    failed_.insert(key);
    return false;
  }

  const Bits& b_;
  Rule rule_;
  std::array<int, 3> kernel_{};
  std::vector<LabelledStep> steps_;
  std::unordered_set<PartialKey, PartialKeyHash> failed_;
};
// ---------------------------------------------------------------------------------------------
// kExterior: a triangulation of the polygon `cycle` by chords of g (interval DP, header).

std::optional<SpanningItm> triangulated_polygon(const Graph& g, const Bits& b, const int* cycle) {
  const int n = b.n;
  // split[i][j] (j >= i + 2): a k with i..k and k..j triangulable, or -1 when there is none.
  std::array<std::array<int, kMaxTheorem3Nodes>, kMaxTheorem3Nodes> split;
  for (auto& row : split) row.fill(-1);
  auto ok = [&](int i, int j) { return j == i + 1 || split[static_cast<size_t>(i)][static_cast<size_t>(j)] >= 0; };
  for (int len = 2; len < n; ++len)
    for (int i = 0; i + len < n; ++i) {
      const int j = i + len;
      if (!b.adjacent(cycle[i], cycle[j])) continue;
      for (int k = i + 1; k < j; ++k)
        if (ok(i, k) && ok(k, j)) {
          split[static_cast<size_t>(i)][static_cast<size_t>(j)] = k;
          break;
        }
    }
  if (!ok(0, n - 1)) return std::nullopt;
  // Kernel: the triangle on the side (c_0, c_{n-1}); then, parents first, each sub-chain i..j
  // of length >= 2 adds its apex c_k at the edge (c_i, c_j), which its parent made exterior.
  const int top = split[0][static_cast<size_t>(n - 1)];
  std::vector<LabelledStep> steps;
  auto emit = [&](auto&& self, int i, int j) -> void {
    if (j - i < 2) return;
    const int k = split[static_cast<size_t>(i)][static_cast<size_t>(j)];
    steps.push_back(LabelledStep{cycle[k], cycle[i], cycle[j]});
    self(self, i, k);
    self(self, k, j);
  };
  emit(emit, 0, top);
  emit(emit, top, n - 1);
  return make_witness(g, Rule::kExterior, {cycle[0], cycle[top], cycle[n - 1]}, steps);
}

}  // namespace

std::optional<SpanningItm> spanning_itm_by_search(const Graph& g, Rule rule) {
  const Bits b = bits_of(g);
  AddNodeSearch search(b, rule);
  if (!search.run()) return std::nullopt;
  return make_witness(g, rule, search.kernel(), search.steps());
}

std::optional<SpanningItm> spanning_itm(const Graph& g, Rule rule) {
  if (rule == Rule::kAnyEdge) return spanning_itm_by_search(g, rule);
  const Bits b = bits_of(g);
  std::optional<SpanningItm> found;
  for_each_hamiltonian_cycle(b, [&](const std::array<int, kMaxTheorem3Nodes>& cycle) {
    found = triangulated_polygon(g, b, cycle.data());
    return found.has_value();
  });
  return found;
}

}  // namespace topocheck::itm
