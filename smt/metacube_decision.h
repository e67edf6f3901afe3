// The decision procedure shared by the Metacube encodings (smt/metacube_smt.h, "Decision"): the
// problems (a Theorem 2 part, or commutation with class-zero translations) and their groups, one
// split encoded in a context with each group's violation, the shared budget of one call (Meter),
// and decide(), which checks every group of every split and minimizes the first model to the pair
// exhaustive search finds first. Private to smt/: the metacube encodings only. Preconditions: a
// Metacube that Metacube::make accepts (make_mc aborts otherwise); options without an encoding gap.
// Cost: one QF_BV check per group and split (decide), plus width checks per minimized variable.
// Implemented in metacube_decision_smt.cc.
#pragma once

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include "claims/claim.h"
#include "core/node.h"
#include "metacube/disjoint.h"
#include "metacube/metacube_checks.h"
#include "smt/metacube_smt.h"
#include "smt/metacube_symbolic.h"

namespace topocheck::smt::metacube_encoding {

using claims::SolverLimits;
using metacube::Alg4Options;
using metacube::Thm2Part;

// ---------------------------------------------------------------------------------------------
// Problems and their groups.

enum class Kind { kThm2, kCommutes };

struct Problem {
  Kind kind;
  Thm2Part part;  // kThm2 only
  const Alg4Options& options;
  // kCommutes: translate each pair by a_s, the M part of s (the claim's per-pair check, see
  // prove_alg4_commutes), or by a free class-zero a (the evaluator's pointwise tests).
  bool translate_by_source = true;
};

// A group: path i (j < 0) or the pair (i, j).
struct Group {
  int i, j;
};

std::vector<Group> problem_groups(const Metacube& mc, const Problem& problem);

// The variables of one context: the M fields of s, t and a.
struct Vars {
  explicit Vars(z3::context& ctx, const Metacube& mc)
      : sm(ctx.bv_const("sM", static_cast<unsigned>(mc.m() * mc.h()))),
        tm(ctx.bv_const("tM", static_cast<unsigned>(mc.m() * mc.h()))),
        am(ctx.bv_const("aM", static_cast<unsigned>(mc.m() * mc.h()))) {}
  z3::expr sm, tm, am;
};

// One split encoded in a context: the precondition, the paths (and for commutation the paths of
// the translated pair), ready to produce group formulas.
struct SplitEncoding {
  SplitEncoding(const Space& space, const Problem& prob, const Split& sp_, const Vars& vars)
      : sp(space), problem(prob), split(sp_),
        s(space.address(sp_.cs, vars.sm)), t(space.address(sp_.ct, vars.tm)),
        a_low(prob.translate_by_source ? vars.sm : vars.am), a(space.address(0, a_low)),
        pre(split_precondition(space, sp_, s, t)) {
    paths = alg4_paths(space, prob.options, sp_, s, t);
    // The translated pair has the same class fields, hence the same split (and the same case:
    // XOR with one a keeps every field equality), so its precondition is implied.
    if (prob.kind == Kind::kCommutes) moved = alg4_paths(space, prob.options, sp_, s ^ a, t ^ a);
  }
  // The group's violation (for a Theorem 2 problem, of `part`: the paths do not depend on it).
  z3::expr group(const Group& g) const { return group(g, problem.part); }
  z3::expr group(const Group& g, Thm2Part part) const;
  // A cheaper formula whose unsat implies the group's (commutation only; nullopt otherwise).
  std::optional<z3::expr> sufficient(const Group& g) const;
  // pre AND (the disjunction of every group).
  z3::expr whole() const { return whole(problem.part); }
  z3::expr whole(Thm2Part part) const;
  const Space& sp;
  const Problem problem;
  Split split;
  z3::expr s, t;
  z3::expr a_low, a;  // commutation: the translation's M fields, and the translation
  z3::expr pre;
  std::vector<SymPath> paths, moved;
};

// ---------------------------------------------------------------------------------------------
// The shared budget of one call.

class Meter {
 public:
  explicit Meter(const SolverLimits& limits)
      : limits_(limits), budget_(std::min<uint64_t>(limits.rlimit, UINT_MAX)),
        deadline_(std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeout_ms)) {}
  // Why no further check may run, if so.
  std::optional<std::string> exhausted() const {
    if (limits_.rlimit != 0 && used >= budget_) return "max. resource limit exceeded";
    if (limits_.timeout_ms != 0 && left_ms() <= 0) return "timeout";
    return std::nullopt;
  }
  // Sets the solver's limits for its next check (what is left of the budget).
  void configure(z3::solver& solver) const {
    z3::params p(solver.ctx());
    if (limits_.rlimit != 0) p.set("rlimit", static_cast<unsigned>(budget_ - std::min(used, budget_)));
    if (limits_.timeout_ms != 0) p.set("timeout", static_cast<unsigned>(std::max<int64_t>(left_ms(), 1)));
    solver.set(p);
  }
  // Runs one check within the budget.
  z3::check_result check(z3::solver& solver, uint64_t& counted) {
    configure(solver);
    const z3::check_result answer = solver.check();
    ++checks;
    // The statistic is the context's running count: add only this check's part.
    const uint64_t count = rlimit_count(solver);
    used += count - std::min(count, counted);
    counted = count;
    return answer;
  }
  uint64_t used = 0, checks = 0;

 private:
  int64_t left_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now()).count();
  }
  SolverLimits limits_;
  uint64_t budget_;
  std::chrono::steady_clock::time_point deadline_;
};

// ---------------------------------------------------------------------------------------------
// Models and the decision.

uint64_t model_value(const z3::model& model, const z3::expr& x);

// The node of MC(k, m) with class field `cls` and M fields `low`.
Node node_of(const Metacube& mc, int cls, uint64_t low);

// Metacube::make(k, m), aborting (TC_CHECK, naming `who`) if it fails.
Metacube make_mc(int k, int m, const char* who);

// Decides a problem over every split: kProved, or the first violating split's model as
// kCounterexample (minimized when `minimize_model`, see smt/metacube_smt.h), kUnknown when the
// budget runs out, kError on a Z3 exception.
MetacubeSmtResult decide(const Metacube& mc, const Problem& problem, const SolverLimits& limits, bool minimize_model);

}  // namespace topocheck::smt::metacube_encoding
