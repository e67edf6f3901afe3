// `topocheck check routing`: a user's routing function, given as a table, judged on its graph: the
// channel dependency graph (Dally and Seitz; wormhole_routing.h's channel_dependencies, the judge of
// the suite's own routings) and whether it is acyclic (core's find_dependency_cycle, Boost's strong
// components; the cycle is the witness), whether every route arrives, and whether the routing is
// minimal and permits every shortest path.
//
// The file (schemas/routing.schema.json):
//   {"graph": {"nodes": 4, "edges": [[0, 1], [1, 2], [2, 3], [3, 0]]},
//    "table": [{"node": 0, "dest": 2, "next": [1, 3]}, ...]}
// A row says which neighbours a message at `node` bound for `dest` may go to next (in preference
// order; the arrival channel is not an input: a destination-based routing). Every pair node != dest
// needs a row; nodes are 0..nodes-1, `next` lists neighbours of `node`.
//
// The checks: complete (a row, with at least one next hop, for every pair), arrives (from every node,
// following any allowed hops, every path reaches dest: the per-destination next-hop graph is
// acyclic), deadlock_free (the channel dependency graph is acyclic; else the cycle of channels),
// minimal (every allowed hop is one step closer to dest), every_shortest_path (every neighbour one
// step closer is allowed: the routing is fully adaptive among shortest paths; "violated" names a
// pair and the hop it forbids, which only says the routing is not fully adaptive). A check whose
// premise fails is "not applicable". Limits: at most 4,096 nodes (routing/network.h), 2^24 rows.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/paths.h"
#include "core/status.h"

namespace topocheck::check {

struct RoutingFile {
  uint64_t nodes = 0;
  std::vector<std::pair<uint64_t, uint64_t>> edges;
  // next[node][dest]: the allowed next nodes, in the file's order (empty: no row).
  std::vector<std::vector<std::vector<uint32_t>>> next;
};

Result<RoutingFile> routing_file_from_json(const nlohmann::json& j, const std::string& text, const std::string& file);

CheckReport judge_routing(const RoutingFile& in);

}  // namespace topocheck::check
