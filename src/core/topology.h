// Topology: the implicit-graph interface every family implements.
//
// A topology answers from address arithmetic: how many nodes, which addresses are nodes, the
// neighbours of a node, whether two nodes are adjacent and along which dimension. It is never
// materialized except by core/graph.h for an oracle. Nodes are numbered 0..num_nodes()-1 by
// `index_of` / `node_at` (for cubes the index is the address itself).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/node.h"

namespace topocheck {

class Topology {
 public:
  virtual ~Topology() = default;

  virtual std::string name() const = 0;          // e.g. "Q_3", "MC(2,3)"
  virtual int width() const = 0;                 // address width in bits
  virtual uint64_t num_nodes() const = 0;
  virtual bool contains(Node u) const = 0;       // u is an address of this topology
  virtual std::vector<Node> neighbors(Node u) const = 0;
  virtual bool is_edge(Node u, Node v) const = 0;
  // The dimension along which u and v are adjacent, or nullopt if they are not adjacent.
  virtual std::optional<int> edge_dimension(Node u, Node v) const = 0;
  virtual uint64_t index_of(Node u) const = 0;
  virtual Node node_at(uint64_t index) const = 0;
};

}  // namespace topocheck
