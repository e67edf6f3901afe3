#include "smt/migration_fig2.h"

#include <algorithm>
#include <chrono>
#include <bit>
#include <climits>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <z3++.h>

#include "migration/migration_checks.h"

namespace topocheck::smt {
namespace {

using migration::Blocks;
using migration::Instance;
using migration::Params;
using migration::TieBreak;
using nlohmann::json;

Result<std::string> string_at(const json& j, const std::string& key, const std::string& where) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_string())
    return invalid_argument(fmt::format("{}.{}: missing or not a string", where, key));
  return j.at(key).get<std::string>();
}

Result<Node> node_at(const json& j, const std::string& key, const std::string& where, int width) {
  auto text = string_at(j, key, where);
  if (!text) return text.error();
  auto node = parse_node(*text, width);
  if (!node) return invalid_argument(fmt::format("{}.{}: {}", where, key, node.error().message));
  return *node;
}

Result<Path> path_at(const json& j, const std::string& key, const std::string& where, int width) {
  if (!j.is_object() || !j.contains(key)) return invalid_argument(fmt::format("{}.{}: missing", where, key));
  auto path = path_from_json(j.at(key), width);
  if (!path) return invalid_argument(fmt::format("{}.{}: {}", where, key, path.error().message));
  return *path;
}

Path reversed(Path p) {
  std::reverse(p.nodes.begin(), p.nodes.end());
  return p;
}

// a followed by b without b's first node (b starts where a ends).
Path joined(const Path& a, const Path& b) {
  Path out = a;
  out.nodes.insert(out.nodes.end(), b.nodes.begin() + 1, b.nodes.end());
  return out;
}

// The segment of `path` from a to b (reversed when b comes first), if both are on it.
std::optional<Path> segment(const Path& path, Node a, Node b) {
  const auto ia = std::find(path.nodes.begin(), path.nodes.end(), a);
  const auto ib = std::find(path.nodes.begin(), path.nodes.end(), b);
  if (ia == path.nodes.end() || ib == path.nodes.end()) return std::nullopt;
  Path out;
  if (ia <= ib) {
    out.nodes.assign(ia, ib + 1);
  } else {
    out.nodes.assign(ib, ia + 1);
    std::reverse(out.nodes.begin(), out.nodes.end());
  }
  return out;
}

// Two subcubes of one width share a node iff they agree on every dimension fixed in both.
bool meets(const Subcube& a, const Subcube& b) {
  return ((a.values ^ b.values) & ~a.free_mask & ~b.free_mask) == 0;
}

// Every subcube of Q_n with no node in S or T (the candidate blocks), by free mask, then values.
std::vector<Subcube> candidate_blocks(const Instance& inst) {
  std::vector<Subcube> out;
  const uint64_t all = (uint64_t{1} << inst.n) - 1;
  for (uint64_t free = 0; free <= all; ++free) {
    const uint64_t fixed = all & ~free;
    // Every submask of `fixed` as the values: v = (v - 1) & fixed walks them downwards.
    for (uint64_t v = fixed;; v = (v - 1) & fixed) {
      const Subcube c{free, v, inst.n};
      if (!meets(c, inst.S) && !meets(c, inst.T)) out.push_back(c);
      if (v == 0) break;
    }
  }
  return out;
}

// The naive check of a decoded model: blocks avoid S and T, are pairwise disjoint and cover every
// other node (migration::validate_blocks checks the first two as well; the cover is the example's
// own condition, "all the remaining nodes in H6 are block nodes").
std::optional<std::string> check_partition(const Instance& inst, const Blocks& blocks) {
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (meets(blocks[i], inst.S) || meets(blocks[i], inst.T))
      return fmt::format("block {} meets S or T", blocks[i]);
    for (size_t j = i + 1; j < blocks.size(); ++j)
      if (meets(blocks[i], blocks[j])) return fmt::format("blocks {} and {} overlap", blocks[i], blocks[j]);
  }
  for (uint64_t bits = 0; bits < (uint64_t{1} << inst.n); ++bits) {
    const Node r{bits, inst.n};
    if (inst.S.contains(r) || inst.T.contains(r)) continue;
    if (std::none_of(blocks.begin(), blocks.end(), [&](const Subcube& c) { return c.contains(r); }))
      return fmt::format("node {} is in no block", r);
  }
  return std::nullopt;
}

// Nodes of the plan for s, or null.
const migration::NodePlan* plan_of(const migration::Plan& plan, Node s) {
  for (const auto& np : plan.nodes)
    if (np.u == s) return &np;
  return nullptr;
}

// Z3's side of the search: the candidate variables and the block-link expressions.
class Encoding {
 public:
  Encoding(z3::context& ctx, const Instance& inst) : ctx_(ctx), inst_(inst), vars_(ctx) {
    candidates_ = candidate_blocks(inst);
    for (const Subcube& c : candidates_) vars_.push_back(ctx.bool_const(("b_" + c.to_string()).c_str()));
  }

  const std::vector<Subcube>& candidates() const { return candidates_; }
  const z3::expr_vector& vars() const { return vars_; }

  // Exactly one chosen candidate holds r, for every node r outside S and T.
  z3::expr_vector cover() const {
    z3::expr_vector out(ctx_);
    for (uint64_t bits = 0; bits < (uint64_t{1} << inst_.n); ++bits) {
      const Node r{bits, inst_.n};
      if (inst_.S.contains(r) || inst_.T.contains(r)) continue;
      z3::expr_vector holders(ctx_);
      for (size_t i = 0; i < candidates_.size(); ++i)
        if (candidates_[i].contains(r)) holders.push_back(vars_[static_cast<int>(i)]);
      out.push_back(z3::atleast(holders, 1));
      out.push_back(z3::atmost(holders, 1));
    }
    return out;
  }

  // The hop a-b is a block link: some chosen candidate holds both ends.
  z3::expr block_link(Node a, Node b) {
    const auto key = std::minmax(a.bits, b.bits);
    if (auto it = links_.find(key); it != links_.end()) return it->second;
    z3::expr_vector holders(ctx_);
    for (size_t i = 0; i < candidates_.size(); ++i)
      if (candidates_[i].contains(a) && candidates_[i].contains(b)) holders.push_back(vars_[static_cast<int>(i)]);
    const z3::expr e = holders.empty() ? ctx_.bool_val(false) : z3::mk_or(holders);
    links_.emplace(key, e);
    return e;
  }

  // Some hop of the path is a block link.
  z3::expr blocked(const Path& path) {
    z3::expr_vector hops(ctx_);
    for (size_t i = 0; i + 1 < path.nodes.size(); ++i) hops.push_back(block_link(path.nodes[i], path.nodes[i + 1]));
    return hops.empty() ? ctx_.bool_val(false) : z3::mk_or(hops);
  }

  Blocks decode(const z3::model& model) const {
    Blocks out;
    for (size_t i = 0; i < candidates_.size(); ++i)
      if (model.eval(vars_[static_cast<int>(i)], true).is_true()) out.push_back(candidates_[i]);
    // Largest first, then by text: a stable, readable order.
    std::sort(out.begin(), out.end(), [](const Subcube& a, const Subcube& b) {
      if (a.dimension() != b.dimension()) return a.dimension() > b.dimension();
      return a.to_string() < b.to_string();
    });
    return out;
  }

  // Excludes exactly this choice of blocks.
  z3::expr exclude(const Blocks& blocks) const {
    z3::expr_vector lits(ctx_);
    for (size_t i = 0; i < candidates_.size(); ++i) {
      const bool chosen = std::find(blocks.begin(), blocks.end(), candidates_[i]) != blocks.end();
      lits.push_back(chosen ? !vars_[static_cast<int>(i)] : vars_[static_cast<int>(i)]);
    }
    return z3::mk_or(lits);
  }

 private:
  z3::context& ctx_;
  const Instance& inst_;
  std::vector<Subcube> candidates_;
  z3::expr_vector vars_;
  std::map<std::pair<uint64_t, uint64_t>, z3::expr> links_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Result<Fig2Example> fig2_from_json(const json& input, const json& expected) {
  Fig2Example ex;
  auto S = string_at(input, "S", "input");
  if (!S) return S.error();
  auto T = string_at(input, "T", "input");
  if (!T) return T.error();
  auto inst = migration::parse_instance(*S, *T);
  if (!inst) return invalid_argument("input.S/T: " + inst.error().message);
  ex.inst = *inst;
  const int n = ex.inst.n;
  auto alpha_text = string_at(input, "alpha", "input");
  if (!alpha_text) return alpha_text.error();
  auto alpha = migration::parse_alpha(ex.inst, *alpha_text);
  if (!alpha) return invalid_argument("input.alpha: " + alpha.error().message);
  ex.alpha = *alpha;
  if (!input.contains("ext_sequence") || !input.at("ext_sequence").is_array())
    return invalid_argument("input.ext_sequence: missing or not an array");
  for (const json& d : input.at("ext_sequence")) {
    if (!d.is_number_integer()) return invalid_argument("input.ext_sequence: not an integer");
    ex.ext_sequence.push_back(d.get<int>());
  }
  if (migration::mask_of(ex.ext_sequence) != ex.inst.DTmS ||
      ex.ext_sequence.size() != static_cast<size_t>(ex.inst.beta()))
    return invalid_argument("input.ext_sequence: not a sequence of D(T)-D(S)");
  auto u = node_at(input, "u", "input", n);
  if (!u) return u.error();
  auto v = node_at(input, "v", "input", n);
  if (!v) return v.error();
  ex.u = *u;
  ex.v = *v;
  if (input.contains("blocks")) {
    auto text = string_at(input, "blocks", "input");
    if (!text) return text.error();
    auto blocks = migration::parse_blocks(ex.inst, *text);
    if (!blocks) return invalid_argument("input.blocks: " + blocks.error().message);
    ex.blocks = *blocks;
  }
  if (!expected.is_object() || !expected.contains("u") || !expected.contains("v"))
    return invalid_argument("expected: needs objects 'u' and 'v'");
  const json& eu = expected.at("u");
  const json& ev = expected.at("v");
  struct Slot {
    const json& j;
    const char* key;
    const char* where;
    Path* out;
  };
  for (const Slot& s : {Slot{eu, "HAMMING-PATH(u, w)", "expected.u", &ex.u_to_w},
                        Slot{eu, "HAMMING-PATH(g(u), w)", "expected.u", &ex.gu_to_w},
                        Slot{eu, "regular_extended", "expected.u", &ex.u_second},
                        Slot{ev, "L^1", "expected.v", &ex.v_l1}, Slot{ev, "L^2", "expected.v", &ex.v_l2}}) {
    auto p = path_at(s.j, s.key, s.where, n);
    if (!p) return p.error();
    if (p->nodes.size() < 2) return invalid_argument(fmt::format("{}.{}: fewer than two nodes", s.where, s.key));
    *s.out = *p;
  }
  return ex;
}

Params fig2_params(const Fig2Example& ex, TieBreak tie, int k) {
  Params p = migration::default_params(ex.inst);
  p.alpha = ex.alpha;
  p.bars = migration::Bars::paper();
  p.ext_sequence = ex.ext_sequence;
  p.tie = tie;
  p.k = k;
  return p;
}

std::vector<std::pair<Node, Node>> hamming_calls(const Instance& inst, const Params& params, Node s) {
  TC_CHECK(inst.zeta() != 1, "hamming_calls covers Section 4.1 only (|C(S,T)| != 1)");
  const migration::DSets ds = migration::d_sets(inst, params.alpha, s, params.bars);
  const Node gs = migration::g(inst, params.alpha, s, params.bars);
  if (ds.f_S != 0) {  // Case a
    const Node w{s.bits ^ ds.g_T, s.width};
    const uint64_t xset = (params.x_set == migration::RegularReading::kF ? ds.f_T : ds.g_T) | inst.C;
    const Node x{s.bits ^ xset, s.width};
    const Node fs = migration::f(inst, params.alpha, s, params.bars);
    return {{s, w}, {gs, w}, {s, x}, {fs, x}};
  }
  if (gs == s) return {};
  // Case b (|C| >= 2 here: with |C| = 0, D_f(S|s) = {} forces s = g(s)).
  const int k = params.k >= 0 ? params.k : std::countr_zero(inst.C);
  TC_CHECK((inst.C >> k) & 1, "k is not in C(S,T)");
  return {{s, gs.flip(k)}, {gs, s.flip(k)}};
}

Result<std::vector<Fig2Call>> fig2_calls(const Fig2Example& ex, const Params& params) {
  std::vector<Fig2Call> out;
  const std::pair<Node, std::vector<const Path*>> nodes[] = {
      {ex.u, {&ex.u_to_w, &ex.gu_to_w, &ex.u_second}}, {ex.v, {&ex.v_l1, &ex.v_l2}}};
  for (const auto& [s, printed] : nodes) {
    for (const auto& [a, b] : hamming_calls(ex.inst, params, s)) {
      std::optional<Path> seg;
      for (const Path* p : printed)
        if ((seg = segment(*p, a, b))) break;
      if (!seg)
        return invalid_argument(fmt::format("HAMMING-PATH({}, {}) for {}: no printed path holds both ends", a, b, s));
      if (!migration::is_hamming_path(*seg, a, b))
        return invalid_argument(fmt::format("HAMMING-PATH({}, {}) for {}: the printed segment {} is not a Hamming path",
                                            a, b, s, *seg));
      out.push_back({a, b, *seg});
    }
  }
  return out;
}

std::vector<std::string> fig2_differences(const Fig2Example& ex, const Blocks& blocks, const Params& params) {
  std::vector<std::string> out;
  const migration::Plan plan = migration::migrate(ex.inst, blocks, params);
  auto path_of = [](const migration::NodePlan& np, migration::PathKind kind) -> const migration::MigrationPath* {
    for (const auto& mp : np.paths)
      if (mp.kind == kind) return &mp;
    return nullptr;
  };
  auto show = [](const migration::MigrationPath* mp) { return mp ? mp->path.to_string() : std::string("none"); };

  const migration::NodePlan* pu = plan_of(plan, ex.u);
  const migration::NodePlan* pv = plan_of(plan, ex.v);
  if (!pu || !pv) return {"u or v is not a node of S"};

  const Path aggressive = joined(ex.u_to_w, reversed(ex.gu_to_w));
  const auto* ua = path_of(*pu, migration::PathKind::kAggressive);
  if (!ua || ua->path != aggressive)
    out.push_back(fmt::format("u's aggressive path: printed {}, computed {}", aggressive, show(ua)));
  const auto* ur = path_of(*pu, migration::PathKind::kRegularExtended);
  if (!ur || ur->path != ex.u_second) {
    out.push_back(fmt::format("u's regular-extended path: printed {}, computed {}", ex.u_second, show(ur)));
  } else {
    const Node fu = migration::f(ex.inst, params.alpha, ex.u, params.bars);
    if (ur->ext_begin < 0 || ur->path.nodes[static_cast<size_t>(ur->ext_begin)] != fu)
      out.push_back(fmt::format("u's regular-extended path: the extension does not start at f(u) = {}", fu));
  }
  if (pu->paths.size() != 2) out.push_back(fmt::format("u has {} paths, printed 2", pu->paths.size()));

  std::vector<Path> printed_v{ex.v_l1, ex.v_l2}, computed_v;
  for (const auto& mp : pv->paths) computed_v.push_back(mp.path);
  auto text = [](const std::vector<Path>& ps) {
    std::vector<std::string> s;
    for (const Path& p : ps) s.push_back(p.to_string());
    std::sort(s.begin(), s.end());
    return s;
  };
  if (text(printed_v) != text(computed_v))
    out.push_back(fmt::format("v's paths: printed {{{}}}, computed {{{}}}", fmt::join(text(printed_v), ", "),
                              fmt::join(text(computed_v), ", ")));
  if (!pu->missing.empty()) out.push_back("u: " + pu->missing);
  if (!pv->missing.empty()) out.push_back("v: " + pv->missing);
  return out;
}

std::vector<std::string> theorem1_violations(const migration::Plan& plan) {
  std::vector<std::string> out;
  auto add = [&](const std::string& name, const Violation& v) {
    if (v) out.push_back(name + ": " + *v);
  };
  add("paths_valid", migration::check_plan_paths_valid(plan));
  add("complete", migration::check_plan_complete(plan));
  for (migration::Disjointness d : migration::kAllDisjointness) {
    add("pairs_disjoint[" + migration::to_string(d) + "]", migration::check_plan_pairs_disjoint(plan, d));
    add("all_disjoint[" + migration::to_string(d) + "]", migration::check_plan_all_disjoint(plan, d));
  }
  add("no_block_link", migration::check_plan_no_block_link(plan));
  add("t_links", migration::check_plan_t_links(plan));
  add("length", migration::check_plan_length(plan));
  return out;
}

std::string to_string(Fig2Outcome outcome) {
  switch (outcome) {
    case Fig2Outcome::kFound: return "found";
    case Fig2Outcome::kNone: return "none";
    case Fig2Outcome::kUnknown: return "unknown";
    case Fig2Outcome::kError: return "error";
  }
  return "?";
}

Fig2SearchResult search_fig2_blocks(const Fig2Example& ex, const Fig2SearchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Fig2SearchResult result;
  // The (tie-break, k) combinations the partition must reproduce the printed paths under.
  std::vector<Params> combos;
  if (options.every_tie_and_k) {
    for (const TieBreak tie : {TieBreak::kAscending, TieBreak::kDescending})
      for (const int k : migration::dims_of(ex.inst.C)) combos.push_back(fig2_params(ex, tie, k));
  } else {
    combos.push_back(fig2_params(ex, options.tie, options.k));
  }
  std::vector<std::pair<TieBreak, std::vector<Fig2Call>>> constrained;
  for (const Params& params : combos) {
    auto calls = fig2_calls(ex, params);
    if (!calls) {
      result.outcome = Fig2Outcome::kNone;
      result.reason = calls.error().message;
      result.seconds = seconds_since(start);
      return result;
    }
    result.calls += static_cast<int>(calls->size());
    constrained.emplace_back(params.tie, *calls);
  }
  try {
    z3::context ctx;
    Encoding enc(ctx, ex.inst);
    result.candidates = static_cast<int>(enc.candidates().size());
    z3::expr_vector constraints = enc.cover();

    for (const auto& [tie, calls] : constrained) {
      for (const Fig2Call& call : calls) {
        // The printed path is block-free and every path the tie-break tries first is blocked.
        const std::vector<Path> all = migration::hamming_paths(call.from, call.to);
        const auto it = std::find(all.begin(), all.end(), call.printed);
        TC_CHECK(it != all.end(), "a Hamming path missing from hamming_paths");
        constraints.push_back(!enc.blocked(call.printed));
        const auto at = static_cast<size_t>(it - all.begin());
        for (size_t i = 0; i < all.size(); ++i) {
          const bool earlier = tie == TieBreak::kAscending ? i < at : i > at;
          if (earlier) constraints.push_back(enc.blocked(all[i]));
        }
      }
    }
    if (options.require_all_nodes) {
      for (const Params& combo : combos)
        for (const Node s : migration::nodes_of(ex.inst.S))
          for (const auto& [a, b] : hamming_calls(ex.inst, combo, s)) {
            z3::expr_vector some_free(ctx);
            for (const Path& path : migration::hamming_paths(a, b)) some_free.push_back(!enc.blocked(path));
            constraints.push_back(z3::mk_or(some_free));
          }
    }

    z3::params p(ctx);
    if (options.limits.timeout_ms) p.set("timeout", options.limits.timeout_ms);
    std::optional<z3::solver> solver;
    std::optional<z3::optimize> opt;
    if (options.minimize) {
      opt.emplace(ctx);
      opt->set(p);
      for (const z3::expr& c : constraints) opt->add(c);
      z3::expr_vector ones(ctx);
      for (const z3::expr& b : enc.vars()) ones.push_back(z3::ite(b, ctx.int_val(1), ctx.int_val(0)));
      opt->minimize(z3::sum(ones));
    } else {
      solver.emplace(ctx);
      if (options.limits.rlimit)
        p.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(options.limits.rlimit, UINT_MAX)));
      solver->set(p);
      for (const z3::expr& c : constraints) solver->add(c);
    }

    while (true) {
      const z3::check_result r = opt ? opt->check() : solver->check();
      if (r == z3::unsat) {
        result.outcome = Fig2Outcome::kNone;
        result.reason = result.rejected.empty()
                            ? "unsat: no partition makes HAMMING-PATH return every printed path"
                            : "unsat after excluding the models migrate rejected";
        break;
      }
      if (r == z3::unknown) {
        result.outcome = Fig2Outcome::kUnknown;
        result.reason = opt ? std::string(Z3_optimize_get_reason_unknown(ctx, *opt)) : solver->reason_unknown();
        break;
      }
      ++result.models;
      const Blocks blocks = enc.decode(opt ? opt->get_model() : solver->get_model());
      std::vector<std::string> why;
      if (auto error = migration::validate_blocks(ex.inst, blocks)) why.push_back(error->message);
      if (auto bad = check_partition(ex.inst, blocks); bad && why.empty()) why.push_back(*bad);
      for (const Params& combo : combos) {
        if (!why.empty()) break;
        for (const std::string& d : fig2_differences(ex, blocks, combo))
          why.push_back(fmt::format("[{}, k = {}] {}", migration::to_string(combo.tie), combo.k, d));
      }
      if (why.empty()) {
        result.outcome = Fig2Outcome::kFound;
        result.blocks = blocks;
        // The first optimum is minimal; after a rejection, only among the remaining models.
        result.minimal = options.minimize && result.rejected.empty();
        break;
      }
      result.rejected.push_back(fmt::format("{}: {}", migration::blocks_to_string(blocks), fmt::join(why, "; ")));
      if (result.models >= options.max_models) {
        result.outcome = Fig2Outcome::kError;
        result.reason = fmt::format("migrate rejected {} models of the encoding", result.models);
        break;
      }
      if (opt) opt->add(enc.exclude(blocks));
      else solver->add(enc.exclude(blocks));
    }
  } catch (const z3::exception& e) {
    result.outcome = Fig2Outcome::kError;
    result.reason = e.msg();
  }
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace topocheck::smt
