// Private to the deadlock search (deadlock.cc, deadlock_state_space.cc,
// deadlock_configurations.cc; include it nowhere else): the searches' view of the buffer model,
// the location codes of their states, the witness they build from a deadlocked placement, and
// the two searches of deadlock.h (kStateSpace, kConfigurations) that search_deadlock dispatches
// to. The naive judge (deadlock_witness.cc) shares none of this.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "routing/deadlock.h"

namespace topocheck::routing::deadlock_search {

// The search's view of the model: buffers numbered 0..count-1 (kPerNode: the node; kPerLink: the
// directed link id of Network::link(u, port, kUnidirectional)), the node each sits at, and the
// buffer a hop c --port--> fills.
struct BufferTable {
  BufferTable(const Network& network, const DeadlockModel& m) : net(network), model(m) {
    if (model.buffers == BufferModel::kPerNode) {
      count = net.num_nodes();
      for (NodeId u = 0; u < count; ++u) {
        head.push_back(u);
        tail.push_back(u);
      }
    } else {
      count = net.num_links(LinkKind::kUnidirectional);
      head.assign(count, 0);
      tail.assign(count, 0);
      for (NodeId u = 0; u < net.num_nodes(); ++u)
        for (int p = 0; p < net.degree(u); ++p) {
          const uint32_t b = net.link(u, p, LinkKind::kUnidirectional);
          head[b] = net.neighbor(u, p);
          tail[b] = u;
        }
    }
  }
  uint32_t target(NodeId c, int port) const {
    return model.buffers == BufferModel::kPerNode ? net.neighbor(c, port)
                                                  : net.link(c, port, LinkKind::kUnidirectional);
  }
  bool allowed_hop(NodeId u, NodeId v, NodeId d, std::vector<int>& scratch) const {
    net.candidates(u, d, model.routing, scratch);
    const int port = net.port_to(u, v);
    return std::find(scratch.begin(), scratch.end(), port) != scratch.end();
  }

  const Network& net;
  DeadlockModel model;
  uint32_t count = 0;
  std::vector<NodeId> head, tail;
};

// Location codes of the searches: 0 injected, 1 delivered, 2 + b buffered in buffer b.
constexpr uint16_t kCodeInjected = 0;
constexpr uint16_t kCodeDelivered = 1;
constexpr uint16_t kCodeBuffer = 2;

// The witness for `messages` after `moves`: the final placement replayed, and a wait cycle of
// the deadlocked placement `codes` (one location code per message). Defined in deadlock.cc.
DeadlockWitness make_witness(const BufferTable& table, int n, const std::vector<DeadlockMessage>& messages,
                             std::vector<Move> moves, const std::vector<uint16_t>& codes);

// The searches of deadlock.h on Q_n (`table` built for the model), with its limits and progress
// calls; each fills verdict, witness, messages_searched, states_explored and its own counts,
// never scope. deadlock_state_space.cc and deadlock_configurations.cc.
DeadlockSearchResult search_state_space(const BufferTable& table, int n, const DeadlockSearchLimits& limits,
                                        const DeadlockProgress& progress);
DeadlockSearchResult search_configurations(const BufferTable& table, int n, const DeadlockSearchLimits& limits,
                                           const DeadlockProgress& progress);

}  // namespace topocheck::routing::deadlock_search
