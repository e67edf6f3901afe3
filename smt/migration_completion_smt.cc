// Migration (Chen and Tzeng, paper 000), the conclusion's completeness claim: "the procedure
// identifies two migration paths from each participating node, if they exist, or otherwise tells
// the absence". An exact oracle for "do the missing paths exist?" (decide_completion): a
// multi-commodity flow of Booleans per commodity and directed link of Q_n, disjoint under the
// reading, decided by Z3 (QF_FD); a model is walked into paths and re-checked by the naive
// checkers (check_completion) before kExists is reported. The encoding, the modes and the
// measured cost are in smt/migration_smt.h, part (2). Preconditions: n <= 10, blocks valid
// (TC_CHECK). Cost: one check per call, with n * 2^n Booleans per commodity.
#include "smt/migration_smt.h"

#include <bit>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "core/checks.h"
#include "hypercube/hypercube.h"
#include "smt/shared_limits_checker.h"

namespace topocheck::smt {

using claims::SolverLimits;
using migration::Alpha;
using migration::Bars;
using migration::Blocks;
using migration::Disjointness;
using migration::Instance;

namespace {

struct Commodity {
  Node s, t;  // u and g(u)
};

uint64_t bit_of(int i) { return uint64_t{1} << i; }

bool eval_bool(const z3::model& model, const z3::expr& e) { return model.eval(e, true).is_true(); }

// The flow formula (see the header). x[c][a * n + d] is the directed link a -> a^(d). The
// constructor adds the constraints in a fixed order (variables, paths, disjointness, the node
// reading's single links, symmetry breaking), each step a member below.
class Flow {
 public:
  Flow(z3::context& ctx, int n, const Blocks& blocks, Disjointness reading, const std::vector<Commodity>& commodities,
       const std::vector<Path>& fixed)
      : ctx_(ctx), n_(n), commodities_(commodities), formula_(ctx) {
    const FixedUse used = fixed_use(fixed);
    add_variables(blocks, reading, used);
    add_paths();
    add_disjointness(reading, used);
    if (reading == Disjointness::kNode) add_single_links(fixed);
    add_symmetry_breaking();
  }

  const z3::expr_vector& formula() const { return formula_; }

  // Walks commodity c from its source along the model's links.
  std::optional<Path> walk(const z3::model& model, size_t c) const {
    Path path{{commodities_[c].s}};
    uint64_t cur = commodities_[c].s.bits;
    const uint64_t limit = uint64_t{1} << n_;
    while (cur != commodities_[c].t.bits) {
      int next = -1;
      for (int d = 0; d < n_; ++d)
        if (eval_bool(model, x_[c][cur * n_ + d])) next = d;
      if (next < 0 || path.nodes.size() > limit) return std::nullopt;
      cur ^= bit_of(next);
      path.nodes.push_back(Node{cur, n_});
    }
    return path;
  }

 private:
  // What the fixed paths use.
  struct FixedUse {
    std::set<std::pair<uint64_t, uint64_t>> directed;  // (a, b)
    std::vector<int> contains;                         // per node: how many fixed paths hold it
    std::vector<bool> internal;                        // per node: internal to a fixed path
  };
  FixedUse fixed_use(const std::vector<Path>& fixed) const {
    const uint64_t nodes = uint64_t{1} << n_;
    FixedUse used{{}, std::vector<int>(nodes, 0), std::vector<bool>(nodes, false)};
    for (const Path& p : fixed) {
      for (size_t k = 0; k < p.nodes.size(); ++k) {
        ++used.contains[p.nodes[k].bits];
        if (k > 0 && k + 1 < p.nodes.size()) used.internal[p.nodes[k].bits] = true;
        if (k + 1 < p.nodes.size()) used.directed.emplace(p.nodes[k].bits, p.nodes[k + 1].bits);
      }
    }
    return used;
  }

  // Variables: false for a block link and, under the link readings, a link a fixed path uses.
  void add_variables(const Blocks& blocks, Disjointness reading, const FixedUse& used) {
    const int n = n_;
    const uint64_t nodes = uint64_t{1} << n;
    auto forbidden = [&](uint64_t a, uint64_t b) {
      if (migration::is_block_link(blocks, Node{a, n}, Node{b, n})) return true;
      switch (reading) {
        case Disjointness::kNode: return false;
        case Disjointness::kLink: return used.directed.count({a, b}) + used.directed.count({b, a}) > 0;
        case Disjointness::kDirectedLink: return used.directed.count({a, b}) > 0;
      }
      return false;
    };
    x_.resize(commodities_.size());
    for (size_t c = 0; c < commodities_.size(); ++c)
      for (uint64_t a = 0; a < nodes; ++a)
        for (int d = 0; d < n; ++d) {
          const uint64_t b = a ^ bit_of(d);
          x_[c].push_back(forbidden(a, b) ? ctx_.bool_val(false)
                                          : ctx_.bool_const(fmt::format("x_{}_{}_{}", c, a, d).c_str()));
        }
  }

  // A path per commodity (plus stray cycles).
  void add_paths() {
    const uint64_t nodes = uint64_t{1} << n_;
    for (size_t c = 0; c < commodities_.size(); ++c) {
      const uint64_t s = commodities_[c].s.bits, t = commodities_[c].t.bits;
      for (uint64_t w = 0; w < nodes; ++w) {
        const z3::expr_vector in = in_links(c, w), out = out_links(c, w);
        formula_.push_back(z3::atmost(in, 1));
        formula_.push_back(z3::atmost(out, 1));
        if (w == s) {
          formula_.push_back(z3::mk_or(out));
          formula_.push_back(!z3::mk_or(in));
        } else if (w == t) {
          formula_.push_back(z3::mk_or(in));
          formula_.push_back(!z3::mk_or(out));
        } else {
          formula_.push_back(z3::mk_or(in) == z3::mk_or(out));
        }
      }
    }
  }

  // Disjointness among the new paths (and with the fixed ones, for nodes).
  void add_disjointness(Disjointness reading, const FixedUse& used) {
    const int n = n_;
    const uint64_t nodes = uint64_t{1} << n;
    switch (reading) {
      case Disjointness::kNode:
        for (uint64_t w = 0; w < nodes; ++w) {
          z3::expr_vector through(ctx_), occurs(ctx_);
          for (size_t c = 0; c < commodities_.size(); ++c) {
            const bool endpoint = commodities_[c].s.bits == w || commodities_[c].t.bits == w;
            const z3::expr passes = endpoint ? ctx_.bool_val(false) : z3::mk_or(in_links(c, w));
            through.push_back(passes);
            occurs.push_back(endpoint ? ctx_.bool_val(true) : passes);
          }
          if (used.internal[w]) {
            formula_.push_back(!z3::mk_or(occurs));  // unsat when w is a new path's endpoint
          } else if (used.contains[w] > 0) {
            formula_.push_back(!z3::mk_or(through));
          } else if (!commodities_.empty()) {
            formula_.push_back(z3::implies(z3::mk_or(through), z3::atmost(occurs, 1)));
          }
        }
        break;
      case Disjointness::kLink:
        for (uint64_t a = 0; a < nodes; ++a)
          for (int d = 0; d < n; ++d) {
            const uint64_t b = a ^ bit_of(d);
            if (b < a) continue;
            z3::expr_vector uses(ctx_);
            for (size_t c = 0; c < commodities_.size(); ++c) {
              uses.push_back(x_[c][a * n + d]);
              uses.push_back(x_[c][b * n + d]);
            }
            formula_.push_back(z3::atmost(uses, 1));
          }
        break;
      case Disjointness::kDirectedLink:
        for (uint64_t e = 0; e < nodes * n; ++e) {
          z3::expr_vector uses(ctx_);
          for (size_t c = 0; c < commodities_.size(); ++c) uses.push_back(x_[c][e]);
          formula_.push_back(z3::atmost(uses, 1));
        }
        break;
    }
  }

  // Node reading: two paths of one node are two paths only if they differ; the single link
  // u -> g(u) serves one of them (the plan checkers and the BFS oracle agree).
  void add_single_links(const std::vector<Path>& fixed) {
    const int n = n_;
    std::set<std::pair<uint64_t, uint64_t>> fixed_single;
    for (const Path& p : fixed)
      if (p.nodes.size() == 2) fixed_single.emplace(p.nodes[0].bits, p.nodes[1].bits);
    std::map<std::pair<uint64_t, uint64_t>, std::vector<size_t>> by_pair;
    for (size_t c = 0; c < commodities_.size(); ++c)
      by_pair[{commodities_[c].s.bits, commodities_[c].t.bits}].push_back(c);
    for (const auto& [st, cs] : by_pair) {
      const uint64_t diff = st.first ^ st.second;
      if (std::popcount(diff) != 1) continue;
      const int d = std::countr_zero(diff);
      z3::expr_vector uses(ctx_);
      for (size_t c : cs) uses.push_back(x_[c][st.first * n + d]);
      formula_.push_back(fixed_single.count(st) ? !z3::mk_or(uses) : z3::atmost(uses, 1));
    }
  }

  // Symmetry breaking: two consecutive commodities of one node are interchangeable, so the
  // first takes the smaller (or, under kNode's shared single link, the same) first dimension.
  void add_symmetry_breaking() {
    const int n = n_;
    for (size_t c = 0; c + 1 < commodities_.size(); ++c) {
      if (commodities_[c].s != commodities_[c + 1].s) continue;
      const uint64_t s = commodities_[c].s.bits;
      for (int d = 0; d < n; ++d) {
        z3::expr_vector first_at_most_d(ctx_);
        for (int e = 0; e <= d; ++e) first_at_most_d.push_back(x_[c][s * n + e]);
        formula_.push_back(z3::implies(x_[c + 1][s * n + d], z3::mk_or(first_at_most_d)));
      }
    }
  }

  z3::expr_vector in_links(size_t c, uint64_t w) const {
    z3::expr_vector v(ctx_);
    for (int d = 0; d < n_; ++d) v.push_back(x_[c][(w ^ bit_of(d)) * n_ + d]);
    return v;
  }
  z3::expr_vector out_links(size_t c, uint64_t w) const {
    z3::expr_vector v(ctx_);
    for (int d = 0; d < n_; ++d) v.push_back(x_[c][w * n_ + d]);
    return v;
  }

  z3::context& ctx_;
  int n_;
  std::vector<Commodity> commodities_;
  std::vector<std::vector<z3::expr>> x_;
  z3::expr_vector formula_;
};

}  // namespace

std::string to_string(CompletionMode mode) {
  return mode == CompletionMode::kOthersFixed ? "others-fixed" : "jointly";
}

std::string to_string(Existence e) {
  switch (e) {
    case Existence::kExists: return "exists";
    case Existence::kAbsent: return "absent";
    case Existence::kInconclusive: return "inconclusive";
    case Existence::kError: return "error";
  }
  return "?";
}

Violation check_completion(const Instance& inst, const Alpha& alpha, Bars bars, const Blocks& blocks,
                           Disjointness reading, const std::vector<SourcedPath>& fixed,
                           const std::vector<SourcedPath>& found) {
  const auto cube = hypercube::Hypercube::make(inst.n);
  TC_CHECK(cube.ok(), "check_completion: n out of range");
  for (size_t k = 0; k < found.size(); ++k) {
    const SourcedPath& p = found[k];
    const std::string which = fmt::format("new path {} of {} ({})", k, p.u, p.path);
    if (!inst.S.contains(p.u)) return fmt::format("{}: {} is not in S", which, p.u);
    const Node target = migration::g(inst, alpha, p.u, bars);
    if (auto v = check_path_valid(*cube, p.path)) return fmt::format("{}: {}", which, *v);
    if (auto v = check_endpoints(p.path, p.u, target)) return fmt::format("{}: {}", which, *v);
    if (auto v = check_simple(p.path)) return fmt::format("{}: {}", which, *v);
    for (size_t h = 0; h + 1 < p.path.nodes.size(); ++h)
      if (migration::is_block_link(blocks, p.path.nodes[h], p.path.nodes[h + 1]))
        return fmt::format("{}: hop {} -> {} is a block link", which, p.path.nodes[h], p.path.nodes[h + 1]);
    for (size_t j = k + 1; j < found.size(); ++j)
      if (auto v = migration::check_disjoint({p.path, found[j].path}, reading))
        return fmt::format("{} and new path {} of {} ({}): {}", which, j, found[j].u, found[j].path, *v);
    for (size_t j = 0; j < fixed.size(); ++j)
      if (auto v = migration::check_disjoint({p.path, fixed[j].path}, reading))
        return fmt::format("{} and the plan's path of {} ({}): {}", which, fixed[j].u, fixed[j].path, *v);
  }
  return std::nullopt;
}

CompletionResult decide_completion(const migration::Plan& plan, CompletionMode mode, Disjointness reading,
                                   const SolverLimits& limits) {
  const Instance& inst = plan.inst;
  const Alpha& alpha = plan.params.alpha;
  const Bars bars = plan.params.bars;
  TC_CHECK(inst.n >= 1 && inst.n <= 10, "decide_completion: n out of range 1..10");
  TC_CHECK(!migration::validate_blocks(inst, plan.blocks), "decide_completion: invalid blocks");
  CompletionResult result;
  std::vector<SourcedPath> fixed;
  std::vector<Commodity> commodities;
  if (mode == CompletionMode::kOthersFixed) {
    for (const migration::NodePlan& np : plan.nodes) {
      for (const migration::MigrationPath& mp : np.paths) fixed.push_back(SourcedPath{np.u, mp.path});
      const Node target = migration::g(inst, alpha, np.u, bars);
      if (target == np.u) continue;
      for (size_t k = np.paths.size(); k < 2; ++k) commodities.push_back(Commodity{np.u, target});
    }
  } else {
    for (const Node& u : migration::nodes_of(inst.S)) {
      const Node target = migration::g(inst, alpha, u, bars);
      if (target == u) continue;
      commodities.push_back(Commodity{u, target});
      commodities.push_back(Commodity{u, target});
    }
  }
  result.commodities = static_cast<int>(commodities.size());
  if (commodities.empty()) {
    result.answer = Existence::kExists;
    return result;
  }
  std::vector<Path> fixed_paths;
  for (const SourcedPath& p : fixed) fixed_paths.push_back(p.path);
  try {
    z3::context ctx;
    CheckTally tally;
    SharedLimitsChecker<CheckTally> checker(ctx, limits, tally);
    const Flow flow(ctx, inst.n, plan.blocks, reading, commodities, fixed_paths);
    const auto model = checker.check(flow.formula(), "QF_FD");
    result.rlimit_used = tally.rlimit_used;
    if (tally.status == SmtStatus::kProved) {
      result.answer = Existence::kAbsent;
      return result;
    }
    if (tally.status == SmtStatus::kUnknown || !model) {
      result.answer = Existence::kInconclusive;
      result.reason = tally.reason;
      return result;
    }
    std::vector<SourcedPath> found;
    for (size_t c = 0; c < commodities.size(); ++c) {
      auto path = flow.walk(*model, c);
      if (!path) {
        result.answer = Existence::kError;
        result.reason = fmt::format("SMT model: commodity {} from {} does not reach {}", c, commodities[c].s,
                                    commodities[c].t);
        return result;
      }
      found.push_back(SourcedPath{commodities[c].s, std::move(*path)});
    }
    if (auto v = check_completion(inst, alpha, bars, plan.blocks, reading, fixed, found)) {
      result.answer = Existence::kError;
      result.reason = "SMT model rejected by the checkers: " + *v;
      return result;
    }
    result.answer = Existence::kExists;
    result.paths = std::move(found);
  } catch (const z3::exception& e) {
    result.answer = Existence::kError;
    result.reason = fmt::format("Z3 error: {}", e.msg());
  }
  return result;
}

}  // namespace topocheck::smt
