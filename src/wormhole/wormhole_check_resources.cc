// The naive judge's rules of what the worms use over time (wormhole_check.h rules 3 to 6a: ejection,
// delivery, channel reservations, bandwidth, queue order, buffers) and of the run's numbers (rules
// 7 and 8), over the trace as wormhole_check.cc laid it out (rules 0 to 2 hold). Each rule is one
// function; check_wormhole_trace calls them in the header's order. Cost: O(crossings +
// ejections + sum over worms of L * |P_w| + channels) in all.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "wormhole/wormhole_check_replay.h"

namespace topocheck::routing::wormhole_judge {
namespace {

// Flit k of w "arrived": it crossed its worm's whole path and that path ends at the destination.
bool arrived(const Run& r, const Layout& lay, size_t w, uint32_t k) {
  return lay.hops[w] > 0 && lay.crossed[lay.fbase[w] + k] == lay.hops[w] &&
         r.g.head[lay.path[lay.pbase[w] + lay.hops[w] - 1]] == r.messages[w].dst;
}

}  // namespace

// Rule 6a, kEjection: only arrived flits are ejected, each once, in flit order, strictly after
// the cycle they crossed into the destination's buffer, and (ejection never blocks) exactly in
// the first cycle they may: e(k) = max(t(k, last) + 1, e(k-1) + 1). Fills ejected.
std::optional<WormViolation> check_ejections(const Run& r, Layout& lay) {
  for (const FlitEjection& e : r.tr.ejections) {
    const WormMessage& m = r.messages[e.worm];
    const uint32_t k = e.flit, t = e.cycle;
    uint32_t& at = lay.ejected[lay.fbase[e.worm] + k];
    if (at != kNever)
      return V(WormRule::kEjection, fmt::format("cycle {}: {} is ejected a second time (first in cycle {})", t, who(e.worm, k), at));
    if (!arrived(r, lay, e.worm, k)) {
      const uint32_t n = lay.crossed[lay.fbase[e.worm] + k];
      const NodeId where = n == 0 ? m.src : r.g.head[lay.path[lay.pbase[e.worm] + n - 1]];
      return V(WormRule::kEjection, fmt::format("cycle {}: {} is ejected at node {}, but its destination is {}{}", t,
                                                who(e.worm, k), where, m.dst,
                                                where == m.dst ? " (it has not crossed all of its header's channels)" : ""));
    }
    const uint32_t arrival = lay.T(e.worm, k, lay.hops[e.worm] - 1);
    if (t <= arrival)
      return V(WormRule::kEjection, fmt::format("cycle {}: {} is ejected in the cycle it crossed into its destination's buffer "
                                                "(cycle {}); one move per flit per cycle",
                                                t, who(e.worm, k), arrival));
    uint32_t due = arrival + 1;
    if (k > 0) {
      const uint32_t ahead = lay.ejected[lay.fbase[e.worm] + k - 1];
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
  return std::nullopt;
}

// Rule 6a, kDelivery: no flit is lost: an arrived flit due for ejection in a cycle the run
// simulated was ejected. The earliest due is reported.
std::optional<WormViolation> check_no_flit_lost(const Run& r, const Layout& lay) {
  Earliest lost;
  for (size_t w = 0; w < r.M; ++w)
    for (uint32_t k = 0; k < r.messages[w].length; ++k) {
      if (!arrived(r, lay, w, k) || lay.ejected[lay.fbase[w] + k] != kNever) continue;
      uint32_t due = lay.T(w, k, lay.hops[w] - 1) + 1;
      if (k > 0) {
        if (lay.ejected[lay.fbase[w] + k - 1] == kNever) break;  // the flit ahead is the one lost
        due = std::max(due, lay.ejected[lay.fbase[w] + k - 1] + 1);
      }
      if (due < r.result.cycles)
        lost.offer(due, WormRule::kDelivery,
                   fmt::format("cycle {}: {} reached its destination {} in cycle {} and should be ejected now (ejection "
                               "never blocks), but it is never ejected in the run's {} cycles: the flit is lost",
                               due, who(w, k), r.messages[w].dst, lay.T(w, k, lay.hops[w] - 1), r.result.cycles));
      break;
    }
  return lost.violation;
}

// Rule 6a, kDelivery: delivered_at[w] is e(L-1) when the tail was ejected and 0 otherwise.
std::optional<WormViolation> check_delivered_at(const Run& r, const Layout& lay) {
  for (size_t w = 0; w < r.M; ++w) {
    const uint32_t tail = lay.ejected[lay.fbase[w] + r.messages[w].length - 1];
    const uint32_t recorded = r.result.delivered_at[w];
    if (tail != kNever && recorded != tail)
      return V(WormRule::kDelivery, fmt::format("worm {}: its tail is ejected in cycle {}, but delivered_at says {}", w, tail, recorded));
    if (tail == kNever && recorded != 0)
      return V(WormRule::kDelivery, fmt::format("worm {}: delivered_at says cycle {}, but its tail (flit {}) is never ejected", w,
                                                recorded, r.messages[w].length - 1));
  }
  return std::nullopt;
}

// Rule 4, kExclusive: no two reservation intervals [start, release] of one channel overlap (a
// channel freed in cycle t may be reserved from t + 1 on); swept by start.
std::optional<WormViolation> check_exclusive(const Run& r, const Layout& lay) {
  struct Reservation {
    uint32_t start, release, worm, hop;
  };
  std::vector<Reservation> reservations;
  reservations.reserve(lay.pbase[r.M]);
  for (size_t w = 0; w < r.M; ++w) {
    const uint32_t last = r.messages[w].length - 1;
    for (uint32_t j = 0; j < lay.hops[w]; ++j) {
      const uint32_t release = j + 1 < lay.hops[w] ? lay.T(w, last, j + 1) : lay.ejected[lay.fbase[w] + last];
      reservations.push_back({lay.T(w, 0, j), release, static_cast<uint32_t>(w), j});
    }
  }
  std::sort(reservations.begin(), reservations.end(),
            [](const Reservation& a, const Reservation& b) { return std::tie(a.start, a.worm) < std::tie(b.start, b.worm); });
  std::vector<const Reservation*> holder(r.g.channels(), nullptr);
  for (const Reservation& res : reservations) {
    const uint32_t c = lay.path[lay.pbase[res.worm] + res.hop];
    const Reservation* h = holder[c];
    if (h && h->release >= res.start) {
      const std::string until =
          h->release == kNever
              ? std::string("its tail never leaves it")
              : fmt::format("its tail leaves it in cycle {}{}", h->release,
                            h->release == res.start ? " (a freed channel is reservable from the next cycle)" : "");
      return V(WormRule::kExclusive,
               fmt::format("cycle {}: the header of worm {} reserves {}, which worm {} holds (its header crossed in cycle {}; {})",
                           res.start, res.worm, r.g.name(c), h->worm, h->start, until));
    }
    holder[c] = &res;
  }
  return std::nullopt;
}

// Rule 3, kChannelCapacity, kInjection, kEjection: per cycle at most one flit crosses a channel,
// at most one flit per source enters the network, at most one flit is ejected from each input
// channel. The earliest cycle of the three scans is reported.
std::optional<WormViolation> check_bandwidth(const Run& r, const Layout& lay) {
  const WormTrace& tr = r.tr;
  const uint32_t C = r.g.channels();
  Earliest found;
  std::vector<uint32_t> used(C, kNever), who_used(C, 0), injected(r.N, kNever), who_injected(r.N, 0);
  for (size_t i = 0; i < tr.crossings.size(); ++i) {
    const FlitCrossing& x = tr.crossings[i];
    if (used[x.channel] == x.cycle) {
      found.offer(x.cycle, WormRule::kChannelCapacity,
                  fmt::format("cycle {}: channel {} carries two flits (of worms {} and {})", x.cycle, r.g.name(x.channel),
                              who_used[x.channel], x.worm));
      break;
    }
    used[x.channel] = x.cycle;
    who_used[x.channel] = x.worm;
    if (lay.hop_of[i] != 0) continue;
    const NodeId s = r.messages[x.worm].src;
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
    const uint32_t c = lay.path[lay.pbase[e.worm] + lay.hops[e.worm] - 1];  // arrived: checked in 6a
    if (used[c] == e.cycle) {
      found.offer(e.cycle, WormRule::kEjection,
                  fmt::format("cycle {}: two flits are ejected from input channel {} (of worms {} and {})", e.cycle, r.g.name(c),
                              who_used[c], e.worm));
      break;
    }
    used[c] = e.cycle;
    who_used[c] = e.worm;
  }
  return found.violation;
}

// Rule 3, kQueueOrder: per source, worms by (created, index); each header leaves only after the
// worm ahead of it has fully left (its tail crossed its first channel, in an earlier cycle).
std::optional<WormViolation> check_queue_order(const Run& r, const Layout& lay) {
  const std::vector<WormMessage>& messages = r.messages;
  std::vector<uint32_t> order(r.M);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return messages[a].created < messages[b].created; });
  std::vector<uint32_t> ahead(r.N, kNever);
  Earliest found;
  for (uint32_t b : order) {
    const NodeId s = messages[b].src;
    const uint32_t a = ahead[s];
    ahead[s] = b;
    if (a == kNever || lay.hops[b] == 0) continue;
    const uint32_t leaves = lay.T(b, 0, 0);
    const uint32_t last = messages[a].length - 1;
    const uint32_t gone = lay.hops[a] > 0 && lay.crossed[lay.fbase[a] + last] > 0 ? lay.T(a, last, 0) : kNever;
    if (gone == kNever || gone >= leaves)
      found.offer(leaves, WormRule::kQueueOrder,
                  fmt::format("cycle {}: the header of worm {} (created in cycle {}) leaves node {}, but worm {} "
                              "(created in cycle {}) is ahead of it in the queue and {}",
                              leaves, b, messages[b].created, s, a, messages[a].created,
                              gone == kNever ? std::string("has not fully left")
                                             : fmt::format("its tail leaves only in cycle {}", gone)));
  }
  return found.violation;
}

// Rule 5, kBuffer: at the end of every cycle each channel's buffer holds at most B flits. Cycle
// by cycle: first every flit leaving a buffer in cycle t, then every flit entering one; the count
// after an entry never exceeds the end-of-cycle count.
std::optional<WormViolation> check_buffers(const Run& r, const Layout& lay) {
  const WormTrace& tr = r.tr;
  std::vector<uint32_t> count(r.g.channels(), 0);
  size_t xi = 0, ei = 0;
  while (xi < tr.crossings.size()) {
    const uint32_t t = tr.crossings[xi].cycle;
    size_t xend = xi;
    while (xend < tr.crossings.size() && tr.crossings[xend].cycle == t) ++xend;
    for (size_t i = xi; i < xend; ++i)
      if (lay.hop_of[i] > 0) --count[lay.path[lay.pbase[tr.crossings[i].worm] + lay.hop_of[i] - 1]];
    for (; ei < tr.ejections.size() && tr.ejections[ei].cycle <= t; ++ei) {
      const FlitEjection& e = tr.ejections[ei];
      --count[lay.path[lay.pbase[e.worm] + lay.hops[e.worm] - 1]];
    }
    for (size_t i = xi; i < xend; ++i) {
      const FlitCrossing& x = tr.crossings[i];
      if (++count[x.channel] > r.config.buffer)
        return V(WormRule::kBuffer, fmt::format("cycle {}: {} enters the buffer of {}, which then holds {} flits (B = {})", t,
                                                who(x.worm, x.flit), r.g.name(x.channel), count[x.channel], r.config.buffer));
    }
    xi = xend;
  }
  return std::nullopt;
}

// Rule 7, kCounts: the result's numbers agree with the trace and with each other.
std::optional<WormViolation> check_counts(const Run& r) {
  const WormResult& result = r.result;
  const WormTrace& tr = r.tr;
  const size_t M = r.M;
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
  if (!result.completed && !result.deadlock && result.cycles != r.config.max_cycles)
    return V(WormRule::kCounts, fmt::format("the run stopped after {} cycles, neither completed nor deadlocked, before max_cycles = {}",
                                            result.cycles, r.config.max_cycles));
  return std::nullopt;
}

// Rule 8, kStatistics: the window statistics, recomputed from the messages and the trace (not
// checked when measure = 0 and warmup > 0: see the header).
std::optional<WormViolation> check_statistics(const Run& r) {
  const WormConfig& config = r.config;
  const WormResult& result = r.result;
  if (!(config.measure > 0 || config.warmup == 0)) return std::nullopt;
  const uint64_t begin = config.warmup;
  const uint64_t length = config.measure > 0 ? config.measure : std::max<uint32_t>(result.cycles, 1);
  auto inside = [&](uint64_t t) { return t >= begin && t < begin + length; };
  uint64_t worms = 0, delivered_in = 0, offered_flits = 0, accepted_flits = 0, latency_sum = 0;
  for (size_t w = 0; w < r.M; ++w) {
    if (!inside(r.messages[w].created)) continue;
    ++worms;
    offered_flits += r.messages[w].length;
    if (result.delivered_at[w] == 0) continue;
    ++delivered_in;
    latency_sum += result.delivered_at[w] - r.messages[w].created + 1;
  }
  for (const FlitEjection& e : r.tr.ejections) accepted_flits += inside(e.cycle);
  const double per = static_cast<double>(r.N) * static_cast<double>(length);
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
                                                window, result.offered, offered_flits, r.N, length, offered));
  if (differs(result.accepted, accepted))
    return V(WormRule::kStatistics, fmt::format("{}: accepted is {}, the trace ejects {} flits in it: {} per node and cycle",
                                                window, result.accepted, accepted_flits, accepted));
  if (differs(result.mean_latency, latency))
    return V(WormRule::kStatistics, fmt::format("{}: mean latency is {}, delivered_at gives {} over {} worms", window,
                                                result.mean_latency, latency, delivered_in));
  return std::nullopt;
}

}  // namespace topocheck::routing::wormhole_judge
