// Fault-tolerant all-to-all personalized communication (AAPC) in faulty hypercubes: the model,
// schedules as explicit data, and the naive schedule checker every method relies on.
//
// Paper: Masuyama & Masuyama, "A Method of Fault-Tolerant All-to-All Personalized Communication
// in Hypercubes" (papers/004_d7c0ed59f63b519b.txt).
//
// Notation (paper -> code):
//   Q_n, N = 2^n nodes 0..N-1, bit j is dimension j  -> `int n`, `NodeId` (decimal, as printed)
//   i^(j), the neighbour across dimension j            -> `x ^ (1u << j)`
//   faulty node set                                    -> `FaultSet`
//   i_j, the datum with source j and destination i    -> `Datum{.source = j, .dest = i}`,
//                                                         text "i_j" (destination first, as printed)
//   a time unit                                        -> one entry of `Schedule::units`
//
// The model (the paper never states it; READING.md asks for it to be explicit): store-and-forward,
// unit data, one datum per DIRECTED link per time unit, a datum makes at most one hop per unit (it
// can move on in the unit after it arrived), faulty nodes neither send, receive nor forward, every
// ordered pair (j, i) of distinct nonfaulty nodes has exactly one datum i_j. Three port models:
//   all_port     every link of a node may be used in the same unit (the paper's "multiport");
//   one_receive  additionally every node receives at most one datum per unit;
//   one_port     additionally every node sends at most one datum per unit.
//
// Example: Q_3 with faults {6}: the datum 4_5 (source 5, destination 4) may travel 5 -> 1 in unit 1,
// 1 -> 0 in unit 2 and 0 -> 4 in unit 3 (A_1 divided along dimension 2 sends it this way).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace topocheck::aapc {

// Schedules are explicit move lists (about n * 2^(2n-1) moves), so sizes stop at n = 10.
inline constexpr int kMaxN = 10;

using NodeId = uint32_t;

enum class Model { kAllPort, kOneReceive, kOnePort };
std::string to_string(Model m);  // "all_port", "one_receive", "one_port"
Result<Model> parse_model(std::string_view text);  // errors name --model
inline constexpr Model kModels[] = {Model::kAllPort, Model::kOneReceive, Model::kOnePort};

// Q_n with a set of faulty nodes. Invariant: 1 <= n <= kMaxN, faulty nodes distinct, < 2^n.
class FaultSet {
 public:
  FaultSet(int n, std::vector<NodeId> faulty);  // aborts on a violated invariant
  int n() const { return n_; }
  NodeId num_nodes() const { return NodeId{1} << n_; }
  bool is_faulty(NodeId x) const { return faulty_mask_[x]; }
  const std::vector<NodeId>& faulty() const { return faulty_; }  // ascending
  std::vector<NodeId> nonfaulty() const;                           // ascending
  std::string to_string() const;  // "{6,9}" ("{}" when none)

 private:
  int n_;
  std::vector<NodeId> faulty_;
  std::vector<bool> faulty_mask_;
};
// `--n` and `--faults` text ("6,9", "" for none): errors name the flag (n out of 1..kMaxN, a
// fault that is not a number, out of range or repeated).
Result<FaultSet> parse_faults(int n, std::string_view text);
// Every fault set of Q_n that leaves at least one node nonfaulty, by ascending mask (2^(2^n) - 1
// of them: for n <= 4 only; aborts above).
std::vector<FaultSet> all_fault_sets(int n);

struct Datum {
  NodeId source = 0;
  NodeId dest = 0;
  std::string to_string() const;  // "i_j" = "<dest>_<source>"
  friend bool operator==(const Datum&, const Datum&) = default;
  friend auto operator<=>(const Datum&, const Datum&) = default;
};
Result<Datum> parse_datum(std::string_view text);  // "i_j"

// One hop of one datum along the directed link from -> to, in one time unit.
struct Move {
  Datum datum;
  NodeId from = 0;
  NodeId to = 0;
  friend bool operator==(const Move&, const Move&) = default;
};

// A named contiguous range of time units [begin, end) (an algorithm's step or phase), for the
// per-step tables; steps are informative only and are not checked beyond 0 <= begin <= end <=
// units.size().
struct Step {
  std::string name;
  int begin = 0;
  int end = 0;
};

struct Schedule {
  int n = 0;
  std::vector<std::vector<Move>> units;  // units[t]: the moves of time unit t + 1
  std::vector<Step> steps;
  int num_units() const { return static_cast<int>(units.size()); }
  uint64_t num_moves() const;
};

// The schedule checker (naive on purpose; every method and every generator is judged by it).
struct ScheduleCheck {
  bool ok = false;
  std::string violation;   // first violation in words, naming the unit, the datum and the link
  int units = 0;           // time units of the schedule (its length)
  int last_busy_unit = 0;  // the last unit with a move (1-based; 0 for none)
  uint64_t moves = 0;
  uint64_t data = 0;       // data that must be delivered: |V - F| * (|V - F| - 1)
  uint64_t delivered = 0;  // data at their destination at the end
};
// Verifies, unit by unit: every move is of a datum that exists (distinct nonfaulty source and
// destination), starts where the datum is, runs along a hypercube link, touches no faulty node;
// a datum moves at most once per unit and never again once delivered (consumed at its destination);
// per unit, every directed link carries at most one datum and the model's port limits hold; at the
// end every datum is at its destination. Cost O(N^2 + moves).
ScheduleCheck check_schedule(const Schedule& schedule, const FaultSet& faults, Model model);

// JSON form: {"n": 3, "faults": [6], "steps": [{"name": ..., "begin": 0, "end": 4}],
//             "units": [[["0_4", 4, 0], ...], ...]}  (each move: datum text, from, to).
nlohmann::json to_json(const Schedule& schedule, const FaultSet& faults);
// Parses the JSON form; errors name the field ("units[3][0]: ..."), never abort.
struct ScheduleInput {
  Schedule schedule;
  FaultSet faults;
};
Result<ScheduleInput> schedule_from_json(const nlohmann::json& j);

// Text form for people: one line per unit, "unit 5 [step 2]: 0_4 4->0, 1_4 4->0".
std::string to_text(const Schedule& schedule);
// Link use per time unit: CSV "unit,from,to,datum" (one row per move), and an SVG grid (time
// units across, directed links down, a filled cell per busy link).
std::string link_use_csv(const Schedule& schedule);
std::string link_use_svg(const Schedule& schedule);

// The data that cross the link {a, b} (either direction), per step: for the Q_3 example table.
std::vector<std::pair<std::string, std::vector<Datum>>> data_on_link(const Schedule& schedule,
                                                                     NodeId a, NodeId b);

// The paper's time-unit counts: A_1 5*2^(n-1) - 2 (Section 3.1.2), A_2 5*2^(n-1) + n - 1
// (3.2.2), A_f (5*2^f - 2)*2^(n-(f+1)) (3.3.2, requires f + 1 <= n), and the optimum 2^n - 1
// stated for a nonfaulty Q_n (3.1.2). Exact for n <= 60.
int64_t paper_units_a1(int n);
int64_t paper_units_a2(int n);
int64_t paper_units_af(int n, int f);
int64_t paper_units_optimum(int n);

}  // namespace topocheck::aapc
