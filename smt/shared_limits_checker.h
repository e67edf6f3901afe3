// One solver check at a time under the limits of a whole call, for the propositional and
// bit-vector encodings that ask Z3 a few independent questions per call (itm_*_smt.cc,
// migration_*_smt.cc). SolverLimits::rlimit (0 = none) is ONE budget for all the checks of the
// call: each check gets what the earlier ones left, clamped to UINT_MAX (Z3 takes an unsigned);
// timeout_ms (0 = none) is a wall-clock deadline for the whole call, counted from construction.
// A spent budget or deadline is kUnknown before any solver runs. Cost: one fresh z3::solver per
// check, no state kept between checks but the rlimit count.
//
// `Tally` is any struct with the fields `SmtStatus status`, `std::string reason`, `uint64_t
// rlimit_used` and `int checks` (CheckTally below, ItmSmtResult): check() writes the status of
// its answer (kProved for unsat, kCounterexample for sat, kUnknown with Z3's reason) and adds its
// rlimit units and one check.
#pragma once

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>

#include <z3++.h>

#include "claims/claim.h"
#include "smt/smt_common.h"

namespace topocheck::smt {

// What the checks of one call add up to (the migration encodings' tally).
struct CheckTally {
  SmtStatus status = SmtStatus::kProved;
  std::string reason;
  uint64_t rlimit_used = 0;
  int checks = 0;
};

template <class Tally>
class SharedLimitsChecker {
 public:
  SharedLimitsChecker(z3::context& ctx, const claims::SolverLimits& limits, Tally& tally)
      : ctx_(ctx), limits_(limits), tally_(tally),
        deadline_(std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeout_ms)) {}

  // Checks the conjunction of `formula` (then `extra`) with a solver of `logic` ("QF_FD":
  // Booleans with cardinality constraints; "QF_BV"). Returns the model when satisfiable;
  // otherwise nullopt, with tally.status kProved (unsat) or kUnknown (and the reason).
  std::optional<z3::model> check(const z3::expr_vector& formula, const char* logic) {
    return run(formula, nullptr, logic);
  }
  std::optional<z3::model> check(const z3::expr_vector& formula, const z3::expr& extra, const char* logic) {
    return run(formula, &extra, logic);
  }

 private:
  std::optional<z3::model> run(const z3::expr_vector& formula, const z3::expr* extra, const char* logic) {
    const uint64_t budget = std::min<uint64_t>(limits_.rlimit, UINT_MAX);  // Z3 takes an unsigned
    if (limits_.rlimit != 0 && tally_.rlimit_used >= budget) return unknown("max. resource limit exceeded");
    const auto left_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now()).count();
    if (limits_.timeout_ms != 0 && left_ms <= 0) return unknown("timeout");
    // A check's rlimit counts from the context's count when it starts.
    z3::solver solver(ctx_, logic);
    z3::params p(ctx_);
    if (limits_.rlimit != 0) p.set("rlimit", static_cast<unsigned>(budget - tally_.rlimit_used));
    if (limits_.timeout_ms != 0) p.set("timeout", static_cast<unsigned>(left_ms));
    solver.set(p);
    solver.add(formula);
    if (extra != nullptr) solver.add(*extra);
    const z3::check_result answer = solver.check();
    // The statistic is the context's running count: add only this check's part.
    const uint64_t count = rlimit_count(solver);
    tally_.rlimit_used += count - std::min(count, counted_);
    counted_ = count;
    ++tally_.checks;
    if (answer == z3::unsat) {
      tally_.status = SmtStatus::kProved;
      return std::nullopt;
    }
    if (answer == z3::unknown) return unknown(solver.reason_unknown());
    tally_.status = SmtStatus::kCounterexample;
    return solver.get_model();
  }
  std::optional<z3::model> unknown(const std::string& reason) {
    tally_.status = SmtStatus::kUnknown;
    tally_.reason = reason;
    return std::nullopt;
  }
  z3::context& ctx_;
  claims::SolverLimits limits_;
  Tally& tally_;
  std::chrono::steady_clock::time_point deadline_;
  uint64_t counted_ = 0;  // the context's rlimit count already added to tally.rlimit_used
};

}  // namespace topocheck::smt
