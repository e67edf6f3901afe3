// Flit-level wormhole switching (issue 8): the switching technique of papers/002 (the ITM paper's
// abstract: "blocked messages remain in the network, prohibiting other messages from using the
// occupied links and buffers"), on any Network (network.h), with routing functions that plug in.
//
// The model (the contract the simulator, the naive judge wormhole_check.h and the deadlock
// detector share):
//  - Channels are the directed edges of the network: channel c = Network::link(u, port,
//    kUnidirectional) goes from u = tail(c) to v = head(c). Each channel has a flit buffer of
//    `buffer` (B >= 1) flits at its head. A channel is RESERVED by at most one worm at a time
//    (no virtual channels), from the cycle its header flit crosses it until the cycle its tail
//    flit leaves its buffer; only the owner's flits are ever in its buffer.
//  - A message (worm) of `length` (L >= 1) flits is created at its source at cycle `created`
//    into the source's unbounded injection queue (FIFO, one worm injecting at a time per node).
//    Flit 0 is the header, flit L - 1 the tail (L = 1: one flit is both).
//  - Routing: a header at node x != dst, at the front of its buffer (or at the head of its
//    source's queue), asks the routing function for its allowed next channels (WormholeRouting
//    below: given x, the channel it arrived on and dst) and reserves one that is free, chosen by
//    the Selection (first free in the routing's order, or a seeded random free one). Headers are
//    served in a seeded random order each cycle (arbitration), so two headers competing for one
//    free channel get it by that order. A header reserves and crosses in the same cycle.
//  - Flits: each cycle every channel carries at most one flit, every flit crosses at most one
//    channel, and a flit enters a buffer only if it has room after the flit ahead of it left in
//    the same cycle (a full pipeline of B = 1 buffers moves one flit per cycle). A node injects
//    at most one flit per cycle (from its injection queue's front worm) and ejects at its
//    destination one flit per cycle from each input channel (ejection never blocks).
//  - Deadlock: a non-empty set S of worms whose headers are blocked (not at the destination,
//    no next channel reserved) and for which EVERY allowed next channel of each is reserved by a
//    worm of S. No worm of S can ever move its header again (a channel is freed only by its
//    owner's tail passing, and every owner in S is stuck), so S is stuck forever; it contains a
//    cycle of worms each waiting on a channel reserved by the next: the witness. The detector
//    computes the largest such S (greatest fixpoint: start from every blocked header, drop worms
//    with an allowed channel free or reserved outside the set, repeat) every `detect_every`
//    cycles and whenever a cycle moved no flit. Conversely, a run in which no flit moves while
//    worms remain and the detector finds no such S is a simulator error (kInternal).
// Reading choices (stated in the README): headers route in the cycle they reach the front of a
// buffer (no extra router delay); ejection bandwidth is one flit per input channel per cycle, and
// a flit is ejected at the earliest in the cycle after it entered the destination's buffer; a
// channel freed in cycle t can be reserved from cycle t + 1 on.
//
// Determinism: the result is a function of (network, routing, messages, config) only (rng.h).
// Cost: O(cycles * (worms in flight * average path held + headers * degree)) time; O(messages +
// channels) memory, plus the trace when recorded (one entry per flit crossing).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "network/network.h"

namespace topocheck::routing {

inline constexpr uint32_t kInjection = 0xffffffffu;  // "arrived on no channel": at its source

// The channels of a network: channel c = Network::link(u, port, kUnidirectional).
struct ChannelTable {
  explicit ChannelTable(const Network& net);
  uint32_t size() const { return static_cast<uint32_t>(tail.size()); }
  uint32_t of(NodeId u, int port) const { return first[u] + static_cast<uint32_t>(port); }
  std::vector<NodeId> tail, head;  // per channel
  std::vector<uint32_t> first;     // the channel of port 0 of u; first[N] = size()
};

// A routing function as a set of allowed next channels. Implementations: wormhole_routing.h.
class WormholeRouting {
 public:
  virtual ~WormholeRouting() = default;
  virtual std::string name() const = 0;  // "sp-adaptive", "updown-deterministic(root 0)", ...
  // The channels a header at node `at` bound for `dst` may reserve next, in preference order;
  // `in` is the channel it arrived on, kInjection at its source. Empty iff at == dst. `out` is
  // cleared first.
  virtual void allowed(NodeId at, uint32_t in, NodeId dst, std::vector<uint32_t>& out) const = 0;
};

struct WormMessage {
  NodeId src = 0, dst = 0;  // src != dst
  uint32_t length = 1;      // flits, >= 1
  uint32_t created = 0;     // cycle it enters the injection queue (cycles count from 0)
  friend bool operator==(const WormMessage&, const WormMessage&) = default;
};

enum class Selection { kFirstFree, kRandomFree };
std::string to_string(Selection s);  // "first", "random"
std::optional<Selection> parse_selection(std::string_view s);

// DELIBERATELY BROKEN simulators: negative controls that wormhole_check.h must reject.
enum class WormDefect {
  kNone,
  kSharedChannel,     // a header may reserve a channel another worm holds
  kBufferOverflow,    // a flit may enter a full buffer
  kTeleport,          // a flit may cross two channels in one cycle (bites with B = 1 only)
  kEarlyRelease,      // a channel is freed when the header leaves its buffer, not the tail
  kIgnoreRouting,     // a header whose allowed channels are all reserved takes any free channel
  kDropTail,          // the tail flit of every third worm is never delivered
};
std::string to_string(WormDefect d);

struct WormConfig {
  uint32_t buffer = 2;                    // B, flits per channel buffer, >= 1
  Selection selection = Selection::kRandomFree;
  uint64_t seed = 1;                      // arbitration and random selection
  uint32_t max_cycles = 100000;           // the run stops here (not an error: see `completed`)
  uint32_t detect_every = 32;             // deadlock detector period, >= 1
  bool stop_on_deadlock = true;           // stop at the first deadlock found (else: an error)
  bool record_trace = false;
  // Statistics window [warmup, warmup + measure): accepted flits ejected in it, latencies of
  // the worms created in it. measure = 0: [warmup, the last cycle run] (a run stopped by a
  // deadlock counts only the worms created before it stopped).
  uint32_t warmup = 0, measure = 0;
  WormDefect defect = WormDefect::kNone;
};

// One stuck worm of a deadlock, as the detector saw it.
struct StuckWorm {
  uint32_t worm = 0;                  // index into the messages
  NodeId at = 0;                      // where its header waits
  uint32_t in = kInjection;           // the channel its header arrived on
  std::vector<uint32_t> held;         // the channels it reserves, source side first
  std::vector<uint32_t> wants;        // its allowed next channels (all reserved by the set)
  std::vector<uint32_t> holders;      // per wanted channel, the worm reserving it
};
struct WormDeadlock {
  uint32_t cycle = 0;                 // when the detector found it
  std::vector<StuckWorm> stuck;       // the whole stuck set S, by worm index
  // A cycle of waiting: cycle[i] waits on a channel, waits_on[i], reserved by cycle[i + 1]
  // (cyclically). Worm indices.
  std::vector<uint32_t> cycle_worms, waits_on;
};

// Trace events, for the naive judge. A crossing is one flit over one channel; an injection is
// the header of a worm leaving its source queue (its first crossing follows in the same cycle);
// an ejection is one flit consumed at the destination.
struct FlitCrossing {
  uint32_t cycle = 0, worm = 0, flit = 0, channel = 0;
};
struct FlitEjection {
  uint32_t cycle = 0, worm = 0, flit = 0;
};
struct WormTrace {
  std::vector<FlitCrossing> crossings;  // in cycle order
  std::vector<FlitEjection> ejections;  // in cycle order
};

struct WormResult {
  uint32_t cycles = 0;                 // cycles simulated
  bool completed = false;              // every worm delivered
  uint64_t delivered_worms = 0;
  uint64_t flit_crossings = 0;         // flit-hops simulated (the bench's unit)
  // Window statistics (see WormConfig): accepted flits per node per cycle; latency = cycle the
  // tail is ejected - created + 1, over the window's worms delivered by the end of the run.
  double accepted = 0;
  double offered = 0;                  // flits created in the window per node per cycle
  double mean_latency = 0;
  uint64_t window_worms = 0, window_delivered = 0;
  std::vector<uint32_t> delivered_at;  // per worm: the cycle its tail was ejected (0: never)
  std::optional<WormDeadlock> deadlock;
  std::optional<WormTrace> trace;
};

// Errors: invalid messages (node out of range, src == dst, length 0) naming the index, B = 0,
// a stall the detector cannot explain (kInternal), a deadlock with stop_on_deadlock = false.
Result<WormResult> simulate_wormhole(const Network& net, const WormholeRouting& routing,
                                     const std::vector<WormMessage>& messages, const WormConfig& config);

// The naive check of a witness against the network and routing alone: every stuck worm is at a
// node other than its destination, `wants` is exactly routing.allowed(at, in, dst), every wanted
// channel is held by a stuck worm of the set (held lists agree, each channel held once), and the
// cycle is a cycle of waiting. nullopt when it is a genuine deadlock, else the first flaw.
std::optional<std::string> check_worm_deadlock(const Network& net, const WormholeRouting& routing,
                                                  const std::vector<WormMessage>& messages,
                                                  const WormDeadlock& witness);

// The waiting cycle in words: "worm 3 (0->2) waits on 1->2, held by worm 0; ...".
std::string waiting_cycle_text(const Network& net, const std::vector<WormMessage>& messages,
                               const WormDeadlock& witness);

nlohmann::json to_json(const WormConfig& c);
nlohmann::json to_json(const WormResult& r);       // without the trace
nlohmann::json to_json(const WormDeadlock& w);  // worms, channels as "u->v"

}  // namespace topocheck::routing
