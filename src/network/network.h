// The network a routing simulation runs on: any topology of src/ turned into numbered nodes,
// numbered ports and numbered links, with hop distances for minimal routing.
//
// Paper: Raghupathy, Leuze, Schach, "Message routing schemes in a hypercube machine" (papers/001).
//  - Static routing (Section 1): at node N_c for destination N_d, flip the rightmost bit i in which
//    they differ. Here: the FIRST productive port (a neighbour one hop closer to N_d) in port
//    order. For Q_n port i is dimension i (Hypercube::neighbors lists u^(0), ..., u^(n-1)), so the
//    first productive port is the lowest differing bit: e-cube routing, exactly.
//  - Dynamic routing (Section 2): the differing positions p_1 < p_2 < ... < p_j are tried in that
//    order; the message is blocked only when all j links are in use. Here: EVERY productive port,
//    in port order (p_1 first, which is the static choice).
//  - Links (Section 2, "third"): one bidirectional link per edge carries one message per cycle in
//    either direction (`kBidirectional`: the link id is the undirected edge); two unidirectional
//    links carry one message per cycle each (`kUnidirectional`: the link id is the directed edge).
// On other topologies (the ITM, issue 8) the same two rules give a fixed shortest path (static)
// and minimal adaptive routing (dynamic); distances come from Boost's BFS (core/graph.h).
//
// Example (Q_3, c = 000, d = 110): productive ports {1, 2}; static -> port 1 (node 010);
// dynamic tries port 1 then port 2 (node 100).
//
// Limits: 1 <= num_nodes <= kMaxNodes, the topology connected; `from_topology` returns an error
// otherwise. Cost: O(N^2) bytes for the distance table, O(N * degree) for ports and links.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/topology.h"

namespace topocheck::routing {

using NodeId = uint32_t;

enum class Routing { kStatic, kDynamic };
enum class LinkKind { kBidirectional, kUnidirectional };

std::string to_string(Routing r);   // "static", "dynamic"
std::string to_string(LinkKind k);  // "bi", "uni"
// Accept "static"/"dynamic" and "bi"/"bidirectional"/"uni"/"unidirectional".
std::optional<Routing> parse_routing(std::string_view s);
std::optional<LinkKind> parse_link_kind(std::string_view s);

inline constexpr NodeId kMaxNodes = 4096;  // the distance table is N^2 bytes (16 MiB here)

class Network {
 public:
  // Any topology of src/ (its node index is the NodeId). Errors: too large, disconnected.
  static Result<Network> from_topology(const Topology& topo);
  // Q_n, 1 <= n <= 12 (port i = dimension i).
  static Result<Network> hypercube(int n);

  const std::string& name() const { return name_; }  // "Q_8"
  NodeId num_nodes() const { return static_cast<NodeId>(offset_.size() - 1); }
  int degree(NodeId u) const { return static_cast<int>(offset_[u + 1] - offset_[u]); }
  int max_degree() const { return max_degree_; }
  NodeId neighbor(NodeId u, int port) const { return neighbor_[offset_[u] + port]; }
  // The port of u that leads to v, or -1 if u and v are not adjacent.
  int port_to(NodeId u, NodeId v) const;
  int distance(NodeId u, NodeId v) const { return dist_[size_t{u} * num_nodes() + v]; }
  int diameter() const { return diameter_; }

  // Link of port `port` at u: kBidirectional -> the undirected edge's id (the same from both
  // ends), 0..num_edges()-1; kUnidirectional -> the directed edge's id, 0..2*num_edges()-1.
  uint32_t link(NodeId u, int port, LinkKind kind) const {
    const uint32_t directed = offset_[u] + static_cast<uint32_t>(port);
    return kind == LinkKind::kUnidirectional ? directed : edge_of_[directed];
  }
  uint32_t num_links(LinkKind kind) const {
    return kind == LinkKind::kUnidirectional ? static_cast<uint32_t>(neighbor_.size()) : num_edges_;
  }

  // The ports a message at c for d may take, in the order they are tried: static -> the first
  // productive port only; dynamic -> every productive port in port order. Empty iff c == d.
  // `out` is cleared first (reused to avoid allocation).
  void candidates(NodeId c, NodeId d, Routing routing, std::vector<int>& out) const;

 private:
  Network() = default;
  std::string name_;
  std::vector<uint32_t> offset_;    // ports of u: [offset_[u], offset_[u+1])
  std::vector<NodeId> neighbor_;    // per directed edge
  std::vector<uint32_t> edge_of_;   // directed edge -> undirected edge id
  std::vector<uint8_t> dist_;       // N x N hop distances
  uint32_t num_edges_ = 0;
  int max_degree_ = 0;
  int diameter_ = 0;
};

}  // namespace topocheck::routing
