// The store-and-forward simulator of papers/001 (Raghupathy, Leuze, Schach), Section 3.
//
// One run executes a Workload (a DAG of processes, one per node) on a Network under one routing
// (static / dynamic), one link kind (one bidirectional link / two unidirectional links per
// edge) and one priority scheme A-K (Figure 2 of the paper, captioned "Figure 1" in the text).
// Time advances in cycles t = 1, 2, ...; each cycle has the paper's three phases:
//  1. Generation: every process that has received all its messages fires: its messages are
//     generated in its fixed order (Workload::sends) into its node's buffer; it terminates.
//  2. Ordering: each node's buffer is shuffled (seeded) and then stably sorted by the scheme's
//     priority, so equal priorities are broken randomly ("after shuffling the contents of a
//     buffer the first message of highest priority is transmitted next").
//  3. Routing: every message in a buffer tries to take one hop. Static: the one e-cube link;
//     dynamic: the first free link among the productive ones, in the order p_1, p_2, ... (see
//     network.h). A link carries one message per cycle (bidirectional: in either direction;
//     unidirectional: one per direction). A message moves at most one hop per cycle: arrivals
//     join the next node's buffer after the routing phase. Reaching the destination delivers it.
// Reading choices the paper leaves open, fixed here and stated in the README:
//  - Nodes take turns in the routing phase: round r lets every node (in a per-cycle shuffled
//    node order) try its r-th message; so two nodes' best messages compete for a shared
//    bidirectional link before either node's second message does (Arbitration::kRounds). The
//    other reading, kNodeByNode, lets each node (same shuffled order) try its whole buffer before
//    the next node starts; it only differs where a bidirectional link is shared.
//  - Buffers are unbounded (the paper ignores deadlock; deadlock.h studies finite buffers).
//  - Running time: the cycle in which the last process fires.
//  - Header fields: arrival time = the cycle of the hop that brought the message to its current
//    node (its generation cycle at the source); remaining hops = distance to the destination.
// Scheme letters follow Figure 2 (the list): A min remaining hops, B max remaining, C min
// original, D max original, E min sequence number of the originating process, F max, G earliest
// generation time, H latest, I earliest arrival at the node (FIFO), J latest (LIFO), K none.
// SchemeReading::kText uses Section 4's words instead, where A is "fewer hops in the original
// message" and C "remaining to be traversed" (A and C swapped).
//
// Determinism: the result is a function of (network, workload, config) only; the random stream
// (network/rng.h) is portable across standard libraries.
// Cost: O(cycles * nodes + sum over cycles of buffered messages * log) time; O(messages) memory,
// plus the trace when recorded (one entry per hop).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "network/network.h"
#include "routing/workload.h"

namespace topocheck::routing {

// 'A'..'K'.
using Scheme = char;
inline constexpr std::string_view kSchemes = "ABCDEFGHIJK";
std::optional<Scheme> parse_scheme(std::string_view s);  // "A".."K" (case-insensitive)
// The scheme's priority in words under a reading, e.g. "minimum remaining number of hops".
std::string describe_scheme(Scheme s, bool text_reading = false);

enum class SchemeReading { kList, kText };

enum class Arbitration { kRounds, kNodeByNode };
std::string to_string(Arbitration a);  // "rounds", "node_by_node"
std::optional<Arbitration> parse_arbitration(std::string_view s);
std::string to_string(SchemeReading r);  // "list", "text"
std::optional<SchemeReading> parse_scheme_reading(std::string_view s);

// DELIBERATELY BROKEN simulators: negative controls that the trace checker must reject.
enum class Defect {
  kNone,
  kIgnoreLinkCapacity,  // a busy link is treated as free
  kDoubleHop,           // an arriving message may move again in the same cycle
  kStaticHighestBit,    // static routing takes the LAST productive port (not e-cube)
  kNonMinimalDetour,    // dynamic: a blocked message takes any free non-productive port
  kFireEarly,           // a process fires one message early
  kDropMessage,         // the first message delivered after cycle 2 is lost (its process still fires)
  kReversePriority,     // the buffer is sorted by the reverse of the scheme
  kSkipFirstMessage,    // in even cycles every node's first message does not even try
};
std::string to_string(Defect d);

struct SimConfig {
  Routing routing = Routing::kStatic;
  LinkKind links = LinkKind::kBidirectional;
  Scheme scheme = 'K';
  SchemeReading reading = SchemeReading::kList;
  Arbitration arbitration = Arbitration::kRounds;
  uint64_t seed = 1;
  bool record_trace = false;
  uint32_t max_cycles = 1000000;  // a guard; exceeding it is an error
  Defect defect = Defect::kNone;
};

// A message's header (Section 3's list: source and destination, sequence number of the
// generating process, time generated, arrival time at the current node, hops).
struct Message {
  uint32_t id = 0;
  uint32_t src_process = 0, dst_process = 0;
  NodeId src = 0, dst = 0;
  NodeId at = 0;
  uint32_t seq = 0;           // sequence number of the generating process
  uint32_t generated = 0;     // cycle of generation
  uint32_t arrival = 0;       // cycle it arrived at `at`
  uint16_t original_hops = 0;
  uint16_t remaining_hops = 0;
};

struct Hop {
  uint32_t cycle = 0;
  uint32_t message = 0;
  NodeId from = 0, to = 0;
};
struct Fire {
  uint32_t cycle = 0;
  uint32_t process = 0;
};
// Everything a naive judge needs: the messages as generated, every firing, every hop.
struct Trace {
  std::vector<Message> messages;  // by id, headers as at generation
  std::vector<Fire> fires;
  std::vector<Hop> hops;          // in cycle order; within a cycle in the order taken
};

struct SimResult {
  uint32_t running_time = 0;      // cycles until the last process fired
  uint64_t messages = 0;
  uint64_t hops = 0;
  uint64_t waits = 0;             // message-cycles spent in a buffer without moving
  uint32_t max_buffer = 0;        // largest buffer seen at any node
  double mean_latency = 0;        // delivery cycle - generation cycle + 1, averaged
  std::optional<Trace> trace;
};

// Errors: a workload placed on a different number of nodes, an invalid workload, max_cycles
// exceeded.
Result<SimResult> simulate(const Network& net, const Workload& workload, const SimConfig& config);

nlohmann::json to_json(const SimConfig& c);
nlohmann::json to_json(const SimResult& r);  // without the trace
nlohmann::json trace_to_json(const Trace& t);

}  // namespace topocheck::routing
