// Properties of fault-tolerant AAPC (Masuyama and Masuyama, paper 004) on random inputs: n = 2..7,
// a fault set of the algorithm's size (shrinking lowers n and removes faults), its dimensions, and
// a port model:
//  - every schedule A_1, A_2, A_f generate (where their preconditions hold) is judged valid by the
//    naive checker and delivers every datum (aapc.a1/a2/af.delivers);
//  - under all_port each is at most the paper's count (the *.units all_port.at_most readings);
//  - the JSON form parses back to the same schedule;
//  - NEGATIVE CONTROLS, properties EXPECTED TO FAIL: every generated schedule with one move
//    dropped, with a second datum pushed onto a busy link in the same unit, or with a move
//    redirected through a faulty node must be rejected by check_schedule.
// Budget: TOPOCHECK_BUDGET=quick|standard|deep (default quick) selects the number of cases,
// claims::aapc_scope::kPropertyCases.at(budget). Seed and RC_PARAMS: see props_harness.h.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "aapc/aapc.h"
#include "aapc/aapc_gen.h"
#include "aapc/partition.h"
#include "aapc/run.h"
#include "catalog/aapc/scope.h"
#include "props_harness.h"

namespace topocheck::aapc {

// RapidCheck prints inputs through this.
struct AapcInput {
  int n = 2;
  std::vector<NodeId> faults;  // distinct, < 2^n
  int pick = 0;                // which dimension choice
  int model = 0;               // index into kModels
};
inline void showValue(const AapcInput& in, std::ostream& os) {
  os << fmt::format("Q_{} faults {{{}}} pick {} model {}", in.n, fmt::join(in.faults, ","), in.pick,
                    to_string(kModels[in.model]));
}

namespace {

int Cases() { return claims::aapc_scope::kPropertyCases.at(props::BudgetFromEnvironment()); }

// n = 2..7, then 0..max_faults faults (distinct by construction: a set), a pick and a model.
rc::Gen<AapcInput> input_gen(int min_faults, int max_faults) {
  return rc::gen::mapcat(rc::gen::inRange(2, 8), [min_faults, max_faults](int n) {
    return rc::gen::mapcat(rc::gen::inRange(min_faults, max_faults + 1), [n](int f) {
      return rc::gen::map(
          rc::gen::tuple(rc::gen::unique<std::vector<NodeId>>(static_cast<size_t>(f), rc::gen::inRange<NodeId>(0, 1u << n)),
                         rc::gen::inRange(0, 64), rc::gen::inRange(0, 3)),
          [n](const std::tuple<std::vector<NodeId>, int, int>& t) {
            AapcInput in;
            in.n = n;
            in.faults = std::get<0>(t);
            in.pick = std::get<1>(t);
            in.model = std::get<2>(t);
            return in;
          });
    });
  });
}

// The run for an input, or nullopt where the algorithm's preconditions do not hold (A_2: the
// faults are neighbours along every dimension they differ in; A_f: no partition).
std::optional<RunResult> run_for(const AapcInput& in) {
  const int f = static_cast<int>(in.faults.size());
  if (f > in.n / 2 && f > 2) return std::nullopt;
  RunRequest req;
  req.faults = FaultSet(in.n, in.faults);
  req.model = kModels[in.model];
  if (f == 1) {
    req.algorithm = Algorithm::kA1;
    req.d = in.pick % in.n;
  } else if (f == 2 && in.pick % 2 == 0) {
    if (in.n < 3) return std::nullopt;
    req.algorithm = Algorithm::kA2;
    std::vector<int> ds;
    const NodeId diff = in.faults[0] ^ in.faults[1];
    for (int d = 0; d < in.n; ++d)
      if (((diff >> d) & 1) && std::popcount(diff) > 1) ds.push_back(d);
    if (ds.empty()) return std::nullopt;
    req.d = ds[static_cast<size_t>(in.pick / 2) % ds.size()];
  } else {
    const auto parts = all_af_partitions(req.faults);
    if (parts.empty()) return std::nullopt;
    const AfPartition& p = parts[static_cast<size_t>(in.pick) % parts.size()];
    req.algorithm = Algorithm::kAf;
    req.dims = p.dims;
    req.d = p.d;
  }
  auto r = run_aapc(req);
  RC_ASSERT(r.ok());  // inside the preconditions the generators never refuse
  return std::move(r).value();
}

TEST(AapcProps, EveryGeneratedScheduleIsValidAndDelivers) {
  props::CheckClaim("aapc.{a1,a2,af}.delivers", props::BudgetFromEnvironment(), Cases(),
                    "n = 2..7, 1..3 faults, every model", [] {
                      const AapcInput in = *input_gen(1, 3).as("input");
                      auto run = run_for(in);
                      RC_PRE(run.has_value());
                      RC_TAG(to_string(run->algorithm));
                      const FaultSet faults(in.n, in.faults);
                      const ScheduleCheck c = check_schedule(run->schedule, faults, kModels[in.model]);
                      RC_ASSERT(c.ok);
                      RC_ASSERT(c.delivered == c.data);
                      if (kModels[in.model] == Model::kAllPort) RC_ASSERT(c.units <= run->paper_units);
                      // The JSON form parses back to the same schedule.
                      auto back = schedule_from_json(to_json(run->schedule, faults));
                      RC_ASSERT(back.ok());
                      RC_ASSERT(back->schedule.units == run->schedule.units);
                    });
}

// A broken copy of a generated schedule; the checker must reject each kind.
enum class Break { kDropMove, kOverloadLink, kThroughFault };

Violation broken_violation(const AapcInput& in, Break kind) {
  auto run = run_for(in);
  if (!run) return std::nullopt;
  Schedule s = run->schedule;
  const FaultSet faults(in.n, in.faults);
  const Model model = kModels[in.model];
  if (!check_schedule(s, faults, model).ok) return std::string("the unbroken schedule is already invalid");
  // The unit and move to break: the pick-th busy unit, its first move.
  std::vector<int> busy;
  for (int t = 0; t < s.num_units(); ++t)
    if (!s.units[t].empty()) busy.push_back(t);
  if (busy.empty()) return std::nullopt;
  const int t = busy[static_cast<size_t>(in.pick) % busy.size()];
  Move& m = s.units[t].front();
  switch (kind) {
    case Break::kDropMove:
      s.units[t].erase(s.units[t].begin());
      break;
    case Break::kOverloadLink: {
      // Another datum sitting at m.from (any datum whose source is m.from and that has not moved
      // yet in this schedule: the one destined to m.to itself, which exists) pushed onto m's link.
      Move extra{Datum{m.from, m.to}, m.from, m.to};
      if (extra.datum == m.datum) extra.datum = Datum{m.from, m.from ^ 1u ^ (m.from ^ m.to)};
      s.units[t].push_back(extra);
      break;
    }
    case Break::kThroughFault: {
      // Redirect the move to a faulty neighbour of its start, if there is one.
      const NodeId from = m.from;
      std::optional<NodeId> bad;
      for (NodeId x : faults.faulty())
        if (std::popcount(x ^ from) == 1) bad = x;
      if (!bad) {
        m.to = faults.faulty().front();  // not even a link: rejected too
      } else {
        m.to = *bad;
      }
      break;
    }
  }
  const ScheduleCheck c = check_schedule(s, faults, model);
  if (c.ok) return std::nullopt;
  return c.violation;
}

void ExpectEveryBreakRejected(const std::string& id, Break kind) {
  const int cases = Cases();
  props::PrintScope(id, props::BudgetFromEnvironment(), cases, "n = 2..7, 1..3 faults, every model");
  // "Every broken schedule is rejected" as a property that must hold (checker verdicts are the
  // negative control's subject): a broken schedule the checker accepts fails it.
  const props::PropertyOutcome outcome = props::RunProperty(id, cases, [kind] {
    const AapcInput in = *input_gen(1, 3).as("input");
    RC_PRE(run_for(in).has_value());
    const Violation v = broken_violation(in, kind);
    RC_ASSERT(v.has_value());
    RC_ASSERT(*v != "the unbroken schedule is already invalid");
  });
  EXPECT_TRUE(outcome.succeeded) << id << ": " << outcome.message;
}

TEST(AapcProps, NegativeControlDroppedMoveIsRejected) { ExpectEveryBreakRejected("aapc.control.drop_move", Break::kDropMove); }
TEST(AapcProps, NegativeControlOverloadedLinkIsRejected) {
  ExpectEveryBreakRejected("aapc.control.overload_link", Break::kOverloadLink);
}
TEST(AapcProps, NegativeControlMoveIntoAFaultIsRejected) {
  ExpectEveryBreakRejected("aapc.control.through_fault", Break::kThroughFault);
}

// The public fault-set generator (aapc_gen.h): within the count, in range, one node left
// nonfaulty, and its shrink chain ends at no fault at all.
RC_GTEST_PROP(FaultSetGenerator, KeepsFaultSetsInvariant, ()) {
  const int n = *rc::gen::inRange(1, kMaxN + 1).as("n");
  const int max_faults = *rc::gen::inRange(0, 2000).as("max_faults");
  const FaultSet faults = *gen::fault_set(n, max_faults).as("faults");
  RC_ASSERT(faults.n() == n);
  RC_ASSERT(static_cast<int>(faults.faulty().size()) <= max_faults);
  RC_ASSERT(!faults.nonfaulty().empty());
}

TEST(FaultSetGenerator, ShrinksToNoFault) {
  rc::Shrinkable<FaultSet> faults = gen::fault_set(5, 12)(rc::Random(3), 100);
  ASSERT_FALSE(faults.value().faulty().empty());
  while (auto next = faults.shrinks().next()) faults = *next;
  EXPECT_TRUE(faults.value().faulty().empty());
}

}  // namespace
}  // namespace topocheck::aapc
