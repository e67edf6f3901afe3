// Fig. 2 of Chen and Tzeng (paper 000, Section 4.1): the stored block partition reproduces every
// printed path through migration::migrate; the Z3 search finds a partition (or proves none) for
// each tie-break and each k in C(S,T); only the paper's complement bars reproduce the printed
// images; and without blocks the ascending tie-break takes another u -> x path (blocks matter).
// The printed data comes from corpus/migration/examples/fig2.json.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "corpus/corpus.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"
#include "smt/migration_fig2.h"

namespace topocheck::smt {
namespace {

namespace fs = std::filesystem;
using migration::TieBreak;

fs::path corpus_dir() {
  const char* env = std::getenv("TOPOCHECK_CORPUS");
  return env ? fs::path(env) : fs::path(TOPOCHECK_SOURCE_DIR) / "corpus";
}

struct Loaded {
  corpus::Case c;
  Fig2Example ex;
  TieBreak tie = TieBreak::kAscending;
  int k = -1;
};

Loaded load() {
  auto c = corpus::load_case(corpus_dir() / "migration" / "examples" / "fig2.json");
  TC_CHECK(c.ok(), c.ok() ? "" : c.error().to_string());
  auto ex = fig2_from_json(c->input, c->expected);
  TC_CHECK(ex.ok(), ex.ok() ? "" : ex.error().message);
  auto tie = migration::parse_tie_break(c->params.at("tie").get<std::string>());
  TC_CHECK(tie.has_value(), "params.tie");
  return {*c, *ex, *tie, c->params.at("k").get<int>()};
}

const Loaded& fig2() {
  static const Loaded loaded = load();
  return loaded;
}

Node printed_node(const nlohmann::json& expected, const char* who, const char* key) {
  auto node = parse_node(expected.at(who).at(key).get<std::string>(), 6);
  TC_CHECK(node.ok(), "printed node");
  return *node;
}

// The stored partition was searched for under every tie-break and k at once: it reproduces the
// printed paths under each, and the procedure gives every node of S two paths.
TEST(MigrationFig2, StoredPartitionReproducesEveryPrintedPathThroughMigrate) {
  const Loaded& l = fig2();
  ASSERT_TRUE(l.ex.blocks.has_value()) << "fig2.json stores no blocks";
  for (const TieBreak tie : {TieBreak::kAscending, TieBreak::kDescending}) {
    for (const int k : migration::dims_of(l.ex.inst.C)) {
      const auto params = fig2_params(l.ex, tie, k);
      EXPECT_EQ(fig2_differences(l.ex, *l.ex.blocks, params), std::vector<std::string>{})
          << migration::to_string(tie) << " k=" << k;
      const migration::Plan plan = migration::migrate(l.ex.inst, *l.ex.blocks, params);
      for (const auto& np : plan.nodes) {
        EXPECT_EQ(np.paths.size(), 2u) << np.u << ": " << np.missing;
        EXPECT_EQ(np.missing, "") << np.u;
      }
    }
  }
}

// Theorem 1 on Fig. 2's own instance: every check holds except "all the paths between S and T
// are pairwise disjoint" under the node and link readings. u's h-extension 100000:100100:110100
// and 001001's 110000:110100:100100 use link 100100-110100 in opposite directions (Lemma 3 with
// the printed sequence 2, 4), and 001010's extension runs through g(v) = 100000. Only the
// directed-link reading holds.
TEST(MigrationFig2, StoredPartitionPlanIsPairwiseDisjointOnlyForDirectedLinks) {
  const Loaded& l = fig2();
  ASSERT_TRUE(l.ex.blocks.has_value());
  const migration::Plan plan = migration::migrate(l.ex.inst, *l.ex.blocks, fig2_params(l.ex, l.tie, l.k));
  std::vector<std::string> failing;
  for (const std::string& v : theorem1_violations(plan)) failing.push_back(v.substr(0, v.find(':')));
  EXPECT_EQ(failing, (std::vector<std::string>{"all_disjoint[node]", "all_disjoint[link]"}));
  const auto link = migration::check_plan_all_disjoint(plan, migration::Disjointness::kLink);
  ASSERT_TRUE(link.has_value());
  EXPECT_NE(link->find("100100-110100"), std::string::npos) << *link;
}

TEST(MigrationFig2, CallsAreTheProceduresAndTheirPrintedSegmentsAreHammingPaths) {
  const Loaded& l = fig2();
  for (const int k : migration::dims_of(l.ex.inst.C)) {
    auto calls = fig2_calls(l.ex, fig2_params(l.ex, l.tie, k));
    ASSERT_TRUE(calls.ok()) << calls.error().message;
    EXPECT_EQ(calls->size(), 6u);  // u in Case a (4 calls), v in Case b (2)
    // The procedure's w and x are the printed ones.
    EXPECT_EQ((*calls)[0].to, printed_node(l.c.expected, "u", "w"));
    EXPECT_EQ((*calls)[2].to, printed_node(l.c.expected, "u", "x"));
  }
}

// Runs one search and prints one line: the outcome, the partition, whether the procedure then
// gives every node of S two paths, and Theorem 1's checks (each disjointness reading). Each model
// is confirmed by migrate inside search_fig2_blocks; here the found partition is re-checked under
// every combination it was searched for.
Fig2SearchResult run_search(const Fig2Example& ex, const Fig2SearchOptions& options) {
  const Fig2SearchResult r = search_fig2_blocks(ex, options);
  std::vector<std::pair<TieBreak, int>> combos;
  if (options.every_tie_and_k) {
    for (const TieBreak tie : {TieBreak::kAscending, TieBreak::kDescending})
      for (const int k : migration::dims_of(ex.inst.C)) combos.emplace_back(tie, k);
  } else {
    combos.emplace_back(options.tie, options.k);
  }
  std::string others = "-", thm1 = "-";
  if (r.outcome == Fig2Outcome::kFound) {
    for (const auto& [tie, k] : combos) {
      const auto params = fig2_params(ex, tie, k);
      EXPECT_EQ(fig2_differences(ex, r.blocks, params), std::vector<std::string>{});
      const migration::Plan plan = migration::migrate(ex.inst, r.blocks, params);
      std::vector<std::string> failing;
      for (const auto& np : plan.nodes)
        if (np.paths.size() != 2) failing.push_back(fmt::format("{} ({})", np.u, np.missing));
      const std::string tag =
          combos.size() > 1 ? fmt::format("[{}, k = {}] ", migration::to_string(tie), k) : std::string();
      others = (others == "-" ? "" : others + " ") + tag +
               (failing.empty() ? "all succeed" : fmt::format("fail: {}", fmt::join(failing, "; ")));
      const auto v = theorem1_violations(plan);
      thm1 = (thm1 == "-" ? "" : thm1 + " ") + tag + (v.empty() ? "pass" : fmt::format("{}", fmt::join(v, "; ")));
      if (options.require_all_nodes) {
        EXPECT_EQ(failing, std::vector<std::string>{});
      }
    }
  }
  const std::string what = options.every_tie_and_k
                               ? std::string("every tie and k")
                               : fmt::format("tie={} k={}", migration::to_string(options.tie), options.k);
  std::cout << fmt::format(
      "fig2 search {} all_nodes={}: {} {}{} blocks=[{}] candidates={} calls={} models={} rejected={} "
      "{:.2f}s; other nodes: {}; theorem 1: {}{}\n",
      what, options.require_all_nodes, to_string(r.outcome), r.blocks.size(), r.minimal ? " (minimal)" : "",
      migration::blocks_to_string(r.blocks), r.candidates, r.calls, r.models, r.rejected.size(), r.seconds, others,
      thm1, r.reason.empty() ? "" : "; " + r.reason);
  for (const std::string& why : r.rejected) std::cout << "  rejected: " << why << "\n";
  EXPECT_NE(r.outcome, Fig2Outcome::kError) << r.reason;
  EXPECT_NE(r.outcome, Fig2Outcome::kUnknown) << r.reason;
  EXPECT_TRUE(r.rejected.empty()) << "migrate disagreed with a model: the encoding is wrong";
  return r;
}

Fig2SearchOptions minimizing(bool all_nodes) {
  Fig2SearchOptions options;
  options.require_all_nodes = all_nodes;
  options.minimize = true;
  options.limits.timeout_ms = 120'000;
  return options;
}

// Measured (Z3 4.8.12): every search finds a 6-block partition in well under a second; the
// numbers of blocks are asserted, the partitions themselves are not (several are optimal).
TEST(MigrationFig2, SearchFindsASixBlockPartitionForEveryTieBreakAndK) {
  const Loaded& l = fig2();
  for (const TieBreak tie : {TieBreak::kAscending, TieBreak::kDescending}) {
    for (const int k : migration::dims_of(l.ex.inst.C)) {
      for (const bool all_nodes : {false, true}) {
        Fig2SearchOptions options = minimizing(all_nodes);
        options.tie = tie;
        options.k = k;
        const Fig2SearchResult r = run_search(l.ex, options);
        EXPECT_EQ(r.outcome, Fig2Outcome::kFound);
        EXPECT_TRUE(r.minimal);
        EXPECT_EQ(r.blocks.size(), 6u);
      }
    }
  }
}

TEST(MigrationFig2, SearchFindsOnePartitionForEveryTieBreakAndKAtOnce) {
  const Loaded& l = fig2();
  for (const bool all_nodes : {false, true}) {
    Fig2SearchOptions options = minimizing(all_nodes);
    options.every_tie_and_k = true;
    const Fig2SearchResult r = run_search(l.ex, options);
    EXPECT_EQ(r.outcome, Fig2Outcome::kFound);
    EXPECT_TRUE(r.minimal);
    // The stored partition is such an optimum (7 blocks, one more than for one tie-break alone).
    ASSERT_TRUE(l.ex.blocks.has_value());
    EXPECT_EQ(r.blocks.size(), l.ex.blocks->size());
  }
}

// The tie-break matters: the ascending-only optimum does not reproduce the printed paths under
// the descending tie-break, so the confirmation by migrate has something to reject.
TEST(MigrationFig2, AscendingOnlyPartitionDoesNotReproduceUnderDescending) {
  const Loaded& l = fig2();
  Fig2SearchOptions options = minimizing(false);
  options.tie = TieBreak::kAscending;
  options.k = l.k;
  const Fig2SearchResult r = search_fig2_blocks(l.ex, options);
  ASSERT_EQ(r.outcome, Fig2Outcome::kFound) << r.reason;
  EXPECT_EQ(fig2_differences(l.ex, r.blocks, fig2_params(l.ex, TieBreak::kAscending, l.k)),
            std::vector<std::string>{});
  EXPECT_FALSE(fig2_differences(l.ex, r.blocks, fig2_params(l.ex, TieBreak::kDescending, l.k)).empty());
}

// Without minimization the plain solver's first model is confirmed too.
TEST(MigrationFig2, PlainSearchModelIsConfirmedByMigrate) {
  const Loaded& l = fig2();
  Fig2SearchOptions options;
  options.tie = l.tie;
  options.k = l.k;
  options.limits.timeout_ms = 120'000;
  const Fig2SearchResult r = run_search(l.ex, options);
  EXPECT_EQ(r.outcome, Fig2Outcome::kFound);
}

TEST(MigrationFig2, OnlyThePaperBarsReproduceThePrintedImages) {
  const Loaded& l = fig2();
  const Node fu = printed_node(l.c.expected, "u", "f(u)"), gu = printed_node(l.c.expected, "u", "g(u)");
  const Node fv = printed_node(l.c.expected, "v", "f(v)"), gv = printed_node(l.c.expected, "v", "g(v)");
  int reproducing = 0;
  for (const migration::Bars bars : migration::all_bars()) {
    const bool all_four = migration::f(l.ex.inst, l.ex.alpha, l.ex.u, bars) == fu &&
                          migration::g(l.ex.inst, l.ex.alpha, l.ex.u, bars) == gu &&
                          migration::f(l.ex.inst, l.ex.alpha, l.ex.v, bars) == fv &&
                          migration::g(l.ex.inst, l.ex.alpha, l.ex.v, bars) == gv;
    EXPECT_EQ(all_four, bars == migration::Bars::paper()) << bars.to_string();
    reproducing += all_four;
  }
  EXPECT_EQ(reproducing, 1);
  EXPECT_EQ(migration::all_bars().size(), 4u);
}

// Every printed cell, recomputed from the library (the values from f, g and d_sets, the paths
// from migrate under the stored blocks) and diffed as the example method diffs: no difference.
// The cells named D_f here are printed "D_A" (the case's notes).
TEST(MigrationFig2, EveryPrintedCellIsReproducedUnderTheStoredPartition) {
  const Loaded& l = fig2();
  ASSERT_TRUE(l.ex.blocks.has_value());
  const auto& inst = l.ex.inst;
  const auto params = fig2_params(l.ex, l.tie, l.k);
  const migration::Plan plan = migration::migrate(inst, *l.ex.blocks, params);
  auto paths_of = [&](Node s) {
    std::vector<migration::MigrationPath> out;
    for (const auto& np : plan.nodes)
      if (np.u == s) out = np.paths;
    return out;
  };
  auto node_json = [&](Node s, const std::string& name) {
    const migration::DSets ds = migration::d_sets(inst, params.alpha, s, params.bars);
    const Node fs = migration::f(inst, params.alpha, s, params.bars);
    const Node gs = migration::g(inst, params.alpha, s, params.bars);
    nlohmann::json j = {{"node", s.to_string()},
                        {"case", ds.f_S != 0 ? "a" : "b"},
                        {"f(" + name + ")", fs.to_string()},
                        {"D_f(S|" + name + ")", migration::dims_to_string(ds.f_S)},
                        {"g(" + name + ")", gs.to_string()},
                        {"D_f(T|" + name + ")", migration::dims_to_string(ds.f_T)},
                        {"D_g(S|" + name + ")", migration::dims_to_string(ds.g_S)},
                        {"D_g(T|" + name + ")", migration::dims_to_string(ds.g_T)}};
    return j;
  };
  nlohmann::json computed = {{"C(S,T)", migration::dims_to_string(inst.C)},
                             {"D(S)-D(T)", migration::dims_to_string(inst.DSmT)},
                             {"D(T)-D(S)", migration::dims_to_string(inst.DTmS)}};
  nlohmann::json u = node_json(l.ex.u, "u");
  const auto calls = hamming_calls(inst, params, l.ex.u);
  ASSERT_EQ(calls.size(), 4u);
  const Node w = calls[0].second, x = calls[2].second;
  u["w"] = w.to_string();
  u["x"] = x.to_string();
  for (const auto& mp : paths_of(l.ex.u)) {
    if (mp.kind == migration::PathKind::kRegularExtended) u["regular_extended"] = path_to_json(mp.path);
    if (mp.kind == migration::PathKind::kAggressive) {
      // Split at w: HAMMING-PATH(u, w), and HAMMING-PATH(g(u), w) reversed.
      const auto at = std::find(mp.path.nodes.begin(), mp.path.nodes.end(), w);
      ASSERT_NE(at, mp.path.nodes.end());
      Path head, tail;
      head.nodes.assign(mp.path.nodes.begin(), at + 1);
      tail.nodes.assign(at, mp.path.nodes.end());
      std::reverse(tail.nodes.begin(), tail.nodes.end());
      u["HAMMING-PATH(u, w)"] = path_to_json(head);
      u["HAMMING-PATH(g(u), w)"] = path_to_json(tail);
    }
  }
  nlohmann::json v = node_json(l.ex.v, "v");
  // L^1, L^2 in the text's order: the one through link k last is L^1 for k = 5 (as stored).
  std::vector<Path> vp;
  for (const auto& mp : paths_of(l.ex.v)) vp.push_back(mp.path);
  ASSERT_EQ(vp.size(), 2u);
  if (vp[0] != l.ex.v_l1) std::swap(vp[0], vp[1]);
  v["L^1"] = path_to_json(vp[0]);
  v["L^2"] = path_to_json(vp[1]);
  computed["u"] = u;
  computed["v"] = v;
  const auto diffs = corpus::diff_cells(l.c.expected, computed);
  for (const auto& d : diffs) ADD_FAILURE() << d.cell << ": printed " << d.printed << ", computed " << d.computed;
  EXPECT_EQ(corpus::count_cells(l.c.expected), 42u);  // 3 sets, 25 cells of u, 14 of v
}

// Negative control: with no blocks, the ascending HAMMING-PATH from u to x crosses dimension 3
// first (001011 -> 000011 -> 100011), not the printed 5 first, so the printed path needs a block.
TEST(MigrationFig2, WithoutBlocksAscendingDoesNotReproduceThePrintedUToXPath) {
  const Loaded& l = fig2();
  const auto params = fig2_params(l.ex, TieBreak::kAscending, l.k);
  const migration::Plan plan = migration::migrate(l.ex.inst, {}, params);
  const migration::MigrationPath* regular = nullptr;
  for (const auto& np : plan.nodes)
    if (np.u == l.ex.u)
      for (const auto& mp : np.paths)
        if (mp.kind == migration::PathKind::kRegularExtended) regular = &mp;
  ASSERT_NE(regular, nullptr);
  EXPECT_NE(regular->path, l.ex.u_second);
  EXPECT_FALSE(fig2_differences(l.ex, {}, params).empty());
  const Node x = printed_node(l.c.expected, "u", "x");
  const auto no_blocks = migration::hamming_path(l.ex.u, x, {}, TieBreak::kAscending);
  ASSERT_TRUE(no_blocks.has_value());
  EXPECT_EQ(no_blocks->to_string(), "001011:000011:100011");
}

}  // namespace
}  // namespace topocheck::smt
