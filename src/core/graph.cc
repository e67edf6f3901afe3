#include "core/graph.h"

#include <algorithm>
#include <functional>

// GCC 12 reports -Wmaybe-uninitialized inside Boost's boykov_kolmogorov_max_flow (an optional
// iterator pair in bk_max_flow's constructor); the warning is in Boost, not here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/boykov_kolmogorov_max_flow.hpp>
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
