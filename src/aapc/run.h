// One AAPC run as a user asks for it (`topocheck simulate aapc`, the schedule claims): choose the
// paper's algorithm for the fault set (or take the one asked for), fill in the dimensions the text
// leaves open, generate the schedule (schedules.h), and attach the paper's counts to compare with.
// The schedule is judged by check_schedule (aapc.h) by the caller, never here.
//
// Defaults (each printed with the run, so a user sees what was chosen):
//   algorithm auto: no fault -> the inner AAPC of Q_n; one -> A_1; two -> A_2; more -> A_f.
//   A_1: d = 0 (any dimension divides Q_n into a faulty and a nonfaulty half).
//   A_2: d = the highest dimension in which the two faults differ (Example 2: faults {6, 9},
//        d = 3); d1 = d2 = the lowest dimension other than d.
//   A_f: D and d = find_af_partition (partition.h): the smallest D, then the smallest d.
//   A_2, A_f: options.frame = canonical (schedules.h, Frame); `parameters` names it.
// Example: run_aapc({FaultSet(4, {6, 9})}) is A_2 with d = 3, d1 = d2 = 0 under all_port.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aapc/aapc.h"
#include "aapc/partition.h"
#include "aapc/schedules.h"
#include "core/status.h"

namespace topocheck::aapc {

enum class Algorithm { kAuto, kInner, kA1, kA2, kAf };
std::string to_string(Algorithm a);                      // "auto", "inner", "A1", "A2", "Af"
Result<Algorithm> parse_algorithm(std::string_view text);  // errors name --algorithm

struct RunRequest {
  FaultSet faults{1, {}};
  Algorithm algorithm = Algorithm::kAuto;
  Model model = Model::kAllPort;
  std::optional<int> d, d1, d2;      // A_1: d; A_2: d, d1, d2; A_f: d
  std::optional<DimSet> dims;        // A_f: D
  ScheduleOptions options;
};

struct RunResult {
  Algorithm algorithm = Algorithm::kAuto;  // the one that ran (never kAuto)
  std::string description;                 // "A2 (d = 3, d1 = 0, d2 = 0)"
  nlohmann::json parameters = nlohmann::json::object();  // {"d": 3, "d1": 0, "d2": 0}
  Schedule schedule;
  int64_t paper_units = 0;                 // the paper's count for this algorithm and n (f)
  std::string paper_formula;               // "5*2^(n-1) - 2"
  // The paper's per-step counts where it gives them (A_1: steps 1..5), by step name.
  std::vector<std::pair<std::string, int64_t>> paper_steps;
};

// Errors name the flag (--algorithm for a fault count the algorithm does not take, --d, --d1,
// --d2, --dims) with the generator's reason.
Result<RunResult> run_aapc(const RunRequest& request);

}  // namespace topocheck::aapc
