// ITM construction and the naive checkers of src/itm, with a negative control for every check.
#include <gtest/gtest.h>

#include "itm/itm.h"
#include "itm/itm_checks.h"

namespace topocheck::itm {
namespace {

Itm build(const std::string& text, Rule rule) {
  auto steps = parse_steps(text);
  EXPECT_TRUE(steps.ok()) << steps.error().message;
  auto itm = Itm::build(*steps, rule);
  EXPECT_TRUE(itm.ok()) << itm.error().message;
  return *itm;
}

// Two nodes both on the kernel edge (0,1): a 2-tree that is no triangulated polygon.
constexpr const char* kDoubleEar = "3:(0,1) 4:(0,1)";

TEST(Itm, ParsesAndPrintsSteps) {
  auto steps = parse_steps(" 3:(0,1)  4:(1,3) 5:(0,3) ");
  ASSERT_TRUE(steps.ok());
  EXPECT_EQ(to_string(*steps), "3:(0,1) 4:(1,3) 5:(0,3)");
  EXPECT_TRUE(parse_steps("").ok());
  // Each malformed step is named with what is missing, also where the token ends early.
  const std::pair<const char*, const char*> bad_steps[] = {
      {"3:(0,1", "missing ')'"},           {"3(0,1)", "missing ':'"},      {"3:(0;1)", "missing ','"},
      {"x:(0,1)", "no node number"},       {"3:(0,1)x", "text after ')'"}, {"3", "missing ':'"},
      {"3:", "missing '('"},               {"3:(", "no first endpoint"},   {"3:(0,)", "no second endpoint"},
      {"3:0,1)", "missing '('"}};
  for (const auto& [bad, why] : bad_steps) {
    auto r = parse_steps(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("step 1"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(why), std::string::npos) << r.error().message;
  }
}

// The ITM keeps its steps as given: an edge's endpoints in the order written.
TEST(Itm, KeepsTheStepsAsWritten) {
  for (const char* text : {"3:(0,1) 4:(1,3) 5:(0,3)", "3:(1,0) 4:(3,1) 5:(3,0)"}) {
    const Itm itm = build(text, Rule::kExterior);
    EXPECT_EQ(to_string(itm.steps()), text);
  }
}

TEST(Itm, FromEdgesRejectsEndpointsOutsideTheGraph) {
  EXPECT_TRUE(Graph::from_edges(3, {{0, 2}}).ok());
  for (const std::pair<int, int>& e : std::vector<std::pair<int, int>>{{0, 3}, {3, 0}, {-1, 0}, {0, -1}}) {
    auto r = Graph::from_edges(3, {e});
    ASSERT_FALSE(r.ok()) << e.first << "," << e.second;
    EXPECT_NE(r.error().message.find("outside 0..2"), std::string::npos) << r.error().message;
  }
}

TEST(Itm, BuildErrorsNameTheStep) {
  auto wrong_node = Itm::build(*parse_steps("3:(0,1) 5:(0,1)"), Rule::kAnyEdge);
  ASSERT_FALSE(wrong_node.ok());
  EXPECT_NE(wrong_node.error().message.find("step 2"), std::string::npos);
  auto no_edge = Itm::build(*parse_steps("3:(0,1) 4:(2,3)"), Rule::kAnyEdge);
  ASSERT_FALSE(no_edge.ok());
  EXPECT_NE(no_edge.error().message.find("not an edge"), std::string::npos);
  // (0,1) is interior after the first step: fine for any-edge, an error for exterior.
  EXPECT_TRUE(Itm::build(*parse_steps(kDoubleEar), Rule::kAnyEdge).ok());
  auto interior = Itm::build(*parse_steps(kDoubleEar), Rule::kExterior);
  ASSERT_FALSE(interior.ok());
  EXPECT_NE(interior.error().message.find("step 2"), std::string::npos);
  // An endpoint that is the node being added (or later) is no existing node, either side.
  for (const char* text : {"3:(3,0)", "3:(0,3)", "3:(0,4)", "3:(4,1)"}) {
    auto r = Itm::build(*parse_steps(text), Rule::kAnyEdge);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().message.find("needs two existing nodes (0..2)"), std::string::npos) << r.error().message;
  }
  EXPECT_NE(interior.error().message.find("interior"), std::string::npos);
}

TEST(Itm, MarkingAndCircularOrder) {
  const Itm itm = build("3:(0,1) 4:(1,3) 5:(0,3)", Rule::kExterior);
  EXPECT_EQ(itm.graph().num_edges(), 9);
  EXPECT_EQ(itm.exterior_edges().size(), 6u);
  EXPECT_EQ(itm.interior_edges(), (std::vector<std::pair<int, int>>{{0, 1}, {0, 3}, {1, 3}}));
  auto order = circular_order(itm);
  ASSERT_TRUE(order.ok()) << order.error().message;
  EXPECT_EQ(*order, (std::vector<int>{0, 2, 1, 4, 3, 5}));
  // Negative control: under any-edge the double ear's exterior edges are no cycle.
  const Itm bad = build(kDoubleEar, Rule::kAnyEdge);
  EXPECT_FALSE(circular_order(bad).ok());
  EXPECT_TRUE(check_lemma4_cycle(bad).has_value());
  EXPECT_TRUE(check_lemma4_counts(bad).has_value());  // 6 exterior edges on 5 nodes
  EXPECT_FALSE(check_lemma4_counts(itm).has_value());
  EXPECT_FALSE(check_lemma4_cycle(itm).has_value());
}

TEST(ItmChecks, PlanarAndEdgeCount) {
  EXPECT_FALSE(check_planar(build("3:(0,1) 4:(0,1) 5:(0,1)", Rule::kAnyEdge).graph()));
  EXPECT_TRUE(check_planar(complete_graph(5)).has_value());        // negative control: K5
  EXPECT_TRUE(check_planar(complete_bipartite(3, 3)).has_value());  // and K_{3,3}
  EXPECT_FALSE(check_edge_count(build(kDoubleEar, Rule::kAnyEdge).graph()));
  EXPECT_TRUE(check_edge_count(cycle_graph(5)).has_value());
}

TEST(ItmChecks, CycleChordMeanings) {
  const Graph g = build("3:(0,1) 4:(1,3) 5:(0,3)", Rule::kExterior).graph();
  EXPECT_FALSE(check_cycle_chord(g, ChordMeaning::kAlongCycle));
  EXPECT_TRUE(check_cycle_chord(g, ChordMeaning::kAlongCycleLiteral).has_value());  // the kernel triangle
  EXPECT_TRUE(check_cycle_chord(g, ChordMeaning::kGraphDistance).has_value());
  EXPECT_TRUE(check_cycle_chord(cycle_graph(4), ChordMeaning::kAlongCycle).has_value());  // negative control
  EXPECT_EQ(simple_cycles(complete_graph(4)).size(), 7u);  // 4 triangles + 3 four-cycles
  // Under the graph-distance meaning an edge never joins two nodes at distance 2, so every cycle
  // fails, this graph's one triangle too: the distance read is that of the edge's own two ends
  // (node 0 lies at distance 2 from the pendant node 1, which is on no cycle).
  const Graph pendant = Graph::from_edges(4, {{0, 2}, {2, 3}, {3, 0}, {1, 3}}).value();
  const auto v = check_cycle_chord(pendant, ChordMeaning::kGraphDistance);
  ASSERT_TRUE(v.has_value());
  EXPECT_NE(v->find("of length 3 has no edge joining two of its nodes at distance 2"), std::string::npos) << *v;
}

TEST(ItmChecks, DeadlockNegativeControls) {
  EXPECT_TRUE(check_deadlock_free(cycle_graph(4)).has_value());
  EXPECT_TRUE(check_deadlock_free(complete_bipartite(2, 3)).has_value());
  EXPECT_TRUE(check_deadlock_free(grid_graph(3, 3)).has_value());
  EXPECT_FALSE(check_deadlock_free(build(kDoubleEar, Rule::kAnyEdge).graph()));
  EXPECT_FALSE(check_deadlock_free(build("3:(0,1) 4:(1,3) 5:(0,3) 6:(3,4)", Rule::kExterior).graph()));
}

TEST(ItmChecks, ContentionNegativeControl) {
  // C6 in its own order is contention-free; in a scrambled order (0, 3, 1, 4, 2, 5) the messages
  // 0->3 and 1->4 are independent but both can run 1->2 (negative control).
  const Graph c6 = cycle_graph(6);
  EXPECT_FALSE(check_contention_free(c6, {0, 1, 2, 3, 4, 5}, Contention::kPaper));
  // An order of the wrong length is named as such (not as a non-permutation).
  EXPECT_EQ(check_contention_free(c6, {0, 1, 2, 3, 4}, Contention::kPaper), "the order has 5 nodes, the graph 6");
  EXPECT_EQ(check_contention_free(c6, {0, 1, 2, 3, 4, 5, 0}, Contention::kPaper), "the order has 7 nodes, the graph 6");
  ContentionWitness witness;
  auto v = check_contention_free(c6, {0, 3, 1, 4, 2, 5}, Contention::kPaper, &witness);
  ASSERT_TRUE(v.has_value());
  EXPECT_FALSE(witness.first.empty());
  EXPECT_FALSE(witness.second.empty());
  const Itm itm = build("3:(0,1) 4:(1,3) 5:(0,3)", Rule::kExterior);
  auto order = circular_order(itm);
  EXPECT_FALSE(check_contention_free(itm.graph(), *order, Contention::kPaper));
  // Three components: unreachable pairs have no shortest path and use no channel (this used to
  // count -1 + 1 + -1 = -1 as "on a shortest path" and loop building the witness).
  const Graph parts = *Graph::from_edges(6, {{0, 1}, {2, 3}, {4, 5}});
  for (Contention c : {Contention::kPaper, Contention::kReversed, Contention::kUndirected, Contention::kSharedEndpoint})
    EXPECT_FALSE(check_contention_free(parts, {0, 1, 2, 3, 4, 5}, c));
  EXPECT_TRUE(check_broadcast(parts, {0, 1, 2, 3, 4, 5}, broadcast_from({0, 1, 2, 3, 4, 5}, 0)).has_value());
}

TEST(ItmChecks, BroadcastSchedule) {
  const Rounds r = recursive_broadcast({10, 11, 12, 13, 14});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0], (std::vector<std::pair<int, int>>{{10, 12}}));
  const Itm itm = build("3:(0,1) 4:(1,3) 5:(0,3)", Rule::kExterior);
  auto order = *circular_order(itm);
  for (int s = 0; s < itm.n(); ++s) {
    auto rounds = broadcast_from(order, s);
    std::vector<int> list(order);
    std::rotate(list.begin(), std::find(list.begin(), list.end(), s), list.end());
    EXPECT_FALSE(check_broadcast(itm.graph(), list, rounds)) << s;
  }
  // Negative controls: a schedule that sends from a node without the message, and one whose two
  // messages of a round cross on C6.
  const Graph c6 = cycle_graph(6);
  EXPECT_TRUE(check_broadcast(c6, {0, 1, 2, 3, 4, 5}, Rounds{{{1, 2}}}).has_value());
  EXPECT_TRUE(
      check_broadcast(c6, {0, 1, 2, 3, 4, 5}, Rounds{{{0, 3}}, {{0, 2}, {3, 1}}, {{0, 1}, {2, 4}, {3, 5}}}).has_value());
}

}  // namespace
}  // namespace topocheck::itm
