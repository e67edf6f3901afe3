// Unit tests of core: text forms of Node, Subcube and Path (with the error messages users see),
// every naive checker of checks.h (each with a passing case and a negative control that names
// the problem), and the Boost.Graph adapters of graph.h on a small ring topology.
//
// core must not depend on a family, so the graph tests use `Ring`, a cycle C_k defined here;
// the same adapters on Q_n are tested in hypercube_test.cc.
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "core/checks.h"
#include "core/graph.h"
#include "core/json_file.h"
#include "core/node.h"
#include "core/path.h"
#include "core/status.h"
#include "core/subcube.h"
#include "core/topology.h"
#include "core/xml.h"

namespace topocheck {
namespace {

using ::testing::HasSubstr;

// The cycle C_k on nodes 0..k-1 written as `width`-bit addresses; i is adjacent to i +- 1 mod k.
// Dimension 0 is the step to i + 1, dimension 1 the step to i - 1 (only to fill the interface).
class Ring final : public Topology {
 public:
  Ring(int k, int width) : k_(static_cast<uint64_t>(k)), width_(width) {}
  std::string name() const override { return fmt::format("C_{}", k_); }
  int width() const override { return width_; }
  uint64_t num_nodes() const override { return k_; }
  bool contains(Node u) const override { return u.width == width_ && u.bits < k_; }
  std::vector<Node> neighbors(Node u) const override {
    return {node_at((u.bits + 1) % k_), node_at((u.bits + k_ - 1) % k_)};
  }
  bool is_edge(Node u, Node v) const override { return edge_dimension(u, v).has_value(); }
  std::optional<int> edge_dimension(Node u, Node v) const override {
    if (!contains(u) || !contains(v)) return std::nullopt;
    if (v.bits == (u.bits + 1) % k_) return 0;
    if (v.bits == (u.bits + k_ - 1) % k_) return 1;
    return std::nullopt;
  }
  uint64_t index_of(Node u) const override { return u.bits; }
  Node node_at(uint64_t index) const override { return Node{index, width_}; }

 private:
  uint64_t k_;
  int width_;
};

Node N(const char* text) { return parse_node(text).value(); }
Path P(const char* text) { return parse_path(text).value(); }

// ---------------------------------------------------------------------------------------------
// Node

TEST(NodeText, PrintsMostSignificantBitFirstAndExactlyAsWideAsTheAddress) {
  EXPECT_EQ(Node({0b011, 3}).to_string(), "011");
  EXPECT_EQ(Node({1, 5}).to_string(), "00001");
  EXPECT_EQ(Node({0, 1}).to_string(), "0");
  EXPECT_EQ(fmt::format("{}", Node{0b100, 3}), "100");
}

TEST(NodeText, ParsesBackWhatItPrints) {
  for (const char* text : {"0", "1", "011", "1011001110", "0010110011"}) {
    auto node = parse_node(text);
    ASSERT_TRUE(node.ok()) << text;
    EXPECT_EQ(node->to_string(), text);
  }
  EXPECT_EQ(N("011"), (Node{0b011, 3}));
  EXPECT_EQ(N("0011"), (Node{0b011, 4}));  // width is part of the value
  EXPECT_NE(N("011"), N("0011"));
}

TEST(NodeText, ParsesASixtyThreeBitAddress) {
  const std::string ones(63, '1');
  auto node = parse_node(ones);
  ASSERT_TRUE(node.ok());
  EXPECT_EQ(node->width, 63);
  EXPECT_EQ(node->bits, (uint64_t{1} << 63) - 1);
  EXPECT_EQ(node->to_string(), ones);
}

TEST(NodeText, RejectsTheEmptyAddress) {
  auto node = parse_node("");
  ASSERT_FALSE(node.ok());
  EXPECT_EQ(node.error().code, ErrorCode::kInvalidArgument);
  EXPECT_THAT(node.error().message, HasSubstr("empty node address"));
}

TEST(NodeText, RejectsACharacterOtherThanZeroOrOneNamingItsPosition) {
  auto node = parse_node("01x1");
  ASSERT_FALSE(node.ok());
  EXPECT_EQ(node.error().message, "node address '01x1': character 3 is 'x', expected 0 or 1");
  EXPECT_FALSE(parse_node("0 1").ok());
  EXPECT_FALSE(parse_node("012").ok());
}

TEST(NodeText, RejectsAnAddressWiderThanSixtyThreeBits) {
  auto node = parse_node(std::string(64, '0'));
  ASSERT_FALSE(node.ok());
  EXPECT_THAT(node.error().message, HasSubstr("64 bits wide; at most 63 allowed"));
}

TEST(NodeText, RejectsAWidthTheTopologyDoesNotHave) {
  auto node = parse_node("011", 4);
  ASSERT_FALSE(node.ok());
  EXPECT_EQ(node.error().message, "node address '011' has width 3, the topology needs 4");
  EXPECT_TRUE(parse_node("0011", 4).ok());
}

TEST(NodeBits, FlipTogglesExactlyOneDimension) {
  EXPECT_EQ(N("000").flip(0), N("001"));
  EXPECT_EQ(N("000").flip(2), N("100"));
  EXPECT_EQ(N("101").flip(2), N("001"));
  EXPECT_TRUE(N("100").bit(2));
  EXPECT_FALSE(N("100").bit(0));
}

TEST(NodeBits, HammingDistanceCountsDifferingDimensions) {
  EXPECT_EQ(hamming(N("000"), N("000")), 0);
  EXPECT_EQ(hamming(N("000"), N("011")), 2);
  EXPECT_EQ(hamming(N("0101"), N("1010")), 4);
}

TEST(NodeBits, HashAndOrderSeparateWidths) {
  EXPECT_NE(std::hash<Node>()(N("011")), std::hash<Node>()(N("0011")));
  EXPECT_LT(N("001"), N("010"));
}

// ---------------------------------------------------------------------------------------------
// Subcube

TEST(SubcubeText, PrintsStarsForFreeDimensionsMostSignificantFirst) {
  const Subcube s{0b000011, 0b001000, 6};
  EXPECT_EQ(s.to_string(), "0010**");
  EXPECT_EQ(s.dimension(), 2);
  EXPECT_EQ(fmt::format("{}", s), "0010**");
}

TEST(SubcubeText, ParsesBackWhatItPrints) {
  for (const char* text : {"*", "0", "1", "0010**", "*1*0", "***"}) {
    auto s = parse_subcube(text);
    ASSERT_TRUE(s.ok()) << text;
    EXPECT_EQ(s->to_string(), text);
  }
  auto s = parse_subcube("1*0");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->free_mask, 0b010u);
  EXPECT_EQ(s->values, 0b100u);  // zero where free
  EXPECT_EQ(s->width, 3);
}

TEST(SubcubeText, RejectsACharacterOtherThanZeroOneOrStarNamingItsPosition) {
  auto s = parse_subcube("0*2");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "subcube '0*2': character 3 is '2', expected 0, 1 or *");
  auto empty = parse_subcube("");
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(empty.error().message, HasSubstr("empty subcube"));
  auto wide = parse_subcube(std::string(64, '*'));
  ASSERT_FALSE(wide.ok());
  EXPECT_THAT(wide.error().message, HasSubstr("at most 63"));
  auto widest = parse_subcube(std::string(63, '*'));  // the bound itself is allowed
  ASSERT_TRUE(widest.ok());
  EXPECT_EQ(widest->width, 63);
}

TEST(SubcubeText, RejectsAWidthTheTopologyDoesNotHave) {
  auto s = parse_subcube("1*", 3);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "subcube '1*' has width 2, the topology needs 3");
  // The smallest topology (Q_1) is checked too; only 0 means "any width".
  auto q1 = parse_subcube("1*", 1);
  ASSERT_FALSE(q1.ok());
  EXPECT_EQ(q1.error().message, "subcube '1*' has width 2, the topology needs 1");
  EXPECT_TRUE(parse_subcube("*", 1).ok());
  EXPECT_TRUE(parse_subcube("1*", 0).ok());
}

TEST(SubcubeMembership, ContainsExactlyTheNodesMatchingItsFixedBits) {
  const Subcube s = parse_subcube("1*0").value();
  EXPECT_TRUE(s.contains(N("100")));
  EXPECT_TRUE(s.contains(N("110")));
  EXPECT_FALSE(s.contains(N("101")));
  EXPECT_FALSE(s.contains(N("000")));
  EXPECT_FALSE(s.contains(N("0100")));  // wrong width
}

// ---------------------------------------------------------------------------------------------
// Path

TEST(PathText, JoinsNodeStringsWithColons) {
  const Path p{{N("000"), N("001"), N("011")}};
  EXPECT_EQ(p.to_string(), "000:001:011");
  EXPECT_EQ(fmt::format("{}", p), "000:001:011");
  EXPECT_EQ(p.length(), 2);
  EXPECT_EQ(Path{}.length(), 0);
  EXPECT_EQ(P("101").length(), 0);
}

TEST(PathText, ParsesThePapersParenthesisedFormWithSpaces) {
  auto p = parse_path("(000 : 001 : 011)");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->to_string(), "000:001:011");
  EXPECT_EQ(*p, P("000:001:011"));
}

TEST(PathText, StripsOnlyAPairOfParentheses) {
  // One closing parenthesis without its opening one is not the parenthesised form: nothing is
  // stripped, so neither the first node's first character nor the ')' disappears.
  for (const char* text : {"1000:011)", "(000:0111", "000:011)"}) EXPECT_FALSE(parse_path(text).ok()) << text;
}

TEST(PathText, RejectsTheEmptyPath) {
  for (const char* text : {"", "()", "  "}) {
    auto p = parse_path(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_EQ(p.error().message, "empty path");
  }
}

TEST(PathText, RejectsABadNodeNamingItsPlaceInThePath) {
  auto p = parse_path("000:0a1:011");
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.error().message, HasSubstr("path '000:0a1:011': node 2:"));
  EXPECT_THAT(p.error().message, HasSubstr("character 2 is 'a'"));
  auto hole = parse_path("000::011");
  ASSERT_FALSE(hole.ok());
  EXPECT_THAT(hole.error().message, HasSubstr("node 2: empty node address"));
}

TEST(PathText, RejectsNodesOfDifferentWidths) {
  auto p = parse_path("000:01");
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.error().message, HasSubstr("node 2: node address '01' has width 2, the topology needs 3"));
  auto q = parse_path("000:001", 4);
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.error().message, HasSubstr("node 1:"));
}

TEST(PathJson, RoundTripsThroughAnArrayOfNodeStrings) {
  const Path p = P("000:001:011");
  const nlohmann::json j = path_to_json(p);
  EXPECT_EQ(j, nlohmann::json::parse(R"(["000","001","011"])"));
  auto back = path_from_json(j, 3);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, p);

  const std::vector<Path> paths{P("000:001"), P("000:010:011")};
  auto all = paths_from_json(paths_to_json(paths));
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, paths);
}

TEST(PathJson, RejectsUntrustedInputNamingTheBadElement) {
  auto not_array = path_from_json(nlohmann::json("000:001"));
  ASSERT_FALSE(not_array.ok());
  EXPECT_THAT(not_array.error().message, HasSubstr("must be an array of node strings"));
  auto not_string = path_from_json(nlohmann::json::parse(R"(["000", 1])"));
  ASSERT_FALSE(not_string.ok());
  EXPECT_EQ(not_string.error().message, "path element 2 is not a string");
  auto wrong_width = path_from_json(nlohmann::json::parse(R"(["000", "01"])"));
  ASSERT_FALSE(wrong_width.ok());
  EXPECT_THAT(wrong_width.error().message, HasSubstr("path element 2: node address '01' has width 2"));
  auto nested = paths_from_json(nlohmann::json::parse(R"([["000"], ["0x0"]])"));
  ASSERT_FALSE(nested.ok());
  EXPECT_THAT(nested.error().message, HasSubstr("path 1: path element 1:"));
}

// ---------------------------------------------------------------------------------------------
// Errors

TEST(ErrorText, PrintsFileAndLineWhenKnown) {
  EXPECT_EQ(parse_error("bad node", "corpus/x.json", 7).to_string(),
            "corpus/x.json:7: error: bad node");
  EXPECT_EQ(parse_error("bad node", "corpus/x.json").to_string(), "corpus/x.json: error: bad node");
  EXPECT_EQ(invalid_argument("n must be positive").to_string(), "error: n must be positive");
}

TEST(ResultValue, HoldsEitherAValueOrAnError) {
  Result<int> good(3);
  EXPECT_TRUE(good.ok());
  EXPECT_TRUE(static_cast<bool>(good));
  EXPECT_EQ(*good, 3);
  Result<int> bad(invalid_argument("no"));
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "no");
}

TEST(ResultValueDeathTest, AbortsWhenTheValueOfAnErrorIsTaken) {
  Result<int> bad(invalid_argument("no value here"));
  EXPECT_DEATH((void)bad.value(), "value\\(\\) of an error result: no value here");
}

TEST(InvariantCheckDeathTest, AbortsWithFileLineAndCondition) {
  EXPECT_DEATH(TC_CHECK(1 + 1 == 3, "arithmetic"), "core_test.cc:[0-9]+: check failed: 1 \\+ 1 == 3: arithmetic");
}

// ---------------------------------------------------------------------------------------------
// Checkers. The ring C_6 with 3-bit addresses: 000 - 001 - 010 - 011 - 100 - 101 - 000.

const Ring kRing6(6, 3);

TEST(CheckPathValid, AcceptsAWalkAlongEdges) {
  EXPECT_EQ(check_path_valid(kRing6, P("000:001:010:011")), std::nullopt);
  EXPECT_EQ(check_path_valid(kRing6, P("000:101:100")), std::nullopt);  // across the wrap
  EXPECT_EQ(check_path_valid(kRing6, P("011")), std::nullopt);          // a single node
}

TEST(CheckPathValid, RejectsAHopThatIsNotAnEdge) {
  EXPECT_EQ(check_path_valid(kRing6, P("000:001:011")),
            "hop 1 (001 -> 011) is not an edge of C_6");
}

TEST(CheckPathValid, RejectsANodeOfTheWrongWidth) {
  const Path p{{N("000"), N("01")}};
  EXPECT_EQ(check_path_valid(kRing6, p), "node 01 at position 1 is not a node of C_6");
}

TEST(CheckPathValid, RejectsAnAddressOutsideTheTopology) {
  EXPECT_EQ(check_path_valid(kRing6, P("101:110")), "node 110 at position 1 is not a node of C_6");
}

TEST(CheckPathValid, RejectsTheEmptyPath) {
  EXPECT_EQ(check_path_valid(kRing6, Path{}), "the path is empty");
}

TEST(CheckEndpoints, AcceptsAPathFromSourceToDestination) {
  EXPECT_EQ(check_endpoints(P("000:001:010"), N("000"), N("010")), std::nullopt);
}

TEST(CheckEndpoints, RejectsTheWrongStartAndTheWrongEnd) {
  EXPECT_EQ(check_endpoints(P("001:010"), N("000"), N("010")),
            "the path starts at 001, not at 000");
  EXPECT_EQ(check_endpoints(P("000:001"), N("000"), N("010")), "the path ends at 001, not at 010");
  EXPECT_EQ(check_endpoints(Path{}, N("000"), N("010")), "the path is empty");
}

TEST(CheckSimple, AcceptsAPathWithoutRepeatedNodes) {
  EXPECT_EQ(check_simple(P("000:001:010:011")), std::nullopt);
}

TEST(CheckSimple, RejectsARepeatedNodeNamingBothPositions) {
  EXPECT_EQ(check_simple(P("000:001:000:101")), "node 000 occurs twice, at positions 0 and 2");
}

TEST(CheckSimple, AllowsAClosedPathToRepeatItsEndpointOnce) {
  // Algorithm 2's paths for x = y: x : x^(i) : x.
  EXPECT_EQ(check_simple(P("000:001:000")), std::nullopt);
  EXPECT_EQ(check_simple(P("000:000")), std::nullopt);
}

TEST(CheckSimple, RejectsAClosedPathThatRepeatsAnInternalNode) {
  EXPECT_EQ(check_simple(P("000:001:010:001:000")), "node 001 occurs twice, at positions 1 and 3");
  EXPECT_EQ(check_simple(P("000:001:000:001:000")), "node 000 occurs twice, at positions 0 and 2");
}

TEST(CheckInternallyNodeDisjoint, AcceptsPathsSharingOnlyTheirEndpoints) {
  EXPECT_EQ(check_internally_node_disjoint({P("000:001:010:011"), P("000:101:100:011")}),
            std::nullopt);
  EXPECT_EQ(check_internally_node_disjoint({P("000:001:000"), P("000:101:000")}), std::nullopt);
}

TEST(CheckInternallyNodeDisjoint, RejectsASharedInternalNode) {
  EXPECT_EQ(check_internally_node_disjoint({P("000:001:010:011"), P("101:000:001:010")}),
            "paths 0 and 1 share node 001, internal to path 0 (position 1)");
}

TEST(CheckInternallyNodeDisjoint, RejectsAnInternalNodeThatIsAnotherPathsEndpoint) {
  EXPECT_EQ(check_internally_node_disjoint({P("000:001"), P("000:001:010")}),
            "paths 0 and 1 share node 001, internal to path 1 (position 1)");
}

TEST(CheckLinkDisjoint, AcceptsPathsWithoutACommonLink) {
  EXPECT_EQ(check_link_disjoint({P("000:001:010"), P("000:101:100"), P("010:011")}), std::nullopt);
}

TEST(CheckLinkDisjoint, RejectsASharedLinkEvenInOppositeDirections) {
  EXPECT_EQ(check_link_disjoint({P("000:001:010"), P("011:010:001")}),
            "paths 0 and 1 both use link 001-010");
}

TEST(CheckDirectedLinkDisjoint, AllowsOneLinkUsedInOppositeDirections) {
  EXPECT_EQ(check_directed_link_disjoint({P("000:001:010"), P("011:010:001")}), std::nullopt);
}

TEST(CheckDirectedLinkDisjoint, RejectsASharedDirectedLink) {
  EXPECT_EQ(check_directed_link_disjoint({P("000:001:010"), P("101:000:001")}),
            "paths 0 and 1 both use directed link 000->001");
}

TEST(CheckAvoidsLinks, AcceptsPathsAvoidingTheForbiddenLinks) {
  const std::set<Link> forbidden{Link::of(N("001"), N("010"))};
  EXPECT_EQ(check_avoids_links({P("000:101:100:011")}, forbidden), std::nullopt);
}

TEST(CheckAvoidsLinks, RejectsAForbiddenLinkInEitherDirection) {
  const std::set<Link> forbidden{Link::of(N("010"), N("001"))};
  EXPECT_EQ(check_avoids_links({P("000:101"), P("011:010:001")}, forbidden),
            "path 1 uses forbidden link 010-001 at hop 1");
}

// Found by mutation testing (tools/mutate): the first path and the first hop are judged too.
TEST(CheckAvoidsLinks, RejectsAForbiddenLinkOnTheFirstHopOfTheFirstPath) {
  const std::set<Link> forbidden{Link::of(N("000"), N("001"))};
  EXPECT_EQ(check_avoids_links({P("000:001:011"), P("000:100:101")}, forbidden),
            "path 0 uses forbidden link 000-001 at hop 0");
}

TEST(CheckMaxLength, AcceptsPathsUpToAndIncludingTheBound) {
  EXPECT_EQ(check_max_length({P("000:001"), P("000:001:010")}, 2), std::nullopt);
}

TEST(CheckMaxLength, RejectsALengthOverTheBound) {
  EXPECT_EQ(check_max_length({P("000:001"), P("000:001:010:011")}, 2),
            "path 1 has length 3, more than the bound 2");
}

TEST(CheckPathsValidSimple, AcceptsValidSimplePathsBetweenTheEndpoints) {
  EXPECT_EQ(check_paths_valid_simple(kRing6, {P("000:001:010"), P("000:101:100:011:010")},
                                     N("000"), N("010")),
            std::nullopt);
}

TEST(CheckPathsValidSimple, NamesThePathThatFailsAndWhy) {
  EXPECT_EQ(check_paths_valid_simple(kRing6, {P("000:001:010"), P("000:010")}, N("000"), N("010")),
            "path 1: hop 0 (000 -> 010) is not an edge of C_6");
  EXPECT_EQ(check_paths_valid_simple(kRing6, {P("000:001:010"), P("000:001")}, N("000"), N("010")),
            "path 1: the path ends at 001, not at 010");
  EXPECT_EQ(check_paths_valid_simple(kRing6, {P("000:001:000:001:010")}, N("000"), N("010")),
            "path 0: node 000 occurs twice, at positions 0 and 2");
}

TEST(LinkOrder, StoresTheSmallerNodeFirst) {
  EXPECT_EQ(Link::of(N("010"), N("001")), (Link{N("001"), N("010")}));
  EXPECT_EQ(Link::of(N("001"), N("010")), Link::of(N("010"), N("001")));
}

// ---------------------------------------------------------------------------------------------
// Graph adapters

TEST(Materialize, BuildsOneVertexPerNodeAndOneEdgePerLink) {
  const UndirectedGraph g = materialize(kRing6);
  EXPECT_EQ(boost::num_vertices(g), 6u);
  EXPECT_EQ(boost::num_edges(g), 6u);
  EXPECT_TRUE(boost::edge(0, 5, g).second);
  EXPECT_TRUE(boost::edge(2, 3, g).second);
  EXPECT_FALSE(boost::edge(0, 2, g).second);
}

TEST(MaxNodeDisjointPaths, FindsTwoPathsAroundACycle) {
  const UndirectedGraph g = materialize(kRing6);
  EXPECT_EQ(max_node_disjoint_paths(g, 0, 3), 2);
  EXPECT_EQ(max_node_disjoint_paths(g, 0, 1), 2);  // the direct edge and the way round
  EXPECT_EQ(max_node_disjoint_paths(g, 4, 1), 2);
}

TEST(MaxNodeDisjointPaths, FindsOnePathAlongALine) {
  // C_6 without the link 5-0 is the path graph 0-1-2-3-4-5.
  UndirectedGraph g = materialize(kRing6);
  boost::remove_edge(0, 5, g);
  EXPECT_EQ(max_node_disjoint_paths(g, 0, 5), 1);
  EXPECT_EQ(max_node_disjoint_paths(g, 1, 3), 1);
}

// Paths come ordered by their first hop, whatever order the graph lists the edges in: here the
// edges from 0 are added to 2, 3, 1 (neither ascending nor descending).
TEST(MinCostDisjointPaths, OrdersThePathsByTheirFirstHop) {
  UndirectedGraph g(5);
  for (const auto& [u, v] : std::vector<std::pair<int, int>>{{0, 2}, {0, 3}, {0, 1}, {3, 4}, {2, 4}, {1, 4}})
    boost::add_edge(static_cast<size_t>(u), static_cast<size_t>(v), g);
  MinCostDisjointPaths solver(g);
  const DisjointPathsFlow flow = solver.solve(0, 4, 3);
  ASSERT_EQ(flow.count, 3);
  EXPECT_EQ(flow.total_length, 6);
  ASSERT_EQ(flow.paths.size(), 3u);
  EXPECT_EQ(flow.paths[0], (std::vector<uint64_t>{0, 1, 4}));
  EXPECT_EQ(flow.paths[1], (std::vector<uint64_t>{0, 2, 4}));
  EXPECT_EQ(flow.paths[2], (std::vector<uint64_t>{0, 3, 4}));
}

// Every consecutive pair of `cycle`, and its last-to-first pair, is one of `dependencies`.
void ExpectRealCycle(const std::vector<uint64_t>& cycle,
                     const std::vector<std::pair<uint64_t, uint64_t>>& dependencies) {
  ASSERT_FALSE(cycle.empty());
  const std::set<std::pair<uint64_t, uint64_t>> deps(dependencies.begin(), dependencies.end());
  for (size_t k = 0; k < cycle.size(); ++k) {
    const auto step = std::pair{cycle[k], cycle[(k + 1) % cycle.size()]};
    EXPECT_TRUE(deps.count(step)) << "no dependency " << step.first << " -> " << step.second;
  }
  std::set<uint64_t> distinct(cycle.begin(), cycle.end());
  EXPECT_EQ(distinct.size(), cycle.size()) << "the first channel must not be repeated";
}

TEST(FindDependencyCycle, ReturnsNothingForAnAcyclicGraph) {
  // A DAG with a diamond: 0 -> 1 -> 3, 0 -> 2 -> 3, 3 -> 4.
  EXPECT_EQ(find_dependency_cycle(5, {{0, 1}, {1, 3}, {0, 2}, {2, 3}, {3, 4}}), std::nullopt);
  EXPECT_EQ(find_dependency_cycle(3, {}), std::nullopt);
}

TEST(FindDependencyCycle, ReturnsARealCycleWhenThereIsOne) {
  // A tail 0 -> 1 into the cycle 1 -> 2 -> 3 -> 4 -> 1, plus a chord 2 -> 4 and a sink 5.
  const std::vector<std::pair<uint64_t, uint64_t>> deps{{0, 1}, {1, 2}, {2, 3}, {3, 4},
                                                        {4, 1}, {2, 4}, {4, 5}};
  const auto cycle = find_dependency_cycle(6, deps);
  ASSERT_TRUE(cycle.has_value());
  ExpectRealCycle(*cycle, deps);
  EXPECT_EQ(std::count(cycle->begin(), cycle->end(), uint64_t{0}), 0);  // not on the tail
  EXPECT_EQ(std::count(cycle->begin(), cycle->end(), uint64_t{5}), 0);
}

TEST(FindDependencyCycle, ReportsASelfDependencyAsACycleOfOneChannel) {
  const auto cycle = find_dependency_cycle(3, {{0, 1}, {2, 2}});
  ASSERT_TRUE(cycle.has_value());
  EXPECT_EQ(*cycle, std::vector<uint64_t>{2});
}

TEST(ChannelIndex, NumbersEveryDirectedLinkAndRoundTrips) {
  const ChannelIndex channels(kRing6);
  EXPECT_EQ(channels.size(), 12u);  // two directions per link
  std::set<std::pair<Node, Node>> seen;
  for (uint64_t c = 0; c < channels.size(); ++c) {
    const auto [u, v] = channels.ends(c);
    EXPECT_TRUE(kRing6.is_edge(u, v)) << u << " -> " << v;
    EXPECT_EQ(channels.id(u, v), c);
    seen.insert({u, v});
  }
  EXPECT_EQ(seen.size(), 12u);
  EXPECT_NE(channels.id(N("000"), N("001")), channels.id(N("001"), N("000")));
}

TEST(ChannelIndexDeathTest, AbortsOnTheIdOfANonEdge) {
  const ChannelIndex channels(kRing6);
  EXPECT_DEATH((void)channels.id(N("000"), N("010")), "ChannelIndex::id of a non-edge");
}

// Routes on the ring: always one way round (clockwise), or along the line 0-1-...-5 without the
// wrap-around link (increasing or decreasing index).
std::vector<Node> Clockwise(Node s, Node t) {
  std::vector<Node> p{s};
  while (p.back() != t) p.push_back(Node{(p.back().bits + 1) % 6, 3});
  return p;
}
std::vector<Node> AlongTheLine(Node s, Node t) {
  std::vector<Node> p{s};
  while (p.back() != t)
    p.push_back(Node{s.bits < t.bits ? p.back().bits + 1 : p.back().bits - 1, 3});
  return p;
}

TEST(RouteDependencies, ClockwiseRoutingOnARingHasTheClassicDeadlockCycle) {
  const ChannelIndex channels(kRing6);
  const auto deps = route_dependencies(kRing6, channels, Clockwise);
  const auto cycle = find_dependency_cycle(channels.size(), deps);
  ASSERT_TRUE(cycle.has_value());
  ExpectRealCycle(*cycle, deps);
  EXPECT_EQ(cycle->size(), 6u);  // the six clockwise channels
}

TEST(RouteDependencies, RoutingAlongALineNeverClosesACycle) {
  const ChannelIndex channels(kRing6);
  const auto deps = route_dependencies(kRing6, channels, AlongTheLine);
  EXPECT_FALSE(deps.empty());
  EXPECT_EQ(find_dependency_cycle(channels.size(), deps), std::nullopt);
}

TEST(AllShortestPathDependencies, ContainBothDirectionsRoundAnEvenRing) {
  const ChannelIndex channels(kRing6);
  const auto deps = all_shortest_path_dependencies(kRing6, channels);
  // 000 -> 001 -> 010 lies on the shortest path 000 ... 011 (and 000 -> 010).
  const std::set<std::pair<uint64_t, uint64_t>> set(deps.begin(), deps.end());
  EXPECT_TRUE(set.count({channels.id(N("000"), N("001")), channels.id(N("001"), N("010"))}));
  // Turning back is never on a shortest path.
  EXPECT_FALSE(set.count({channels.id(N("000"), N("001")), channels.id(N("001"), N("000"))}));
  const auto cycle = find_dependency_cycle(channels.size(), deps);
  ASSERT_TRUE(cycle.has_value());
  ExpectRealCycle(*cycle, deps);
}

// The one escaper of JUnit, SVG and HTML output: the five entities, and control characters XML
// does not allow as spaces (tab and newline kept).
TEST(XmlEscape, EscapesEntitiesAndReplacesForbiddenControlCharacters) {
  EXPECT_EQ(xml_escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  EXPECT_EQ(xml_escape(std::string("x\x01y\tz\n", 6)), "x y\tz\n");
}

}  // namespace
}  // namespace topocheck

// Found by fuzz_aapc_schedule (fuzz/regressions/aapc_schedule/number-overflow-3E333.json): a number
// beyond a double made nlohmann throw out_of_range, which escaped read_json_file (exit 70).
TEST(ReadJsonFile, ANumberBeyondADoubleIsAnErrorNamingTheFileNotAnException) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("core_test_overflow_" + std::to_string(::getpid()) + ".json");
  for (const char* text : {"3E333", "{\"n\": 1E400}", "[-1e99999]"}) {
    {
      std::ofstream out(file);
      out << text;
    }
    auto j = topocheck::read_json_file(file);
    ASSERT_FALSE(j.ok()) << text;
    EXPECT_EQ(j.error().file, file.string());
    EXPECT_NE(j.error().message.find("invalid JSON"), std::string::npos) << j.error().message;
  }
  std::filesystem::remove(file);
}

// A syntax error is reported at its line: 1 on the first line, n after n - 1 newlines.
TEST(ReadJsonFile, ASyntaxErrorNamesItsLine) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("core_test_syntax_" + std::to_string(::getpid()) + ".json");
  for (const auto& [text, line] : std::vector<std::pair<const char*, int>>{
           {"{\"a\": }", 1}, {"{\n\"a\": 1,\n\"b\": ]\n}", 3}, {"[1,\n2,\n\n", 4}}) {
    {
      std::ofstream out(file);
      out << text;
    }
    auto j = topocheck::read_json_file(file);
    ASSERT_FALSE(j.ok()) << text;
    EXPECT_EQ(j.error().file, file.string());
    EXPECT_EQ(j.error().line, line) << text;
  }
  std::filesystem::remove(file);
}
