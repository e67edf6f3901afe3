// `topocheck check schedule`: a user's AAPC schedule on a faulty hypercube judged by aapc's
// schedule checker (aapc.h: check_schedule, the judge of every generator of the suite), under a
// port model, with its length against a bound and against the lower bounds of aapc/bounds.h.
//
// The file (schemas/schedule.schema.json) is aapc.h's JSON form of a schedule, plus:
//   {"n": 3, "faults": [6], "model": "all_port" | "one_receive" | "one_port",  (default all_port)
//    "steps": [{"name": "step 1", "begin": 0, "end": 2}, ...],                 (optional)
//    "units": [[["4_0", 0, 4], ...], ...],   (per time unit the moves: datum "<dest>_<source>", from, to)
//    "max_units": 18}                          (optional: the schedule takes at most this many units)
// It is the witness.schedule of the corpus's AAPC counterexamples (with "model" added), and what
// `simulate aapc --out` writes.
//
// The checks: valid (every move legal under the model, every datum delivered; the checker's first
// violation in words), max_units (when given), and lower_bound: the length against the best lower
// bound of aapc/bounds.h ("violated" would mean the checker let through a schedule shorter than a
// proven bound: it is a check of the suite's own consistency, never of the file). Limits: n <= 10,
// at most 2^20 moves.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "aapc/aapc.h"
#include "check/paths.h"
#include "core/status.h"

namespace topocheck::check {

struct ScheduleFile {
  aapc::Schedule schedule;
  aapc::FaultSet faults;
  aapc::Model model = aapc::Model::kAllPort;
  std::optional<int> max_units;
};

Result<ScheduleFile> schedule_file_from_json(const nlohmann::json& j, const std::string& text, const std::string& file);

CheckReport judge_schedule(const ScheduleFile& in);

}  // namespace topocheck::check
