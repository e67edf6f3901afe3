// Properties of core: every text form parses back to the same value, garbage is rejected with a
// message that names the problem, the naive checkers agree with second, pairwise definitions,
// and the generators of core/core_gen.h keep their contracts.
//
// These are not claims of a paper, so they run on RapidCheck's own configuration: 100 cases by
// default; RC_PARAMS="max_success=N seed=S" changes the count and the seed (RapidCheck prints
// "Using configuration: seed=..." first, and a reproduce string on failure).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "core/checks.h"
#include "core/core_gen.h"
#include "core/node.h"
#include "core/path.h"
#include "core/subcube.h"
#include "hypercube/hypercube.h"
#include "metacube/metacube.h"

namespace topocheck {
namespace {

bool AllOf(const std::string& text, const std::string& alphabet) {
  return std::all_of(text.begin(), text.end(),
                     [&](char c) { return alphabet.find(c) != std::string::npos; });
}

// Characters that no text form accepts inside an address.
rc::Gen<char> BadAddressCharacter() { return rc::gen::element('x', '2', '#', '-', '/', 'O'); }

// ---------------------------------------------------------------------------------------------
// Round trips

RC_GTEST_PROP(NodeText, ParseOfToStringIsTheIdentity, ()) {
  const int width = *gen::width(kMaxWidth).as("width");
  const Node node = *gen::node(width).as("node");
  RC_ASSERT(node.width == width);
  RC_ASSERT((node.bits & ~gen::bits::low_mask(width)) == 0u);
  const auto parsed = parse_node(node.to_string(), width);
  if (!parsed.ok()) RC_FAIL(parsed.error().message);
  RC_ASSERT(*parsed == node);
}

RC_GTEST_PROP(SubcubeText, ParseOfToStringIsTheIdentity, ()) {
  const int width = *gen::width(kMaxWidth).as("width");
  const Subcube subcube = *gen::subcube(width).as("subcube");
  RC_ASSERT((subcube.values & subcube.free_mask) == 0u);
  const auto parsed = parse_subcube(subcube.to_string(), width);
  if (!parsed.ok()) RC_FAIL(parsed.error().message);
  RC_ASSERT(*parsed == subcube);
}

RC_GTEST_PROP(PathText, ParseOfToStringIsTheIdentity, ()) {
  const int width = *gen::width(kMaxWidth).as("width");
  const Path path = *gen::path(width, 12).as("path");
  const auto parsed = parse_path(path.to_string(), width);
  if (!parsed.ok()) RC_FAIL(parsed.error().message);
  RC_ASSERT(*parsed == path);
  // The papers' spelling, "(000 : 001 : 011)", reads back the same.
  std::string spaced = "(";
  for (size_t k = 0; k < path.nodes.size(); ++k)
    spaced += (k ? " : " : "") + path.nodes[k].to_string();
  spaced += ")";
  const auto parsed_spaced = parse_path(spaced);
  if (!parsed_spaced.ok()) RC_FAIL(parsed_spaced.error().message);
  RC_ASSERT(*parsed_spaced == path);
}

// Typed arguments come from the Arbitrary specialisations of core_gen.h.
RC_GTEST_PROP(PathJson, RoundTripsThroughAnArrayOfNodeStrings, (const Path& path)) {
  const auto back = path_from_json(path_to_json(path), path.front().width);
  if (!back.ok()) RC_FAIL(back.error().message);
  RC_ASSERT(*back == path);
}

RC_GTEST_PROP(NodeAndSubcubeText, ArbitraryValuesRoundTrip, (const Node& node, const Subcube& cube)) {
  RC_ASSERT(parse_node(node.to_string()).value() == node);
  RC_ASSERT(parse_subcube(cube.to_string()).value() == cube);
}

// ---------------------------------------------------------------------------------------------
// Garbage

RC_GTEST_PROP(NodeText, ParsesExactlyTheBitStringsOfOneToSixtyThreeCharacters, ()) {
  const std::string text =
      *rc::gen::container<std::string>(rc::gen::element('0', '1', '0', '1', 'x', ' ', '*', ':'))
           .as("text");
  const bool well_formed = !text.empty() && text.size() <= 63 && AllOf(text, "01");
  const auto parsed = parse_node(text);
  RC_ASSERT(parsed.ok() == well_formed);
  if (parsed.ok()) RC_ASSERT(parsed->to_string() == text);
}

RC_GTEST_PROP(SubcubeText, ParsesExactlyTheStringsOverZeroOneStar, ()) {
  const std::string text =
      *rc::gen::container<std::string>(rc::gen::element('0', '1', '*', '0', '1', '*', 'x', ':'))
           .as("text");
  const bool well_formed = !text.empty() && text.size() <= 63 && AllOf(text, "01*");
  const auto parsed = parse_subcube(text);
  RC_ASSERT(parsed.ok() == well_formed);
  if (parsed.ok()) RC_ASSERT(parsed->to_string() == text);
}

RC_GTEST_PROP(NodeText, ABadCharacterIsReportedAtItsPosition, ()) {
  const int width = *gen::width(kMaxWidth).as("width");
  std::string text = (*gen::node(width).as("node")).to_string();
  const int position = *rc::gen::inRange(0, width).as("position");
  const char bad = *BadAddressCharacter().as("bad character");
  text[static_cast<size_t>(position)] = bad;
  const auto parsed = parse_node(text);
  RC_ASSERT(!parsed.ok());
  const std::string expected = "character " + std::to_string(position + 1) + " is '" + bad + "'";
  RC_ASSERT(parsed.error().message.find(expected) != std::string::npos);
}

RC_GTEST_PROP(SubcubeText, ABadCharacterIsReportedAtItsPosition, ()) {
  const int width = *gen::width(kMaxWidth).as("width");
  std::string text = (*gen::subcube(width).as("subcube")).to_string();
  const int position = *rc::gen::inRange(0, width).as("position");
  const char bad = *BadAddressCharacter().as("bad character");
  text[static_cast<size_t>(position)] = bad;
  const auto parsed = parse_subcube(text);
  RC_ASSERT(!parsed.ok());
  const std::string expected = "character " + std::to_string(position + 1) + " is '" + bad + "'";
  RC_ASSERT(parsed.error().message.find(expected) != std::string::npos);
}

RC_GTEST_PROP(PathText, ABadCharacterIsReportedInTheNodeItSpoils, ()) {
  const int width = *gen::width(8).as("width");
  const Path path = *gen::path(width, 6).as("path");
  const int node_index = *rc::gen::inRange(0, static_cast<int>(path.nodes.size())).as("node index");
  const int position = *rc::gen::inRange(0, width).as("position in the node");
  std::string text = path.to_string();
  // Node k starts at k * (width + 1) in "n0:n1:...".
  text[static_cast<size_t>(node_index * (width + 1) + position)] = *BadAddressCharacter();
  const auto parsed = parse_path(text);
  RC_ASSERT(!parsed.ok());
  const std::string expected = "node " + std::to_string(node_index + 1) + ": ";
  RC_ASSERT(parsed.error().message.find(expected) != std::string::npos);
}

RC_GTEST_PROP(NodeText, AnotherWidthThanTheTopologysIsRejected, ()) {
  const int width = *gen::width(kMaxWidth).as("width");
  const int other = *rc::gen::distinctFrom(gen::width(kMaxWidth), width).as("expected width");
  const auto parsed = parse_node((*gen::node(width)).to_string(), other);
  RC_ASSERT(!parsed.ok());
  RC_ASSERT(parsed.error().message.find("the topology needs " + std::to_string(other)) !=
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// The checkers against second, pairwise definitions (narrow widths, so that nodes repeat).

RC_GTEST_PROP(CheckSimple, AgreesWithThePairwiseDefinition, ()) {
  const Path path = *gen::path(*gen::width(3).as("width"), 8).as("path");
  const auto& v = path.nodes;
  const bool closed = v.size() >= 2 && v.front() == v.back();
  const size_t last = closed ? v.size() - 1 : v.size();
  bool repeated = false;
  for (size_t a = 0; a < last; ++a)
    for (size_t b = a + 1; b < last; ++b) repeated = repeated || v[a] == v[b];
  RC_ASSERT(check_simple(path).has_value() == repeated);
}

RC_GTEST_PROP(CheckInternallyNodeDisjoint, AgreesWithThePairwiseDefinition, ()) {
  const int width = *gen::width(3).as("width");
  const auto paths = *rc::gen::container<std::vector<Path>>(gen::path(width, 4)).as("paths");
  bool shared = false;
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t k = 1; k + 1 < paths[i].nodes.size(); ++k)
      for (size_t j = 0; j < paths.size(); ++j)
        if (j != i)
          for (const Node& u : paths[j].nodes) shared = shared || u == paths[i].nodes[k];
  RC_ASSERT(check_internally_node_disjoint(paths).has_value() == shared);
}

RC_GTEST_PROP(CheckLinkDisjoint, AgreesWithThePairwiseDefinition, ()) {
  const int width = *gen::width(3).as("width");
  const auto paths = *rc::gen::container<std::vector<Path>>(gen::path(width, 4)).as("paths");
  bool shared = false, shared_directed = false;
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t j = i + 1; j < paths.size(); ++j)
      for (size_t a = 0; a + 1 < paths[i].nodes.size(); ++a)
        for (size_t b = 0; b + 1 < paths[j].nodes.size(); ++b) {
          const Node p = paths[i].nodes[a], q = paths[i].nodes[a + 1];
          const Node r = paths[j].nodes[b], s = paths[j].nodes[b + 1];
          shared_directed = shared_directed || (p == r && q == s);
          shared = shared || (p == r && q == s) || (p == s && q == r);
        }
  RC_ASSERT(check_link_disjoint(paths).has_value() == shared);
  RC_ASSERT(check_directed_link_disjoint(paths).has_value() == shared_directed);
}

RC_GTEST_PROP(CheckMaxLength, HoldsExactlyWhenNoPathIsLongerThanTheBound, ()) {
  const auto paths = *rc::gen::container<std::vector<Path>>(gen::path(2, 6)).as("paths");
  const int bound = *rc::gen::inRange(0, 8).as("bound");
  bool over = false;
  for (const Path& p : paths) over = over || p.length() > bound;
  RC_ASSERT(check_max_length(paths, bound).has_value() == over);
}

// ---------------------------------------------------------------------------------------------
// Generator contracts

RC_GTEST_PROP(PathGenerator, StaysWithinTheLengthBoundAndWidth, ()) {
  const int width = *gen::width(kMaxWidth).as("width");
  const int max_len = *rc::gen::inRange(0, 20).as("max_len");
  const Path path = *gen::path(width, max_len).as("path");
  RC_ASSERT(!path.empty());
  RC_ASSERT(path.length() <= max_len);
  for (const Node& u : path.nodes) {
    RC_ASSERT(u.width == width);
    RC_ASSERT((u.bits & ~gen::bits::low_mask(width)) == 0u);
  }
}

RC_GTEST_PROP(NodeSetGenerator, GivesDistinctAscendingNodesWithinTheCount, ()) {
  const int width = *gen::width(12).as("width");
  const int max_count = *rc::gen::inRange(0, 40).as("max_count");
  const auto set = *gen::node_set(width, max_count).as("set");
  RC_ASSERT(static_cast<int>(set.size()) <= max_count);
  RC_ASSERT(set.size() <= (uint64_t{1} << width));
  RC_ASSERT(std::adjacent_find(set.begin(), set.end(), [](const Node& a, const Node& b) { return !(a < b); }) ==
            set.end());
  for (const Node& u : set) RC_ASSERT(u.width == width && (u.bits & ~gen::bits::low_mask(width)) == 0u);
}

// The topologies a path system is drawn on: Q_1..Q_6 and MC(1,1), MC(1,2), MC(2,1).
std::shared_ptr<const Topology> SmallTopology(int which) {
  if (which < 6) return std::make_shared<hypercube::Hypercube>(*hypercube::Hypercube::make(which + 1));
  static const int kMetacubes[][2] = {{1, 1}, {1, 2}, {2, 1}};
  return std::make_shared<metacube::Metacube>(*metacube::Metacube::make(kMetacubes[which - 6][0], kMetacubes[which - 6][1]));
}

RC_GTEST_PROP(PathSystemGenerator, GivesValidSimplePathsFromSToT, ()) {
  const auto topo = SmallTopology(*rc::gen::inRange(0, 9).as("topology"));
  const uint64_t count = topo->num_nodes();
  const Node s = topo->node_at(*rc::gen::inRange<uint64_t>(0, count).as("s index"));
  const Node t = topo->node_at(*rc::gen::suchThat(rc::gen::inRange<uint64_t>(0, count),
                                                   [&](uint64_t i) { return topo->node_at(i) != s; }).as("t index"));
  const int max_paths = *rc::gen::inRange(1, 8).as("max_paths");
  const auto paths = *gen::path_system(topo, s, t, max_paths).as("paths");
  RC_ASSERT(!paths.empty() && static_cast<int>(paths.size()) <= max_paths);
  RC_ASSERT(!check_paths_valid_simple(*topo, paths, s, t).has_value());
}

TEST(PathSystemGenerator, DrawsDisjointSystemsAndSharedNodesBoth) {
  // Both kinds occur, so that a property over path systems exercises both verdicts of a judge.
  const auto topo = std::make_shared<hypercube::Hypercube>(*hypercube::Hypercube::make(4));
  const Node s{0b0000, 4}, t{0b0111, 4};
  int disjoint = 0, shared = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const auto paths = gen::path_system(topo, s, t, 4)(rc::Random(seed), 100).value();
    if (paths.size() < 2) continue;
    (check_internally_node_disjoint(paths).has_value() ? shared : disjoint) += 1;
  }
  EXPECT_GT(disjoint, 10);
  EXPECT_GT(shared, 10);
}

TEST(PathSystemGenerator, EveryShrinkIsAValidSystemAndTheChainEndsAtOneShortestPath) {
  const auto topo = std::make_shared<metacube::Metacube>(*metacube::Metacube::make(1, 2));
  const Node s = topo->node_at(0), t = topo->node_at(27);
  rc::Shrinkable<std::vector<Path>> system = gen::path_system(topo, s, t, 6)(rc::Random(5), 100);
  for (int steps = 0;; ++steps) {
    ASSERT_LT(steps, 1000);
    auto shrinks = system.shrinks();
    while (auto candidate = shrinks.next())
      EXPECT_FALSE(check_paths_valid_simple(*topo, candidate->value(), s, t).has_value());
    auto first = system.shrinks().next();
    if (!first) break;
    system = *first;
  }
  ASSERT_EQ(system.value().size(), 1u);
  EXPECT_EQ(system.value().front().length(), gen::internal::shortest_path_avoiding(*topo, s, t, {})->length());
}

TEST(CoreGenerators, AreDeterministicGivenTheRandomAndSize) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    const rc::Random random(seed);
    EXPECT_EQ(gen::node(40)(random, 50).value(), gen::node(40)(random, 50).value());
    EXPECT_EQ(gen::subcube(9)(random, 50).value(), gen::subcube(9)(random, 50).value());
    EXPECT_EQ(gen::path(5, 7)(random, 50).value(), gen::path(5, 7)(random, 50).value());
    EXPECT_EQ(gen::node_set(6, 20)(random, 50).value(), gen::node_set(6, 20)(random, 50).value());
    const auto q4 = std::make_shared<hypercube::Hypercube>(*hypercube::Hypercube::make(4));
    const auto a = gen::path_system(q4, Node{0, 4}, Node{15, 4}, 5)(random, 50).value();
    const auto b = gen::path_system(q4, Node{0, 4}, Node{15, 4}, 5)(random, 50).value();
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) EXPECT_EQ(a[k].nodes, b[k].nodes);
  }
}

TEST(CoreGenerators, ShrinkTowardZeroBits) {
  // Walk the first shrink until none is left: the end of every chain is the all-zero value.
  rc::Shrinkable<Node> node = gen::node(20)(rc::Random(7), 100);
  while (auto next = node.shrinks().next()) node = *next;
  EXPECT_EQ(node.value(), (Node{0, 20}));

  rc::Shrinkable<Subcube> cube = gen::subcube(12)(rc::Random(7), 100);
  while (auto next = cube.shrinks().next()) cube = *next;
  EXPECT_EQ(cube.value(), (Subcube{0, 0, 12}));

  rc::Shrinkable<Path> path = gen::path(6, 10)(rc::Random(11), 100);
  while (auto next = path.shrinks().next()) path = *next;
  EXPECT_EQ(path.value(), (Path{{Node{0, 6}}}));

  rc::Shrinkable<std::vector<Node>> set = gen::node_set(8, 30)(rc::Random(13), 100);
  ASSERT_FALSE(set.value().empty());
  while (auto next = set.shrinks().next()) set = *next;
  EXPECT_TRUE(set.value().empty());
}

TEST(CoreGenerators, WidthShrinksTowardOne) {
  rc::Shrinkable<int> width = gen::width(63)(rc::Random(3), 100);
  while (auto next = width.shrinks().next()) width = *next;
  EXPECT_EQ(width.value(), 1);
}

}  // namespace
}  // namespace topocheck
