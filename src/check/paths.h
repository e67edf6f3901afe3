// `topocheck check paths`: a user's path system judged by core's naive checkers (checks.h), the
// same judge every method of the suite uses, with the max-flow optimum (graph.h) for comparison.
//
// The file (schemas/paths.schema.json; FILE:LINE errors through core/json_lines.h):
//   {"topology": "hypercube:3" | "metacube:2,2" | {"nodes": 6, "edges": [[0, 1], [1, 2], ...]},
//    "s": "000", "t": "111",                  (bit strings on cubes; integers 0..nodes-1 on a graph)
//    "paths": [["000", "001", "011", "111"], ...],
//    "disjoint": "node" | "link" | "directed-link" | "none",   (default "node": internally node-disjoint)
//    "max_length": 4,                         (optional: every path has at most this many hops)
//    "fault_tolerance": true,                 (optional: any |paths| - 1 faulty nodes other than s
//                                              and t leave one path whole)
//    "origin": {...}}                         (optional, not judged: where a stored counterexample
//                                              came from, as `search --external --save` writes it)
// Cube addresses are the suite's text form (most significant bit first, as the corpus's witnesses);
// a Metacube node may also be written fielded, "(01, 111, 101, 110, 000)".
//
// The checks, in order, each "ok", "violated" or "not applicable" with words:
//   valid            every path is a walk of the topology from s to t (check_path_valid, check_endpoints);
//   simple           no path repeats a node (check_simple);
//   disjoint         the chosen disjointness (check_internally_node_disjoint / check_link_disjoint /
//                    check_directed_link_disjoint); not applicable for "none";
//   max_length       check_max_length, when a bound is given;
//   fault_tolerance  when asked: the least set of nodes other than s and t that meets every path
//                    (exact search, branching on the nodes of a path the set misses) has at least
//                    |paths| nodes; a smaller one is the violation;
//   optimum          the local node connectivity of s and t (Boost max-flow on the materialized
//                    topology, at most 2^20 nodes) against the number of paths: "ok" when the
//                    paths are as many, "violated" when fewer, never more (disjoint paths cannot
//                    exceed it), "not applicable" when the paths are not internally node-disjoint
//                    or the topology is too large to materialize.
// A check whose premise fails (disjoint etc. on invalid paths) is "not applicable", never "ok".
// Limits (checked before any work): at most 4,096 paths of at most 65,536 nodes each, a graph of
// at most 2^20 nodes and 2^24 edges, fault tolerance for at most 12 paths.
#pragma once

#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/report.h"
#include "core/path.h"
#include "core/status.h"
#include "core/topology.h"

namespace topocheck::check {

enum class Disjointness { kNode, kLink, kDirectedLink, kNone };

struct PathsInput {
  std::shared_ptr<const Topology> topology;
  std::string topology_text;  // as given ("hypercube:3", "graph of 6 nodes")
  Node s, t;
  std::vector<Path> paths;
  Disjointness disjoint = Disjointness::kNode;
  std::optional<int> max_length;
  bool fault_tolerance = false;
};

// Parses and validates the file's JSON (`text` is the file's contents, for line numbers); errors
// are kParse with `file` and the line of the offending value.
Result<PathsInput> paths_from_json(const nlohmann::json& j, const std::string& text, const std::string& file);

// The optimum's materialized topology, built on first use and kept for the next system on the same
// topology (the lines of a table). One per thread; not shared.
class OptimumCache {
 public:
  OptimumCache();
  ~OptimumCache();
  OptimumCache(const OptimumCache&) = delete;
  OptimumCache& operator=(const OptimumCache&) = delete;
  // The most internally node-disjoint s-t paths of `topo` (max-flow).
  int max_paths(const Topology& topo, Node s, Node t);

 private:
  struct Graph;
  std::unique_ptr<Graph> graph_;
  const Topology* topology_ = nullptr;
};

// `cache`: where the optimum keeps its materialized topology between calls (nullptr: built anew).
// The optimum needs no max-flow when the paths are as many as the smaller degree of s and t with
// distinct first and last hops (no set of disjoint paths is larger).
CheckReport judge_paths(const PathsInput& in, OptimumCache* cache = nullptr);

// ---- A table of path systems, streamed (`check paths --file T.jsonl`) ----------------------------
// JSON Lines: the first line holds the settings, {"kind": "paths", "topology": ..., "disjoint"?,
// "fault_tolerance"?, "max_length"?}; every further non-blank line one system, {"s": ..., "t": ...,
// "paths": [...], "max_length"?: a bound of its own}. Each line is read, judged as a paths file is,
// and dropped: memory holds one line, the materialized topology and the counts, whatever the
// number of lines. A bad line is an error at its line (FILE:LINE), and nothing is reported.
struct PathsTableReport {
  // One line per check, over every system: "violated" if any system violates it (words: how many,
  // and the first, by line, s and t); else "ok" if it applied to at least one (words: on how many);
  // else "not applicable" (the first reason).
  CheckReport report;
  std::string topology_text, topology_name;
  uint64_t systems = 0;
  uint64_t violated_systems = 0;
  // The first kMaxListedViolations violated systems: {"line", "s", "t", "check", "words"}.
  nlohmann::json violations = nlohmann::json::array();
  static constexpr size_t kMaxListedViolations = 100;
};
// `progress` (may be empty) is called with the number of systems judged so far, every 1,000.
Result<PathsTableReport> judge_paths_table(std::istream& in, const std::string& file,
                                           const std::function<void(uint64_t)>& progress = {});

}  // namespace topocheck::check
