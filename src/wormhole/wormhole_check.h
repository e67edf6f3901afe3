// The naive judge of a wormhole run (issue 8): given the network, the routing function, the
// messages, the configuration and a recorded trace (WormConfig::record_trace), decide whether the
// run obeys the model of wormhole.h. Written independently of the simulator (it never calls
// simulate_wormhole and shares no code with it): it replays the trace flit by flit, recomputes
// hop distances by its own BFS over the network (not Network::distance), and for up*/down* its own
// BFS levels from the root and its own shortest legal route lengths over (node, phase) states.
//
// Words -> code. Worm w has L = messages[w].length flits; flit 0 is the header, L - 1 the tail.
// The header's path P_w is the sequence of channels flit 0 crosses; t(k, j) is the cycle flit k
// crosses P_w[j] (hop j), e(k) the cycle it is ejected. The reservation of P_w[j] by w is the
// cycle interval [t(0, j), release], release = t(L-1, j+1) (the tail crosses the next channel)
// or e(L-1) for the last channel (the tail is ejected), or "never" while the tail has not left.
// A flit is in P_w[j]'s buffer at the end of cycle t when t(k, j) <= t < its leaving cycle.
//
// The rules, checked in THIS order (the first violation is returned, in words naming the cycle,
// worm, flit and channel as "u->v"; within one rule the earliest cycle is reported). The order
// puts the rule a fault breaks before the ones it may also break as a consequence (two worms in
// one channel also put two flits in one buffer), so that each defect of wormhole.h is named by
// its own rule:
//  0. kTrace: the trace exists, is in cycle order, names worms, flits and channels that exist;
//     the messages are valid; delivered_at has one entry per worm.
//  1. kWalk: the header's first channel leaves the worm's source, each next channel leaves the
//     node the previous one entered, and the header stops at the destination; every other flit
//     crosses exactly the header's channels, in order; no flit crosses before the worm's
//     `created` cycle. kFlitOrder: flit k crosses hop j strictly after flit k-1 crossed it.
//     kOneHop: a flit crosses hop j strictly after it crossed hop j-1 (one channel per cycle).
//  2. kRouting: P_w[j] is in routing.allowed(tail(P_w[j]), P_w[j-1] or kInjection, dst).
//     Independently of the routing object, by the family its name() states:
//       "sp-..."     kMinimal: every hop brings the header one hop closer to dst (own BFS), so a
//                    delivered worm's path length is the distance;
//       "updown-..." kUpDown: no up hop after a down hop, "up" being u->v with (level v, v) <
//                    (level u, u), levels by own BFS from the root ("(root R)" in the name, else
//                    0); kMinimal: every hop brings the header one step closer along a SHORTEST
//                    LEGAL route (own BFS over (node, phase) states).
//     Other names: only the allowed() check.
//  6a. kEjection: only flits that crossed their worm's whole path to dst are ejected, each once,
//     in flit order, strictly after the cycle they crossed into the destination's buffer, and
//     (ejection never blocks) exactly in the first cycle they may:
//     e(k) = max(t(k, last) + 1, e(k-1) + 1).
//     kDelivery: no flit is lost: a flit in its destination's buffer that should have been
//     ejected in a cycle the run simulated was ejected; delivered_at[w] is e(L-1) when the tail
//     was ejected and 0 otherwise.
//  4. kExclusive: no two reservation intervals of one channel overlap (a channel freed in cycle
//     t may be reserved from cycle t + 1 on). A worm whose path uses a channel twice must also
//     release it in between.
//  3. kChannelCapacity: at most one flit crosses a channel per cycle. kEjection: at most one
//     flit is ejected from each input channel per cycle. (Both follow from rules 1 and 4; checked
//     anyway.) kInjection: at most one flit per source per cycle enters the network (crosses its
//     worm's first channel). kQueueOrder: each source's queue is FIFO by (created, index): a
//     worm's header leaves only after the worm ahead of it in that order has fully left (its
//     tail crossed its first channel, in an earlier cycle).
//  5. kBuffer: at the end of every cycle each channel's buffer holds at most config.buffer
//     flits (a flit leaving in cycle t makes room for one entering in t).
//  7. kCounts: result.flit_crossings is the number of crossings; delivered_worms the number of
//     worms with delivered_at != 0; completed iff every worm was delivered; every event lies in
//     [0, result.cycles); a run that completed ends in the cycle after the last ejection; a run
//     that neither completed nor found a deadlock ran max_cycles; not both completed and
//     deadlocked.
//  8. kStatistics: with the window W = [warmup, warmup + measure), or W = [0, max(cycles, 1))
//     when measure = warmup = 0 (the whole run: a worm created after the run stopped was never
//     created in it): window_worms = worms created in W, window_delivered = those with
//     delivered_at != 0, offered = their flits / (N * |W|), accepted = the trace's ejections in
//     W / (N * |W|), mean_latency = mean of delivered_at - created + 1 over the delivered ones
//     (0 if none); reals to a relative 1e-9.
// Not checked: which free channel a header chose or whether it should have moved (arbitration,
// selection and work conservation are the simulator's freedom here); the statistics when
// measure = 0 and warmup > 0 (wormhole.h's "the whole run" does not say whether the warmup is
// then excluded); the deadlock witness (check_worm_deadlock in wormhole.h does that).
//
// Example (C4 as Q_2: channel 2u + p is u -> u^(1<<p)): worm 0 -> 3 of L = 2 flits created at 0,
// B = 1: flit 0 crosses 0->1 in cycle 0 and 1->3 in cycle 1, flit 1 follows one cycle behind
// (0->1 in 1, 1->3 in 2), ejections in cycles 2 and 3: valid, delivered_at = {3}, cycles = 4.
// Ejecting flit 0 in cycle 1 (with its arrival) is kEjection; flit 1 crossing 0->1 in cycle 1
// while flit 0 stays there until cycle 2 is kBuffer.
//
// Cost: O(crossings + ejections + sum over worms of L * |P_w| + channels) time and memory, plus
// one routing.allowed() call per header hop and one BFS per destination that occurs
// (O(N + E) each, twice for up*/down*). Precondition: messages and network agree (checked).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "network/network.h"
#include "wormhole/wormhole.h"

namespace topocheck::routing {

enum class WormRule {
  kTrace,
  kWalk,
  kFlitOrder,
  kOneHop,
  kRouting,
  kMinimal,
  kUpDown,
  kEjection,
  kDelivery,
  kExclusive,
  kChannelCapacity,
  kInjection,
  kQueueOrder,
  kBuffer,
  kCounts,
  kStatistics,
};
// "trace", "walk", "flit_order", "one_hop", "routing", "minimal", "updown", "ejection", "delivery",
// "exclusive", "channel_capacity", "injection", "queue_order", "buffer", "counts", "statistics".
std::string to_string(WormRule rule);

struct WormViolation {
  WormRule rule = WormRule::kCounts;
  std::string message;
};

// nullopt when the run obeys every rule above; otherwise the first violation.
std::optional<WormViolation> check_wormhole_trace(const Network& net, const WormholeRouting& routing,
                                                  const std::vector<WormMessage>& messages,
                                                  const WormConfig& config, const WormResult& result);

// The same, in words: nullopt when valid, else "RULE: MESSAGE" (RULE as to_string above).
std::optional<std::string> check_wormhole_trace_text(const Network& net, const WormholeRouting& routing,
                                                     const std::vector<WormMessage>& messages,
                                                     const WormConfig& config, const WormResult& result);

}  // namespace topocheck::routing
