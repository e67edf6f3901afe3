// Private to the naive judge of wormhole runs (wormhole_check.cc, wormhole_check_resources.cc;
// include it nowhere else): the judge's own view of the network and of the trace it replays, and
// the rules of wormhole_check.h that wormhole_check_resources.cc implements. Every rule function
// states its rule (the numbers and names of wormhole_check.h), returns its first violation or
// nullopt, and assumes the rules before it in check_wormhole_trace's order hold.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "network/network.h"
#include "wormhole/wormhole.h"
#include "wormhole/wormhole_check.h"

namespace topocheck::routing::wormhole_judge {

constexpr uint32_t kNever = std::numeric_limits<uint32_t>::max();  // "did not happen"
constexpr int kFar = std::numeric_limits<int>::max();               // unreachable in a BFS

// The judge's own view of the network: channels by (u, port) in Network::link order, distances
// by its own BFS (not Network::distance), up*/down* levels and legal distances by its own BFS.
struct Graph {
  const Network& net;
  std::vector<NodeId> tail, head;  // per channel
  std::vector<uint32_t> first;     // channels of u: [first[u], first[u + 1])

  explicit Graph(const Network& n) : net(n) {
    const NodeId N = net.num_nodes();
    first.assign(N + 1, 0);
    for (NodeId u = 0; u < N; ++u) {
      first[u] = static_cast<uint32_t>(tail.size());
      for (int p = 0; p < net.degree(u); ++p) {
        tail.push_back(u);
        head.push_back(net.neighbor(u, p));
      }
    }
    first[N] = static_cast<uint32_t>(tail.size());
  }
  uint32_t channels() const { return static_cast<uint32_t>(tail.size()); }
  std::string name(uint32_t c) const { return fmt::format("{}->{}", tail[c], head[c]); }

  // Hop distances to (= from: the network is undirected) `d`.
  std::vector<int> bfs(NodeId d) const {
    std::vector<int> dist(net.num_nodes(), kFar);
    std::deque<NodeId> queue{d};
    dist[d] = 0;
    while (!queue.empty()) {
      const NodeId u = queue.front();
      queue.pop_front();
      for (uint32_t c = first[u]; c < first[u + 1]; ++c)
        if (dist[head[c]] == kFar) {
          dist[head[c]] = dist[u] + 1;
          queue.push_back(head[c]);
        }
    }
    return dist;
  }
};

inline WormViolation V(WormRule rule, std::string message) { return WormViolation{rule, std::move(message)}; }

// A violation found at `cycle`; keeps the earliest of those offered.
struct Earliest {
  uint32_t cycle = kNever;
  std::optional<WormViolation> violation;
  void offer(uint32_t c, WormRule rule, std::string message) {
    if (!violation || c < cycle) {
      cycle = c;
      violation = V(rule, std::move(message));
    }
  }
};

// What the judge is given: the judge's own view of the network and the recorded trace (present).
struct Run {
  const Graph& g;
  const WormholeRouting& routing;
  const std::vector<WormMessage>& messages;
  const WormConfig& config;
  const WormResult& result;
  const WormTrace& tr;
  NodeId N;  // nodes
  size_t M;  // worms
};

// The trace laid out per worm: hops[w] = channels the header crosses; path[pbase[w] + j] = P_w[j];
// flit k of w is f = fbase[w] + k; time[tbase[w] + k * hops[w] + j] = t(k, j). Rule 1 fills path,
// time, crossed and hop_of as it reads the crossings; rule 6a fills ejected as it reads the
// ejections; the later rules only read them.
struct Layout {
  std::vector<uint32_t> hops;
  std::vector<size_t> pbase, fbase, tbase;
  std::vector<uint32_t> path, time;
  std::vector<uint32_t> crossed;  // hops crossed so far, per flit
  std::vector<uint32_t> hop_of;   // per crossing of the trace, the hop j it is
  std::vector<uint32_t> ejected;  // per flit, the cycle it is ejected (kNever: not ejected)

  uint32_t& T(size_t w, uint32_t k, uint32_t j) { return time[tbase[w] + size_t{k} * hops[w] + j]; }
  uint32_t T(size_t w, uint32_t k, uint32_t j) const { return time[tbase[w] + size_t{k} * hops[w] + j]; }
};

inline std::string who(size_t w, uint32_t k) { return fmt::format("worm {} flit {}", w, k); }

// ---- Defined in wormhole_check_resources.cc: what the worms use over time, and the run's numbers.

// Rule 6a, kEjection: only arrived flits are ejected, each once, in flit order, strictly after
// the cycle they crossed into the destination's buffer, and (ejection never blocks) exactly in
// the first cycle they may: e(k) = max(t(k, last) + 1, e(k-1) + 1). Fills lay.ejected.
std::optional<WormViolation> check_ejections(const Run& r, Layout& lay);
// Rule 6a, kDelivery: no flit is lost (an arrived flit due in a simulated cycle was ejected;
// the earliest due is reported).
std::optional<WormViolation> check_no_flit_lost(const Run& r, const Layout& lay);
// Rule 6a, kDelivery: delivered_at[w] is e(L-1) when the tail was ejected and 0 otherwise.
std::optional<WormViolation> check_delivered_at(const Run& r, const Layout& lay);
// Rule 4, kExclusive: no two reservation intervals of one channel overlap.
std::optional<WormViolation> check_exclusive(const Run& r, const Layout& lay);
// Rule 3, kChannelCapacity, kInjection, kEjection: one flit per channel, per source injection and
// per ejecting input channel and cycle (the earliest cycle is reported).
std::optional<WormViolation> check_bandwidth(const Run& r, const Layout& lay);
// Rule 3, kQueueOrder: each source's queue is FIFO by (created, index).
std::optional<WormViolation> check_queue_order(const Run& r, const Layout& lay);
// Rule 5, kBuffer: at the end of every cycle each buffer holds at most config.buffer flits.
std::optional<WormViolation> check_buffers(const Run& r, const Layout& lay);
// Rule 7, kCounts: the result's numbers agree with the trace and with each other.
std::optional<WormViolation> check_counts(const Run& r);
// Rule 8, kStatistics: the window statistics, recomputed from the messages and the trace.
std::optional<WormViolation> check_statistics(const Run& r);

}  // namespace topocheck::routing::wormhole_judge
