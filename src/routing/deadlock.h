// Finite-buffer deadlock of store-and-forward routing on Q_n: the problem papers/001 sets aside
// (Section 1: "we ignore the problem of deadlock caused by full message buffers [3]"; [3] is
// Dally and Seitz, "Deadlock-free message routing in multiprocessor interconnection networks").
// Searches for a reachable deadlocked state of static (e-cube) and dynamic (any productive port)
// routing and returns the smallest one with a replayable witness; a separate naive checker judges
// witnesses.
//
// The model (the contract every function here shares):
//  - A fixed multiset of messages m0, m1, ..., each (source, destination), source != destination.
//    Each starts in its source's injection queue, which is unbounded and is not a buffer.
//  - Buffers, each with `capacity` = B slots:
//      kPerNode: node v has one pool; a message at v that has left its injection queue and is not
//                delivered occupies a slot of v's pool.
//      kPerLink: the directed link u->v has a pool at its head v; a message that crossed u->v
//                occupies one of its slots while it is at v.
//  - A move takes ONE message one hop from its node c (its source while it is injected) over a
//    port the routing allows (Network::candidates: static = the e-cube port, dynamic = any
//    productive port). Into its destination it is delivered (consumed) and needs no slot;
//    anywhere else it needs a free slot of the target buffer (kPerNode: the neighbour's pool;
//    kPerLink: the crossed link's pool) and frees the slot it held. Moves are interleaved one at a
//    time (asynchronous semantics): a cycle of the synchronous simulator is a sequence of such
//    moves, so every state the simulator reaches is reachable here.
//  - Deadlock: a reachable state with an undelivered message in which no move is possible.
//    m waits for m' when m' occupies a slot of a buffer one of m's allowed hops needs; in a
//    deadlock every undelivered message waits only on others, so the wait-for relation has a
//    cycle, and the witness carries one.
// Routing never takes a non-productive hop, so every run ends (the state graph is acyclic).
//
// Two searches (both deterministic; limits count messages and states, never time):
//  - kStateSpace, the plain one: for M = 1, 2, ... every multiset of M (source, destination)
//    pairs up to translation, each explored breadth-first (visited set of states) until a
//    deadlocked state; the first M with one is the fewest messages, and BFS gives the fewest
//    moves for each set. Translation symmetry: x -> x XOR t maps port i of u to port i of u^t
//    (Q_n's port i is dimension i), keeps distances, the e-cube port and the dynamic port order,
//    and maps node pools and link pools one-to-one; so it maps runs to runs move for move and
//    deadlocks to deadlocks. A multiset is explored only if it is the lexicographically least of
//    its orbit (its sorted pair indices against those of each translate), and the orbit's
//    size counts it in `deadlocking_sets`.
//  - kConfigurations (the default), the fast one, searches blocked CONFIGURATIONS. Sound and
//    complete because of two facts:
//     (a) A smallest deadlock has every message in a buffer and every buffer it uses full:
//         dropping a message that is delivered, still injected, or in a non-full buffer frees
//         no slot anyone waits on (waits are on full buffers only), keeps every move of the
//         others legal (fewer occupants never blocks a move) and leaves them blocked.
//     (b) Conversely, let a configuration put messages in buffers (at most B each) such that
//         each message is at distance >= 2 from its destination, could have arrived on its
//         buffer by an allowed hop from a neighbour u, and has every allowed next buffer full.
//         With source u for each, the moves "each message one hop from u" in any order reach it
//         (no buffer ever exceeds its final count), and it is deadlocked.
//    So the fewest messages of a reachable deadlock is the least B * k such that k full buffers
//    form such a configuration, reached in exactly that many moves (each buffered message moved
//    at least once: no deadlock with M messages has fewer than M moves). The search grows the
//    configuration from one full seed buffer at node 0 (by translation every configuration has
//    a translate with a full buffer at node 0; kPerLink tries the n links into node 0, each
//    later seed excluding the earlier ones), by iterative deepening on k. At each step it fills
//    the pending (must-be-full) buffer with the fewest viable messages with every multiset of B
//    of them; any closed configuration containing the seed must fill that buffer somehow, so it
//    is reached or undercut, and the first depth with one is the minimum. Pruning: a pending
//    buffer adds at least the fewest new buffers any of its messages needs; under kPerLink
//    messages at different nodes need disjoint links, so those minima add up across nodes.
//    With max_messages >= B * (number of buffers) the search is exhaustive over all
//    configurations and a "none" holds for every number of messages (`every_message_count`).
//  Witnesses from both are verified by `check_deadlock_witness` before they are returned.
//
// Findings (standard_deadlock_limits; fewest messages = moves; Q_4 same as Q_3 throughout):
//   per_node, static:   2 messages at B = 1, 4 at B = 2 (two adjacent full nodes, below).
//   per_node, dynamic:  4 at B = 1, 8 at B = 2 (a full 2-dimensional face, each message bound for
//                       its antipode in the face; Q_n has no triangle, so no fewer).
//   per_link, static:   none for any number of messages (B = 1, 2): e-cube's channel dependency
//                       graph is acyclic (Dally-Seitz), and the exhaustive search agrees.
//   per_link, dynamic:  24 at B = 1, 48 at B = 2: every directed link of a 3-subcube full. The
//                       dependency graph has cycles from Q_2 on, yet a message that arrived along
//                       dimension a at distance >= 2 needs all its productive links, and the
//                       smallest closed set of such demands is a whole Q_3.
//
// Example (Q_3, static, kPerNode, B = 1): m0 000->111 and m1 010->101 each make one hop, to 001
// and 011. Then e-cube sends m0 (at 001, dimension 1 next) into 011 and m1 (at 011, dimension 1
// next) into 001; both pools are full: m0 waits for m1 and m1 for m0.
//
// Cost (measured, one core): kStateSpace visits C(N(N-1)+M-1, M) / N multisets and each one's
// reachable states: Q_3 up to M = 3 in 0.1 s, the 4 messages of Q_3 dynamic per_node in 4 s
// (10^7 states), Q_4 up to M = 2 in 0.03 s; beyond that it is for cross-checks only.
// kConfigurations: every Q_3 case in under 10^3 search nodes; Q_4 dynamic per_link in 8 * 10^4
// nodes (0.02 s) at B = 1 and 1.1 * 10^6 (0.25 s) at B = 2.
// Precondition (TC_CHECK): the network is Network::hypercube(n), 1 <= n <= 6.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "network/network.h"

namespace topocheck::routing {

enum class BufferModel { kPerNode, kPerLink };
std::string to_string(BufferModel b);                             // "per_node", "per_link"
std::optional<BufferModel> parse_buffer_model(std::string_view s);

struct DeadlockModel {
  Routing routing = Routing::kStatic;
  BufferModel buffers = BufferModel::kPerNode;
  int capacity = 1;  // B >= 1 slots per buffer
  friend bool operator==(const DeadlockModel&, const DeadlockModel&) = default;
};
std::string to_string(const DeadlockModel& m);  // "static routing, per_node buffers, B = 1"

struct DeadlockMessage {
  NodeId source = 0;
  NodeId destination = 0;
  friend bool operator==(const DeadlockMessage&, const DeadlockMessage&) = default;
};

// One hop of one message (from = its node before the move).
struct Move {
  uint32_t message = 0;
  NodeId from = 0;
  NodeId to = 0;
  friend bool operator==(const Move&, const Move&) = default;
};

enum class Where { kInjected, kBuffered, kDelivered };
std::string to_string(Where w);  // "injected", "buffered", "delivered"

// Where a message is: injected (node = source), buffered (node = where it is, from = the node it
// came from, which names the link pool under kPerLink), delivered (node = destination).
struct MessageLocation {
  Where where = Where::kInjected;
  NodeId node = 0;
  NodeId from = 0;  // == node unless buffered
  friend bool operator==(const MessageLocation&, const MessageLocation&) = default;
};

struct DeadlockWitness {
  int n = 0;  // Q_n
  DeadlockModel model;
  std::vector<DeadlockMessage> messages;
  std::vector<Move> moves;                 // from the initial state
  std::vector<MessageLocation> final;      // one per message, after the moves
  std::vector<uint32_t> wait_cycle;        // wait_cycle[i] waits for wait_cycle[i+1], cyclically
  friend bool operator==(const DeadlockWitness&, const DeadlockWitness&) = default;
};

enum class DeadlockSearchMethod { kConfigurations, kStateSpace };
std::string to_string(DeadlockSearchMethod m);  // "configurations", "state_space"

struct DeadlockSearchLimits {
  int max_messages = 4;             // search M = 1 .. max_messages
  uint64_t max_states = 1'000'000;  // states (kStateSpace) or search nodes (kConfigurations), total
  DeadlockSearchMethod method = DeadlockSearchMethod::kConfigurations;
  bool translation_symmetry = true;  // off: every multiset / every seed node (for cross-checks)
};

// The budgets of the claims (method kConfigurations, translation symmetry on). Quick (CI): up to
// 24 messages and 10^6 search nodes, enough for the smallest deadlock of every Q_3 and Q_4 case at
// B = 1. Standard: up to 128 messages (B = 2 on all 64 links of Q_4: a "none" then covers every
// message count) and 10^8 search nodes, every Q_3 and Q_4 case at B = 1 and 2.
DeadlockSearchLimits quick_deadlock_limits();
DeadlockSearchLimits standard_deadlock_limits();

enum class DeadlockVerdict {
  kFound,           // witness holds a smallest deadlock (fewest messages, then fewest moves)
  kNoneUpToLimit,   // complete: no reachable deadlock with <= messages_searched messages
  kInconclusive,    // max_states reached while searching messages_searched + 1 messages
};
std::string to_string(DeadlockVerdict v);  // "found", "none", "inconclusive"

struct DeadlockSearchResult {
  DeadlockVerdict verdict = DeadlockVerdict::kInconclusive;
  std::optional<DeadlockWitness> witness;
  int messages_searched = 0;   // every M <= this was searched completely (found: the witness's M)
  uint64_t states_explored = 0;
  uint64_t message_sets = 0;   // kStateSpace: multisets explored (orbit representatives)
  uint64_t deadlocking_sets = 0;  // kStateSpace, found: multisets of the witness's size (all of
                                  // them, orbits expanded) from which a deadlock is reachable
  bool every_message_count = false;  // kConfigurations, none: the limit reached B * (number of
                                     // buffers), so no number of messages deadlocks at all
  std::string scope;           // one line: the network, model, method, limits and the verdict
};

// Called after each message count M is completely searched.
using DeadlockProgress = std::function<void(int messages, uint64_t states_explored)>;

DeadlockSearchResult search_deadlock(const Network& net, const DeadlockModel& model,
                                     const DeadlockSearchLimits& limits,
                                     const DeadlockProgress& progress = {});

// The naive judge, written apart from the search (it restates the routing rules on bits and
// recounts every buffer from scratch): replays `moves` from the initial state, each must move an
// existing, undelivered message from its current node over a hop the routing allows (static:
// flip the lowest bit of node XOR destination; dynamic: flip any bit of it) into its destination
// or into a buffer with a free slot; then `final` must be the replayed placement, some message
// undelivered, no move possible, and `wait_cycle` a cycle of distinct messages each waiting for
// the next. nullopt when all holds, otherwise the first problem in words. `net` must be Q_n.
std::optional<std::string> check_deadlock_witness(const Network& net, const DeadlockWitness& w);

// Readable form (nodes as n-bit strings, most significant bit first), e.g.
//   Q_3, static routing, per_node buffers, B = 1: deadlock of 2 messages after 2 moves
//   messages: m0 000->111, m1 010->101
//   moves: m0 000->001, m1 010->011
//   wait cycle: m0 000->111 at 001 waits for m1 (needs 011); m1 010->101 at 011 waits for m0 ...
std::string to_string(const DeadlockWitness& w);

// JSON (a corpus case):
//   {"format": "topocheck-deadlock", "version": 1, "n": 3, "routing": "static",
//    "buffers": "per_node", "capacity": 1,
//    "messages": [{"source": "000", "destination": "111"}, ...],
//    "moves": [{"message": 0, "from": "000", "to": "001"}, ...],
//    "final": [{"where": "buffered", "node": "001", "from": "000"}, ...],
//    "wait_cycle": [0, 1]}
nlohmann::json to_json(const DeadlockWitness& w);
// Validates the shape (fields, types, n in 1..6, node strings of n bits, message indices in
// range, one final entry per message); errors are parse errors naming `source` and the field
// ("/moves/3/to: ..."). Whether the witness is a deadlock is check_deadlock_witness's business.
Result<DeadlockWitness> witness_from_json(const nlohmann::json& j, const std::string& source);

}  // namespace topocheck::routing
