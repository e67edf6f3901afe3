// The fault-free graph of a faulty Q_n (the subgraph induced on the nonfaulty nodes) as the lower
// bounds and the exact search count it: degrees, ports per unit under a model, the directed links
// of a dimension cut, and the components left when one node is removed. Private to src/aapc
// (bounds.cc, exact_search.cc); other folders use bounds.h. Same notation as bounds.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "aapc/aapc.h"

namespace topocheck::aapc {

// Nonfaulty neighbours of v.
inline int live_degree(const FaultSet& faults, NodeId v) {
  int deg = 0;
  for (int j = 0; j < faults.n(); ++j) deg += faults.is_faulty(v ^ (NodeId{1} << j)) ? 0 : 1;
  return deg;
}

// Per unit, how many data can enter (in) and leave (out) v under the model.
inline int in_ports(const FaultSet& faults, Model model, NodeId v) {
  const int deg = live_degree(faults, v);
  return model == Model::kAllPort ? deg : std::min(deg, 1);
}
inline int out_ports(const FaultSet& faults, Model model, NodeId v) {
  const int deg = live_degree(faults, v);
  return model == Model::kOnePort ? std::min(deg, 1) : deg;
}

// Directed dimension-j links from side a (bit j = a) to the other side, both ends nonfaulty.
inline uint64_t cut_links(const FaultSet& faults, int j, int a) {
  uint64_t c = 0;
  for (NodeId x : faults.nonfaulty())
    if (((x >> j) & 1u) == static_cast<NodeId>(a) && !faults.is_faulty(x ^ (NodeId{1} << j))) ++c;
  return c;
}

// comp[v * N + x]: the component of x in the graph on the nonfaulty nodes without v (-1 for a
// faulty x, for x = v and for every x when v is faulty). O(N^2 n).
inline std::vector<int> components_without(const FaultSet& faults) {
  const NodeId N = faults.num_nodes();
  std::vector<int> comp(uint64_t{N} * N, -1);
  std::vector<NodeId> queue;
  for (NodeId v : faults.nonfaulty()) {
    int* c = &comp[uint64_t{v} * N];
    int label = 0;
    for (NodeId s : faults.nonfaulty()) {
      if (s == v || c[s] >= 0) continue;
      c[s] = label;
      queue.assign(1, s);
      for (size_t head = 0; head < queue.size(); ++head)
        for (int j = 0; j < faults.n(); ++j) {
          const NodeId w = queue[head] ^ (NodeId{1} << j);
          if (w == v || faults.is_faulty(w) || c[w] >= 0) continue;
          c[w] = label;
          queue.push_back(w);
        }
      ++label;
    }
  }
  return comp;
}

}  // namespace topocheck::aapc
