// Unit tests of the Metacube topology, routing and Algorithm 4. The paper's printed values appear
// here as test data only (the full tables live in corpus/metacube/examples/).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

TEST(MetacubeTopology, NodeFiftySixOfClassOneWithTheFactorM) {
  const Metacube mc = MC(2, 2);
  const Node u = A(mc, "0100111000");
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
  const Node u = A(mc, "0100000000");  // class 1: cube-edges flip M[1] (bits 2, 3)
  EXPECT_EQ(mc.edge_dimension(u, A(mc, "0100000100")), 2);
  EXPECT_EQ(mc.edge_dimension(u, A(mc, "0100001000")), 3);
  EXPECT_EQ(mc.edge_dimension(u, A(mc, "0100000001")), std::nullopt);  // M[0] is not u's field
  EXPECT_EQ(mc.edge_dimension(u, A(mc, "1100000000")), 1);
  EXPECT_EQ(mc.edge_dimension(u, A(mc, "0000000000")), 0);
  for (uint64_t b = 0; b < mc.num_nodes(); ++b) {
    const Node x = mc.node_at(b);
    for (const Node& y : mc.neighbors(x)) {
      ASSERT_TRUE(mc.is_edge(x, y));
      ASSERT_TRUE(mc.is_edge(y, x));  // undirected
    }
  }
}

TEST(MetacubeTopology, ParseFieldsNamesTheBadField) {
  const Metacube mc = MC(2, 3);
  auto bad = mc.parse_fields("(01, 111, 10, 110, 000)");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, testing::HasSubstr("field 3 is '10'"));
  EXPECT_FALSE(mc.parse_fields("(01, 111, 101, 110)").ok());
  EXPECT_TRUE(mc.parse_fields("01111101110000").ok());
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
  const Path p = p1(mc, A(mc, "00000000000000"), A(mc, "00001110101011"));
  EXPECT_THAT(texts(p), testing::ElementsAre("00000000000000", "00000000000001", "00000000000011", "01000000000011",
                                             "01000000001011", "01000000101011", "11000000101011", "11001000101011",
                                             "10001000101011", "10001010101011", "10001110101011", "00001110101011"));
}

TEST(Algorithm4, CaseSelection) {
  const Metacube mc = MC(2, 2);
  EXPECT_EQ(alg4_case(mc, A(mc, "0000000000"), A(mc, "0000000001")), 0);
  EXPECT_EQ(alg4_case(mc, A(mc, "0000000000"), A(mc, "0001011101")), 1);
  EXPECT_EQ(alg4_case(mc, A(mc, "0000000000"), A(mc, "0100001111")), 2);
}

TEST(Algorithm4, ReproducesTableTwoColumnThree) {
  const Metacube mc = MC(2, 2);
  const auto r = metacube_disjoint_paths(mc, A(mc, "0000000000"), A(mc, "0000000001"));
  EXPECT_THAT(texts(r.paths[3]), testing::ElementsAre("0000000000", "0000000010", "0000000011", "0000000001"));
  EXPECT_EQ(check_thm2_disjoint(mc, A(mc, "0000000000"), A(mc, "0000000001"), r.paths), std::nullopt);
}

}  // namespace
}  // namespace topocheck::metacube
