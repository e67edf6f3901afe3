#include "smt/aapc_smt.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "smt/smt_common.h"

namespace topocheck::smt {

using aapc::Datum;
using aapc::FaultSet;
using aapc::Model;
using aapc::NodeId;
using claims::SolverLimits;
using Clock = std::chrono::steady_clock;

namespace {

// The limits of one call, shared by its checks: each gets the rlimit and the time the earlier
// ones left.
struct Budget {
  SolverLimits limits;
  Clock::time_point deadline;
  uint64_t rlimit_used = 0;

  explicit Budget(const SolverLimits& l)
      : limits(l), deadline(Clock::now() + std::chrono::milliseconds(l.timeout_ms)) {}
};

// The formula at one horizon (both encodings of the header) and what decoding a model needs.
class HorizonEncoding {
 public:
  HorizonEncoding(z3::context& ctx, const FaultSet& faults, Model model, int T, const AapcSmtOptions& options)
      : ctx_(ctx), faults_(faults), formula_(ctx), n_(faults.n()), N_(faults.num_nodes()), T_(T),
        live_(faults.nonfaulty()), dist_(aapc::live_distances(faults)) {
    // Counting (see the header): side X needs arrivals[X] hops ending on it plus one per detour
    // hop, and a unit carries at most side_capacity(X) of them.
    bool connected = true;
    for (NodeId j : live_)
      for (NodeId i : live_) connected = connected && d(j, i) >= 0;
    if (options.counting && connected) {  // (disconnected: the data alone make the formula false)
      counting_ = true;
      detour_limit_ = INT64_MAX;
      for (int side = 0; side < 2; ++side) {
        arrivals_[side] = static_cast<int64_t>(aapc::side_arrivals(faults, side));
        const int64_t spare = static_cast<int64_t>(aapc::side_capacity(faults, model, side)) * T - arrivals_[side];
        if (spare < 0) formula_.push_back(ctx.bool_val(false));
        detour_limit_ = std::min(detour_limit_, std::max<int64_t>(spare, 0));
      }
    }
    if (options.encoding == AapcEncoding::kPerDatum) {
      per_datum();
    } else {
      per_destination();
    }
    capacity(model);
  }

  const z3::expr_vector& formula() const { return formula_; }
  uint64_t move_variables() const { return moves_.size(); }

  // The true move variables as a schedule. Per destination, each hop of a class becomes a datum
  // of that class at the node that has not moved in the unit (they are interchangeable); an
  // error when there is none (the model breaks the count constraints).
  Result<aapc::Schedule> decode(const z3::model& m) const {
    aapc::Schedule s;
    s.n = n_;
    s.units.assign(static_cast<size_t>(T_), {});
    std::vector<std::vector<std::vector<Datum>>> bucket(N_, std::vector<std::vector<Datum>>(N_));
    for (NodeId j : live_)
      for (NodeId i : live_)
        if (i != j) bucket[j][i].push_back(Datum{j, i});
    for (int t = 0; t < T_; ++t) {
      auto next = bucket;
      for (const MoveVar& v : moves_) {
        if (v.t != t || !m.eval(v.x, true).is_true()) continue;
        if (per_datum_) {
          s.units[static_cast<size_t>(t)].push_back(aapc::Move{v.datum, v.u, v.w});
          continue;
        }
        std::vector<Datum>& here = bucket[v.u][v.datum.dest];
        if (here.empty())
          return Error{ErrorCode::kInternal,
                       fmt::format("aapc smt: the model moves a datum of destination {} out of node {} in unit {}, "
                                   "where none is",
                                   v.datum.dest, v.u, t + 1),
                       {}, 0};
        const Datum datum = here.back();
        here.pop_back();
        auto& stay = next[v.u][v.datum.dest];
        stay.erase(std::find(stay.begin(), stay.end(), datum));
        next[v.w][v.datum.dest].push_back(datum);
        s.units[static_cast<size_t>(t)].push_back(aapc::Move{datum, v.u, v.w});
      }
      bucket = std::move(next);
    }
    return s;
  }

 private:
  // One move variable: per datum, x[datum][t][u->w]; per destination, y[datum.dest][t][u->w]
  // (datum.source unused).
  struct MoveVar {
    Datum datum;
    int t;
    NodeId u, w;
    z3::expr x;
  };

  int d(NodeId a, NodeId b) const { return dist_[uint64_t{a} * N_ + b]; }

  z3::expr_vector vec(const std::vector<z3::expr>& es) const {
    z3::expr_vector v(ctx_);
    for (const z3::expr& e : es) v.push_back(e);
    return v;
  }
  z3::expr any(const std::vector<z3::expr>& es) const { return es.empty() ? ctx_.bool_val(false) : z3::mk_or(vec(es)); }

  // A move u -> w in unit t + 1 for destination i, unless the detour budget is 0 and it is a detour.
  std::optional<z3::expr> new_move(const Datum& datum, int t, NodeId u, NodeId w, const std::string& name) {
    const bool detour = d(w, datum.dest) > d(u, datum.dest);
    if (detour && detour_limit_ == 0) return std::nullopt;
    z3::expr x = ctx_.bool_const(name.c_str());
    moves_.push_back(MoveVar{datum, t, u, w, x});
    if (detour) detours_.push_back(x);
    return x;
  }

  void per_datum() {
    per_datum_ = true;
    for (NodeId j : live_)
      for (NodeId i : live_) {
        if (i == j) continue;
        const Datum datum{j, i};
        // pos[t][u]: at[q][t][u] (nullopt where it cannot hold).
        std::vector<std::vector<std::optional<z3::expr>>> pos(static_cast<size_t>(T_) + 1,
                                                              std::vector<std::optional<z3::expr>>(N_));
        for (int t = 0; t <= T_; ++t) {
          std::vector<NodeId> where;
          for (NodeId u : live_)
            if (d(j, u) >= 0 && d(j, u) <= t && d(u, i) >= 0 && d(u, i) <= T_ - t) where.push_back(u);
          if (where.empty()) {
            formula_.push_back(ctx_.bool_val(false));  // the datum cannot arrive by T
            continue;
          }
          if (where.size() == 1) {
            pos[t][where[0]] = ctx_.bool_val(true);
            continue;
          }
          std::vector<z3::expr> one;
          for (NodeId u : where) {
            z3::expr e = ctx_.bool_const(fmt::format("at_{}_{}_{}", datum.to_string(), t, u).c_str());
            pos[t][u] = e;
            one.push_back(e);
          }
          formula_.push_back(z3::atmost(vec(one), 1));
          formula_.push_back(z3::mk_or(vec(one)));
        }
        for (int t = 0; t < T_; ++t) {
          std::vector<std::vector<z3::expr>> in_here(N_), out_here(N_);
          for (NodeId u : live_) {
            if (!pos[t][u] || u == i) continue;  // a delivered datum never moves again
            for (int dim = 0; dim < n_; ++dim) {
              const NodeId w = u ^ (NodeId{1} << dim);
              if (faults_.is_faulty(w) || !pos[t + 1][w]) continue;
              auto x = new_move(datum, t, u, w, fmt::format("x_{}_{}_{}_{}", datum.to_string(), t, u, w));
              if (!x) continue;
              formula_.push_back(z3::implies(*x, *pos[t][u]));
              formula_.push_back(z3::implies(*x, *pos[t + 1][w]));
              out_here[u].push_back(*x);
              in_here[w].push_back(*x);
            }
          }
          for (NodeId u : live_) {
            if (pos[t][u]) {
              // Staying: no move out of u keeps the datum at u.
              const z3::expr stays = pos[t + 1][u] ? *pos[t + 1][u] : ctx_.bool_val(false);
              formula_.push_back(z3::implies(*pos[t][u] && !any(out_here[u]), stays));
            }
            if (pos[t + 1][u]) {
              // Arriving: at u after the unit means it was there or hopped in.
              const z3::expr before = pos[t][u] ? *pos[t][u] : ctx_.bool_val(false);
              formula_.push_back(z3::implies(*pos[t + 1][u], before || any(in_here[u])));
            }
          }
        }
      }
  }

  void per_destination() {
    per_datum_ = false;
    for (NodeId i : live_) {
      for (NodeId j : live_)
        if (j != i && (d(j, i) < 0 || d(j, i) > T_)) formula_.push_back(ctx_.bool_val(false));  // cannot arrive
      // Per node u != i, the data of destination i there at boundary t number
      //   count(t) = 1 + sum_{tau < t} (in_tau - out_tau)      (u's own datum at t = 0).
      for (NodeId u : live_) {
        if (u == i) continue;
        std::vector<std::vector<z3::expr>> out(static_cast<size_t>(T_)), in(static_cast<size_t>(T_));
        for (int t = 0; t < T_; ++t)
          for (int dim = 0; dim < n_; ++dim) {
            const NodeId w = u ^ (NodeId{1} << dim);
            if (faults_.is_faulty(w)) continue;
            // Out of u: the datum must still be able to arrive from w.
            if (d(w, i) >= 0 && d(w, i) <= T_ - t - 1) {
              auto y = new_move(Datum{u, i}, t, u, w, fmt::format("y_{}_{}_{}_{}", i, t, u, w));
              if (y) out[static_cast<size_t>(t)].push_back(*y);
            }
          }
        out_moves_[{i, u}] = std::move(out);
        in_moves_[{i, u}] = std::move(in);
      }
      for (const MoveVar& v : moves_)
        if (v.datum.dest == i && v.w != i) in_moves_[{i, v.w}][static_cast<size_t>(v.t)].push_back(v.x);
      for (NodeId u : live_) {
        if (u == i) continue;
        const auto& out = out_moves_[{i, u}];
        const auto& in = in_moves_[{i, u}];
        // Moves out in unit t + 1 only of data there at its start:
        //   sum_{tau <= t} out_tau - sum_{tau < t} in_tau <= 1;
        // all gone at the end: sum out - sum in = 1; and none left where it could not arrive:
        //   count(t) = 0 when dist(u, i) > T - t.
        std::vector<z3::expr> terms;
        std::vector<int> coeffs;
        for (int t = 0; t <= T_; ++t) {
          const size_t st = static_cast<size_t>(t);
          if (t > 0 && !in[st - 1].empty())
            for (const z3::expr& x : in[st - 1]) terms.push_back(x), coeffs.push_back(-1);
          if (t < T_ && !out[st].empty()) {
            std::vector<z3::expr> with = terms;
            std::vector<int> wc = coeffs;
            for (const z3::expr& x : out[st]) with.push_back(x), wc.push_back(1);
            formula_.push_back(z3::pble(vec(with), wc.data(), 1));
          }
          if (t == T_ || d(u, i) > T_ - t) formula_.push_back(pb_eq(terms, coeffs, 1));
          if (t < T_)
            for (const z3::expr& x : out[st]) terms.push_back(x), coeffs.push_back(1);
        }
      }
    }
  }

  // sum coeffs * terms == k (false when there are no terms and k != 0).
  z3::expr pb_eq(const std::vector<z3::expr>& terms, const std::vector<int>& coeffs, int k) const {
    if (terms.empty()) return ctx_.bool_val(k == 0);
    return z3::pbeq(vec(terms), coeffs.data(), k);
  }

  // One datum per directed link and unit; the port limits.
  void capacity(Model model) {
    const size_t cells = static_cast<size_t>(T_) * N_;
    std::vector<std::vector<z3::expr>> into(cells), out_of(cells), on_link(cells * static_cast<size_t>(n_));
    for (const MoveVar& v : moves_) {
      const size_t s = static_cast<size_t>(v.t) * N_;
      into[s + v.w].push_back(v.x);
      out_of[s + v.u].push_back(v.x);
      on_link[(s + v.u) * static_cast<size_t>(n_) + static_cast<size_t>(std::countr_zero(v.u ^ v.w))].push_back(v.x);
    }
    for (size_t s = 0; s < cells; ++s) {
      if (model != Model::kAllPort && into[s].size() > 1) formula_.push_back(z3::atmost(vec(into[s]), 1));
      if (model == Model::kOnePort && out_of[s].size() > 1) formula_.push_back(z3::atmost(vec(out_of[s]), 1));
    }
    if (model == Model::kAllPort)  // the port models imply it (one datum into each node)
      for (const std::vector<z3::expr>& link : on_link)
        if (link.size() > 1) formula_.push_back(z3::atmost(vec(link), 1));
    if (!counting_) return;
    // Hop accounting (see the header), per side X of the bipartition: the resources of X (the
    // links into X; the receivers in X; for one_port also the senders of the other side) carry at
    // most one hop each per unit, and the hops into X are arrivals[X] + #detour hops, so
    //   #idle (unit, resource of X) + #detour hops = |resources of X| T - arrivals[X].
    std::vector<bool> link_into[2], node_in[2];
    for (int side = 0; side < 2; ++side) {
      link_into[side].assign(static_cast<size_t>(N_) * static_cast<size_t>(n_), false);
      node_in[side].assign(N_, false);
    }
    for (NodeId u : live_)
      for (int dim = 0; dim < n_; ++dim) {
        const NodeId w = u ^ (NodeId{1} << dim);
        if (faults_.is_faulty(w)) continue;
        link_into[aapc::side_of(w)][static_cast<size_t>(u) * static_cast<size_t>(n_) + static_cast<size_t>(dim)] =
            true;
        node_in[aapc::side_of(u)][u] = true;  // u has a nonfaulty neighbour
      }
    if (detour_limit_ > 0 && static_cast<int64_t>(detours_.size()) > detour_limit_)
      formula_.push_back(z3::atmost(vec(detours_), static_cast<unsigned>(std::min<int64_t>(detour_limit_, UINT_MAX))));
    for (int side = 0; side < 2; ++side) {
      if (model == Model::kAllPort) {
        account(on_link, link_into[side], arrivals_[side]);
      } else {
        account(into, node_in[side], arrivals_[side]);
        if (model == Model::kOnePort) account(out_of, node_in[1 - side], arrivals_[side]);
      }
    }
  }

  // #idle cells + #detour hops = |cells| T - arrivals, over the cells (unit t, resource r) at
  // t * valid.size() + r with valid[r].
  void account(const std::vector<std::vector<z3::expr>>& cells, const std::vector<bool>& valid, int64_t arrivals) {
    std::vector<z3::expr> idle;
    int64_t left = -arrivals;
    for (int t = 0; t < T_; ++t)
      for (size_t r = 0; r < valid.size(); ++r) {
        if (!valid[r]) continue;
        const std::vector<z3::expr>& moves = cells[static_cast<size_t>(t) * valid.size() + r];
        if (!moves.empty()) {
          ++left;
          idle.push_back(!any(moves));
        }  // a cell without move variables is idle and carries no arrival: it cancels out
      }
    if (left < 0) {
      formula_.push_back(ctx_.bool_val(false));
    } else if (left == 0) {
      for (const z3::expr& e : idle) formula_.push_back(!e);
      for (const z3::expr& x : detours_) formula_.push_back(!x);
    } else {
      std::vector<z3::expr> terms = idle;
      for (const z3::expr& x : detours_) terms.push_back(x);
      const std::vector<int> ones(terms.size(), 1);
      formula_.push_back(pb_eq(terms, ones, static_cast<int>(left)));
    }
  }

  z3::context& ctx_;
  const FaultSet& faults_;
  z3::expr_vector formula_;
  int n_;
  NodeId N_;
  int T_;
  std::vector<NodeId> live_;
  std::vector<int> dist_;
  bool counting_ = false;
  int64_t arrivals_[2] = {0, 0};  // side_arrivals per side
  int64_t detour_limit_ = -1;     // at most this many detour hops (-1: no counting)
  bool per_datum_ = true;
  std::vector<MoveVar> moves_;
  std::vector<z3::expr> detours_;
  std::map<std::pair<NodeId, NodeId>, std::vector<std::vector<z3::expr>>> out_moves_, in_moves_;
};

Error internal(std::string message) { return Error{ErrorCode::kInternal, std::move(message), {}, 0}; }

Result<HorizonResult> solve_with(const FaultSet& faults, Model model, int units, const AapcSmtOptions& options,
                                 Budget& budget) {
  if (faults.n() > kAapcSmtMaxN)
    return invalid_argument(fmt::format("aapc smt: n = {} exceeds {}", faults.n(), kAapcSmtMaxN));
  if (units < 0) return invalid_argument(fmt::format("aapc smt: {} units", units));
  HorizonResult out;
  const uint64_t cap = std::min<uint64_t>(budget.limits.rlimit, UINT_MAX);  // Z3 takes an unsigned
  if (budget.limits.rlimit != 0 && budget.rlimit_used >= cap) {
    out.reason = "max. resource limit exceeded";
    return out;
  }
  const auto left_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(budget.deadline - Clock::now()).count();
  if (budget.limits.timeout_ms != 0 && left_ms <= 0) {
    out.reason = "timeout";
    return out;
  }
  try {
    z3::context ctx;
    HorizonEncoding enc(ctx, faults, model, units, options);
    out.move_variables = enc.move_variables();
    z3::solver solver(ctx, "QF_FD");
    z3::params p(ctx);
    if (budget.limits.rlimit != 0) p.set("rlimit", static_cast<unsigned>(cap - budget.rlimit_used));
    if (budget.limits.timeout_ms != 0) p.set("timeout", static_cast<unsigned>(left_ms));
    solver.set(p);
    solver.add(enc.formula());
    const auto start = Clock::now();
    const z3::check_result answer = solver.check();
    out.solver_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    out.rlimit_used = rlimit_count(solver);  // a fresh context per check: its count is this check's
    budget.rlimit_used += out.rlimit_used;
    if (answer == z3::unsat) {
      out.answer = HorizonAnswer::kNoSchedule;
      return out;
    }
    if (answer == z3::unknown) {
      out.reason = solver.reason_unknown();
      return out;
    }
    Result<aapc::Schedule> decoded = enc.decode(solver.get_model());
    if (!decoded.ok()) return decoded.error();
    aapc::Schedule schedule = std::move(decoded).value();
    const aapc::ScheduleCheck check = aapc::check_schedule(schedule, faults, model);
    if (!check.ok)
      return internal(fmt::format("aapc smt: Q_{} faults {} {} T = {}: the model's schedule is rejected by "
                                  "check_schedule: {}",
                                  faults.n(), faults.to_string(), aapc::to_string(model), units, check.violation));
    out.answer = HorizonAnswer::kSchedule;
    out.schedule = std::move(schedule);
    return out;
  } catch (const z3::exception& e) {
    return internal(std::string("aapc smt: Z3: ") + e.msg());
  }
}

}  // namespace

std::string to_string(AapcEncoding e) { return e == AapcEncoding::kPerDatum ? "per_datum" : "per_destination"; }

std::string to_string(HorizonAnswer a) {
  switch (a) {
    case HorizonAnswer::kSchedule: return "schedule";
    case HorizonAnswer::kNoSchedule: return "no_schedule";
    case HorizonAnswer::kUnknown: return "unknown";
  }
  return "?";
}

Result<HorizonResult> solve_horizon(const FaultSet& faults, Model model, int units, const SolverLimits& limits,
                                    const AapcSmtOptions& options) {
  Budget budget(limits);
  return solve_with(faults, model, units, options, budget);
}

Result<ExactResult> exact_min_units(const FaultSet& faults, Model model, const SolverLimits& limits, int t_max,
                                    const AapcSmtOptions& options) {
  if (t_max < 0) return invalid_argument(fmt::format("aapc smt: t_max = {}", t_max));
  if (faults.n() > kAapcSmtMaxN)
    return invalid_argument(fmt::format("aapc smt: n = {} exceeds {}", faults.n(), kAapcSmtMaxN));
  ExactResult out;
  const aapc::LowerBounds bounds = aapc::lower_bounds(faults, model);
  out.lower_bound = bounds.best;
  out.bound_name = bounds.attained_by;
  if (!bounds.schedulable) {
    out.status = aapc::MinimumStatus::kUnschedulable;
    return out;
  }
  if (options.first_units > bounds.best)
    return invalid_argument(fmt::format("aapc smt: first_units = {} is above the lower bound {}", options.first_units,
                                        bounds.best));
  Budget budget(limits);
  out.status = aapc::MinimumStatus::kNoneUpTo;
  // The first sat T is the minimum: every smaller T is below the bound or unsat.
  for (int T = options.first_units >= 0 ? options.first_units : bounds.best; T <= t_max; ++T) {
    Result<HorizonResult> h = solve_with(faults, model, T, options, budget);
    if (!h.ok()) return h.error();
    ++out.checks;
    out.rlimit_used = budget.rlimit_used;
    out.solver_seconds += h->solver_seconds;
    if (h->answer == HorizonAnswer::kSchedule) {
      out.status = aapc::MinimumStatus::kMinimum;
      out.min_units = T;
      out.schedule = std::move(h).value().schedule;
      return out;
    }
    if (h->answer == HorizonAnswer::kUnknown) {
      out.status = aapc::MinimumStatus::kInconclusive;
      out.reason = fmt::format("T = {}: Z3 returned unknown ({})", T, h->reason);
      return out;
    }
    out.last_unsat = T;
  }
  return out;
}

void attach_aapc_smt(claims::Registry&) {}

}  // namespace topocheck::smt
