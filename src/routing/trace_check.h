// The naive judge of a routing run (papers/001): given the network, the workload, the
// configuration and a recorded trace (SimConfig::record_trace), decide whether the run obeys the
// simulator's contract (simulator.h). Written independently of the simulator: it recomputes
// e-cube hops from the bits (on Q_n: flip the lowest bit of c XOR d, Section 1) and distances
// from popcount on Q_n (from the network's BFS table elsewhere), and never calls the simulator.
//
// Checks, in this order (the first violation is returned, naming cycle, message, process):
//  1. every process fires exactly once, at cycle 1 if it expects no message, otherwise in the
//     cycle after its last message was delivered (not earlier, not later);
//  2. the messages are exactly the workload's sends, generated when their process fired, with
//     the header fields (nodes, sequence number, generation cycle, original hops) right;
//  3. every message moves along links, at most one hop per cycle, never before its generation,
//     starting at its source, until it is delivered exactly once at its destination;
//     static: every hop is the e-cube hop; dynamic: every hop reduces the distance by one;
//  4. per cycle, every link carries at most one message (bidirectional: either direction;
//     unidirectional: per direction);
//  5. work conservation: a message that stayed at its node in a cycle found every link it may
//     take (static: its e-cube link; dynamic: every productive link) used in that cycle;
//  6. priority: no message that stayed lost a link it may take to a message of strictly lower
//     priority waiting at the same node (ties are the shuffle's to break);
//  7. the running time is the last firing, and the counts in the result match the trace.
// Cost: O(hops + waits + links) time and memory. Precondition: net and workload agree in size.
#pragma once

#include <optional>
#include <string>

#include "network/network.h"
#include "routing/simulator.h"
#include "routing/workload.h"

namespace topocheck::routing {

// The rule a violation breaks (the numbers above): 1 kFiring; 2 kMessages; 3 kWalk (not along
// a link / not from its node / before generation), kOneHop, kEcube, kMinimal, kDelivery (never
// delivered, or moving after delivery); 4 kCapacity; 5 kWorkConservation; 6 kPriority;
// 7 kCounts (also a trace out of order).
enum class TraceRule { kFiring, kMessages, kWalk, kOneHop, kEcube, kMinimal, kDelivery, kCapacity,
                       kWorkConservation, kPriority, kCounts };
std::string to_string(TraceRule rule);
struct TraceViolation {
  TraceRule rule = TraceRule::kCounts;
  std::string message;
};
std::optional<TraceViolation> check_trace_rules(const Network& net, const Workload& workload,
                                                const SimConfig& config, const SimResult& result);

// nullopt when the run is valid; otherwise the first violation in words.
std::optional<std::string> check_trace(const Network& net, const Workload& workload, const SimConfig& config,
                                       const SimResult& result);

}  // namespace topocheck::routing
