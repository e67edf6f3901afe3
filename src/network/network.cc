#include "network/network.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/graph.h"
#include "hypercube/hypercube.h"

namespace topocheck::routing {

std::string to_string(Routing r) { return r == Routing::kStatic ? "static" : "dynamic"; }
std::string to_string(LinkKind k) { return k == LinkKind::kBidirectional ? "bi" : "uni"; }

std::optional<Routing> parse_routing(std::string_view s) {
  if (s == "static") return Routing::kStatic;
  if (s == "dynamic") return Routing::kDynamic;
  return std::nullopt;
}

std::optional<LinkKind> parse_link_kind(std::string_view s) {
  if (s == "bi" || s == "bidirectional") return LinkKind::kBidirectional;
  if (s == "uni" || s == "unidirectional") return LinkKind::kUnidirectional;
  return std::nullopt;
}

Result<Network> Network::from_topology(const Topology& topo) {
  const uint64_t n = topo.num_nodes();
  if (n < 1 || n > kMaxNodes)
    return invalid_argument(fmt::format("{}: {} nodes; the routing simulator takes 1..{}", topo.name(), n, kMaxNodes));
  Network net;
  net.name_ = topo.name();
  net.offset_.assign(n + 1, 0);
  for (uint64_t i = 0; i < n; ++i) {
    const std::vector<Node> nb = topo.neighbors(topo.node_at(i));
    net.offset_[i + 1] = net.offset_[i] + static_cast<uint32_t>(nb.size());
    net.max_degree_ = std::max(net.max_degree_, static_cast<int>(nb.size()));
    for (const Node& v : nb) net.neighbor_.push_back(static_cast<NodeId>(topo.index_of(v)));
  }
  // Undirected edge ids: the edge {u, v} gets its id at its lower end.
  net.edge_of_.assign(net.neighbor_.size(), 0);
  for (NodeId u = 0; u < n; ++u)
    for (int p = 0; p < net.degree(u); ++p) {
      const NodeId v = net.neighbor(u, p);
      if (u < v) net.edge_of_[net.offset_[u] + p] = net.num_edges_++;
    }
  for (NodeId u = 0; u < n; ++u)
    for (int p = 0; p < net.degree(u); ++p) {
      const NodeId v = net.neighbor(u, p);
      if (u > v) {
        const int back = net.port_to(v, u);
        if (back < 0)
          return invalid_argument(fmt::format("{}: {} lists {} as a neighbour but not back", topo.name(), u, v));
        net.edge_of_[net.offset_[u] + p] = net.edge_of_[net.offset_[v] + back];
      }
    }
  const UndirectedGraph g = materialize(topo);
  net.dist_.assign(n * n, 0);
  for (uint64_t s = 0; s < n; ++s) {
    const std::vector<int> d = bfs_distances(g, s);
    for (uint64_t t = 0; t < n; ++t) {
      if (d[t] < 0) return invalid_argument(fmt::format("{} is not connected", topo.name()));
      if (d[t] > 255) return invalid_argument(fmt::format("{}: diameter above 255", topo.name()));
      net.dist_[s * n + t] = static_cast<uint8_t>(d[t]);
      net.diameter_ = std::max(net.diameter_, d[t]);
    }
  }
  return net;
}

Result<Network> Network::hypercube(int n) {
  if (n < 1 || n > 12) return invalid_argument(fmt::format("--dim: {} is outside 1..12", n));
  auto q = hypercube::Hypercube::make(n);
  if (!q) return q.error();
  return from_topology(*q);
}

int Network::port_to(NodeId u, NodeId v) const {
  for (int p = 0; p < degree(u); ++p)
    if (neighbor(u, p) == v) return p;
  return -1;
}

void Network::candidates(NodeId c, NodeId d, Routing routing, std::vector<int>& out) const {
  out.clear();
  const int here = distance(c, d);
  if (here == 0) return;
  for (int p = 0; p < degree(c); ++p)
    if (distance(neighbor(c, p), d) == here - 1) {
      out.push_back(p);
      if (routing == Routing::kStatic) return;
    }
}

}  // namespace topocheck::routing
