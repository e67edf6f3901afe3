#include "cli/construct_cmd.h"

#include <bit>
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/app.h"
#include "cli/options.h"
#include "cli/output.h"
#include "hypercube/hypercube.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "metacube/disjoint.h"
#include "metacube/metacube_checks.h"
#include "metacube/routing.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"

namespace topocheck::cli {
namespace {

using nlohmann::json;

// Resource limits, checked before the work starts and stated in --help. `construct itm` costs
// time that grows steeply with its steps (its checks); `construct migration` lists both paths of every node of S,
// 2^dim(S) of them, with their text.
constexpr size_t kMaxItmSteps = 100;  // 100 fan steps: 0.4 s; 300: over a minute (measured)
constexpr int kMaxMigrationDim = 16;  // dim 16: 0.5 s, 67 MB; each more dimension doubles it
// migration-latency: inputs bounded so that every latency is a finite number.
constexpr double kMaxLatencyInput = 1e12, kMinBandwidth = 1e-12;

// ---------------------------------------------------------------------------------------------
// hypercube-paths, hypercube-route

struct CubeArgs {
  int n = 0;
  std::string x, y;
  bool json = false;
};

void add_cube_options(CLI::App& sub, CubeArgs& a) {
  add_int_option(sub, "--n", a.n, 1, hypercube::kMaxDimension, "dimension of the cube")->required();
  sub.add_option("--x", a.x, "source address, n bits, most significant first")->required();
  sub.add_option("--y", a.y, "destination address")->required();
  sub.add_flag("--json", a.json, "JSON output");
}

Result<std::pair<Node, Node>> parse_cube_pair(const CubeArgs& a) {
  auto cube = hypercube::Hypercube::make(a.n);
  if (!cube) return invalid_argument("--n: " + cube.error().message);
  auto x = parse_node(a.x, a.n);
  if (!x) return invalid_argument("--x: " + x.error().message);
  auto y = parse_node(a.y, a.n);
  if (!y) return invalid_argument("--y: " + y.error().message);
  return std::pair{*x, *y};
}

int cmd_construct_paths(const CubeArgs& a) {
  auto xy = parse_cube_pair(a);
  if (!xy) return report_error(xy.error());
  const auto paths = hypercube::cube_disjoint_paths(a.n, xy->first, xy->second);
  if (a.json) {
    std::cout << json{{"paths", paths_to_json(paths)}}.dump() << "\n";
  } else {
    for (size_t i = 0; i < paths.size(); ++i) std::cout << fmt::format("P_{} = {}\n", i, paths[i]);
  }
  return kExitOk;
}

int cmd_construct_route(const CubeArgs& a) {
  auto xy = parse_cube_pair(a);
  if (!xy) return report_error(xy.error());
  const Path p = hypercube::ecube_route(xy->first, xy->second);
  if (a.json) std::cout << json{{"path", path_to_json(p)}}.dump() << "\n";
  else std::cout << p << "\n";
  return kExitOk;
}

// ---------------------------------------------------------------------------------------------
// metacube-paths, metacube-route

struct McArgs {
  int k = -1, m = -1;
  std::string s, t, reading = "paper";
  bool json = false;
};

void add_mc_options(CLI::App& sub, McArgs& a) {
  add_int_option(sub, "--k", a.k, 0, 5, "class-cube dimension")->required();
  add_int_option(sub, "--m", a.m, 1, 63, "cluster dimension")->required();
  sub.add_option("--s", a.s, "source address as printed (class field first), or (c, M[h-1], ..., M[0])")->required();
  sub.add_option("--t", a.t, "destination address")->required();
  sub.add_flag("--json", a.json, "JSON output");
}

struct McInput {
  metacube::Metacube mc;
  Node s, t;
};

Result<McInput> parse_mc_args(const McArgs& a) {
  auto mc = metacube::Metacube::make(a.k, a.m);
  if (!mc) return invalid_argument("--k/--m: " + mc.error().message);
  auto s = mc->parse_fields(a.s);
  if (!s) return invalid_argument("--s: " + s.error().message);
  auto t = mc->parse_fields(a.t);
  if (!t) return invalid_argument("--t: " + t.error().message);
  return McInput{*mc, *s, *t};
}

int cmd_construct_mc_route(const McArgs& a) {
  auto in = parse_mc_args(a);
  if (!in) return report_error(in.error());
  const Path p = metacube::p1(in->mc, in->s, in->t);
  if (a.json) std::cout << json{{"path", path_to_json(p)}}.dump() << "\n";
  else std::cout << p << "\n";
  return kExitOk;
}

// --t all: the construction's path table from s to every other node, as the JSON Lines table that
// `check paths` streams (docs/using.md, "Checking your own artefacts"): the settings line, then a line per t
// in node order, written as it is computed.
int cmd_construct_mc_table(const McArgs& a, const metacube::Alg4Options& options) {
  auto mc = metacube::Metacube::make(a.k, a.m);
  if (!mc) return usage_error("--k/--m: " + mc.error().message);
  if (mc->num_nodes() > (uint64_t{1} << 20))
    return usage_error(fmt::format("--t all: {} has {} nodes; a table is written for at most 2^20", mc->name(), mc->num_nodes()));
  std::vector<Node> sources;
  if (a.s == "all") {
    for (uint64_t i = 0; i < mc->num_nodes(); ++i) sources.push_back(mc->node_at(i));
  } else {
    auto s = mc->parse_fields(a.s);
    if (!s) return usage_error("--s: " + s.error().message);
    sources.push_back(*s);
  }
  std::cout << json{{"kind", "paths"}, {"topology", fmt::format("metacube:{},{}", a.k, a.m)}}.dump() << "\n";
  for (const Node& s : sources)
    for (uint64_t i = 0; i < mc->num_nodes(); ++i) {
      const Node t = mc->node_at(i);
      if (t == s) continue;
      const auto r = metacube::metacube_disjoint_paths(*mc, s, t, options);
      std::cout << json{{"s", s.to_string()}, {"t", t.to_string()}, {"paths", paths_to_json(r.paths)}}.dump() << "\n";
      if (!std::cout) return kExitUsage;
    }
  std::cout << std::flush;
  return std::cout ? kExitOk : kExitUsage;
}

int cmd_construct_mc_paths(const McArgs& a) {
  if (a.t == "all" || a.s == "all") {
    if (a.t != "all") return usage_error("--s all: only with --t all (a table of every pair)");
    const auto options = metacube::options_for_reading(a.reading);
    if (!options || (a.reading != "paper" && a.reading != "repaired" && a.reading != "paper-keybit-example4" &&
                     a.reading != "corrected"))
      return usage_error(
          fmt::format("--reading: '{}' is not paper, paper-keybit-example4, repaired or corrected", a.reading));
    return cmd_construct_mc_table(a, *options);
  }
  auto in = parse_mc_args(a);
  if (!in) return report_error(in.error());
  if (in->s == in->t) return usage_error("--t: s and t must differ (Algorithm 4 is for two distinct nodes)");
  const auto options = metacube::options_for_reading(a.reading);
  if (!options || (a.reading != "paper" && a.reading != "repaired" && a.reading != "paper-keybit-example4" &&
                   a.reading != "corrected"))
    return usage_error(
        fmt::format("--reading: '{}' is not paper, paper-keybit-example4, repaired or corrected", a.reading));
  const auto r = metacube::metacube_disjoint_paths(in->mc, in->s, in->t, *options);
  const Violation verdict = metacube::check_thm2_disjoint(in->mc, in->s, in->t, r.paths);
  if (a.json) {
    std::cout << json{{"paths", paths_to_json(r.paths)}}.dump() << "\n";
  } else {
    std::cout << fmt::format("{} case {} ({} reading)\n", in->mc.name(), r.case_number, a.reading);
    for (const std::string& n : r.notes) std::cout << "  " << n << "\n";
    for (size_t i = 0; i < r.paths.size(); ++i)
      std::cout << fmt::format("P_{} ({} hops) = {}\n", i, r.paths[i].length(), r.paths[i]);
  }
  // The construction is not its own judge: say what the shared checkers found.
  if (verdict) std::cerr << "topocheck: warning: these paths fail Theorem 2: " << *verdict << "\n";
  return kExitOk;
}

// ---------------------------------------------------------------------------------------------
// itm

struct ItmArgs {
  std::string steps, rule = "exterior";
  bool json = false;
};

// Builds an ITM from its AddNode steps and prints what the paper defines on it (edges, exterior
// marking, circular order) and what the shared checkers say of its claims.
int cmd_construct_itm(const ItmArgs& a) {
  auto rule = itm::parse_rule(a.rule);
  if (!rule) return usage_error(fmt::format("--rule: '{}' is not any-edge or exterior", a.rule));
  auto steps = itm::parse_steps(a.steps);
  if (!steps) return usage_error("--steps: " + steps.error().message);
  if (steps->size() > kMaxItmSteps)
    return usage_error(fmt::format("--steps: {} steps; at most {} (the size limit of construct itm)", steps->size(),
                                   kMaxItmSteps));
  auto g = itm::Itm::build(*steps, *rule);
  if (!g) return usage_error("--steps: " + g.error().message);
  auto order = itm::circular_order(*g);
  std::vector<std::pair<std::string, Violation>> checks = {
      {"lemma1.planar", itm::check_planar(g->graph())},
      {"lemma1.edges", itm::check_edge_count(g->graph())},
      {"thm2.deadlock_free", itm::check_deadlock_free(g->graph())},
      {"lemma4.counts", itm::check_lemma4_counts(*g)},
      {"lemma4.cycle", itm::check_lemma4_cycle(*g)},
      {"thm5.contention_free", order ? itm::check_contention_free(g->graph(), *order, itm::Contention::kPaper)
                                     : Violation("no circular order: " + order.error().message)}};
  if (a.json) {
    json out = {{"n", g->n()}, {"rule", itm::to_string(*rule)}, {"steps", itm::to_string(g->steps())}};
    out["edges"] = g->graph().edges();
    out["exterior"] = g->exterior_edges();
    out["order"] = order ? json(*order) : json(nullptr);
    for (const auto& [name, v] : checks) out["checks"][name] = v ? json(*v) : json("holds");
    std::cout << out.dump() << "\n";
    return kExitOk;
  }
  std::cout << fmt::format("ITM ({}) on {} nodes: {}\n", itm::to_string(*rule), g->n(),
                           g->steps().empty() ? "the kernel triangle" : itm::to_string(g->steps()));
  std::cout << fmt::format("edges ({}): {}\n", g->graph().num_edges(), fmt::join(g->graph().edges(), " "));
  std::cout << fmt::format("exterior ({}): {}\n", g->exterior_edges().size(), fmt::join(g->exterior_edges(), " "));
  std::cout << fmt::format("circular order: {}\n", order ? fmt::format("{}", fmt::join(*order, " ")) : order.error().message);
  for (const auto& [name, v] : checks) std::cout << fmt::format("  {:22} {}\n", name, v ? "fails: " + *v : "holds");
  return kExitOk;
}

// ---------------------------------------------------------------------------------------------
// migration, migration-latency

struct MigrationArgs {
  int n = 0;
  std::string S, T, alpha, blocks, sequence, tie = "ascending", pick_p = "first", x = "D_g", bars = "f:=,g:!=";
  std::string seq_policy = "as-given";
  int k = -1;
  bool json = false;
};

// The procedure of Section 4 on one input: both paths of every node of S (or the reason one is
// absent), and what the shared checkers say of Theorems 1/2 under each disjointness reading.
int cmd_construct_migration(const MigrationArgs& a) {
  auto inst = migration::parse_instance(a.S, a.T);
  if (!inst) return usage_error(inst.error().message);
  if (a.n != 0 && a.n != inst->n)
    return usage_error(fmt::format("--n: {} but --S and --T have {} symbols", a.n, inst->n));
  if (const int dim = std::popcount(inst->DS); dim > kMaxMigrationDim)
    return usage_error(fmt::format("--S: dim(S) = {}, 2^{} nodes; at most dim {} (the size limit of construct migration)",
                                   dim, dim, kMaxMigrationDim));
  auto parsed = migration::parse_params(
      *inst, {a.alpha, a.sequence, a.tie, a.k == -1 ? "" : std::to_string(a.k), a.pick_p, a.x, a.bars, a.seq_policy});
  if (!parsed) return usage_error(parsed.error().message);
  const migration::Params params = *parsed;
  auto blocks = migration::parse_blocks(*inst, a.blocks);
  if (!blocks) return usage_error(blocks.error().message);
  const migration::Plan plan = migration::migrate(*inst, *blocks, params);
  std::vector<std::pair<std::string, Violation>> checks = {
      {"valid", migration::check_plan_paths_valid(plan)},
      {"two_paths", migration::check_plan_complete(plan)},
      {"no_block_link", migration::check_plan_no_block_link(plan)},
      {"t_links", migration::check_plan_t_links(plan)},
      {"length", migration::check_plan_length(plan)}};
  for (auto d : migration::kAllDisjointness) {
    checks.emplace_back("pair_disjoint." + migration::to_string(d), migration::check_plan_pairs_disjoint(plan, d));
    checks.emplace_back("all_disjoint." + migration::to_string(d), migration::check_plan_all_disjoint(plan, d));
  }
  if (a.json) {
    json out = plan.to_json();
    for (const auto& [name, v] : checks) out["checks"][name] = v ? json(*v) : json("holds");
    std::cout << out.dump() << "\n";
    return kExitOk;
  }
  std::cout << plan.to_text();
  for (const auto& [name, v] : checks) std::cout << fmt::format("  {:28} {}\n", name, v ? "fails: " + *v : "holds");
  return kExitOk;
}

struct LatencyArgs {
  double M = 0, B = 0, X = 0, startup = 0;
  int zeta = -1, beta = -1;
  std::string S, T;
  bool json = false;
};

// Section 5's latency model: single path (X/B)(zeta+beta) + M/B against two paths
// (X/B)(zeta+2beta) + M/(2B), each plus the start-up latency.
int cmd_migration_latency(const LatencyArgs& a) {
  int zeta = a.zeta, beta = a.beta;
  if (!a.S.empty() || !a.T.empty()) {
    auto inst = migration::parse_instance(a.S, a.T);
    if (!inst) return usage_error(inst.error().message);
    zeta = inst->zeta();
    beta = inst->beta();
  }
  if (zeta < 0 || beta < 0) return usage_error("--zeta and --beta (or --S and --T) are required, both >= 0");
  const auto l = migration::latency(a.M, a.B, a.X, zeta, beta, a.startup);
  // The option ranges keep every value finite; say so rather than print inf or nan if not.
  for (double v : {l.single, l.dual, l.speedup(), l.reduction()})
    if (!std::isfinite(v)) return usage_error("--M/--B/--X/--startup: the latencies overflow; use smaller values");
  if (a.json) {
    std::cout << json{{"zeta", zeta}, {"beta", beta}, {"single", l.single}, {"dual", l.dual},
                      {"speedup", l.speedup()}, {"reduction", l.reduction()}}
                     .dump()
              << "\n";
    return kExitOk;
  }
  std::cout << fmt::format("zeta = {}, beta = {}\nsingle path (P = {}): {:.6g}\ntwo paths   (P = {}): {:.6g}\n"
                           "speedup {:.4f}, latency reduction {:.2f}%\n",
                           zeta, beta, zeta + beta, l.single, zeta + 2 * beta, l.dual, l.speedup(),
                           100 * l.reduction());
  return kExitOk;
}

}  // namespace

Command add_hypercube_paths_command(CLI::App& construct) {
  auto args = std::make_shared<CubeArgs>();
  auto* sub = construct.add_subcommand("hypercube-paths", "Algorithm 2: n disjoint paths from x to y in Q_n");
  add_cube_options(*sub, *args);
  return {sub, [args] { return cmd_construct_paths(*args); }};
}

Command add_hypercube_route_command(CLI::App& construct) {
  auto args = std::make_shared<CubeArgs>();
  auto* sub = construct.add_subcommand("hypercube-route", "e-cube route from x to y in Q_n");
  add_cube_options(*sub, *args);
  return {sub, [args] { return cmd_construct_route(*args); }};
}

Command add_metacube_paths_command(CLI::App& construct) {
  auto args = std::make_shared<McArgs>();
  auto* sub = construct.add_subcommand("metacube-paths", "Algorithm 4: k+m paths from s to t in MC(k,m)");
  add_mc_options(*sub, *args);
  sub->add_option("--reading", args->reading, "paper (default), paper-keybit-example4, repaired or corrected");
  sub->get_option("--t")->description(
      "destination address, or 'all': every other node, written as a JSON Lines table for `check paths`");
  sub->get_option("--s")->description(
      "source address as printed (class field first), or (c, M[h-1], ..., M[0]); with --t all also 'all': every pair");
  return {sub, [args] { return cmd_construct_mc_paths(*args); }};
}

Command add_metacube_route_command(CLI::App& construct) {
  auto args = std::make_shared<McArgs>();
  auto* sub = construct.add_subcommand("metacube-route", "Algorithm 1: a route from s to t in MC(k,m)");
  add_mc_options(*sub, *args);
  return {sub, [args] { return cmd_construct_mc_route(*args); }};
}

Command add_itm_command(CLI::App& construct) {
  auto args = std::make_shared<ItmArgs>();
  auto* sub = construct.add_subcommand("itm", "an ITM from its AddNode steps: marking, circular order, checks");
  sub->add_option("--steps", args->steps,
                  fmt::format("AddNode steps, e.g. \"3:(0,1) 4:(1,3)\" (empty: the triangle; at most {} steps)", kMaxItmSteps))
      ->required();
  sub->add_option("--rule", args->rule, "exterior (default) or any-edge");
  sub->add_flag("--json", args->json, "JSON output");
  return {sub, [args] { return cmd_construct_itm(*args); }};
}

Command add_migration_command(CLI::App& construct) {
  auto args = std::make_shared<MigrationArgs>();
  auto* sub = construct.add_subcommand("migration", "Section 4 of the migration paper: two paths from every node of S");
  add_int_option(*sub, "--n", args->n, 1, migration::kMaxN, "cube dimension (optional; must match --S and --T)");
  sub->add_option("--S", args->S,
                  fmt::format("source subcube over {{0,1,*}}, e.g. 0010** (dim(S) at most {})", kMaxMigrationDim))
      ->required();
  sub->add_option("--T", args->T, "target subcube of the same dimension, e.g. 1*0*00")->required();
  sub->add_option("--alpha", args->alpha, "bijection D(S)-D(T) -> D(T)-D(S), e.g. 0:2,1:4 (default: in order)");
  sub->add_option("--blocks", args->blocks, "active subcubes other than S, comma-separated (default none)");
  sub->add_option("--sequence", args->sequence, "h-extension dimension sequence over D(T)-D(S), e.g. 2,4");
  sub->add_option("--tie-break", args->tie, "HAMMING-PATH tie-break: ascending (default) or descending");
  add_int_option(*sub, "--k", args->k, 0, migration::kMaxN - 1, "Case b's link k in C(S,T) (default: the smallest)");
  sub->add_option("--pick-p", args->pick_p, "Section 4.2: first (default) or last eligible p");
  sub->add_option("--x", args->x, "Section 4.2: X = D_g (default) or D_f of p");
  sub->add_option("--bars", args->bars, "which cases of f and g complement (default f:=,g:!=, pinned by Fig. 2)");
  sub->add_option("--sequence-policy", args->seq_policy,
                  "Section 4.2: the order q broadcasts, as-given (default: fixed before p), x-first or x-last "
                  "(X's dimensions first / last, chosen once p is known)");
  sub->add_flag("--json", args->json, "JSON output");
  return {sub, [args] { return cmd_construct_migration(*args); }};
}

Command add_migration_latency_command(CLI::App& construct) {
  auto args = std::make_shared<LatencyArgs>();
  auto* sub = construct.add_subcommand("migration-latency", "Section 5: single- vs double-path migration latency");
  add_float_option(*sub, "--M", args->M, 0, kMaxLatencyInput, "message length (e.g. bytes)", true)->required();
  add_float_option(*sub, "--B", args->B, kMinBandwidth, kMaxLatencyInput, "channel bandwidth (length per time unit)")->required();
  add_float_option(*sub, "--X", args->X, 0, kMaxLatencyInput, "M_c (circuit switching) or L_f (wormhole), default 0");
  add_float_option(*sub, "--startup", args->startup, 0, kMaxLatencyInput, "start-up latency in time units (default 0)");
  auto* zeta = add_int_option(*sub, "--zeta", args->zeta, 0, migration::kMaxN, "|C(S,T)|");
  auto* beta = add_int_option(*sub, "--beta", args->beta, 0, migration::kMaxN, "|D(S)-D(T)|");
  auto* S = sub->add_option("--S", args->S, "source subcube (instead of --zeta/--beta)")->excludes(zeta)->excludes(beta);
  sub->add_option("--T", args->T, "target subcube")->excludes(zeta)->excludes(beta)->needs(S);
  S->needs("--T");
  sub->add_flag("--json", args->json, "JSON output");
  return {sub, [args] { return cmd_migration_latency(*args); }};
}

}  // namespace topocheck::cli
