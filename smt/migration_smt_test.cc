// The migration encodings (smt/migration_smt.h) against migration::f / g / h and against brute
// force: (1) the isomorphism proofs per n compared with exhaustive evaluation over every subcube
// pair, alpha, u and v (n <= 4), input by input for n <= 3, with a broken g and the non-paper bar
// readings as negative controls; (2) the completeness oracle against a brute force over every
// simple block-free path (n <= 3), on hand-made cases known both ways and on the procedure's plans.
// Suites: MigrationSmt (standard, proofs up to n = 5), MigrationSmtDeep (n = 7; ctest label deep).
#include "smt/migration_smt.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "migration/migration.h"
#include "migration/migration_checks.h"
#include "migration/migration_oracle.h"

namespace topocheck::smt {
namespace {

using migration::Alpha;
using migration::Bars;
using migration::Blocks;
using migration::Disjointness;
using migration::Instance;

Node N(const char* s) { return *parse_node(s); }

const claims::SolverLimits kLimits{0, 0};

// Every subcube of Q_n.
std::vector<Subcube> subcubes(int n) {
  std::vector<Subcube> out;
  const uint64_t all = (uint64_t{1} << n) - 1;
  for (uint64_t mask = 0; mask <= all; ++mask)
    for (uint64_t values = 0; values <= all; ++values)
      if ((values & mask) == 0) out.push_back(Subcube{mask, values, n});
  return out;
}

// Every (instance, alpha) of Q_n: equal dimensions, all alphas.
struct Case {
  Instance inst;
  Alpha alpha;
};
std::vector<Case> all_cases(int n) {
  std::vector<Case> out;
  const std::vector<Subcube> cubes = subcubes(n);
  for (const Subcube& S : cubes)
    for (const Subcube& T : cubes) {
      if (S.dimension() != T.dimension()) continue;
      auto inst = migration::make_instance(S, T);
      EXPECT_TRUE(inst.ok()) << S << " " << T;  // every equal-dimension pair is an instance
      if (!inst) continue;
      for (const Alpha& a : migration::all_alphas(*inst)) out.push_back(Case{*inst, a});
    }
  return out;
}

// Which properties fail on one case, by evaluating migration::f / g / h on every u, v.
std::set<IsoProperty> failing(const Case& c, Bars bars) {
  std::set<IsoProperty> out;
  const std::vector<Node> nodes = migration::nodes_of(c.inst.S);
  std::vector<Node> fs, gs;
  for (const Node& u : nodes) {
    fs.push_back(migration::f(c.inst, c.alpha, u, bars));
    gs.push_back(migration::g(c.inst, c.alpha, u, bars));
  }
  for (size_t a = 0; a < nodes.size(); ++a) {
    if (!c.inst.T.contains(fs[a])) out.insert(IsoProperty::kFMapsInto);
    if (!c.inst.T.contains(gs[a])) out.insert(IsoProperty::kGMapsInto);
    if (gs[a] != migration::h(c.inst, fs[a])) out.insert(IsoProperty::kGIsHOfF);
    for (size_t b = 0; b < nodes.size(); ++b) {
      if (a != b && fs[a] == fs[b]) out.insert(IsoProperty::kFInjective);
      if (a != b && gs[a] == gs[b]) out.insert(IsoProperty::kGInjective);
      const bool adj = hamming(nodes[a], nodes[b]) == 1;
      if (adj != (hamming(fs[a], fs[b]) == 1)) out.insert(IsoProperty::kFAdjacency);
      if (adj != (hamming(gs[a], gs[b]) == 1)) out.insert(IsoProperty::kGAdjacency);
    }
  }
  return out;
}

// What migration.h's algebra implies: every property holds, except g = h o f when f and g
// complement in the same case (then it fails as soon as beta >= 1, i.e. n >= 2).
bool expected_to_hold(int n, Bars bars, IsoProperty p) {
  if (p != IsoProperty::kGIsHOfF) return true;
  return bars.f_complements_on_equal != bars.g_complements_on_equal || n < 2;
}

TEST(MigrationSmt, SymbolicProofAgreesWithExhaustiveEvaluation) {
  for (int n = 1; n <= 4; ++n) {
    const std::vector<Case> cases = all_cases(n);
    for (Bars bars : migration::all_bars()) {
      std::set<IsoProperty> fails;
      for (const Case& c : cases)
        for (IsoProperty p : failing(c, bars)) fails.insert(p);
      for (IsoProperty p : kAllIsoProperties) {
        SCOPED_TRACE(fmt::format("n = {}, bars {}, {}", n, bars.to_string(), to_string(p)));
        EXPECT_EQ(fails.count(p) == 0, expected_to_hold(n, bars, p));
        for (IsoEncoding enc : {IsoEncoding::kSymbolic, IsoEncoding::kPerMasks}) {
          const IsoSmtResult r = prove_isomorphism_property(n, bars, p, kLimits, enc);
          ASSERT_NE(r.status, SmtStatus::kError) << r.reason;
          EXPECT_EQ(r.status == SmtStatus::kProved, fails.count(p) == 0) << to_string(enc);
          if (r.status == SmtStatus::kCounterexample) {
            ASSERT_TRUE(r.model.has_value());
            const Result<Violation> judged = judge_isomorphism_model(bars, p, *r.model);
            ASSERT_TRUE(judged.ok()) << judged.error().message;
            EXPECT_TRUE(judged->has_value()) << "model is no violation: " << r.model->S << " " << r.model->T;
          }
        }
      }
    }
  }
}

TEST(MigrationSmt, InstanceEncodingAgreesInputByInput) {
  // Every bar reading up to n = 2, the paper's at n = 3 (a Z3 context per instance: about 6 ms).
  for (int n = 1; n <= 3; ++n)
    for (const Case& c : all_cases(n))
      for (Bars bars : migration::all_bars()) {
        if (n == 3 && bars != Bars::paper()) continue;
        const std::set<IsoProperty> fails = failing(c, bars);
        for (IsoProperty p : kAllIsoProperties) {
          const IsoSmtResult r = prove_isomorphism_instance(c.inst, c.alpha, bars, p, kLimits);
          ASSERT_NE(r.status, SmtStatus::kError) << r.reason;
          EXPECT_EQ(r.status == SmtStatus::kProved, fails.count(p) == 0)
              << c.inst.S << " -> " << c.inst.T << " alpha " << c.alpha.to_string() << " bars " << bars.to_string()
              << " " << to_string(p);
          if (r.model) {
            const Result<Violation> judged = judge_isomorphism_model(bars, p, *r.model);
            ASSERT_TRUE(judged.ok()) << judged.error().message;
            EXPECT_TRUE(judged->has_value());
            EXPECT_EQ(r.model->S, c.inst.S);
            EXPECT_EQ(r.model->T, c.inst.T);
          }
        }
      }
}

// The broken g copies u on D(T)-D(S): as evaluated here, independently of the encoding.
Node broken_g(const Instance& inst, const Alpha& alpha, Node u, Bars bars) {
  const Node g = migration::g(inst, alpha, u, bars);
  return Node{(g.bits & ~inst.DTmS) | (u.bits & inst.DTmS), inst.n};
}

TEST(MigrationSmt, BrokenGIsRefutedAndItsModelsAreRealViolations) {
  for (int n = 2; n <= 5; ++n) {
    SCOPED_TRACE(fmt::format("n = {}", n));
    for (IsoEncoding enc : {IsoEncoding::kSymbolic, IsoEncoding::kPerMasks}) {
      // Still maps S into T.
      EXPECT_EQ(prove_isomorphism_property(n, Bars::paper(), IsoProperty::kGMapsInto, kLimits, enc,
                                           GEncoding::kBrokenNoComplement)
                    .status,
                SmtStatus::kProved);
      for (IsoProperty p : {IsoProperty::kGInjective, IsoProperty::kGAdjacency, IsoProperty::kGIsHOfF}) {
        const IsoSmtResult r =
            prove_isomorphism_property(n, Bars::paper(), p, kLimits, enc, GEncoding::kBrokenNoComplement);
        ASSERT_EQ(r.status, SmtStatus::kCounterexample) << to_string(p) << " " << to_string(enc);
        ASSERT_TRUE(r.model.has_value());
        const IsoModel& m = *r.model;
        const Instance inst = migration::make_instance(m.S, m.T).value();
        Alpha alpha{m.alpha};
        std::sort(alpha.map.begin(), alpha.map.end());
        const Node gu = broken_g(inst, alpha, m.u, Bars::paper()), gv = broken_g(inst, alpha, m.v, Bars::paper());
        switch (p) {
          case IsoProperty::kGInjective: EXPECT_TRUE(m.u != m.v && gu == gv); break;
          case IsoProperty::kGAdjacency: EXPECT_NE(hamming(m.u, m.v) == 1, hamming(gu, gv) == 1); break;
          default: EXPECT_NE(gu, migration::h(inst, migration::f(inst, alpha, m.u, Bars::paper())));
        }
        // The faithful g has no such violation there: the judge (migration::g) says so.
        const Result<Violation> judged = judge_isomorphism_model(Bars::paper(), p, m);
        ASSERT_TRUE(judged.ok());
        EXPECT_FALSE(judged->has_value()) << **judged;
      }
    }
  }
}

TEST(MigrationSmt, OnlyOppositeBarsGiveGEqualsHOfF) {
  for (int n = 2; n <= 5; ++n)
    for (Bars bars : migration::all_bars()) {
      SCOPED_TRACE(fmt::format("n = {}, bars {}", n, bars.to_string()));
      const auto r = prove_isomorphisms(n, bars, IsoProperty::kGIsHOfF, kLimits);
      ASSERT_TRUE(r.ok());
      if (bars.f_complements_on_equal != bars.g_complements_on_equal) {
        EXPECT_EQ(r->outcome, claims::Outcome::kHolds) << r->detail;
        continue;
      }
      ASSERT_EQ(r->outcome, claims::Outcome::kRefuted) << r->detail;
      ASSERT_TRUE(r->counterexample.has_value());
      // Decode the stored case from its text forms and re-check it with migration::f/g/h.
      const nlohmann::json& in = r->counterexample->input;
      const Instance inst =
          migration::parse_instance(in.at("S").get<std::string>(), in.at("T").get<std::string>()).value();
      const Alpha alpha = migration::parse_alpha(inst, in.at("alpha").get<std::string>()).value();
      const Node u = parse_node(in.at("u").get<std::string>(), n).value();
      EXPECT_TRUE(inst.S.contains(u));
      EXPECT_NE(migration::g(inst, alpha, u, bars), migration::h(inst, migration::f(inst, alpha, u, bars)));
      EXPECT_EQ(r->counterexample->witness.at("g_u").get<std::string>(),
                migration::g(inst, alpha, u, bars).to_string());
    }
}

TEST(MigrationSmt, ProvesEveryPropertyUpToFiveUnderEveryReading) {
  for (int n = 1; n <= 5; ++n)
    for (Bars bars : migration::all_bars())
      for (IsoProperty p : kAllIsoProperties) {
        const auto start = std::chrono::steady_clock::now();
        const auto r = prove_isomorphisms(n, bars, p, claims::SolverLimits{50'000'000, 0});
        ASSERT_TRUE(r.ok());
        EXPECT_EQ(r->outcome,
                  expected_to_hold(n, bars, p) ? claims::Outcome::kHolds : claims::Outcome::kRefuted)
            << n << " " << bars.to_string() << " " << to_string(p) << ": " << r->detail;
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (n == 5) std::printf("n = 5 %s %s: %.3f s\n", bars.to_string().c_str(), to_string(p).c_str(), s);
      }
}

TEST(MigrationSmt, RejectsNOutOfRange) {
  EXPECT_FALSE(prove_isomorphisms(0, Bars::paper(), IsoProperty::kFInjective, kLimits).ok());
  EXPECT_FALSE(prove_isomorphisms(kMigrationSmtMaxN + 1, Bars::paper(), IsoProperty::kFInjective, kLimits).ok());
}

TEST(MigrationSmt, TinyRlimitIsInconclusiveNeverHolds) {
  const auto r = prove_isomorphisms(5, Bars::paper(), IsoProperty::kGAdjacency, claims::SolverLimits{1, 0});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, claims::Outcome::kInconclusive) << r->detail;
}

// Symbolic under every bar reading; per-masks (6512 checks per property, 20-70 s each) under the
// paper's bars only.
TEST(MigrationSmtDeep, ProvesEveryPropertyAtSevenBothEncodings) {
  for (Bars bars : migration::all_bars())
    for (IsoProperty p : kAllIsoProperties)
      for (IsoEncoding enc : {IsoEncoding::kSymbolic, IsoEncoding::kPerMasks}) {
        if (enc == IsoEncoding::kPerMasks && bars != Bars::paper()) continue;
        const auto start = std::chrono::steady_clock::now();
        const IsoSmtResult r = prove_isomorphism_property(7, bars, p, kLimits, enc);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("n = 7 %s %s %s: %s, %.3f s, %llu rlimit, %d checks\n", bars.to_string().c_str(),
                    to_string(p).c_str(), to_string(enc).c_str(), to_string(r.status).c_str(), s,
                    static_cast<unsigned long long>(r.rlimit_used), r.checks);
        EXPECT_EQ(r.status == SmtStatus::kProved, expected_to_hold(7, bars, p));
        EXPECT_NE(r.status, SmtStatus::kUnknown);
      }
}

// ---------------------------------------------------------------------------------------------
// (2) The completeness oracle against brute force.

// Every simple block-free path s -> t in Q_n.
std::vector<Path> simple_paths(int n, Node s, Node t, const Blocks& blocks) {
  std::vector<Path> out;
  Path cur{{s}};
  std::vector<bool> seen(uint64_t{1} << n, false);
  seen[s.bits] = true;
  std::function<void(Node)> dfs = [&](Node a) {
    if (a == t) {
      out.push_back(cur);
      return;
    }
    for (int d = 0; d < n; ++d) {
      const Node b = a.flip(d);
      if (seen[b.bits] || migration::is_block_link(blocks, a, b)) continue;
      seen[b.bits] = true;
      cur.nodes.push_back(b);
      dfs(b);
      cur.nodes.pop_back();
      seen[b.bits] = false;
    }
  };
  dfs(s);
  return out;
}

// Brute force: can each demand (a node u, needing a path u -> g(u)) get one of its simple paths,
// all pairwise disjoint and disjoint from `fixed`? Demands of one node are listed together; their
// paths are chosen in ascending candidate order (they are interchangeable).
bool brute_force(const Instance& inst, const Alpha& alpha, Bars bars, const Blocks& blocks, Disjointness d,
                 const std::vector<Path>& fixed, const std::vector<Node>& demands) {
  std::vector<Path> paths;                  // every candidate of every node
  std::map<Node, std::vector<int>> of;      // node -> indices into paths
  for (const Node& u : demands)
    if (!of.count(u)) {
      std::vector<int>& mine = of[u];
      for (Path& p : simple_paths(inst.n, u, migration::g(inst, alpha, u, bars), blocks)) {
        bool clash = false;
        for (const Path& q : fixed) clash = clash || p == q || migration::check_disjoint({p, q}, d).has_value();
        if (clash) continue;
        mine.push_back(static_cast<int>(paths.size()));
        paths.push_back(std::move(p));
      }
    }
  // Pairwise compatibility by the naive checker, once.
  const size_t m = paths.size();
  std::vector<char> compatible(m * m);
  for (size_t a = 0; a < m; ++a)
    for (size_t b = 0; b < m; ++b)
      compatible[a * m + b] = paths[a] != paths[b] && !migration::check_disjoint({paths[a], paths[b]}, d);
  std::vector<int> chosen;           // indices into paths
  std::vector<size_t> position;      // index into of[demand] of each choice
  std::function<bool(size_t)> search = [&](size_t k) {
    if (k == demands.size()) return true;
    const std::vector<int>& mine = of[demands[k]];
    const size_t from = k > 0 && demands[k - 1] == demands[k] ? position[k - 1] : 0;
    for (size_t i = from; i < mine.size(); ++i) {
      bool clash = false;
      for (int q : chosen) clash = clash || !compatible[mine[i] * m + q];
      if (clash) continue;
      chosen.push_back(mine[i]);
      position.push_back(i);
      if (search(k + 1)) return true;
      chosen.pop_back();
      position.pop_back();
    }
    return false;
  };
  return search(0);
}

bool brute_force_plan(const migration::Plan& plan, CompletionMode mode, Disjointness d) {
  std::vector<Path> fixed;
  std::vector<Node> demands;
  for (const migration::NodePlan& np : plan.nodes) {
    const Node target = migration::g(plan.inst, plan.params.alpha, np.u, plan.params.bars);
    if (mode == CompletionMode::kOthersFixed)
      for (const auto& mp : np.paths) fixed.push_back(mp.path);
    if (target == np.u) continue;
    const size_t have = mode == CompletionMode::kOthersFixed ? np.paths.size() : 0;
    for (size_t k = have; k < 2; ++k) demands.push_back(np.u);
  }
  return brute_force(plan.inst, plan.params.alpha, plan.params.bars, plan.blocks, d, fixed, demands);
}

migration::Plan plan_of(const char* S, const char* T, const char* blocks) {
  const Instance inst = migration::parse_instance(S, T).value();
  const Blocks b = migration::parse_blocks(inst, blocks).value();
  return migration::migrate(inst, b, migration::default_params(inst));
}

// Section 4.2 with beta = 0: the specific node 000 reports its second path absent.
TEST(MigrationCompleteness, BlockedSecondPathIsAbsentUnderTheLinkReadings) {
  const migration::Plan plan = plan_of("000", "001", "01*,10*,11*");
  ASSERT_EQ(plan.nodes.size(), 1u);
  ASSERT_TRUE(plan.nodes[0].second_absent);
  for (Disjointness d : migration::kAllDisjointness)
    for (CompletionMode mode : {CompletionMode::kOthersFixed, CompletionMode::kJointly}) {
      SCOPED_TRACE(fmt::format("{} {}", migration::to_string(d), to_string(mode)));
      const CompletionResult r = decide_completion(plan, mode, d, kLimits);
      // Two copies of the single link 000 -> 001 are one path, under every reading (the plan
      // checkers and the BFS oracle say the same).
      EXPECT_EQ(r.answer, Existence::kAbsent) << r.reason;
      EXPECT_EQ(r.answer == Existence::kExists, brute_force_plan(plan, mode, d));
    }
}

TEST(MigrationCompleteness, WithoutBlocksTheAbsentSecondPathExists) {
  const migration::Plan plan = plan_of("000", "001", "");
  ASSERT_TRUE(plan.nodes[0].second_absent);
  for (Disjointness d : migration::kAllDisjointness) {
    const CompletionResult r = decide_completion(plan, CompletionMode::kOthersFixed, d, kLimits);
    ASSERT_EQ(r.answer, Existence::kExists) << r.reason;
    ASSERT_EQ(r.paths.size(), 1u);
    EXPECT_EQ(r.paths[0].u, N("000"));
    EXPECT_EQ(r.paths[0].path.back(), N("001"));
    if (d != Disjointness::kNode) {
      EXPECT_GE(r.paths[0].path.length(), 3);
    }
  }
}

TEST(MigrationCompleteness, ARemovedPathOfACompletePlanCanBeFoundAgain) {
  migration::Plan plan = plan_of("0010**", "1*0*00", "");
  ASSERT_FALSE(migration::check_plan_complete(plan).has_value());
  for (Disjointness d : migration::kAllDisjointness) {
    if (migration::check_plan_all_disjoint(plan, d) || migration::check_plan_pairs_disjoint(plan, d)) continue;
    migration::Plan cut = plan;
    cut.nodes[1].paths.pop_back();
    cut.nodes[2].paths.clear();
    const CompletionResult r = decide_completion(cut, CompletionMode::kOthersFixed, d, kLimits);
    EXPECT_EQ(r.commodities, 3);
    EXPECT_EQ(r.answer, Existence::kExists) << migration::to_string(d) << ": " << r.reason;
    EXPECT_EQ(r.paths.size(), 3u);
  }
}

TEST(MigrationCompleteness, NothingMissingNeedsNoSolver) {
  const migration::Plan plan = plan_of("0010**", "1*0*00", "");
  const CompletionResult r = decide_completion(plan, CompletionMode::kOthersFixed, Disjointness::kLink, kLimits);
  EXPECT_EQ(r.answer, Existence::kExists);
  EXPECT_EQ(r.commodities, 0);
}

// A decoded model is re-judged: check_completion rejects a path through a block link, a path
// sharing a link with a fixed one, and a path that does not end at g(u).
TEST(MigrationCompleteness, CheckCompletionCatchesBadPaths) {
  const Instance inst = migration::parse_instance("000", "001").value();
  const Alpha alpha = migration::identity_alpha(inst);
  const Blocks blocks = migration::parse_blocks(inst, "01*").value();
  const SourcedPath direct{N("000"), *parse_path("000:001")};
  const SourcedPath via_block{N("000"), *parse_path("000:010:011:001")};
  const SourcedPath around{N("000"), *parse_path("000:100:101:001")};
  const SourcedPath short_of{N("000"), *parse_path("000:100:101")};
  EXPECT_TRUE(check_completion(inst, alpha, Bars::paper(), blocks, Disjointness::kLink, {direct}, {via_block}));
  EXPECT_FALSE(check_completion(inst, alpha, Bars::paper(), blocks, Disjointness::kLink, {direct}, {around}));
  EXPECT_TRUE(check_completion(inst, alpha, Bars::paper(), blocks, Disjointness::kLink, {direct}, {direct}));
  EXPECT_FALSE(check_completion(inst, alpha, Bars::paper(), blocks, Disjointness::kNode, {direct}, {direct}));
  EXPECT_TRUE(check_completion(inst, alpha, Bars::paper(), blocks, Disjointness::kLink, {}, {short_of}));
}

// Fig. 2 (n = 6) with the block partition stored in the corpus: a plan that is complete and
// disjoint under a reading is itself a witness, so "jointly" must say exists there; and with every
// path of u = 001011 removed, "others fixed" must find two again. Prints the cost.
TEST(MigrationCompleteness, Fig2ScaleJointlyAndOthersFixed) {
  const Instance inst = migration::parse_instance("0010**", "1*0*00").value();
  migration::Params params = migration::default_params(inst);
  params.alpha = migration::parse_alpha(inst, "0:2,1:4").value();
  params.ext_sequence = {2, 4};
  params.k = 5;
  const Blocks blocks = migration::parse_blocks(inst, "01****,1*1***,*00*1*,000*0*,0011**,1*0*01,110*1*").value();
  const migration::Plan plan = migration::migrate(inst, blocks, params);
  for (Disjointness d : migration::kAllDisjointness) {
    const bool witnessed = !migration::check_plan_complete(plan) && !migration::check_plan_all_disjoint(plan, d) &&
                           !migration::check_plan_pairs_disjoint(plan, d) && !migration::check_plan_no_block_link(plan);
    auto start = std::chrono::steady_clock::now();
    const CompletionResult joint = decide_completion(plan, CompletionMode::kJointly, d, kLimits);
    const double joint_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(joint.answer == Existence::kExists || joint.answer == Existence::kAbsent) << joint.reason;
    if (witnessed) {
      EXPECT_EQ(joint.answer, Existence::kExists) << migration::to_string(d);
    }
    migration::Plan cut = plan;
    for (auto& np : cut.nodes)
      if (np.u == N("001011")) np.paths.clear();
    start = std::chrono::steady_clock::now();
    const CompletionResult fixed = decide_completion(cut, CompletionMode::kOthersFixed, d, kLimits);
    const double fixed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (witnessed) {
      EXPECT_EQ(fixed.answer, Existence::kExists) << migration::to_string(d);
    }
    std::printf("Fig. 2, %s: plan %s; jointly %s (%d paths, %.2f s, %llu rlimit); 001011 re-found %s (%.2f s)\n",
                migration::to_string(d).c_str(), witnessed ? "complete and disjoint" : "not a witness",
                to_string(joint.answer).c_str(), joint.commodities, joint_s,
                static_cast<unsigned long long>(joint.rlimit_used), to_string(fixed.answer).c_str(), fixed_s);
  }
}

// Every block packing of Q_n (pairwise disjoint subcubes of dimension >= 1 avoiding S and T; a
// single node has no link), or a seeded sample of at most `cap` of them, the empty one first.
std::vector<Blocks> packings(const Instance& inst, size_t cap, std::mt19937_64& rng) {
  std::vector<Subcube> candidates;
  for (const Subcube& c : subcubes(inst.n))
    if (c.dimension() >= 1 && !migration::validate_blocks(inst, {c})) candidates.push_back(c);
  std::vector<Blocks> all;
  Blocks cur;
  std::function<void(size_t)> grow = [&](size_t from) {
    all.push_back(cur);
    for (size_t k = from; k < candidates.size(); ++k) {
      cur.push_back(candidates[k]);
      if (!migration::validate_blocks(inst, cur)) grow(k + 1);
      cur.pop_back();
    }
  };
  grow(0);
  if (all.size() <= cap) return all;
  std::shuffle(all.begin() + 1, all.end(), rng);
  all.resize(cap);
  return all;
}

TEST(MigrationCompleteness, AgreesWithBruteForceUpToThree) {
  std::mt19937_64 rng(20240605);
  int compared = 0, absent = 0, differ_from_plan = 0, single_checked = 0, duplicate_single_links = 0;
  for (int n = 1; n <= 3; ++n)
    for (const Case& c : all_cases(n)) {
      if (c.inst.S.dimension() > 2) continue;
      for (const Blocks& blocks : packings(c.inst, n <= 2 ? 64 : 3, rng)) {
        migration::Params params = migration::default_params(c.inst);
        params.alpha = c.alpha;
        const migration::Plan plan = migration::migrate(c.inst, blocks, params);
        const bool missing = migration::check_plan_complete(plan).has_value();
        for (Disjointness d : migration::kAllDisjointness)
          for (CompletionMode mode : {CompletionMode::kOthersFixed, CompletionMode::kJointly}) {
            if (mode == CompletionMode::kOthersFixed && !missing) continue;
            const CompletionResult r = decide_completion(plan, mode, d, kLimits);
            ASSERT_TRUE(r.answer == Existence::kExists || r.answer == Existence::kAbsent) << r.reason;
            const bool expected = brute_force_plan(plan, mode, d);
            ++compared;
            absent += r.answer == Existence::kAbsent;
            differ_from_plan += missing && r.answer == Existence::kExists;
            EXPECT_EQ(r.answer == Existence::kExists, expected)
                << c.inst.S << " -> " << c.inst.T << " alpha " << c.alpha.to_string() << " blocks "
                << migration::blocks_to_string(blocks) << " " << migration::to_string(d) << " " << to_string(mode);
            // One missing path with the others fixed: Boost's BFS oracle answers the same question.
            if (mode == CompletionMode::kOthersFixed && r.commodities == 1) {
              for (size_t i = 0; i < plan.nodes.size(); ++i)
                if (plan.nodes[i].paths.size() == 1 && plan.nodes[i].u != plan.nodes[i].target) {
                  // Both refuse a second copy of the single link u -> g(u) now; none may occur.
                  const bool duplicate_link = d == Disjointness::kNode && r.answer == Existence::kExists &&
                                              r.paths[0].path == plan.nodes[i].paths[0].path &&
                                              r.paths[0].path.length() == 1;
                  if (duplicate_link) {
                    ++duplicate_single_links;
                    continue;
                  }
                  EXPECT_EQ(migration::second_path_with_others_fixed(plan, i, d).has_value(),
                            r.answer == Existence::kExists)
                      << c.inst.S << " -> " << c.inst.T << " blocks " << migration::blocks_to_string(blocks) << " "
                      << migration::to_string(d) << " node " << plan.nodes[i].u << " found "
                      << (r.paths.empty() ? std::string("-") : r.paths[0].path.to_string());
                  ++single_checked;
                }
            }
          }
      }
    }
  std::printf("completeness oracle: %d decisions compared with brute force (%d absent; %d say exists for a plan with a "
              "missing path), %d against the BFS oracle (%d node-reading duplicate single links "
              "the BFS oracle rejects)\n",
              compared, absent, differ_from_plan, single_checked, duplicate_single_links);
  EXPECT_EQ(duplicate_single_links, 0);
  EXPECT_GT(absent, 0);
  EXPECT_GT(compared - absent, 0);
}

}  // namespace
}  // namespace topocheck::smt
