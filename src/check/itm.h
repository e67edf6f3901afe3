// `topocheck check itm`: a user's graph, or AddNode sequence, judged as an Incremental Triangular
// Mesh (papers/002) under each reading of AddNode by the suite's ITM code (itm/): is it an ITM
// (Itm::build replays the steps; a graph is one when it has 2n - 3 edges and a spanning ITM,
// theorem3.h's exact spanning_itm), its circular order (the exterior edges as one cycle,
// itm.h's circular_order), Theorem 5's contention freedom over that order (itm_checks.h,
// check_contention_free, the paper's reading), the recursive broadcast from every node
// (check_broadcast), and the deadlock freedom of shortest-path routing (check_deadlock_free).
//
// The file (schemas/itm.schema.json): {"steps": "3:(0,1) 4:(1,3)"} (AddNode steps from the kernel
// triangle 0, 1, 2, in the text form of `construct itm`) or {"graph": {"nodes": 5, "edges":
// [[0, 1], ...]}}. Readings: any-edge (AddNode at any edge, the definition) and exterior (at
// exterior edges only). Checks per reading "itm[R]", "circular_order[R]", "contention_free[R]",
// "broadcast[R]", then "deadlock_free". Limits: at most 64 nodes (the broadcast and contention
// checks enumerate shortest paths), 2,048 steps.
#pragma once

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "check/report.h"
#include "core/status.h"
#include "itm/itm.h"

namespace topocheck::check {

struct ItmFile {
  std::optional<itm::Steps> steps;  // the file gave steps
  itm::Graph graph;                 // the file's graph, or the steps' ITM under any-edge (when it builds)
  std::string steps_text;
};

Result<ItmFile> itm_file_from_json(const nlohmann::json& j, const std::string& text, const std::string& file);

CheckReport judge_itm(const ItmFile& in);

}  // namespace topocheck::check
