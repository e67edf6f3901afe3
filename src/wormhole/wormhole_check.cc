// The naive judge of a wormhole run (wormhole_check.h): the entry, which calls the rules in the
// header's order, and the rules of the routes the worms take (0: a well-formed trace, 1: walks,
// flit order and one hop per cycle, 2: routing, with the judge's own up*/down* levels and legal
// distances). The rules of what the worms use over time and of the run's numbers are in
// wormhole_check_resources.cc; the judge's view of the network and of the trace in
// wormhole_check_replay.h.
#include "wormhole/wormhole_check.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wormhole/wormhole_check_replay.h"

namespace topocheck::routing {
namespace wormhole_judge {
namespace {

// The routing family a routing function's name states (wormhole_routing.h's names).
enum class Family { kUnknown, kShortestPath, kUpDown };

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

// Rule 0, kTrace: the messages are valid, delivered_at has one entry per worm, and the crossings
// and ejections are in cycle order and name worms, flits and channels that exist.
std::optional<WormViolation> check_well_formed(const Run& r) {
  const NodeId N = r.N;
  const size_t M = r.M;
  const uint32_t C = r.g.channels();
  const WormTrace& tr = r.tr;
  const std::vector<WormMessage>& messages = r.messages;
  for (size_t w = 0; w < M; ++w) {
    const WormMessage& m = messages[w];
    if (m.src >= N || m.dst >= N || m.src == m.dst || m.length == 0)
      return V(WormRule::kTrace, fmt::format("message {} ({} -> {}, {} flits) is not a valid message on {} nodes", w,
                                             m.src, m.dst, m.length, N));
  }
  if (r.result.delivered_at.size() != M)
    return V(WormRule::kTrace, fmt::format("delivered_at has {} entries for {} worms", r.result.delivered_at.size(), M));
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
  return std::nullopt;
}

// The layout of a well-formed trace: hops counted from the header's crossings, the rest sized
// and unset (kNever; crossed 0).
Layout layout_of(const Run& r) {
  const size_t M = r.M;
  Layout lay;
  lay.hops.assign(M, 0);
  for (const FlitCrossing& x : r.tr.crossings)
    if (x.flit == 0) ++lay.hops[x.worm];
  lay.pbase.assign(M + 1, 0);
  lay.fbase.assign(M + 1, 0);
  lay.tbase.assign(M + 1, 0);
  for (size_t w = 0; w < M; ++w) {
    lay.pbase[w + 1] = lay.pbase[w] + lay.hops[w];
    lay.fbase[w + 1] = lay.fbase[w] + r.messages[w].length;
    lay.tbase[w + 1] = lay.tbase[w] + size_t{r.messages[w].length} * lay.hops[w];
  }
  lay.path.assign(lay.pbase[M], kNever);
  lay.time.assign(lay.tbase[M], kNever);
  lay.crossed.assign(lay.fbase[M], 0);
  lay.hop_of.assign(r.tr.crossings.size(), 0);
  lay.ejected.assign(lay.fbase[M], kNever);
  return lay;
}

// Rule 1, kWalk, kFlitOrder, kOneHop: the header walks from its source along channels and stops
// at its destination; every other flit crosses the header's channels in order, each strictly
// after the flit ahead of it and one channel per cycle; nothing enters before its worm is
// created. In trace order, so the earliest cycle comes first. Fills path, time, crossed, hop_of.
std::optional<WormViolation> check_walks(const Run& r, Layout& lay) {
  const Graph& g = r.g;
  for (size_t i = 0; i < r.tr.crossings.size(); ++i) {
    const FlitCrossing& x = r.tr.crossings[i];
    const WormMessage& m = r.messages[x.worm];
    const uint32_t t = x.cycle, k = x.flit, c = x.channel;
    const size_t base = lay.pbase[x.worm];
    const uint32_t j = lay.crossed[lay.fbase[x.worm] + k];
    if (k == 0) {
      if (j == 0 && g.tail[c] != m.src)
        return V(WormRule::kWalk, fmt::format("cycle {}: the header of worm {} ({} -> {}) enters the network on channel {}, "
                                              "which does not leave its source",
                                              t, x.worm, m.src, m.dst, g.name(c)));
      if (j > 0) {
        const uint32_t previous = lay.path[base + j - 1];
        if (g.head[previous] == m.dst)
          return V(WormRule::kWalk, fmt::format("cycle {}: the header of worm {} crosses {} after reaching its destination {}",
                                                t, x.worm, g.name(c), m.dst));
        if (g.tail[c] != g.head[previous])
          return V(WormRule::kWalk, fmt::format("cycle {}: the header of worm {} crosses {}, but it is at node {} (it came over {})",
                                                t, x.worm, g.name(c), g.head[previous], g.name(previous)));
      }
      lay.path[base + j] = c;
    } else {
      if (j >= lay.hops[x.worm])
        return V(WormRule::kWalk, fmt::format("cycle {}: {} crosses {} as its hop {}, but the header crossed only {} channels",
                                              t, who(x.worm, k), g.name(c), j, lay.hops[x.worm]));
      if (lay.T(x.worm, k - 1, j) == kNever || lay.T(x.worm, k - 1, j) >= t)
        return V(WormRule::kFlitOrder, fmt::format("cycle {}: {} crosses {} (hop {}) before flit {} crossed it in an earlier cycle",
                                                   t, who(x.worm, k), g.name(c), j, k - 1));
      if (c != lay.path[base + j])
        return V(WormRule::kWalk, fmt::format("cycle {}: {} crosses {} as its hop {}, but the header's hop {} was {}", t,
                                              who(x.worm, k), g.name(c), j, j, g.name(lay.path[base + j])));
    }
    if (j == 0 && t < m.created)
      return V(WormRule::kWalk, fmt::format("cycle {}: {} enters the network before the worm is created (cycle {})", t,
                                            who(x.worm, k), m.created));
    if (j > 0 && lay.T(x.worm, k, j - 1) >= t)
      return V(WormRule::kOneHop, fmt::format("cycle {}: {} crosses {} in the same cycle as {} (one channel per cycle)", t,
                                              who(x.worm, k), g.name(c), g.name(lay.path[base + j - 1])));
    lay.T(x.worm, k, j) = t;
    lay.hop_of[i] = j;
    ++lay.crossed[lay.fbase[x.worm] + k];
  }
  return std::nullopt;
}

// The routing family a routing function's name states ("sp-...", "updown-...").
Family family_of(const std::string& routing_name) {
  return routing_name.rfind("sp-", 0) == 0       ? Family::kShortestPath
         : routing_name.rfind("updown-", 0) == 0 ? Family::kUpDown
                                                 : Family::kUnknown;
}

// Rule 2, kRouting, kUpDown, kMinimal: every header hop is one routing.allowed() offers, then the
// family's rule recomputed here (a named root outside the network is kTrace). Scanned in trace
// order; the first violation of kRouting, else of kUpDown, else of kMinimal is returned (a route
// that goes down then up also leaves the shortest legal routes at its first hop: the up*/down*
// rule names the fault).
std::optional<WormViolation> check_routing(const Run& r, const Layout& lay) {
  const Graph& g = r.g;
  const NodeId N = r.N;
  const std::string routing_name = r.routing.name();
  const Family family = family_of(routing_name);
  UpDown updown;
  if (family == Family::kUpDown) {
    const NodeId root = root_of(routing_name);
    if (root >= N) return V(WormRule::kTrace, fmt::format("routing {} names root {} on {} nodes", routing_name, root, N));
    updown.level = g.bfs(root);
  }
  std::vector<std::vector<int>> to(N);  // per destination, distances (sp) or legal distances (updown)
  std::vector<uint32_t> allowed;
  std::optional<WormViolation> not_updown, not_minimal;
  for (size_t i = 0; i < r.tr.crossings.size(); ++i) {
    const FlitCrossing& x = r.tr.crossings[i];
    if (x.flit != 0) continue;
    const WormMessage& m = r.messages[x.worm];
    const uint32_t j = lay.hop_of[i], c = x.channel;
    const uint32_t in = j == 0 ? kInjection : lay.path[lay.pbase[x.worm] + j - 1];
    const NodeId at = g.tail[c], next = g.head[c];
    r.routing.allowed(at, in, m.dst, allowed);
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
  return not_minimal;
}

}  // namespace
}  // namespace wormhole_judge

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
  using namespace wormhole_judge;
  const Graph g(net);
  if (!result.trace) return V(WormRule::kTrace, "the run has no trace (record_trace was off)");
  const Run run{g, routing, messages, config, result, *result.trace, net.num_nodes(), messages.size()};
  // The rules in the header's order: the first violation found is the one returned.
  if (auto v = check_well_formed(run)) return v;
  Layout lay = layout_of(run);
  if (auto v = check_walks(run, lay)) return v;
  if (auto v = check_routing(run, lay)) return v;
  if (auto v = check_ejections(run, lay)) return v;
  if (auto v = check_no_flit_lost(run, lay)) return v;
  if (auto v = check_delivered_at(run, lay)) return v;
  if (auto v = check_exclusive(run, lay)) return v;
  if (auto v = check_bandwidth(run, lay)) return v;
  if (auto v = check_queue_order(run, lay)) return v;
  if (auto v = check_buffers(run, lay)) return v;
  if (auto v = check_counts(run)) return v;
  return check_statistics(run);
}

}  // namespace topocheck::routing
