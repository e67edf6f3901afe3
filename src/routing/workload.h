// Workloads of the routing study: DAGs of processes, one process per node (papers/001, Section 1:
// "Each process receives zero or more messages, after which it computes, transmits zero or more
// messages, and then terminates"; "a one-to-one correspondence between processes and
// processors"; "every message is sent to a process with a higher sequence number").
//
// A Workload lists processes; process p runs on node `node`, has sequence number `seq`, and
// sends one message to each process in `sends` (in that order, the fixed generation order of
// Section 3). A process fires once every message addressed to it has arrived.
//
// Generators (each seeded; the same parameters and seed give the same workload with every
// compiler and standard library: network/rng.h). Sequence numbers equal process ids.
//  - gauss: row-oriented parallel Gaussian elimination (the paper's example) on a random sparse
//    n x n matrix, n = number of processes. Row k is process k (sequence number k). After the
//    symbolic elimination (fill-in included, no pivoting), row k, once it has received every
//    pivot row j < k with a_kj != 0, sends itself to every row i > k with a_ik != 0.
//    The matrix: diagonal nonzero, each off-diagonal entry nonzero independently with
//    probability min(1, nonzeros_per_row / (n - 1)).
//  - layered: a random layered DAG; processes are split into `layers` layers, layer l holding
//    floor(P / L) processes plus one for the first P mod L layers, ids layer by layer; each
//    process of layer l > 0 receives from min(fan_in, |layer l - 1|) distinct random processes
//    of layer l - 1.
//  - reduce_broadcast: the first R = ceil(P / 2) processes reduce along a binomial tree to its
//    root, which sends to the root of a binomial broadcast tree over the other P - R. Binomial
//    tree on positions 0..m-1: the parent of r > 0 is r & (r - 1). Reducer id x has position
//    R-1-x and sends to its parent (root: id R-1); id R-1 sends to id R; broadcaster id R+b has
//    position b and sends to its children. P - 1 messages; every process is reached from the
//    reduce leaves.
// Placement: process p on node p (`identity`) or on perm[p] for a seeded random permutation
// `perm` of all the nodes (`random`; drawn from its own stream, so the DAG does not depend on it).
// Defaults: gauss identity (row k on node k), layered and reduce_broadcast random. (Identity
// placement maps reduce_broadcast's binomial trees onto cube edges: one hop per message and no
// contention at all, so every case of the study takes the same time.)
// Limits: 1 <= nodes <= kMaxNodes (network.h). Gauss costs O(n^3 / 64) word operations at worst.
//
// Example (gauss, by hand; x: nonzero). Eliminating column 0 sends row 0 to rows 1 and 3 and
// copies its a_02 into them: a_32 fills in, so row 2 later sends to row 3 as well.
//   x . x .      row 0 -> {1, 3}
//   x x . .      row 1 -> {2}
//   . x x .      row 2 -> {3}      (only because of the fill a_32)
//   x . . x      row 3 -> {}
//
// File format (JSON, `to_json` writes it, `workload_from_json` reads and validates it; unknown
// fields are errors, "generator" may be left out):
//   {"format": "topocheck-workload", "version": 1, "name": "gauss",
//    "generator": {...parameters and seed, informational...},
//    "nodes": 256,                        // the network size it is placed on
//    "processes": [{"id": 0, "node": 0, "seq": 0, "sends": [3, 17]}, ...]}
// Validation (errors name the file, the line where it can be found, and the process):
// ids are 0..P-1 in order; 1 <= P <= nodes; nodes distinct and < nodes; sends name existing
// processes, no duplicates, no self-sends; seq(sender) < seq(receiver) for every message (so
// the graph is a DAG).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace topocheck::routing {

struct Process {
  uint32_t id = 0;
  uint32_t node = 0;
  uint32_t seq = 0;
  std::vector<uint32_t> sends;  // destination process ids, in generation order

  friend bool operator==(const Process&, const Process&) = default;
};

struct Workload {
  std::string name;                                      // "gauss", "layered", ...
  nlohmann::json generator = nlohmann::json::object();   // parameters + seed (informational)
  uint32_t nodes = 0;                                    // network size
  std::vector<Process> processes;                        // processes[p].id == p

  uint64_t num_messages() const;
  // Number of messages addressed to each process (aborts if a send names no process).
  std::vector<uint32_t> in_degrees() const;

  // Field by field, `generator` included (to_json then workload_from_json gives an equal one).
  friend bool operator==(const Workload&, const Workload&) = default;
};

enum class Placement { kIdentity, kRandom };
std::optional<Placement> parse_placement(std::string_view s);  // "identity", "random"
std::string to_string(Placement p);

struct GaussParams {
  uint32_t rows = 0;               // 0: one row per node
  double nonzeros_per_row = 2.0;   // expected off-diagonal nonzeros per row before fill-in
  // (2 on Q_8's 256 rows, seeds 1-3: 1415-2347 messages, longest chain 31-42 rows, so the
  // network is loaded and the DAG is parallel; 1 leaves a quarter of the rows idle, 3 lets the
  // fill-in chain ~100 rows.)
  Placement placement = Placement::kIdentity;
  uint64_t seed = 1;
};
struct LayeredParams {
  uint32_t processes = 0;          // 0: one per node
  uint32_t layers = 8;
  uint32_t fan_in = 3;
  Placement placement = Placement::kRandom;
  uint64_t seed = 1;
};
struct ReduceBroadcastParams {
  uint32_t processes = 0;          // 0: one per node (at least 2)
  Placement placement = Placement::kRandom;
  uint64_t seed = 1;
};

// Errors: parameters out of range (naming the parameter), more processes than nodes.
Result<Workload> gauss_workload(uint32_t nodes, const GaussParams& params);
Result<Workload> layered_workload(uint32_t nodes, const LayeredParams& params);
Result<Workload> reduce_broadcast_workload(uint32_t nodes, const ReduceBroadcastParams& params);

// The gauss DAG of a given sparsity pattern (pattern[i][j]: a_ij != 0; square; the diagonal is
// taken as nonzero): per row k, the rows i > k with a_ik != 0 after fill-in, increasing, i.e. the
// `sends` of process k. The generator runs the same elimination on its random matrix.
std::vector<std::vector<uint32_t>> gauss_elimination_sends(const std::vector<std::vector<bool>>& pattern);

// The names accepted by `builtin_workload`: "gauss", "layered", "reduce_broadcast".
const std::vector<std::string>& builtin_workload_names();
// A built-in workload with default parameters and the given seed (layered: at most one layer
// per node). Unknown name: kNotFound, listing the known ones.
Result<Workload> builtin_workload(std::string_view name, uint32_t nodes, uint64_t seed);

// nullopt if valid, otherwise the first problem in words, naming the field and the process
// ("processes[12].sends[3]: 12 is the process itself"). Cost: O(P + messages).
std::optional<std::string> validate(const Workload& w);

nlohmann::json to_json(const Workload& w);
// `source` names the file in errors. Errors name the field and process.
Result<Workload> workload_from_json(const nlohmann::json& j, const std::string& source);
// Reads and validates a workload file; errors are "FILE:LINE: error: ..." where the line is known.
Result<Workload> load_workload(const std::filesystem::path& file);

}  // namespace topocheck::routing
