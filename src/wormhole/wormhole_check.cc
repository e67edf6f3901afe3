#include "wormhole/wormhole_check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <numeric>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace topocheck::routing {
namespace {

constexpr uint32_t kNever = std::numeric_limits<uint32_t>::max();  // "did not happen"
constexpr int kFar = std::numeric_limits<int>::max();               // unreachable in a BFS

// The routing family a routing function's name states (wormhole_routing.h's names).
enum class Family { kUnknown, kShortestPath, kUpDown };

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

// up*/down* (wormhole_routing.h, restated): level = BFS distance from the root; u->v is an up hop
// iff (level v, v) < (level u, u). A route is legal iff no up hop follows a down hop. State
// (x, phase): phase 1 ("down") iff the hop into x was a down hop; from phase 1 only down hops.
struct UpDown {
  std::vector<int> level;
  bool up(NodeId u, NodeId v) const { return level[v] < level[u] || (level[v] == level[u] && v < u); }

  // legal[2 * x + phase] = length of a shortest legal route from state (x, phase) to d: a BFS
  // from (d, 0) and (d, 1) along reversed transitions. The reverse of (u, p) -> (v, p') is: an up
  // hop u->v leads (u, 0) -> (v, 0); a down hop leads (u, 0) and (u, 1) to (v, 1).
  std::vector<int> legal_to(const Graph& g, NodeId d) const {
    const NodeId N = g.net.num_nodes();
    std::vector<int> dist(2 * size_t{N}, kFar);
    std::deque<uint32_t> queue;
    for (uint32_t phase = 0; phase < 2; ++phase) {
      dist[2 * d + phase] = 0;
      queue.push_back(2 * d + phase);
    }
    while (!queue.empty()) {
      const uint32_t s = queue.front();
      queue.pop_front();
      const NodeId v = s / 2;
      const uint32_t phase = s % 2;
      // Predecessors u of v: the network is undirected, so u ranges over v's neighbours.
      for (uint32_t c = g.first[v]; c < g.first[v + 1]; ++c) {
        const NodeId u = g.head[c];
        const bool hop_up = up(u, v);
        if (hop_up != (phase == 0)) continue;  // an up hop enters phase 0, a down hop phase 1
        for (uint32_t from_phase = 0; from_phase < (hop_up ? 1u : 2u); ++from_phase) {
          const uint32_t p = 2 * u + from_phase;
          if (dist[p] == kFar) {
            dist[p] = dist[s] + 1;
            queue.push_back(p);
          }
        }
      }
    }
    return dist;
  }
};

// The root R of "updown-...(root R)"; 0 (RoutingSpec's default) when the name states none.
NodeId root_of(const std::string& name) {
  const size_t at = name.find("root ");
  if (at == std::string::npos) return 0;
  NodeId r = 0;
  for (size_t i = at + 5; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i) r = r * 10 + (name[i] - '0');
  return r;
}

WormViolation V(WormRule rule, std::string message) { return WormViolation{rule, std::move(message)}; }

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

}  // namespace

std::string to_string(WormRule rule) {
  switch (rule) {
    case WormRule::kTrace: return "trace";
    case WormRule::kWalk: return "walk";
    case WormRule::kFlitOrder: return "flit_order";
    case WormRule::kOneHop: return "one_hop";
    case WormRule::kRouting: return "routing";
    case WormRule::kMinimal: return "minimal";
    case WormRule::kUpDown: return "updown";
    case WormRule::kEjection: return "ejection";
    case WormRule::kDelivery: return "delivery";
    case WormRule::kExclusive: return "exclusive";
    case WormRule::kChannelCapacity: return "channel_capacity";
    case WormRule::kInjection: return "injection";
    case WormRule::kQueueOrder: return "queue_order";
    case WormRule::kBuffer: return "buffer";
    case WormRule::kCounts: return "counts";
    case WormRule::kStatistics: return "statistics";
  }
  return "?";
}

std::optional<std::string> check_wormhole_trace_text(const Network& net, const WormholeRouting& routing,
                                                     const std::vector<WormMessage>& messages,
                                                     const WormConfig& config, const WormResult& result) {
  auto v = check_wormhole_trace(net, routing, messages, config, result);
  if (!v) return std::nullopt;
  return to_string(v->rule) + ": " + v->message;
}

std::optional<WormViolation> check_wormhole_trace(const Network& net, const WormholeRouting& routing,
                                                  const std::vector<WormMessage>& messages,
                                                  const WormConfig& config, const WormResult& result) {
  const Graph g(net);
  const NodeId N = net.num_nodes();
  const uint32_t C = g.channels();
  const size_t M = messages.size();

  // 0. The trace is well formed.
  if (!result.trace) return V(WormRule::kTrace, "the run has no trace (record_trace was off)");
  const WormTrace& tr = *result.trace;
  for (size_t w = 0; w < M; ++w) {
    const WormMessage& m = messages[w];
    if (m.src >= N || m.dst >= N || m.src == m.dst || m.length == 0)
      return V(WormRule::kTrace, fmt::format("message {} ({} -> {}, {} flits) is not a valid message on {} nodes", w,
                                             m.src, m.dst, m.length, N));
  }
  if (result.delivered_at.size() != M)
    return V(WormRule::kTrace, fmt::format("delivered_at has {} entries for {} worms", result.delivered_at.size(), M));
  for (size_t i = 0; i < tr.crossings.size(); ++i) {
    const FlitCrossing& x = tr.crossings[i];
    if (x.worm >= M) return V(WormRule::kTrace, fmt::format("cycle {}: a crossing of worm {}, which does not exist", x.cycle, x.worm));
    if (x.flit >= messages[x.worm].length)
      return V(WormRule::kTrace, fmt::format("cycle {}: worm {} has {} flits, the trace moves flit {}", x.cycle, x.worm,
                                             messages[x.worm].length, x.flit));
    if (x.channel >= C)
      return V(WormRule::kTrace, fmt::format("cycle {}: worm {} crosses channel {}, which does not exist", x.cycle, x.worm, x.channel));
    if (i > 0 && x.cycle < tr.crossings[i - 1].cycle)
      return V(WormRule::kTrace, fmt::format("the crossings are not in cycle order at cycle {}", x.cycle));
  }
  for (size_t i = 0; i < tr.ejections.size(); ++i) {
    const FlitEjection& e = tr.ejections[i];
    if (e.worm >= M) return V(WormRule::kTrace, fmt::format("cycle {}: an ejection of worm {}, which does not exist", e.cycle, e.worm));
    if (e.flit >= messages[e.worm].length)
      return V(WormRule::kTrace, fmt::format("cycle {}: worm {} has {} flits, the trace ejects flit {}", e.cycle, e.worm,
                                             messages[e.worm].length, e.flit));
    if (i > 0 && e.cycle < tr.ejections[i - 1].cycle)
      return V(WormRule::kTrace, fmt::format("the ejections are not in cycle order at cycle {}", e.cycle));
  }

  // Layout: hops[w] = channels the header crosses; path[pbase[w] + j] = P_w[j]; flit k of w is
  // f = fbase[w] + k; time[tbase[w] + k * hops[w] + j] = t(k, j).
  std::vector<uint32_t> hops(M, 0);
  for (const FlitCrossing& x : tr.crossings)
    if (x.flit == 0) ++hops[x.worm];
  std::vector<size_t> pbase(M + 1, 0), fbase(M + 1, 0), tbase(M + 1, 0);
  for (size_t w = 0; w < M; ++w) {
    pbase[w + 1] = pbase[w] + hops[w];
    fbase[w + 1] = fbase[w] + messages[w].length;
    tbase[w + 1] = tbase[w] + size_t{messages[w].length} * hops[w];
  }
  std::vector<uint32_t> path(pbase[M], kNever);
  std::vector<uint32_t> time(tbase[M], kNever);
  std::vector<uint32_t> crossed(fbase[M], 0);  // hops crossed so far, per flit
  auto T = [&](size_t w, uint32_t k, uint32_t j) -> uint32_t& { return time[tbase[w] + size_t{k} * hops[w] + j]; };
  auto who = [](size_t w, uint32_t k) { return fmt::format("worm {} flit {}", w, k); };

  // 1. Walks, flit order, one hop per cycle; in trace order, so the earliest cycle comes first.
  std::vector<uint32_t> hop_of(tr.crossings.size());
  for (size_t i = 0; i < tr.crossings.size(); ++i) {
    const FlitCrossing& x = tr.crossings[i];
    const WormMessage& m = messages[x.worm];
    const uint32_t t = x.cycle, k = x.flit, c = x.channel;
    const uint32_t j = crossed[fbase[x.worm] + k];
    if (k == 0) {
      if (j == 0 && g.tail[c] != m.src)
        return V(WormRule::kWalk, fmt::format("cycle {}: the header of worm {} ({} -> {}) enters the network on channel {}, "
                                              "which does not leave its source",
                                              t, x.worm, m.src, m.dst, g.name(c)));
      if (j > 0) {
        const uint32_t previous = path[pbase[x.worm] + j - 1];
        if (g.head[previous] == m.dst)
          return V(WormRule::kWalk, fmt::format("cycle {}: the header of worm {} crosses {} after reaching its destination {}",
                                                t, x.worm, g.name(c), m.dst));
        if (g.tail[c] != g.head[previous])
          return V(WormRule::kWalk, fmt::format("cycle {}: the header of worm {} crosses {}, but it is at node {} (it came over {})",
                                                t, x.worm, g.name(c), g.head[previous], g.name(previous)));
      }
      path[pbase[x.worm] + j] = c;
    } else {
      if (j >= hops[x.worm])
        return V(WormRule::kWalk, fmt::format("cycle {}: {} crosses {} as its hop {}, but the header crossed only {} channels",
                                              t, who(x.worm, k), g.name(c), j, hops[x.worm]));
      if (T(x.worm, k - 1, j) == kNever || T(x.worm, k - 1, j) >= t)
        return V(WormRule::kFlitOrder, fmt::format("cycle {}: {} crosses {} (hop {}) before flit {} crossed it in an earlier cycle",
                                                   t, who(x.worm, k), g.name(c), j, k - 1));
      if (c != path[pbase[x.worm] + j])
        return V(WormRule::kWalk, fmt::format("cycle {}: {} crosses {} as its hop {}, but the header's hop {} was {}", t,
                                              who(x.worm, k), g.name(c), j, j, g.name(path[pbase[x.worm] + j])));
    }
    if (j == 0 && t < m.created)
      return V(WormRule::kWalk, fmt::format("cycle {}: {} enters the network before the worm is created (cycle {})", t,
                                            who(x.worm, k), m.created));
    if (j > 0 && T(x.worm, k, j - 1) >= t)
      return V(WormRule::kOneHop, fmt::format("cycle {}: {} crosses {} in the same cycle as {} (one channel per cycle)", t,
                                              who(x.worm, k), g.name(c), g.name(path[pbase[x.worm] + j - 1])));
    T(x.worm, k, j) = t;
    hop_of[i] = j;
    ++crossed[fbase[x.worm] + k];
  }

  // 2. Routing: routing.allowed(), then the family's rule recomputed here.
  const std::string routing_name = routing.name();
  const Family family = routing_name.rfind("sp-", 0) == 0       ? Family::kShortestPath
                        : routing_name.rfind("updown-", 0) == 0 ? Family::kUpDown
                                                                : Family::kUnknown;
  UpDown updown;
  if (family == Family::kUpDown) {
    const NodeId root = root_of(routing_name);
    if (root >= N) return V(WormRule::kTrace, fmt::format("routing {} names root {} on {} nodes", routing_name, root, N));
    updown.level = g.bfs(root);
  }
  // Scanned in trace order; the first violation of kRouting, else of kUpDown, else of kMinimal
  // is returned (a route that goes down then up also leaves the shortest legal routes at its
  // first hop: the up*/down* rule names the fault).
  std::vector<std::vector<int>> to(N);  // per destination, distances (sp) or legal distances (updown)
  std::vector<uint32_t> allowed;
  std::optional<WormViolation> not_updown, not_minimal;
  for (size_t i = 0; i < tr.crossings.size(); ++i) {
    const FlitCrossing& x = tr.crossings[i];
    if (x.flit != 0) continue;
    const WormMessage& m = messages[x.worm];
    const uint32_t j = hop_of[i], c = x.channel;
    const uint32_t in = j == 0 ? kInjection : path[pbase[x.worm] + j - 1];
    const NodeId at = g.tail[c], next = g.head[c];
    routing.allowed(at, in, m.dst, allowed);
    if (std::find(allowed.begin(), allowed.end(), c) == allowed.end()) {
      std::string list;
      for (uint32_t a : allowed) list += (list.empty() ? "" : ", ") + g.name(a);
      return V(WormRule::kRouting, fmt::format("cycle {}: the header of worm {} (-> {}) takes {}, which {} does not allow "
                                               "(allowed: {})",
                                               x.cycle, x.worm, m.dst, g.name(c), routing_name, list.empty() ? "none" : list));
    }
    if (family == Family::kUnknown || not_updown) continue;
    if (to[m.dst].empty()) to[m.dst] = family == Family::kShortestPath ? g.bfs(m.dst) : updown.legal_to(g, m.dst);
    const std::vector<int>& d = to[m.dst];
    auto far = [](int v) { return v == kFar ? std::string("no") : std::to_string(v); };
    if (family == Family::kShortestPath) {
      if (!not_minimal && (d[next] == kFar || d[next] + 1 != d[at]))
        not_minimal = V(WormRule::kMinimal, fmt::format("cycle {}: the header of worm {} takes {}, from distance {} to distance {} "
                                                        "from its destination {} (not a shortest path)",
                                                        x.cycle, x.worm, g.name(c), far(d[at]), far(d[next]), m.dst));
      continue;
    }
    const bool came_down = in != kInjection && !updown.up(g.tail[in], g.head[in]);
    const bool goes_up = updown.up(at, next);
    if (came_down && goes_up) {
      not_updown = V(WormRule::kUpDown, fmt::format("cycle {}: the header of worm {} takes the up hop {} after the down hop {}",
                                                    x.cycle, x.worm, g.name(c), g.name(in)));
      continue;
    }
    const int here = d[2 * at + (came_down ? 1 : 0)], there = d[2 * next + (goes_up ? 0 : 1)];
    if (!not_minimal && (there == kFar || there + 1 != here))
      not_minimal = V(WormRule::kMinimal, fmt::format("cycle {}: the header of worm {} takes {}, from {} to {} legal hops from its "
                                                      "destination {} (not on a shortest legal route)",
                                                      x.cycle, x.worm, g.name(c), far(here), far(there), m.dst));
  }
  if (not_updown) return not_updown;
  if (not_minimal) return not_minimal;

  // 6a. Ejections. A flit "arrived" when it crossed its worm's whole path and that path ends
  // at the destination; it must then be ejected promptly (ejection never blocks).
  auto arrived = [&](size_t w, uint32_t k) {
    return hops[w] > 0 && crossed[fbase[w] + k] == hops[w] && g.head[path[pbase[w] + hops[w] - 1]] == messages[w].dst;
  };
  std::vector<uint32_t> ejected(fbase[M], kNever);
  for (const FlitEjection& e : tr.ejections) {
    const WormMessage& m = messages[e.worm];
    const uint32_t k = e.flit, t = e.cycle;
    uint32_t& at = ejected[fbase[e.worm] + k];
    if (at != kNever)
      return V(WormRule::kEjection, fmt::format("cycle {}: {} is ejected a second time (first in cycle {})", t, who(e.worm, k), at));
    if (!arrived(e.worm, k)) {
      const uint32_t n = crossed[fbase[e.worm] + k];
      const NodeId where = n == 0 ? m.src : g.head[path[pbase[e.worm] + n - 1]];
      return V(WormRule::kEjection, fmt::format("cycle {}: {} is ejected at node {}, but its destination is {}{}", t,
                                                who(e.worm, k), where, m.dst,
                                                where == m.dst ? " (it has not crossed all of its header's channels)" : ""));
    }
    const uint32_t arrival = T(e.worm, k, hops[e.worm] - 1);
    if (t <= arrival)
      return V(WormRule::kEjection, fmt::format("cycle {}: {} is ejected in the cycle it crossed into its destination's buffer "
                                                "(cycle {}); one move per flit per cycle",
                                                t, who(e.worm, k), arrival));
    uint32_t due = arrival + 1;
    if (k > 0) {
      const uint32_t ahead = ejected[fbase[e.worm] + k - 1];
      if (ahead == kNever || ahead >= t)
        return V(WormRule::kEjection, fmt::format("cycle {}: {} is ejected before flit {} was ejected in an earlier cycle", t,
                                                  who(e.worm, k), k - 1));
      due = std::max(due, ahead + 1);
    }
    if (t != due)
      return V(WormRule::kEjection, fmt::format("cycle {}: {} is ejected, but it could leave in cycle {} and ejection never blocks",
                                                t, who(e.worm, k), due));
    at = t;
  }
  {
    // Lost flits: arrived, due in a simulated cycle, never ejected. The earliest due is reported.
    Earliest lost;
    for (size_t w = 0; w < M; ++w)
      for (uint32_t k = 0; k < messages[w].length; ++k) {
        if (!arrived(w, k) || ejected[fbase[w] + k] != kNever) continue;
        uint32_t due = T(w, k, hops[w] - 1) + 1;
        if (k > 0) {
          if (ejected[fbase[w] + k - 1] == kNever) break;  // the flit ahead is the one lost
          due = std::max(due, ejected[fbase[w] + k - 1] + 1);
        }
        if (due < result.cycles)
          lost.offer(due, WormRule::kDelivery,
                     fmt::format("cycle {}: {} reached its destination {} in cycle {} and should be ejected now (ejection "
                                 "never blocks), but it is never ejected in the run's {} cycles: the flit is lost",
                                 due, who(w, k), messages[w].dst, T(w, k, hops[w] - 1), result.cycles));
        break;
      }
    if (lost.violation) return lost.violation;
  }
  for (size_t w = 0; w < M; ++w) {
    const uint32_t tail = ejected[fbase[w] + messages[w].length - 1];
    const uint32_t recorded = result.delivered_at[w];
    if (tail != kNever && recorded != tail)
      return V(WormRule::kDelivery, fmt::format("worm {}: its tail is ejected in cycle {}, but delivered_at says {}", w, tail, recorded));
    if (tail == kNever && recorded != 0)
      return V(WormRule::kDelivery, fmt::format("worm {}: delivered_at says cycle {}, but its tail (flit {}) is never ejected", w,
                                                recorded, messages[w].length - 1));
  }

  // 4. Exclusivity: reservation intervals [start, release] per channel, swept by start.
  struct Reservation {
    uint32_t start, release, worm, hop;
  };
  std::vector<Reservation> reservations;
  reservations.reserve(pbase[M]);
  for (size_t w = 0; w < M; ++w) {
    const uint32_t last = messages[w].length - 1;
    for (uint32_t j = 0; j < hops[w]; ++j) {
      const uint32_t release = j + 1 < hops[w] ? T(w, last, j + 1) : ejected[fbase[w] + last];
      reservations.push_back({T(w, 0, j), release, static_cast<uint32_t>(w), j});
    }
  }
  std::sort(reservations.begin(), reservations.end(),
            [](const Reservation& a, const Reservation& b) { return std::tie(a.start, a.worm) < std::tie(b.start, b.worm); });
  std::vector<const Reservation*> holder(C, nullptr);
  for (const Reservation& r : reservations) {
    const uint32_t c = path[pbase[r.worm] + r.hop];
    const Reservation* h = holder[c];
    if (h && h->release >= r.start) {
      const std::string until =
          h->release == kNever
              ? std::string("its tail never leaves it")
              : fmt::format("its tail leaves it in cycle {}{}", h->release,
                            h->release == r.start ? " (a freed channel is reservable from the next cycle)" : "");
      return V(WormRule::kExclusive,
               fmt::format("cycle {}: the header of worm {} reserves {}, which worm {} holds (its header crossed in cycle {}; {})",
                           r.start, r.worm, g.name(c), h->worm, h->start, until));
    }
    holder[c] = &r;
  }

  // 3. Per cycle: channel capacity, ejection bandwidth, one injected flit per source.
  {
    Earliest found;
    std::vector<uint32_t> used(C, kNever), who_used(C, 0), injected(N, kNever), who_injected(N, 0);
    for (size_t i = 0; i < tr.crossings.size(); ++i) {
      const FlitCrossing& x = tr.crossings[i];
      if (used[x.channel] == x.cycle) {
        found.offer(x.cycle, WormRule::kChannelCapacity,
                    fmt::format("cycle {}: channel {} carries two flits (of worms {} and {})", x.cycle, g.name(x.channel),
                                who_used[x.channel], x.worm));
        break;
      }
      used[x.channel] = x.cycle;
      who_used[x.channel] = x.worm;
      if (hop_of[i] != 0) continue;
      const NodeId s = messages[x.worm].src;
      if (injected[s] == x.cycle) {
        found.offer(x.cycle, WormRule::kInjection,
                    fmt::format("cycle {}: node {} injects two flits (of worms {} and {})", x.cycle, s, who_injected[s], x.worm));
        break;
      }
      injected[s] = x.cycle;
      who_injected[s] = x.worm;
    }
    std::fill(used.begin(), used.end(), kNever);
    for (const FlitEjection& e : tr.ejections) {
      const uint32_t c = path[pbase[e.worm] + hops[e.worm] - 1];  // arrived: checked in 6a
      if (used[c] == e.cycle) {
        found.offer(e.cycle, WormRule::kEjection,
                    fmt::format("cycle {}: two flits are ejected from input channel {} (of worms {} and {})", e.cycle, g.name(c),
                                who_used[c], e.worm));
        break;
      }
      used[c] = e.cycle;
      who_used[c] = e.worm;
    }
    if (found.violation) return found.violation;
  }
  {
    // Queue order: per source, worms by (created, index); each header leaves after the worm
    // ahead of it has fully left.
    std::vector<uint32_t> order(M);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return messages[a].created < messages[b].created; });
    std::vector<uint32_t> ahead(N, kNever);
    Earliest found;
    for (uint32_t b : order) {
      const NodeId s = messages[b].src;
      const uint32_t a = ahead[s];
      ahead[s] = b;
      if (a == kNever || hops[b] == 0) continue;
      const uint32_t leaves = T(b, 0, 0);
      const uint32_t last = messages[a].length - 1;
      const uint32_t gone = hops[a] > 0 && crossed[fbase[a] + last] > 0 ? T(a, last, 0) : kNever;
      if (gone == kNever || gone >= leaves)
        found.offer(leaves, WormRule::kQueueOrder,
                    fmt::format("cycle {}: the header of worm {} (created in cycle {}) leaves node {}, but worm {} "
                                "(created in cycle {}) is ahead of it in the queue and {}",
                                leaves, b, messages[b].created, s, a, messages[a].created,
                                gone == kNever ? std::string("has not fully left")
                                               : fmt::format("its tail leaves only in cycle {}", gone)));
    }
    if (found.violation) return found.violation;
  }

  // 5. Buffers, cycle by cycle: first every flit leaving a buffer in cycle t, then every flit
  // entering one; the count after an entry never exceeds the end-of-cycle count.
  {
    std::vector<uint32_t> count(C, 0);
    size_t xi = 0, ei = 0;
    while (xi < tr.crossings.size()) {
      const uint32_t t = tr.crossings[xi].cycle;
      size_t xend = xi;
      while (xend < tr.crossings.size() && tr.crossings[xend].cycle == t) ++xend;
      for (size_t i = xi; i < xend; ++i)
        if (hop_of[i] > 0) --count[path[pbase[tr.crossings[i].worm] + hop_of[i] - 1]];
      for (; ei < tr.ejections.size() && tr.ejections[ei].cycle <= t; ++ei) {
        const FlitEjection& e = tr.ejections[ei];
        --count[path[pbase[e.worm] + hops[e.worm] - 1]];
      }
      for (size_t i = xi; i < xend; ++i) {
        const FlitCrossing& x = tr.crossings[i];
        if (++count[x.channel] > config.buffer)
          return V(WormRule::kBuffer, fmt::format("cycle {}: {} enters the buffer of {}, which then holds {} flits (B = {})", t,
                                                  who(x.worm, x.flit), g.name(x.channel), count[x.channel], config.buffer));
      }
      xi = xend;
    }
  }

  // 7. The result's numbers.
  if (result.flit_crossings != tr.crossings.size())
    return V(WormRule::kCounts, fmt::format("the result counts {} flit crossings, the trace has {}", result.flit_crossings,
                                            tr.crossings.size()));
  uint64_t delivered = 0;
  uint32_t last_ejection = 0;
  for (size_t w = 0; w < M; ++w) {
    if (result.delivered_at[w] == 0) continue;
    ++delivered;
    last_ejection = std::max(last_ejection, result.delivered_at[w]);
  }
  if (result.delivered_worms != delivered)
    return V(WormRule::kCounts, fmt::format("the result counts {} delivered worms, delivered_at {}", result.delivered_worms, delivered));
  if (result.completed != (delivered == M))
    return V(WormRule::kCounts, fmt::format("completed is {}, but {} of {} worms are delivered", result.completed, delivered, M));
  const uint32_t last_event = std::max(tr.crossings.empty() ? 0 : tr.crossings.back().cycle,
                                       tr.ejections.empty() ? 0 : tr.ejections.back().cycle);
  if ((!tr.crossings.empty() || !tr.ejections.empty()) && last_event >= result.cycles)
    return V(WormRule::kCounts, fmt::format("the run simulated {} cycles (0..{}), but the trace has an event in cycle {}",
                                            result.cycles, result.cycles == 0 ? 0 : result.cycles - 1, last_event));
  if (result.completed && result.deadlock)
    return V(WormRule::kCounts, "the run is both completed and deadlocked");
  if (result.completed && M > 0 && result.cycles != last_ejection + 1)
    return V(WormRule::kCounts, fmt::format("the run completed with the last tail ejected in cycle {}, but it reports {} cycles",
                                            last_ejection, result.cycles));
  if (!result.completed && !result.deadlock && result.cycles != config.max_cycles)
    return V(WormRule::kCounts, fmt::format("the run stopped after {} cycles, neither completed nor deadlocked, before max_cycles = {}",
                                            result.cycles, config.max_cycles));

  // 8. The window statistics, recomputed from the messages and the trace.
  if (config.measure > 0 || config.warmup == 0) {
    const uint64_t begin = config.warmup;
    const uint64_t length = config.measure > 0 ? config.measure : std::max<uint32_t>(result.cycles, 1);
    auto inside = [&](uint64_t t) { return t >= begin && t < begin + length; };
    uint64_t worms = 0, delivered_in = 0, offered_flits = 0, accepted_flits = 0, latency_sum = 0;
    for (size_t w = 0; w < M; ++w) {
      if (!inside(messages[w].created)) continue;
      ++worms;
      offered_flits += messages[w].length;
      if (result.delivered_at[w] == 0) continue;
      ++delivered_in;
      latency_sum += result.delivered_at[w] - messages[w].created + 1;
    }
    for (const FlitEjection& e : tr.ejections) accepted_flits += inside(e.cycle);
    const double per = static_cast<double>(N) * static_cast<double>(length);
    const double accepted = static_cast<double>(accepted_flits) / per, offered = static_cast<double>(offered_flits) / per;
    const double latency = delivered_in ? static_cast<double>(latency_sum) / static_cast<double>(delivered_in) : 0;
    auto differs = [](double a, double b) { return std::abs(a - b) > 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); };
    const std::string window = fmt::format("window [{}, {})", begin, begin + length);
    if (result.window_worms != worms)
      return V(WormRule::kStatistics, fmt::format("{}: the result counts {} worms created in it, the messages {}", window,
                                                  result.window_worms, worms));
    if (result.window_delivered != delivered_in)
      return V(WormRule::kStatistics, fmt::format("{}: the result counts {} of its worms delivered, delivered_at {}", window,
                                                  result.window_delivered, delivered_in));
    if (differs(result.offered, offered))
      return V(WormRule::kStatistics, fmt::format("{}: offered is {}, the messages give {} flits / ({} nodes x {} cycles) = {}",
                                                  window, result.offered, offered_flits, N, length, offered));
    if (differs(result.accepted, accepted))
      return V(WormRule::kStatistics, fmt::format("{}: accepted is {}, the trace ejects {} flits in it: {} per node and cycle",
                                                  window, result.accepted, accepted_flits, accepted));
    if (differs(result.mean_latency, latency))
      return V(WormRule::kStatistics, fmt::format("{}: mean latency is {}, delivered_at gives {} over {} worms", window,
                                                  result.mean_latency, latency, delivered_in));
  }
  return std::nullopt;
}

}  // namespace topocheck::routing
