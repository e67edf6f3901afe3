#include "wormhole/wormhole_graphs.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/node.h"
#include "core/topology.h"
#include "network/rng.h"

namespace topocheck::routing {
namespace {

// An itm::Graph as a Topology: node i is the address i (as wide as n - 1 needs, at least 1 bit);
// neighbours in the graph's sorted order, which become the Network's ports. The "dimension" of
// an edge u - v is v's position among u's neighbours (the interface needs one; nothing here
// uses it).
class GraphTopology final : public Topology {
 public:
  GraphTopology(const itm::Graph& g, std::string name)
      : g_(g), name_(std::move(name)),
        width_(std::max(1, static_cast<int>(std::bit_width(static_cast<uint64_t>(g.n() > 0 ? g.n() - 1 : 0))))) {}

  std::string name() const override { return name_; }
  int width() const override { return width_; }
  uint64_t num_nodes() const override { return static_cast<uint64_t>(g_.n()); }
  bool contains(Node u) const override { return u.width == width_ && u.bits < num_nodes(); }
  std::vector<Node> neighbors(Node u) const override {
    std::vector<Node> out;
    for (int v : g_.neighbors(static_cast<int>(u.bits))) out.push_back(node_at(static_cast<uint64_t>(v)));
    return out;
  }
  bool is_edge(Node u, Node v) const override {
    return contains(u) && contains(v) && g_.adjacent(static_cast<int>(u.bits), static_cast<int>(v.bits));
  }
  std::optional<int> edge_dimension(Node u, Node v) const override {
    if (!is_edge(u, v)) return std::nullopt;
    const std::vector<int>& nb = g_.neighbors(static_cast<int>(u.bits));
    for (size_t i = 0; i < nb.size(); ++i)
      if (nb[i] == static_cast<int>(v.bits)) return static_cast<int>(i);
    return std::nullopt;
  }
  uint64_t index_of(Node u) const override { return u.bits; }
  Node node_at(uint64_t index) const override { return Node{index, width_}; }

 private:
  const itm::Graph& g_;
  std::string name_;
  int width_;
};

}  // namespace

Result<Network> network_of(const itm::Graph& g, const std::string& name) {
  if (g.n() == 0) return invalid_argument(fmt::format("{}: the graph has no nodes", name));
  return Network::from_topology(GraphTopology(g, name));  // errors: too large, disconnected
}

itm::Steps random_itm(int n, itm::Rule rule, uint64_t seed) {
  TC_CHECK(n >= 3, fmt::format("random_itm: {} nodes; an ITM has at least 3", n));
  Rng rng(seed);
  itm::Itm itm = itm::Itm::kernel(rule);
  while (itm.n() < n) {
    // The usable edges, (x, y) with x < y in sorted order: one draw picks among them uniformly.
    const std::vector<std::pair<int, int>> usable =
        rule == itm::Rule::kExterior ? itm.exterior_edges() : itm.graph().edges();
    TC_CHECK(!usable.empty(), "random_itm: no usable edge");
    const auto [x, y] = usable[static_cast<size_t>(rng.below(usable.size()))];
    const Result<int> added = itm.add_node(x, y);
    TC_CHECK(added.ok(), added.ok() ? std::string() : added.error().message);
  }
  return itm.steps();
}

itm::Graph random_nonchordal(int n, uint64_t seed) {
  TC_CHECK(n >= 4, fmt::format("random_nonchordal: {} nodes; a chordless cycle needs at least 4", n));
  Rng rng(seed);
  for (int attempt = 0;; ++attempt) {
    TC_CHECK(attempt < 100000, "random_nonchordal: no non-chordal graph drawn");
    // A random spanning tree (connected by construction): in a random order of the nodes, each
    // node after the first joins a uniformly drawn earlier one. Then 1..n draws of a random pair,
    // added when it is not yet an edge. A tree is chordal; redraw until a chordless cycle appears.
    itm::Graph g(n);
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    rng.shuffle(order);
    for (size_t i = 1; i < order.size(); ++i) g.add_edge(order[i], order[static_cast<size_t>(rng.below(i))]);
    const uint64_t extra = 1 + rng.below(static_cast<uint64_t>(n));
    for (uint64_t k = 0; k < extra; ++k) {
      const int u = static_cast<int>(rng.below(static_cast<uint64_t>(n)));
      const int v = static_cast<int>(rng.below(static_cast<uint64_t>(n)));
      if (u != v && !g.adjacent(u, v)) g.add_edge(u, v);
    }
    if (!is_chordal(g)) return g;
  }
}

bool is_chordal(const itm::Graph& g) {
  const int n = g.n();
  const auto at = [](int v) { return static_cast<size_t>(v); };
  // Maximum cardinality search (Tarjan and Yannakakis 1984): repeatedly visit the unvisited node
  // with the most visited neighbours (ties: smallest id). The reverse of the visit order is a
  // perfect elimination ordering iff g is chordal. O(n^2) with the plain scan, fine at our sizes.
  std::vector<int> weight(at(n), 0), position(at(n), -1);
  for (int step = 0; step < n; ++step) {
    int best = -1;
    for (int v = 0; v < n; ++v)
      if (position[at(v)] < 0 && (best < 0 || weight[at(v)] > weight[at(best)])) best = v;
    position[at(best)] = step;
    for (int w : g.neighbors(best))
      if (position[at(w)] < 0) ++weight[at(w)];
  }
  // The PEO check: the neighbours of v visited before v (v's later neighbours in the elimination
  // order) must form a clique. It suffices (Tarjan-Yannakakis) that each of them is adjacent to
  // the one among them visited last, p(v) (the earliest of them in the elimination order): the
  // clique condition on the others is then checked when p(v) is.
  for (int v = 0; v < n; ++v) {
    int parent = -1;
    for (int w : g.neighbors(v))
      if (position[at(w)] < position[at(v)] && (parent < 0 || position[at(w)] > position[at(parent)])) parent = w;
    if (parent < 0) continue;
    for (int w : g.neighbors(v))
      if (w != parent && position[at(w)] < position[at(v)] && !g.adjacent(w, parent)) return false;
  }
  return true;
}

Result<itm::Graph> control_graph(std::string_view name) {
  if (name == "c4") return itm::cycle_graph(4);
  if (name == "k23") return itm::complete_bipartite(2, 3);
  if (name == "grid3x3") return itm::grid_graph(3, 3);
  if (name == "nonchordal") return random_nonchordal(8, 1);
  return invalid_argument(fmt::format("unknown control graph `{}` (known: {})", name, fmt::join(kControlNames, ", ")));
}

std::string control_title(std::string_view name) {
  if (name == "c4") return "C4";
  if (name == "k23") return "K_{2,3}";
  if (name == "grid3x3") return "grid 3x3";
  if (name == "nonchordal") return "nonchordal(8, seed 1)";
  return std::string(name);
}

}  // namespace topocheck::routing
