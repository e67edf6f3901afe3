// Unit tests of the Metacube topology, routing and Algorithm 4. The paper's printed values appear
// here as test data only (the full tables live in corpus/metacube/examples/).
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/checks.h"
#include "metacube/disjoint.h"
#include "metacube/metacube.h"
#include "metacube/metacube_checks.h"
#include "metacube/routing.h"

namespace topocheck::metacube {
namespace {

Metacube MC(int k, int m) { return *Metacube::make(k, m); }
Node A(const Metacube& mc, const std::string& text) {
  auto n = mc.parse_fields(text);
  EXPECT_TRUE(n.ok()) << text;
  return *n;
}
std::vector<std::string> texts(const Path& p) {
  std::vector<std::string> out;
  for (const Node& n : p.nodes) out.push_back(n.to_string());
  return out;
}

TEST(MetacubeMake, RejectsOutOfRangeParameters) {
  EXPECT_FALSE(Metacube::make(-1, 2).ok());
  EXPECT_FALSE(Metacube::make(2, 0).ok());
  // m above 63 is named as such, before the address width is.
  EXPECT_EQ(Metacube::make(0, 64).error().message, "metacube cluster dimension m = 64 is out of range 1..63");
  EXPECT_FALSE(Metacube::make(3, 8).ok());  // 8*8+3 = 67 bits
  EXPECT_TRUE(Metacube::make(3, 7).ok());   // 59 bits
  EXPECT_TRUE(Metacube::make(5, 1).ok());   // 37 bits
  EXPECT_FALSE(Metacube::make(6, 1).ok());
  EXPECT_EQ(MC(2, 3).width(), 14);
  EXPECT_EQ(MC(3, 3).num_nodes(), uint64_t{1} << 27);
}

TEST(MetacubeTopology, NeighbourExampleOfMC23) {
  const Metacube mc = MC(2, 3);
  const Node u = A(mc, "(01, 111, 101, 110, 000)");
  EXPECT_EQ(mc.format_fields(u), "(01, 111, 101, 110, 000)");
  EXPECT_EQ(mc.format_fields(mc.neighbor(u, 2)), "(01, 111, 101, 111, 000)");
  EXPECT_EQ(mc.format_fields(mc.neighbor(u, 3)), "(01, 111, 101, 100, 000)");
  EXPECT_EQ(mc.format_fields(mc.neighbor(u, 4)), "(01, 111, 101, 010, 000)");
  EXPECT_EQ(mc.format_fields(mc.neighbor(u, 0)), "(00, 111, 101, 110, 000)");
  EXPECT_EQ(mc.format_fields(mc.neighbor(u, 1)), "(11, 111, 101, 110, 000)");
}

// A paper example (Example 1, node 56, Tables 2-5), read from its case in corpus/metacube/examples/:
// the paper's printed data lives there only (TOPOCHECK_CORPUS is set for every test).
nlohmann::json paper_case(const std::string& name) {
  const char* dir = std::getenv("TOPOCHECK_CORPUS");
  std::ifstream in(std::string(dir ? dir : "corpus") + "/metacube/examples/" + name + ".json");
  return nlohmann::json::parse(in);
}
std::pair<std::string, std::string> table_pair(const std::string& table) {
  const nlohmann::json j = paper_case(table);
  return {j.at("input").at("s").get<std::string>(), j.at("input").at("t").get<std::string>()};
}
// Path `i` of a table as printed.
std::vector<std::string> printed_path(const std::string& table, size_t i) {
  return paper_case(table).at("expected").at("paths").at(i).get<std::vector<std::string>>();
}

TEST(MetacubeTopology, NodeFiftySixOfClassOneWithTheFactorM) {
  const Metacube mc = MC(2, 2);
  const nlohmann::json example = paper_case("node56");
  const Node u = A(mc, example.at("input").at("u").get<std::string>());
  EXPECT_EQ(mc.class_of(u), 1);
  EXPECT_EQ(mc.node_id(u) + mc.cluster_id(u), 56u);
  EXPECT_EQ(mc.cluster_id(u), 48u);
  std::vector<uint64_t> cluster;
  for (uint64_t v = 0; v < 4; ++v) {
    const Node w = mc.with_field(u, 1, v);
    cluster.push_back(mc.node_id(w) + mc.cluster_id(w));
  }
  EXPECT_THAT(cluster, testing::ElementsAre(48, 52, 56, 60));
  // The OCR'd "M_u[c_u] x 2^{c_u}" taken literally (no factor m) gives another number.
  const uint64_t literal = mc.field(u, 1) * 2 + mc.field(u, 2) * 4 + mc.field(u, 0) * 1 + mc.field(u, 3) * 8;
  EXPECT_NE(literal, 56u);
}

TEST(MetacubeTopology, EdgesAreCrossOrCubeEdgesOfTheOwnClassField) {
  const Metacube mc = MC(2, 2);
  const Node u = A(mc, "(00, 00, 00, 00, 00)").flip(8);  // class 1: cube-edges flip M[1] (bits 2, 3)
  EXPECT_EQ(mc.edge_dimension(u, u.flip(2)), 2);
  EXPECT_EQ(mc.edge_dimension(u, u.flip(3)), 3);
  EXPECT_EQ(mc.edge_dimension(u, u.flip(0)), std::nullopt);  // M[0] is not u's field
  EXPECT_EQ(mc.edge_dimension(u, u.flip(9)), 1);
  EXPECT_EQ(mc.edge_dimension(u, u.flip(8)), 0);
  for (uint64_t b = 0; b < mc.num_nodes(); ++b) {
    const Node x = mc.node_at(b);
    for (const Node& y : mc.neighbors(x)) {
      ASSERT_TRUE(mc.is_edge(x, y));
      ASSERT_TRUE(mc.is_edge(y, x));  // undirected
    }
  }
}


// is_edge is written without branches for core's per-hop checks; it must say exactly what
// edge_dimension (the worded definition: one differing bit, a class bit or a bit of M[c_u]) and
// neighbors say, on every ordered pair of the small metacubes, including pairs with a node that is
// not an address (a bit above the address, or the wrong width). hop_defects (core's per-hop word)
// is zero exactly on the edges to an address.
TEST(MetacubeTopology, IsEdgeAgreesWithEdgeDimensionAndNeighboursOnEveryPair) {
  for (const auto& [k, m] : {std::pair{0, 1}, std::pair{0, 3}, std::pair{1, 1}, std::pair{1, 2}, std::pair{2, 1},
                             std::pair{2, 2}, std::pair{3, 1}}) {
    const Metacube mc = MC(k, m);
    const int n = mc.width();
    std::vector<Node> nodes;
    for (uint64_t b = 0; b < mc.num_nodes(); ++b) nodes.push_back(mc.node_at(b));
    // Not addresses: a bit above the address (alone, and with a class that would select a field
    // past M[h-1]), and the right bits at the wrong width.
    nodes.push_back(Node{uint64_t{1} << n, n});
    nodes.push_back(Node{(uint64_t{1} << n) | (uint64_t{1} << (n - 1)), n});
    nodes.push_back(Node{~uint64_t{0} >> 1, n});
    nodes.push_back(Node{uint64_t{1} << 63, n});  // bit 63: hop_defects reads diff = 0 from it
    nodes.push_back(Node{~uint64_t{0}, n});
    nodes.push_back(Node{1, n + 1});
    nodes.push_back(Node{0, n - 1});
    int edges = 0;
    for (const Node& u : nodes)
      for (const Node& v : nodes) {
        const bool worded = mc.edge_dimension(u, v).has_value();
        ASSERT_EQ(mc.is_edge(u, v), worded) << mc.name() << " " << u << " " << v;
        ASSERT_EQ(mc.hop_defects(u, v) == 0, mc.contains(v) && worded) << mc.name() << " " << u << " " << v;
        if (mc.contains(u)) {
          const auto around = mc.neighbors(u);
          ASSERT_EQ(worded, std::find(around.begin(), around.end(), v) != around.end()) << mc.name() << " " << u << " " << v;
        }
        edges += worded;
      }
    EXPECT_EQ(edges, static_cast<int>(mc.num_nodes()) * mc.degree()) << mc.name();
  }
}
TEST(MetacubeTopology, ParseFieldsNamesTheBadField) {
  const Metacube mc = MC(2, 3);
  auto bad = mc.parse_fields("(01, 111, 10, 110, 000)");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, testing::HasSubstr("field 3 is '10'"));
  EXPECT_FALSE(mc.parse_fields("(01, 111, 101, 110)").ok());
  // The fielded form needs both parentheses.
  for (const char* text : {"01, 111, 101, 110, 000)", "(01, 111, 101, 110, 000", "01,111,101,110,000"}) {
    auto half = mc.parse_fields(text);
    ASSERT_FALSE(half.ok()) << text;
    EXPECT_THAT(half.error().message, testing::HasSubstr("expected (class, M[h-1], ..., M[0])")) << text;
  }
  EXPECT_TRUE(mc.parse_fields(A(mc, "(01, 111, 101, 110, 000)").to_string()).ok());  // the bit-string form
}

TEST(ClassWalks, GrayCycleAndDirection) {
  EXPECT_THAT(hamiltonian_cycle(2, 0, 0), testing::ElementsAre(0, 1, 3, 2, 0));
  EXPECT_THAT(hamiltonian_cycle(2, 0, 1), testing::ElementsAre(0, 2, 3, 1, 0));
  EXPECT_THAT(hamiltonian_cycle(1, 0, 0), testing::ElementsAre(0, 1, 0));
  for (int k = 1; k <= 5; ++k)
    for (int start = 0; start < (1 << k); ++start)
      for (int a = 0; a < (1 << k); ++a) {
        const auto w = weak_hamiltonian_path(k, start, a);
        ASSERT_EQ(w.front(), start);
        ASSERT_EQ(w.back(), a);
        ASSERT_LE(static_cast<int>(w.size()) - 1, 1 << k);
        std::vector<bool> seen(static_cast<size_t>(1 << k));
        for (size_t q = 0; q < w.size(); ++q) {
          seen[static_cast<size_t>(w[q])] = true;
          if (q > 0) {
            ASSERT_EQ(__builtin_popcount(static_cast<unsigned>(w[q] ^ w[q - 1])), 1);
          }
        }
        for (bool b : seen) ASSERT_TRUE(b);
      }
}

TEST(Algorithm1, ReproducesExampleOne) {
  const Metacube mc = MC(2, 3);
  const nlohmann::json example = paper_case("example1");
  const Path p = p1(mc, A(mc, example.at("input").at("s").get<std::string>()),
                    A(mc, example.at("input").at("t").get<std::string>()));
  EXPECT_EQ(texts(p), example.at("expected").at("path").get<std::vector<std::string>>());
}

TEST(Algorithm4, CaseSelection) {
  const Metacube mc = MC(2, 2);
  const auto [s2, t2] = table_pair("table2");
  EXPECT_EQ(alg4_case(mc, A(mc, s2), A(mc, t2)), 0);
  const auto [s3, t3] = table_pair("table3");
  const auto [s4, t4] = table_pair("table4");
  EXPECT_EQ(alg4_case(mc, A(mc, s3), A(mc, t3)), 1);
  EXPECT_EQ(alg4_case(mc, A(mc, s4), A(mc, t4)), 2);
}

TEST(Algorithm4, ReproducesTableTwoColumnThree) {
  const Metacube mc = MC(2, 2);
  const auto [s2, t2] = table_pair("table2");
  const auto r = metacube_disjoint_paths(mc, A(mc, s2), A(mc, t2));
  EXPECT_EQ(texts(r.paths[3]), printed_path("table2", 3));
  EXPECT_EQ(check_thm2_disjoint(mc, A(mc, s2), A(mc, t2), r.paths), std::nullopt);
}

// ---------------------------------------------------------------------------------------------
// Readings the tables pin down: the other meaning fails to reproduce the printed path.

Alg4Result run(const Metacube& mc, const char* s, const char* t, const Alg4Options& o) {
  return metacube_disjoint_paths(mc, A(mc, s), A(mc, t), o);
}

TEST(Algorithm4Readings, TableTwoPinsTheCaseZeroHopToDimensionKPlusI) {
  const Metacube mc = MC(2, 2);
  Alg4Options printed;
  printed.case0_hop = Case0Hop::kPrinted;  // s^(i,k) as the text prints it
  const auto [s2, t2] = table_pair("table2");
  const std::vector<std::string> p1_printed = printed_path("table2", 1);
  EXPECT_EQ(texts(run(mc, s2.c_str(), t2.c_str(), {}).paths[1])[2], p1_printed[2]);
  EXPECT_NE(texts(run(mc, s2.c_str(), t2.c_str(), printed).paths[1])[2], p1_printed[2]);
}

TEST(Algorithm4Readings, TableFivePinsTheLocalClassTailToLowestBitFirst) {
  const Metacube mc = MC(2, 2);
  Alg4Options printed;
  printed.local_class_path = LocalClassPath::kPrintedP3Zero;  // p3(k, 0, w_i, t^(i)) as printed
  const auto [s5, t5] = table_pair("table5");
  EXPECT_EQ(texts(run(mc, s5.c_str(), t5.c_str(), {}).paths[2]), printed_path("table5", 2));
  const std::vector<std::string> other = texts(run(mc, s5.c_str(), t5.c_str(), printed).paths[2]);
  EXPECT_EQ(other.size(), printed_path("table5", 2).size());  // as short, through another node
  EXPECT_NE(other, printed_path("table5", 2));
}

TEST(Algorithm4Readings, TableFivePinsAnEmptySegmentWhenSiEqualsWi) {
  const Metacube mc = MC(2, 2);
  Alg4Options literal;
  literal.empty_when_equal = false;
  const auto [s5, t5] = table_pair("table5");
  EXPECT_EQ(run(mc, s5.c_str(), t5.c_str(), {}).paths[2].length(), 4);
  const Path detour = run(mc, s5.c_str(), t5.c_str(), literal).paths[2];
  EXPECT_GT(detour.length(), 4);
  EXPECT_NE(check_simple(detour), std::nullopt);  // it returns to s^(2)
}

TEST(Algorithm4Readings, TableFourPinsPjEndingAtT) {
  const Metacube mc = MC(2, 2);
  Alg4Options printed;
  printed.case2_pj_ends_at_t = false;
  const auto [s4, t4] = table_pair("table4");
  std::string t4_0 = t4;  // t^(0): t with class bit 0 (the class field's last character) flipped
  t4_0[1] = t4_0[1] == '0' ? '1' : '0';
  EXPECT_EQ(texts(run(mc, s4.c_str(), t4.c_str(), {}).paths[0]).back(), t4);
  EXPECT_EQ(texts(run(mc, s4.c_str(), t4.c_str(), printed).paths[0]).back(), t4_0);
}

// ---------------------------------------------------------------------------------------------
// Negative controls: on Table 3's pair the paper reading passes Theorem 2; each broken variant
// is rejected by the shared checkers.

// check_alg4's verdict under `reading` on Table 3's pair of MC(2, 2).
Violation table3_verdict(const char* reading, Thm2Part part) {
  const Metacube mc = MC(2, 2);
  const auto [s3, t3] = table_pair("table3");
  return check_alg4(mc, A(mc, s3), A(mc, t3), *options_for_reading(reading), part);
}

TEST(Algorithm4NegativeControls, PaperPassesOnTableThreesPair) {
  const Metacube mc = MC(2, 2);
  const auto [s3, t3] = table_pair("table3");
  const Node s = A(mc, s3), t = A(mc, t3);
  EXPECT_EQ(check_alg4(mc, s, t, *options_for_reading("paper"), Thm2Part::kDisjoint), std::nullopt);
  EXPECT_EQ(check_alg4(mc, s, t, *options_for_reading("paper"), Thm2Part::kFaultTolerance), std::nullopt);
}

TEST(Algorithm4NegativeControls, WithoutTheExchangeTwoPathsMeet) {
  EXPECT_THAT(table3_verdict("broken-no-exchange", Thm2Part::kDisjoint),
              testing::Optional(testing::HasSubstr("share node")));
}

TEST(Algorithm4NegativeControls, IgnoringTheKeyBitMakesTwoPathsMeet) {
  EXPECT_THAT(table3_verdict("broken-ignore-key", Thm2Part::kDisjoint),
              testing::Optional(testing::HasSubstr("share node")));
}

TEST(Algorithm4NegativeControls, FaultToleranceCheckFindsTheHittingSet) {
  EXPECT_THAT(table3_verdict("broken-no-exchange", Thm2Part::kFaultTolerance),
              testing::Optional(testing::HasSubstr("meet every constructed path")));
}

TEST(Algorithm4NegativeControls, LengthChecksRejectAnOverlongPath) {
  const Metacube mc = MC(2, 2);
  const auto [s2, t2] = table_pair("table2");
  const Node s = A(mc, s2), t = A(mc, t2);
  auto paths = metacube_disjoint_paths(mc, s, t).paths;
  EXPECT_EQ(check_thm2_case_bound(mc, s, t, paths), std::nullopt);
  // Replace P_2 (s : t) by a back-and-forth walk of 15 hops: > H + 6 = 7 and > H + 2^k + m + 5 = 12.
  Path& p = paths[2];
  p.nodes = {s};
  Node u = s;
  for (int r = 0; r < 4; ++r) {
    p.nodes.push_back(mc.neighbor(u, 0));
    p.nodes.push_back(u);
  }
  for (int r = 0; r < 3; ++r) {
    p.nodes.push_back(mc.neighbor(u, 1));
    p.nodes.push_back(u);
  }
  p.nodes.push_back(t);
  // Each message names the overlong path, its length and the bound it exceeds.
  EXPECT_THAT(check_thm2_case_bound(mc, s, t, paths),
              testing::Optional(testing::StartsWith("P_2 has length 15 > the case-")));
  EXPECT_THAT(check_thm2_length(mc, s, t, paths),
              testing::Optional(testing::StartsWith("P_2 has length 15 > H(s,t) + 2^k + m + 5 = ")));
  EXPECT_NE(check_thm2_valid(mc, s, t, paths), std::nullopt);  // not simple
}

// The case bounds as Section 4 states them, on every pair of MC(2,1): case 0, H + 6; case 1,
// H + 2^k + 4; otherwise H + 2^k + 4 + z_max, with z_max = d + 1 when the class distance d is below
// k and d - 1 when it is k.
// describe names every field that differs from the default, so that two choices never print alike.
// The corrected construction, judged by the same checkers as every reading: valid, disjoint and
// within Theorem 2's bound on every pair of MC(1,2), MC(1,3), MC(2,2) with s's M fields zero, and
// on every pair of MC(1,1) and MC(2,1) (m = 1: the rules of lamplighter.h). The sweeps of the
// claims cover the rest of the range.
TEST(Algorithm4Corrected, HoldsOnEveryPairOfTheSmallMetacubes) {
  const Alg4Options o = *options_for_reading("corrected");
  for (auto [k, m] : {std::pair{1, 2}, {1, 3}, {2, 2}, {1, 1}, {2, 1}}) {
    const Metacube mc = MC(k, m);
    const uint64_t fields = m == 1 ? 1 : uint64_t{1} << (m << k);
    for (uint64_t sb = 0; sb < mc.num_nodes(); sb += fields)
      for (uint64_t tb = 0; tb < mc.num_nodes(); ++tb) {
        if (tb == sb) continue;
        const Node s{sb, mc.width()}, t{tb, mc.width()};
        for (Thm2Part part : {Thm2Part::kValid, Thm2Part::kDisjoint, Thm2Part::kLength})
          ASSERT_EQ(check_alg4(mc, s, t, o, part), std::nullopt) << mc.name() << " " << s << " " << t;
      }
  }
}

// The m = 1 rules replace the printed cases: without them (the four corrections alone) MC(1,1)
// fails at once (s = 000, t = 011: a path repeats a node).
TEST(Algorithm4Corrected, TheMOneRulesAreNeeded) {
  const Metacube mc = MC(1, 1);
  Alg4Options o = *options_for_reading("corrected");
  EXPECT_EQ(check_alg4(mc, A(mc, "000"), A(mc, "011"), o, Thm2Part::kValid), std::nullopt);
  o.lamplighter = false;
  EXPECT_NE(check_alg4(mc, A(mc, "000"), A(mc, "011"), o, Thm2Part::kValid), std::nullopt);
}

// Each correction is needed: without it the construction fails, in the smallest metacube where it
// does (found by tools/alg4_classify; the failure docs/findings/metacube.md describes for the
// change). The pairs are the smallest in sweep order, except w_is_s's, whose smallest pair has a
// target printed in Table 4 (paper outputs stay in corpus/): another failing pair of that kind.
TEST(Algorithm4Corrected, EveryCorrectionIsNeeded) {
  struct Case {
    bool Alg4Options::*flag;
    int k, m;
    const char *s, *t;
    Thm2Part part;  // the first part of Theorem 2 it fails
  };
  const Case cases[] = {
      // P_0 = s : s^(0) = t ... back to s: P_j's printed walk p1(s^(j), t^(j)) when s^(j) = t.
      {&Alg4Options::fix_pj, 1, 2, "00000", "10000", Thm2Part::kValid},
      // P_0's key hop and walk around HC_0 change nothing and come back through s^(0,y).
      {&Alg4Options::case1_cluster, 1, 2, "00000", "00100", Thm2Part::kValid},
      // P_1's hop l and walk to w_1 in s's own cluster come back through s^(1).
      {&Alg4Options::local_in_cluster, 1, 2, "00000", "10010", Thm2Part::kValid},
      // P_2's w is s itself (s and t differ, outside the class field, in one bit of M[c_t]): its
      // walk to w comes back through s^(2).
      {&Alg4Options::w_is_s, 2, 2, "0100101001", "1000111001", Thm2Part::kValid},
  };
  for (const Case& c : cases) {
    const Metacube mc = MC(c.k, c.m);
    const Node s = A(mc, c.s), t = A(mc, c.t);
    Alg4Options o = *options_for_reading("corrected");
    EXPECT_EQ(check_alg4(mc, s, t, o, c.part), std::nullopt) << mc.name() << " " << s << " " << t;
    o.*c.flag = false;
    EXPECT_NE(check_alg4(mc, s, t, o, c.part), std::nullopt) << mc.name() << " " << s << " " << t;
  }
}

TEST(Algorithm4Choices, DescribeNamesEveryField) {
  EXPECT_EQ(describe(Alg4Options{}),
            "hc_order=rotate local_hc=0 exchange=lowest default_key=0 key_compare=rule case0_p3_n=m");
  Alg4Options o;
  o.hc_order = CycleOrder::kReverse;
  o.local_hc = 1;
  o.exchange = ExchangeChoice::kNextCyclic;
  o.default_key = 1;
  o.key_compare = KeyCompare::kExample4;
  o.case0_p3_n = 2;
  o.case0_hop = Case0Hop::kPrinted;
  o.local_class_path = LocalClassPath::kPrintedP3Zero;
  o.empty_when_equal = false;
  o.case2_pj_ends_at_t = false;
  o.repair = true;
  o.fix_pj = true;
  o.case1_cluster = true;
  o.local_in_cluster = true;
  o.w_is_s = true;
  o.broken_no_exchange = true;
  o.broken_ignore_key = true;
  EXPECT_EQ(describe(o),
            "hc_order=reverse local_hc=1 exchange=next default_key=1 key_compare=example4 case0_p3_n=2 case0_hop=k "
            "local_class_path=p3(k,0) literal_detour pj_stops_at_tj repaired fix_pj case1_cluster local_in_cluster "
            "w_is_s BROKEN_no_exchange BROKEN_ignore_key");
}

TEST(Algorithm4CaseBound, FollowsTheStatedFormulaOnEveryPair) {
  const Metacube mc = MC(2, 1);
  int seen[4] = {0, 0, 0, 0};  // case 0, case 1, case 2 with d < k, case 2 with d = k
  for (uint64_t a = 0; a < mc.num_nodes(); ++a)
    for (uint64_t b = 0; b < mc.num_nodes(); ++b) {
      if (a == b) continue;
      const Node s = mc.node_at(a), t = mc.node_at(b);
      const int H = hamming(s, t), d = mc.class_distance(s, t), c = alg4_case(mc, s, t);
      const int want = c == 0 ? H + 6 : c == 1 ? H + 4 + 4 : H + 4 + 4 + (d < 2 ? d + 1 : d - 1);
      ASSERT_EQ(case_bound(mc, s, t), want) << "case " << c << ", d = " << d;
      ++seen[c == 0 ? 0 : c == 1 ? 1 : d < 2 ? 2 : 3];
    }
  for (int n : seen) EXPECT_GT(n, 0);
}

TEST(Algorithm4Choices, EveryChoiceIsEnumerated) {
  EXPECT_EQ(all_choices(MC(2, 2), {}).size(), 4u);   // local_hc 0..1 x default_key 0..1
  EXPECT_EQ(all_choices(MC(3, 3), {}).size(), 36u);  // 2 orders x 3 local_hc x 2 exchanges x 3 keys
}

// ---- Each claim by its own property (judge_thm2_shared_node, judge_fault_cut) ----------------
// MC(1,1) is an 8-cycle; s = 000, t = 011: the two paths 000-001-101-111-011 and
// 000-100-110-010-011 are the only simple ones.

std::vector<Path> Walks(const Metacube& mc, const std::vector<std::vector<std::string>>& texts) {
  std::vector<Path> out;
  for (const auto& nodes : texts) {
    Path p;
    for (const std::string& n : nodes) p.nodes.push_back(A(mc, n));
    out.push_back(p);
  }
  return out;
}

TEST(OwnProperty, SharedNodeAcceptsADisjointSetAndARepeatingButDisjointOne) {
  const Metacube mc = MC(1, 1);
  const Node s = A(mc, "000"), t = A(mc, "011");
  const auto good = Walks(mc, {{"000", "001", "101", "111", "011"}, {"000", "100", "110", "010", "011"}});
  EXPECT_EQ(judge_thm2_shared_node(mc, s, t, good).violation, std::nullopt);
  EXPECT_TRUE(judge_thm2_shared_node(mc, s, t, good).applicable);
  // P_1 repeats 100 and 110 (thm2.valid's failure) but meets P_0 nowhere: not this claim's.
  const auto repeating =
      Walks(mc, {{"000", "001", "101", "111", "011"}, {"000", "100", "110", "100", "110", "010", "011"}});
  EXPECT_TRUE(check_thm2_disjoint(mc, s, t, repeating).has_value());
  const Judgement j = judge_thm2_shared_node(mc, s, t, repeating);
  EXPECT_TRUE(j.applicable);
  EXPECT_EQ(j.violation, std::nullopt);
}

// Algorithm 4 as printed at MC(1,1), s = 000, t = 011: P_0 reaches t, overshoots to 111 and comes
// back. Its route ends at its first arrival at t, so it shares nothing with P_1 (thm2.valid's
// failure only), and no single fault cuts both routes.
TEST(OwnProperty, AWalkThatOvershootsTIsJudgedUpToItsFirstArrival) {
  const Metacube mc = MC(1, 1);
  const Node s = A(mc, "000"), t = A(mc, "011");
  const auto overshoot = Walks(mc, {{"000", "100", "110", "010", "011", "111", "011"}, {"000", "001", "101", "111", "011"}});
  EXPECT_TRUE(check_thm2_disjoint(mc, s, t, overshoot).has_value());
  EXPECT_EQ(judge_thm2_shared_node(mc, s, t, overshoot).violation, std::nullopt);
  EXPECT_EQ(judge_fault_cut(mc, s, t, overshoot).violation, std::nullopt);
}

TEST(OwnProperty, SharedNodeRejectsPathsMeetingOutsideTheEndpoints) {  // negative control
  const Metacube mc = MC(1, 1);
  const Node s = A(mc, "000"), t = A(mc, "011");
  // P_1 goes back through s and then along P_0: it shares 001, 101 and 111 with P_0.
  const auto bad =
      Walks(mc, {{"000", "001", "101", "111", "011"}, {"000", "100", "000", "001", "101", "111", "011"}});
  const Judgement j = judge_thm2_shared_node(mc, s, t, bad);
  EXPECT_TRUE(j.applicable);
  ASSERT_TRUE(j.violation.has_value());
  EXPECT_THAT(*j.violation, ::testing::HasSubstr("share node 001"));
  // P_1 passes s again: the message says the routes were judged on their node sets.
  EXPECT_THAT(*j.violation, ::testing::HasSubstr("some path repeats a node"));
}

// s and t are no internal nodes of a route: two walks that both come back through s (and repeat
// their first node) but otherwise keep apart share nothing.
TEST(OwnProperty, SharedNodeIgnoresReturnsToS) {
  const Metacube mc = MC(1, 1);
  const Node s = A(mc, "000"), t = A(mc, "011");
  const auto back = Walks(mc, {{"000", "001", "000", "001", "101", "111", "011"},
                               {"000", "100", "000", "100", "110", "010", "011"}});
  const Judgement j = judge_thm2_shared_node(mc, s, t, back);
  EXPECT_TRUE(j.applicable);
  EXPECT_EQ(j.violation, std::nullopt);
}

// alg4_step_of names, for a node of a path, the last step of that path that began at or before it.
TEST(Algorithm4Steps, EachNodeIsNamedByItsOwnPathsStep) {
  const Metacube mc = MC(2, 2);
  Alg4Options o = *options_for_reading("corrected");
  o.record_steps = true;
  int checked = 0;
  for (uint64_t tb : {0b1100111001ull, 0b1000110000ull, 0b0011000100ull, 0b0110010010ull, 0b1111111111ull}) {
    const Node s = mc.node_at(0), t = mc.node_at(tb);
    const Alg4Result r = metacube_disjoint_paths(mc, s, t, o);
    ASSERT_FALSE(r.steps.empty());
    for (int i = 0; i < static_cast<int>(r.paths.size()); ++i)
      for (int q = 0; q < static_cast<int>(r.paths[static_cast<size_t>(i)].nodes.size()); ++q) {
        std::string expected = q == 0 ? "s" : "s^(i)";
        if (q > 0)
          for (const Alg4Step& st : r.steps)
            if (st.path == i && st.from <= q) expected = st.what;
        EXPECT_EQ(alg4_step_of(r, i, q), expected) << "t = " << t << ", P_" << i << " node " << q;
        ++checked;
      }
  }
  EXPECT_GT(checked, 100);
}

TEST(OwnProperty, SharedNodeIsNotApplicableToAnInvalidHopOrAWrongCount) {
  const Metacube mc = MC(1, 1);
  const Node s = A(mc, "000"), t = A(mc, "011");
  // 100 -> 101 flips M[0] in class 1: not an edge.
  const auto invalid = Walks(mc, {{"000", "001", "101", "111", "011"}, {"000", "100", "101", "111", "011"}});
  EXPECT_FALSE(judge_thm2_shared_node(mc, s, t, invalid).applicable);
  EXPECT_FALSE(judge_fault_cut(mc, s, t, invalid).applicable);
  const auto one = Walks(mc, {{"000", "001", "101", "111", "011"}});
  EXPECT_FALSE(judge_thm2_shared_node(mc, s, t, one).applicable);
  // Every path is judged, the first as much as the others.
  const auto first_invalid = Walks(mc, {{"000", "100", "101", "111", "011"}, {"000", "001", "101", "111", "011"}});
  EXPECT_FALSE(judge_thm2_shared_node(mc, s, t, first_invalid).applicable);
  const auto v = check_walks(mc, s, t, first_invalid);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->rfind("P_0: ", 0), 0u) << *v;
}

TEST(OwnProperty, FaultCutFindsOneNodeOnEveryWalkAndNoneOnDisjointPaths) {
  const Metacube mc = MC(1, 1);  // k + m - 1 = 1 fault
  const Node s = A(mc, "000"), t = A(mc, "011");
  const auto good = Walks(mc, {{"000", "001", "101", "111", "011"}, {"000", "100", "110", "010", "011"}});
  EXPECT_EQ(judge_fault_cut(mc, s, t, good).violation, std::nullopt);
  // Negative control: both walks pass through 001, so one fault cuts them.
  const auto bad =
      Walks(mc, {{"000", "001", "101", "111", "011"}, {"000", "100", "000", "001", "101", "111", "011"}});
  const Judgement j = judge_fault_cut(mc, s, t, bad);
  EXPECT_TRUE(j.applicable);
  ASSERT_TRUE(j.violation.has_value());
  EXPECT_THAT(*j.violation, ::testing::HasSubstr("meet every constructed path"));
  // A repeating but disjoint walk is still cut by no single fault.
  const auto repeating =
      Walks(mc, {{"000", "001", "101", "111", "011"}, {"000", "100", "110", "100", "110", "010", "011"}});
  EXPECT_EQ(judge_fault_cut(mc, s, t, repeating).violation, std::nullopt);
}

// judge_alg4 settles fault tolerance without the cut search when the constructed paths are
// valid, run from s to t and are internally disjoint: the verdict must be judge_fault_cut's on the
// same paths, on every pair, for readings whose paths are disjoint and readings whose are not.
TEST(OwnProperty, TheSweepsFaultToleranceVerdictIsTheCutSearchs) {
  for (const char* reading : {"paper", "corrected", "broken-no-exchange", "broken-ignore-key"}) {
    Alg4Options o = *options_for_reading(reading);
    o.record_notes = false;
    for (auto [k, m] : {std::pair{1, 1}, {2, 1}, {1, 2}, {2, 2}}) {
      const Metacube mc = MC(k, m);
      int fast = 0;
      // The first 16 sources (all 8 of MC(1,1)), every target.
      const uint64_t sources = std::min<uint64_t>(mc.num_nodes(), 16);
      for (uint64_t sb = 0; sb < sources; ++sb)
        for (uint64_t tb = 0; tb < mc.num_nodes(); ++tb) {
          if (tb == sb) continue;
          const Node s{sb, mc.width()}, t{tb, mc.width()};
          const Judgement sweep = judge_alg4(mc, s, t, o, Thm2Part::kFaultTolerance);
          const Judgement search = judge_fault_cut(mc, s, t, metacube_disjoint_paths(mc, s, t, o).paths);
          ASSERT_EQ(sweep.applicable, search.applicable) << reading << " " << mc.name() << " " << s << " " << t;
          ASSERT_EQ(sweep.violation.has_value(), search.violation.has_value()) << reading << " " << mc.name() << " " << s << " " << t;
          fast += check_thm2_disjoint(mc, s, t, metacube_disjoint_paths(mc, s, t, o).paths) == std::nullopt;
        }
      EXPECT_GT(fast, 0) << reading << " " << mc.name();
    }
  }
}

TEST(OwnProperty, FaultCutCountsOnlyUnhitWalksWhenItBoundsTheSearch) {
  // Two faults (k + m - 1 = 2) cut these three walks: 00010 meets P_0 and P_2, 00001 meets P_1.
  // Once 00010 is chosen, P_1 and P_2 are disjoint but P_2 is already hit: the search's lower bound
  // (a packing of pairwise disjoint walks) must leave it out, or it prunes the cut away.
  const Metacube mc = MC(1, 2);
  const Node s = A(mc, "00000"), t = A(mc, "00011");
  const auto walks = Walks(mc, {{"00000", "00010", "00011"},
                                {"00000", "00001", "00011"},
                                {"00000", "10000", "10100", "00100", "00110", "10110", "10010", "00010", "00011"}});
  const Judgement j = judge_fault_cut(mc, s, t, walks);
  EXPECT_TRUE(j.applicable);
  ASSERT_TRUE(j.violation.has_value());
  EXPECT_THAT(*j.violation, ::testing::HasSubstr("{00010, 00001}"));
}

}  // namespace
}  // namespace topocheck::metacube
