#include "core/graph.h"

#include <algorithm>
#include <functional>

// GCC 12 reports -Wmaybe-uninitialized inside Boost's boykov_kolmogorov_max_flow (an optional
// iterator pair in bk_max_flow's constructor); the warning is in Boost, not here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/boykov_kolmogorov_max_flow.hpp>
#include <boost/graph/successive_shortest_path_nonnegative_weights.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <boost/graph/strong_components.hpp>

#include "core/status.h"

namespace topocheck {

UndirectedGraph materialize(const Topology& topo) {
  const uint64_t n = topo.num_nodes();
  UndirectedGraph g(n);
  for (uint64_t i = 0; i < n; ++i) {
    const Node u = topo.node_at(i);
    for (const Node& v : topo.neighbors(u)) {
      const uint64_t j = topo.index_of(v);
      if (i < j) boost::add_edge(i, j, g);
    }
  }
  return g;
}

int max_node_disjoint_paths(const UndirectedGraph& graph, uint64_t s, uint64_t t) {
  TC_CHECK(s != t, "max_node_disjoint_paths needs distinct endpoints");
  using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
  using FlowGraph = boost::adjacency_list<
      boost::vecS, boost::vecS, boost::directedS,
      boost::property<boost::vertex_index_t, long,
                      boost::property<boost::vertex_color_t, boost::default_color_type,
                                      boost::property<boost::vertex_distance_t, long,
                                                      boost::property<boost::vertex_predecessor_t,
                                                                      Traits::edge_descriptor>>>>,
      boost::property<boost::edge_capacity_t, long,
                      boost::property<boost::edge_residual_capacity_t, long,
                                      boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
  const uint64_t n = boost::num_vertices(graph);
  // Node split: v_in = 2v, v_out = 2v+1, capacity 1 inside every node but s and t.
  FlowGraph f(2 * n);
  auto capacity = boost::get(boost::edge_capacity, f);
  auto reverse = boost::get(boost::edge_reverse, f);
  auto add = [&](uint64_t a, uint64_t b, long cap) {
    auto e = boost::add_edge(a, b, f).first;
    auto r = boost::add_edge(b, a, f).first;
    capacity[e] = cap;
    capacity[r] = 0;
    reverse[e] = r;
    reverse[r] = e;
  };
  const long big = static_cast<long>(n) + 1;
  for (uint64_t v = 0; v < n; ++v) add(2 * v, 2 * v + 1, (v == s || v == t) ? big : 1);
  for (auto [e, end] = boost::edges(graph); e != end; ++e) {
    const uint64_t a = boost::source(*e, graph), b = boost::target(*e, graph);
    add(2 * a + 1, 2 * b, 1);
    add(2 * b + 1, 2 * a, 1);
  }
  return static_cast<int>(boost::boykov_kolmogorov_max_flow(f, 2 * s + 1, 2 * t));
}

namespace {
using FlowTraits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using CostFlowGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, long,
                    boost::property<boost::edge_residual_capacity_t, long,
                                    boost::property<boost::edge_reverse_t, FlowTraits::edge_descriptor,
                                                    boost::property<boost::edge_weight_t, double>>>>>;
}  // namespace

// Vertex v of the graph is v_in = 2v and v_out = 2v + 1 here. Arcs: v_in -> v_out (cost 0; its
// capacity is set per query: 1, 0 if v is not allowed, count for s and t) and v_out -> w_in for
// every edge v-w, both directions (cost 1, capacity 1); each with its reverse (capacity 0, cost
// negated), as the successive shortest path algorithm requires. Arcs into s and out of t stay:
// a shortest augmenting path is simple, so it never re-enters its source s_in or leaves t_out.
struct MinCostDisjointPaths::Network {
  CostFlowGraph f;
  std::vector<FlowTraits::edge_descriptor> through;  // v_in -> v_out
  std::vector<double> distance, potential;
  std::vector<FlowTraits::edge_descriptor> predecessor;
  explicit Network(uint64_t n) : f(2 * n), distance(2 * n), potential(2 * n), predecessor(2 * n) {}
};

MinCostDisjointPaths::MinCostDisjointPaths(const UndirectedGraph& graph)
    : network_(std::make_unique<Network>(boost::num_vertices(graph))) {
  CostFlowGraph& f = network_->f;
  auto capacity = boost::get(boost::edge_capacity, f);
  auto reverse = boost::get(boost::edge_reverse, f);
  auto weight = boost::get(boost::edge_weight, f);
  auto add = [&](uint64_t a, uint64_t b, double cost) {
    auto e = boost::add_edge(a, b, f).first;
    auto r = boost::add_edge(b, a, f).first;
    capacity[e] = 1;
    capacity[r] = 0;
    weight[e] = cost;
    weight[r] = -cost;
    reverse[e] = r;
    reverse[r] = e;
    return e;
  };
  const uint64_t n = boost::num_vertices(graph);
  for (uint64_t v = 0; v < n; ++v) network_->through.push_back(add(2 * v, 2 * v + 1, 0));
  for (auto [e, end] = boost::edges(graph); e != end; ++e) {
    const uint64_t a = boost::source(*e, graph), b = boost::target(*e, graph);
    add(2 * a + 1, 2 * b, 1);
    add(2 * b + 1, 2 * a, 1);
  }
}

MinCostDisjointPaths::~MinCostDisjointPaths() = default;

DisjointPathsFlow MinCostDisjointPaths::solve(uint64_t s, uint64_t t, int count, const std::vector<bool>& allowed) {
  Network& net = *network_;
  CostFlowGraph& f = net.f;
  const uint64_t n = net.through.size();
  TC_CHECK(s != t && s < n && t < n, "MinCostDisjointPaths needs distinct endpoints of the graph");
  TC_CHECK(count >= 1, "MinCostDisjointPaths needs count >= 1");
  TC_CHECK(allowed.empty() || allowed.size() == n, "allowed must have one entry per vertex");
  auto capacity = boost::get(boost::edge_capacity, f);
  auto residual = boost::get(boost::edge_residual_capacity, f);
  for (uint64_t v = 0; v < n; ++v)
    capacity[net.through[v]] = (v == s || v == t) ? count : (allowed.empty() || allowed[v]) ? 1 : 0;
  // Distances and costs in double: Boost adds the potentials of vertices that the residual graph
  // does not reach (distance "infinity"), which overflows a long (undefined behaviour) but is
  // +inf in double. Such vertices stay unreachable, so no reduced cost involving them is used;
  // every other value is a small integer, exact in double.
  const auto index = boost::get(boost::vertex_index, f);
  const uint64_t source = 2 * s, sink = 2 * t + 1;
  boost::successive_shortest_path_nonnegative_weights(
      f, source, sink, capacity, residual, boost::get(boost::edge_weight, f), boost::get(boost::edge_reverse, f),
      index, boost::make_iterator_property_map(net.predecessor.begin(), index),
      boost::make_iterator_property_map(net.distance.begin(), index),
      boost::make_iterator_property_map(net.potential.begin(), index));
  DisjointPathsFlow out;
  // Decompose: from s_out follow saturated vertex-to-vertex arcs. Every internal vertex passes at
  // most one unit, so each walk is determined; every hop costs 1, so a min-cost flow has no cycle
  // and each walk is a simple path.
  auto saturated = [&](FlowTraits::edge_descriptor e) {
    return capacity[e] == 1 && residual[e] == 0 && boost::source(e, f) / 2 != boost::target(e, f) / 2;
  };
  const uint64_t s_out = source + 1, t_in = sink - 1;
  for (auto [e, end] = boost::out_edges(s_out, f); e != end; ++e) {
    if (!saturated(*e)) continue;
    std::vector<uint64_t> path{s};
    uint64_t at = boost::target(*e, f);  // an in-copy
    while (at != t_in) {
      path.push_back(at / 2);
      TC_CHECK(path.size() <= n + 1, "min-cost flow decomposition: a cycle");
      bool moved = false;
      for (auto [g, gend] = boost::out_edges(at + 1, f); g != gend && !moved; ++g)
        if (saturated(*g)) {
          at = boost::target(*g, f);
          moved = true;
        }
      TC_CHECK(moved, "min-cost flow decomposition: flow does not continue");
    }
    path.push_back(t);
    out.total_length += static_cast<long>(path.size()) - 1;
    out.paths.push_back(std::move(path));
  }
  out.count = static_cast<int>(out.paths.size());
  std::sort(out.paths.begin(), out.paths.end(), [](const auto& a, const auto& b) { return a[1] < b[1]; });
  return out;
}

DisjointPathsFlow min_total_length_disjoint_paths(const UndirectedGraph& graph, uint64_t s, uint64_t t, int count,
                                                  const std::vector<bool>& allowed) {
  return MinCostDisjointPaths(graph).solve(s, t, count, allowed);
}
#pragma GCC diagnostic pop

std::optional<std::vector<uint64_t>> find_dependency_cycle(
    uint64_t num_channels, const std::vector<std::pair<uint64_t, uint64_t>>& dependencies) {
  using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  Digraph g(num_channels);
  for (const auto& [a, b] : dependencies) {
    TC_CHECK(a < num_channels && b < num_channels, "dependency names an unknown channel");
    if (a == b) return std::vector<uint64_t>{a};  // a self-dependency is a cycle of length 1
    boost::add_edge(a, b, g);
  }
  std::vector<int> component(num_channels);
  const int count = boost::strong_components(g, component.data());
  if (count == static_cast<int>(num_channels)) return std::nullopt;  // every SCC a singleton
  // Find a component with two or more channels and walk inside it until a channel repeats.
  std::vector<int> size(static_cast<size_t>(count), 0);
  for (int c : component) ++size[static_cast<size_t>(c)];
  uint64_t start = 0;
  while (size[static_cast<size_t>(component[start])] < 2) ++start;
  const int comp = component[start];
  std::vector<int64_t> position(num_channels, -1);
  std::vector<uint64_t> walk;
  uint64_t v = start;
  while (position[v] < 0) {
    position[v] = static_cast<int64_t>(walk.size());
    walk.push_back(v);
    for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
      const uint64_t w = boost::target(*e, g);
      if (component[w] == comp) { v = w; break; }
    }
  }
  return std::vector<uint64_t>(walk.begin() + position[v], walk.end());
}

}  // namespace topocheck

namespace topocheck {

ChannelIndex::ChannelIndex(const Topology& topo) : topo_(&topo) {
  const uint64_t n = topo.num_nodes();
  offset_.resize(n + 1);
  for (uint64_t i = 0; i < n; ++i) {
    offset_[i] = ends_.size();
    const Node u = topo.node_at(i);
    for (const Node& v : topo.neighbors(u)) ends_.emplace_back(u, v);
  }
  offset_[n] = ends_.size();
}

uint64_t ChannelIndex::id(Node u, Node v) const {
  TC_CHECK(topo_->contains(u), "ChannelIndex::id of a node outside the topology");
  const uint64_t i = topo_->index_of(u);
  for (uint64_t c = offset_[i]; c < offset_[i + 1]; ++c)
    if (ends_[c].second == v) return c;
  check_failed(__FILE__, __LINE__, "is_edge(u, v)", "ChannelIndex::id of a non-edge");
}

std::vector<std::pair<uint64_t, uint64_t>> route_dependencies(
    const Topology& topo, const ChannelIndex& channels,
    const std::function<std::vector<Node>(Node, Node)>& route) {
  std::vector<std::pair<uint64_t, uint64_t>> deps;
  const uint64_t n = topo.num_nodes();
  for (uint64_t si = 0; si < n; ++si)
    for (uint64_t ti = 0; ti < n; ++ti) {
      if (si == ti) continue;
      const std::vector<Node> p = route(topo.node_at(si), topo.node_at(ti));
      for (size_t k = 0; k + 2 < p.size(); ++k)
        deps.emplace_back(channels.id(p[k], p[k + 1]), channels.id(p[k + 1], p[k + 2]));
    }
  std::sort(deps.begin(), deps.end());
  deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  return deps;
}

std::vector<std::pair<uint64_t, uint64_t>> all_shortest_path_dependencies(
    const Topology& topo, const ChannelIndex& channels) {
  std::vector<std::pair<uint64_t, uint64_t>> deps;
  const uint64_t n = topo.num_nodes();
  std::vector<int64_t> dist(n);
  std::vector<uint64_t> queue;
  for (uint64_t ti = 0; ti < n; ++ti) {
    std::fill(dist.begin(), dist.end(), -1);
    queue.assign(1, ti);
    dist[ti] = 0;
    for (size_t q = 0; q < queue.size(); ++q)
      for (const Node& v : topo.neighbors(topo.node_at(queue[q]))) {
        const uint64_t vi = topo.index_of(v);
        if (dist[vi] < 0) { dist[vi] = dist[queue[q]] + 1; queue.push_back(vi); }
      }
    for (uint64_t wi = 0; wi < n; ++wi) {
      const Node w = topo.node_at(wi);
      for (const Node& v : topo.neighbors(w)) {
        const uint64_t vi = topo.index_of(v);
        if (dist[vi] != dist[wi] - 1) continue;
        for (const Node& x : topo.neighbors(v))
          if (dist[topo.index_of(x)] == dist[vi] - 1)
            deps.emplace_back(channels.id(w, v), channels.id(v, x));
      }
    }
  }
  std::sort(deps.begin(), deps.end());
  deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  return deps;
}

std::vector<int> bfs_distances(const UndirectedGraph& graph, uint64_t s) {
  const size_t n = boost::num_vertices(graph);
  TC_CHECK(s < n, "bfs_distances: source outside the graph");
  std::vector<int> dist(n, -1);
  dist[s] = 0;
  auto recorder = boost::record_distances(dist.data(), boost::on_tree_edge());
  boost::breadth_first_search(graph, boost::vertex(s, graph), boost::visitor(boost::make_bfs_visitor(recorder)));
  return dist;
}

}  // namespace topocheck
