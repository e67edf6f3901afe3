#include "routing/trace_check.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace topocheck::routing {
namespace {

// Q_n from the network's name ("Q_8" -> 8), or 0 for other topologies.
int cube_dimension(const Network& net) {
  const std::string& s = net.name();
  if (s.size() < 3 || s[0] != 'Q' || s[1] != '_') return 0;
  int n = 0;
  for (size_t i = 2; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return 0;
    n = n * 10 + (s[i] - '0');
  }
  return (NodeId{1} << n) == net.num_nodes() ? n : 0;
}

struct Judge {
  const Network& net;
  int cube;  // 0: not a cube

  int distance(NodeId a, NodeId b) const { return cube ? std::popcount(a ^ b) : net.distance(a, b); }
  // The neighbours a message at c for d may move to, in the order tried.
  std::vector<NodeId> allowed(NodeId c, NodeId d, Routing routing) const {
    std::vector<NodeId> out;
    if (c == d) return out;
    if (cube) {
      // Section 1: flip the rightmost differing bit; Section 2: any differing bit, p_1 first.
      for (int i = 0; i < cube; ++i)
        if ((c ^ d) >> i & 1) {
          out.push_back(c ^ (NodeId{1} << i));
          if (routing == Routing::kStatic) break;
        }
      return out;
    }
    for (int p = 0; p < net.degree(c); ++p) {
      const NodeId v = net.neighbor(c, p);
      if (net.distance(v, d) + 1 == net.distance(c, d)) {
        out.push_back(v);
        if (routing == Routing::kStatic) break;
      }
    }
    return out;
  }
};

int64_t key_of(Scheme s, SchemeReading reading, int remaining, int original, uint32_t seq, uint32_t generated,
               uint32_t arrival) {
  if (reading == SchemeReading::kText && (s == 'A' || s == 'C')) s = s == 'A' ? 'C' : 'A';
  switch (s) {
    case 'A': return remaining;
    case 'B': return -remaining;
    case 'C': return original;
    case 'D': return -original;
    case 'E': return seq;
    case 'F': return -int64_t{seq};
    case 'G': return generated;
    case 'H': return -int64_t{generated};
    case 'I': return arrival;
    case 'J': return -int64_t{arrival};
    default: return 0;
  }
}

TraceViolation V(TraceRule rule, std::string message) { return TraceViolation{rule, std::move(message)}; }

// The run being judged (its trace present).
struct Run {
  const Network& net;
  const Judge& judge;
  const Workload& w;
  const SimConfig& config;
  const SimResult& result;
  const Trace& tr;
};

// What the rules read off the trace and hand on to the later ones.
struct Facts {
  std::vector<uint32_t> fire;       // per process, the cycle it fires (0: never)
  uint32_t last_fire = 0;
  std::vector<uint32_t> delivered;  // per message, the cycle it reaches its destination (0: never)
  uint64_t waits = 0;               // message-cycles spent without moving (rule 5's scan)
};

// Rule 1, first half (kFiring): every process fires exactly once, in a cycle >= 1. Fills
// fire and last_fire.
std::optional<TraceViolation> check_fires_once(const Run& r, Facts& f) {
  const size_t P = r.w.processes.size();
  f.fire.assign(P, 0);
  for (const Fire& fi : r.tr.fires) {
    if (fi.process >= P) return V(TraceRule::kFiring, fmt::format("a firing names process {}, which does not exist", fi.process));
    if (f.fire[fi.process]) return V(TraceRule::kFiring, fmt::format("process {} fires twice (cycles {} and {})", fi.process, f.fire[fi.process], fi.cycle));
    if (fi.cycle == 0) return V(TraceRule::kFiring, fmt::format("process {} fires in cycle 0", fi.process));
    f.fire[fi.process] = fi.cycle;
    f.last_fire = std::max(f.last_fire, fi.cycle);
  }
  for (size_t p = 0; p < P; ++p)
    if (!f.fire[p]) return V(TraceRule::kFiring, fmt::format("process {} never fires", p));
  return std::nullopt;
}

// Rule 2 (kMessages): the messages are the workload's sends, in firing order, with their headers.
std::optional<TraceViolation> check_messages(const Run& r) {
  const Trace& tr = r.tr;
  std::vector<Fire> fires = tr.fires;
  std::stable_sort(fires.begin(), fires.end(), [](const Fire& a, const Fire& b) { return a.cycle < b.cycle; });
  size_t next_id = 0;
  for (const Fire& f : fires) {
    const Process& proc = r.w.processes[f.process];
    for (uint32_t q : proc.sends) {
      if (next_id >= tr.messages.size())
        return V(TraceRule::kMessages, fmt::format("process {} (cycle {}) should send to process {}, but the trace has no such message", f.process, f.cycle, q));
      const Message& m = tr.messages[next_id];
      const NodeId dst = r.w.processes[q].node;
      if (m.id != next_id || m.src_process != f.process || m.dst_process != q || m.src != proc.node || m.dst != dst ||
          m.seq != proc.seq || m.generated != f.cycle || m.original_hops != r.judge.distance(proc.node, dst))
        return V(TraceRule::kMessages, fmt::format("message {}: header does not match process {}'s message to process {} generated in cycle {}",
                           next_id, f.process, q, f.cycle));
      ++next_id;
    }
  }
  if (next_id != tr.messages.size())
    return V(TraceRule::kMessages, fmt::format("the trace has {} messages, the workload sends {}", tr.messages.size(), next_id));
  return std::nullopt;
}

// Rule 3 (kMessages, kCounts, kDelivery, kWalk, kOneHop, kEcube, kMinimal): per message, a walk
// along links from its source, one hop per cycle, never before its generation nor after its
// delivery, each hop by the routing rule; the hops in cycle order. Fills delivered.
std::optional<TraceViolation> check_hops(const Run& r, Facts& f) {
  const Trace& tr = r.tr;
  const size_t M = tr.messages.size();
  std::vector<NodeId> at(M);
  std::vector<uint32_t> last_hop(M, 0);
  f.delivered.assign(M, 0);
  for (size_t i = 0; i < M; ++i) at[i] = tr.messages[i].src;
  uint32_t previous_cycle = 0;
  for (const Hop& h : tr.hops) {
    if (h.message >= M) return V(TraceRule::kMessages, fmt::format("cycle {}: a hop of message {}, which does not exist", h.cycle, h.message));
    const Message& m = tr.messages[h.message];
    if (h.cycle < previous_cycle) return V(TraceRule::kCounts, fmt::format("the hops are not in cycle order at cycle {}", h.cycle));
    previous_cycle = h.cycle;
    if (f.delivered[h.message]) return V(TraceRule::kDelivery, fmt::format("cycle {}: message {} moves after its delivery in cycle {}", h.cycle, h.message, f.delivered[h.message]));
    if (h.cycle < m.generated) return V(TraceRule::kWalk, fmt::format("cycle {}: message {} moves before its generation (cycle {})", h.cycle, h.message, m.generated));
    if (last_hop[h.message] == h.cycle) return V(TraceRule::kOneHop, fmt::format("cycle {}: message {} takes a second hop in one cycle", h.cycle, h.message));
    if (h.from != at[h.message]) return V(TraceRule::kWalk, fmt::format("cycle {}: message {} leaves node {} but is at node {}", h.cycle, h.message, h.from, at[h.message]));
    if (r.net.port_to(h.from, h.to) < 0) return V(TraceRule::kWalk, fmt::format("cycle {}: message {} hops {} -> {}, which is not a link", h.cycle, h.message, h.from, h.to));
    const std::vector<NodeId> ok = r.judge.allowed(h.from, m.dst, r.config.routing);
    if (std::find(ok.begin(), ok.end(), h.to) == ok.end())
      return r.config.routing == Routing::kStatic
                 ? V(TraceRule::kEcube, fmt::format("cycle {}: message {} hops {} -> {}, not the e-cube hop towards {}", h.cycle, h.message, h.from, h.to, m.dst))
                 : V(TraceRule::kMinimal, fmt::format("cycle {}: message {} hops {} -> {}, which does not reduce its distance to {}", h.cycle, h.message, h.from, h.to, m.dst));
    at[h.message] = h.to;
    last_hop[h.message] = h.cycle;
    if (h.to == m.dst) f.delivered[h.message] = h.cycle;
  }
  return std::nullopt;
}

// Rule 3, end (kDelivery): every message is delivered.
std::optional<TraceViolation> check_all_delivered(const Run& r, const Facts& f) {
  const Trace& tr = r.tr;
  for (size_t i = 0; i < tr.messages.size(); ++i)
    if (!f.delivered[i])
      return V(TraceRule::kDelivery, fmt::format("message {} (process {} -> {}) is never delivered, yet process {} fires in cycle {}", i,
                         tr.messages[i].src_process, tr.messages[i].dst_process, tr.messages[i].dst_process,
                         f.fire[tr.messages[i].dst_process]));
  return std::nullopt;
}

// Rule 1, second half (kFiring): a process fires in the cycle after its last message was
// delivered (cycle 1 for a process that expects none).
std::optional<TraceViolation> check_firing_cycles(const Run& r, const Facts& f) {
  const Trace& tr = r.tr;
  const size_t P = r.w.processes.size();
  std::vector<uint32_t> ready(P, 1);
  for (size_t i = 0; i < tr.messages.size(); ++i)
    ready[tr.messages[i].dst_process] = std::max(ready[tr.messages[i].dst_process], f.delivered[i] + 1);
  for (size_t p = 0; p < P; ++p)
    if (f.fire[p] != ready[p])
      return V(TraceRule::kFiring, fmt::format("process {} fires in cycle {}, but its last message arrived so that it should fire in cycle {}", p, f.fire[p], ready[p]));
  return std::nullopt;
}

// Rules 4 to 6 (kCounts, kCapacity, kWorkConservation, kPriority), cycle by cycle: no hop after
// the last firing; each link carries at most one message; a message that stayed found every link
// it may take used, each by a message of no lower priority at its node. Counts waits.
std::optional<TraceViolation> check_cycles(const Run& r, Facts& f) {
  const Network& net = r.net;
  const SimConfig& config = r.config;
  const Trace& tr = r.tr;
  const size_t M = tr.messages.size();
  std::vector<std::vector<const Hop*>> hops_at(f.last_fire + 2);
  for (const Hop& h : tr.hops) {
    if (h.cycle >= hops_at.size()) return V(TraceRule::kCounts, fmt::format("cycle {}: a hop after the last firing (cycle {})", h.cycle, f.last_fire));
    hops_at[h.cycle].push_back(&h);
  }
  std::vector<uint32_t> used(net.num_links(config.links), 0);
  std::vector<uint32_t> user(net.num_links(config.links), 0);
  std::vector<uint32_t> hopped(M, 0);
  std::vector<NodeId> pos(M);
  std::vector<uint32_t> arrived(M);
  for (size_t i = 0; i < M; ++i) {
    pos[i] = tr.messages[i].src;
    arrived[i] = tr.messages[i].generated;
  }
  std::vector<uint32_t> by_generation(M);
  for (size_t i = 0; i < M; ++i) by_generation[i] = static_cast<uint32_t>(i);
  std::stable_sort(by_generation.begin(), by_generation.end(),
                   [&](uint32_t a, uint32_t b) { return tr.messages[a].generated < tr.messages[b].generated; });
  std::vector<uint32_t> alive;
  size_t born = 0;
  for (uint32_t t = 1; t < hops_at.size(); ++t) {
    while (born < M && tr.messages[by_generation[born]].generated <= t) alive.push_back(by_generation[born++]);
    for (const Hop* h : hops_at[t]) {
      const uint32_t link = net.link(h->from, net.port_to(h->from, h->to), config.links);
      if (used[link] == t)
        return V(TraceRule::kCapacity, fmt::format("cycle {}: the {} link {}-{} carries messages {} and {}", t, to_string(config.links),
                           h->from, h->to, user[link], h->message));
      used[link] = t;
      user[link] = h->message;
      hopped[h->message] = t;
    }
    auto key = [&](uint32_t i) {
      const Message& m = tr.messages[i];
      return key_of(config.scheme, config.reading, r.judge.distance(pos[i], m.dst), m.original_hops, m.seq, m.generated, arrived[i]);
    };
    for (uint32_t i : alive) {
      if (hopped[i] == t) continue;
      ++f.waits;
      const Message& m = tr.messages[i];
      for (NodeId v : r.judge.allowed(pos[i], m.dst, config.routing)) {
        const uint32_t link = net.link(pos[i], net.port_to(pos[i], v), config.links);
        if (used[link] != t)
          return V(TraceRule::kWorkConservation, fmt::format("cycle {}: message {} waits at node {} while its link to {} is free", t, i, pos[i], v));
        const uint32_t other = user[link];
        if (pos[other] == pos[i] && key(other) > key(i))
          return V(TraceRule::kPriority, fmt::format("cycle {}: message {} (scheme {} key {}) takes the link {}-{} from message {} (key {}) at the same node",
                             t, other, config.scheme, key(other), pos[i], v, i, key(i)));
      }
    }
    // Apply the cycle's hops; drop delivered messages.
    for (const Hop* h : hops_at[t]) {
      pos[h->message] = h->to;
      arrived[h->message] = t;
    }
    alive.erase(std::remove_if(alive.begin(), alive.end(), [&](uint32_t i) { return f.delivered[i] == t; }), alive.end());
  }
  return std::nullopt;
}

// Rule 7 (kCounts): the running time is the last firing; the result's counts match the trace.
std::optional<TraceViolation> check_counts(const Run& r, const Facts& f) {
  const SimResult& result = r.result;
  const Trace& tr = r.tr;
  if (result.running_time != f.last_fire)
    return V(TraceRule::kCounts, fmt::format("the running time is {}, but the last process fires in cycle {}", result.running_time, f.last_fire));
  if (result.hops != tr.hops.size()) return V(TraceRule::kCounts, fmt::format("the result counts {} hops, the trace has {}", result.hops, tr.hops.size()));
  if (result.messages != tr.messages.size()) return V(TraceRule::kCounts, fmt::format("the result counts {} messages, the trace has {}", result.messages, tr.messages.size()));
  if (result.waits != f.waits) return V(TraceRule::kCounts, fmt::format("the result counts {} waits, the trace implies {}", result.waits, f.waits));
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_trace(const Network& net, const Workload& w, const SimConfig& config,
                                       const SimResult& result) {
  auto v = check_trace_rules(net, w, config, result);
  if (!v) return std::nullopt;
  return v->message;
}

std::string to_string(TraceRule rule) {
  switch (rule) {
    case TraceRule::kFiring: return "firing";
    case TraceRule::kMessages: return "messages";
    case TraceRule::kWalk: return "walk";
    case TraceRule::kOneHop: return "one_hop";
    case TraceRule::kEcube: return "ecube";
    case TraceRule::kMinimal: return "minimal";
    case TraceRule::kDelivery: return "delivery";
    case TraceRule::kCapacity: return "capacity";
    case TraceRule::kWorkConservation: return "work_conservation";
    case TraceRule::kPriority: return "priority";
    case TraceRule::kCounts: return "counts";
  }
  return "?";
}

std::optional<TraceViolation> check_trace_rules(const Network& net, const Workload& w, const SimConfig& config,
                                                const SimResult& result) {
  if (!result.trace) return V(TraceRule::kCounts, "the run has no trace (record_trace was off)");
  const Judge judge{net, cube_dimension(net)};
  const Run run{net, judge, w, config, result, *result.trace};
  Facts facts;
  // The rules in the header's order (rule 1 in two halves around rules 2 and 3): the first
  // violation found is the one returned.
  if (auto v = check_fires_once(run, facts)) return v;
  if (auto v = check_messages(run)) return v;
  if (auto v = check_hops(run, facts)) return v;
  if (auto v = check_all_delivered(run, facts)) return v;
  if (auto v = check_firing_cycles(run, facts)) return v;
  if (auto v = check_cycles(run, facts)) return v;
  return check_counts(run, facts);
}

}  // namespace topocheck::routing
