// Theorem 3 of the ITM paper (itm/theorem3.h): geng's output against the known counts, graph6,
// the deciders on hand-made graphs and against dumber brute force, and the verdict of each
// combination of readings over every graph on up to 7 nodes. Needs nauty's geng on PATH.
//
// Brute-force oracles (test-only, slower and simpler than the library's):
//  - spanning ITM: every subset of g's edges with 2n - 3 edges, judged by peeling: a graph is a
//    2-tree iff removing degree-2 nodes whose two neighbours are adjacent, in any order, ends in
//    a triangle. (Any order: if v has degree 2 in a 2-tree H on >= 4 nodes, no step used an edge
//    at v, or v's degree would exceed 2; so dropping v's own step, or, when v is a kernel node
//    {v, a, b}, making the node of the first step (which used (a, b)) a kernel node instead,
//    rebuilds H - v. Reversing a successful peeling gives AddNode steps.)
//    Under kExterior the subset must also be outerplanar: some cyclic order of the nodes in which
//    no two of its edges cross (with 2n - 3 edges: a maximal outerplanar graph).
//  - crossings: the nodes as points on the unit circle, segments intersecting properly by
//    orientation signs (no three points of a circle are collinear).
//  - planar-drawing: every inside/outside assignment of the chords, without the 3n - 6 filter.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "itm/theorem3.h"

namespace topocheck::itm {
namespace {

using Edges = std::vector<std::pair<int, int>>;

Graph graph_of(int n, const Edges& edges) {
  auto g = Graph::from_edges(n, edges);
  EXPECT_TRUE(g.ok()) << g.error().message;
  return std::move(g).value();
}

std::vector<Graph> geng(int n) {
  auto graphs = all_graphs(n, false);
  EXPECT_TRUE(graphs.ok()) << graphs.error().to_string();
  return graphs.ok() ? std::move(graphs).value() : std::vector<Graph>{};
}

// Hub 0 joined to the path 1 - 2 - ... - (n-1): a triangulated polygon.
Graph fan(int n) {
  Edges edges;
  for (int v = 1; v < n; ++v) edges.emplace_back(0, v);
  for (int v = 1; v + 1 < n; ++v) edges.emplace_back(v, v + 1);
  return graph_of(n, edges);
}

// Triangle 0 1 2, then 3 and 4 both added at (0, 1): a 2-tree, not Hamiltonian (removing 0 and 1
// leaves three components).
Graph k113() { return graph_of(5, {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {0, 4}, {1, 4}}); }
Graph diamond() { return graph_of(4, {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {2, 3}}); }
Graph octahedron() {  // K_{2,2,2}: every pair adjacent except (0,1), (2,3), (4,5)
  Edges edges;
  for (int u = 0; u < 6; ++u)
    for (int v = u + 1; v < 6; ++v)
      if (v != u + 1 || u % 2 != 0) edges.emplace_back(u, v);
  return graph_of(6, edges);
}
Graph petersen() {
  Edges edges;
  for (int i = 0; i < 5; ++i) {
    edges.emplace_back(i, (i + 1) % 5);
    edges.emplace_back(i, i + 5);
    edges.emplace_back(5 + i, 5 + (i + 2) % 5);
  }
  return graph_of(10, edges);
}

// The witness is an ITM of g under its rule, replayed by itm.cc, spanning g's nodes.
void expect_valid_witness(const Graph& g, const SpanningItm& w, Rule rule) {
  ASSERT_EQ(w.rule, rule);
  std::vector<int> sorted = w.order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> identity(static_cast<size_t>(g.n()));
  std::iota(identity.begin(), identity.end(), 0);
  ASSERT_EQ(sorted, identity) << "order is not a permutation of g's nodes: " << g.to_string();
  auto itm = Itm::build(w.steps, rule);
  ASSERT_TRUE(itm.ok()) << itm.error().message << " for " << g.to_string();
  Edges mapped;
  for (const auto& [a, b] : itm->graph().edges()) {
    const int u = w.order[static_cast<size_t>(a)], v = w.order[static_cast<size_t>(b)];
    EXPECT_TRUE(g.adjacent(u, v)) << "witness edge (" << u << "," << v << ") not in " << g.to_string();
    mapped.emplace_back(std::min(u, v), std::max(u, v));
  }
  std::sort(mapped.begin(), mapped.end());
  EXPECT_EQ(mapped, w.edges);
  EXPECT_EQ(static_cast<int>(w.edges.size()), 2 * g.n() - 3);
}

// ---------------------------------------------------------------------------------------------
// Brute force

bool is_two_tree_by_peeling(int n, const Edges& edges) {
  std::vector<std::vector<char>> adj(static_cast<size_t>(n), std::vector<char>(static_cast<size_t>(n), 0));
  for (const auto& [u, v] : edges) adj[static_cast<size_t>(u)][static_cast<size_t>(v)] = adj[static_cast<size_t>(v)][static_cast<size_t>(u)] = 1;
  std::vector<char> alive(static_cast<size_t>(n), 1);
  for (int left = n; left > 3; --left) {
    bool peeled = false;
    for (int v = 0; v < n && !peeled; ++v) {
      if (!alive[static_cast<size_t>(v)]) continue;
      std::vector<int> nb;
      for (int w = 0; w < n; ++w)
        if (alive[static_cast<size_t>(w)] && adj[static_cast<size_t>(v)][static_cast<size_t>(w)]) nb.push_back(w);
      if (nb.size() == 2 && adj[static_cast<size_t>(nb[0])][static_cast<size_t>(nb[1])]) {
        alive[static_cast<size_t>(v)] = 0;
        peeled = true;
      }
    }
    if (!peeled) return false;
  }
  std::vector<int> rest;
  for (int v = 0; v < n; ++v)
    if (alive[static_cast<size_t>(v)]) rest.push_back(v);
  return rest.size() == 3 && adj[static_cast<size_t>(rest[0])][static_cast<size_t>(rest[1])] &&
         adj[static_cast<size_t>(rest[0])][static_cast<size_t>(rest[2])] && adj[static_cast<size_t>(rest[1])][static_cast<size_t>(rest[2])];
}

// Points on the unit circle in the order `cycle`; proper intersection of segments by orientation.
struct Drawing {
  std::vector<double> x, y;
  explicit Drawing(const std::vector<int>& cycle) : x(cycle.size()), y(cycle.size()) {
    const double pi = std::acos(-1.0);
    for (size_t i = 0; i < cycle.size(); ++i) {
      const double angle = 2 * pi * static_cast<double>(i) / static_cast<double>(cycle.size());
      x[static_cast<size_t>(cycle[i])] = std::cos(angle);
      y[static_cast<size_t>(cycle[i])] = std::sin(angle);
    }
  }
  int orientation(int a, int b, int c) const {
    const double d = (x[size_t(b)] - x[size_t(a)]) * (y[size_t(c)] - y[size_t(a)]) -
                     (y[size_t(b)] - y[size_t(a)]) * (x[size_t(c)] - x[size_t(a)]);
    return d > 1e-12 ? 1 : d < -1e-12 ? -1 : 0;
  }
  bool cross(std::pair<int, int> e, std::pair<int, int> f) const {
    const auto [a, b] = e;
    const auto [c, d] = f;
    if (a == c || a == d || b == c || b == d) return false;  // touching at an end is not crossing
    return orientation(a, b, c) * orientation(a, b, d) < 0 && orientation(c, d, a) * orientation(c, d, b) < 0;
  }
};

bool outerplanar_by_orders(int n, const Edges& edges) {
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  do {
    const Drawing d(order);
    bool crossing = false;
    for (size_t i = 0; i < edges.size() && !crossing; ++i)
      for (size_t j = i + 1; j < edges.size() && !crossing; ++j) crossing = d.cross(edges[i], edges[j]);
    if (!crossing) return true;
  } while (std::next_permutation(order.begin() + 1, order.end()));
  return false;
}

bool spanning_itm_brute_force(const Graph& g, Rule rule) {
  const int n = g.n();
  if (n < 3) return false;
  const Edges all = g.edges();
  const int k = 2 * n - 3;
  if (static_cast<int>(all.size()) < k) return false;
  std::vector<char> pick(all.size(), 0);
  std::fill(pick.end() - k, pick.end(), 1);
  do {
    Edges subset;
    for (size_t i = 0; i < all.size(); ++i)
      if (pick[i]) subset.push_back(all[i]);
    if (!is_two_tree_by_peeling(n, subset)) continue;
    if (rule == Rule::kAnyEdge || outerplanar_by_orders(n, subset)) return true;
  } while (std::next_permutation(pick.begin(), pick.end()));
  return false;
}

bool every_non_edge_crosses_geometric(const Graph& g, const Drawing& d, const Edges& edges) {
  for (int u = 0; u < g.n(); ++u)
    for (int v = u + 1; v < g.n(); ++v) {
      if (g.adjacent(u, v)) continue;
      if (std::none_of(edges.begin(), edges.end(), [&](auto e) { return d.cross({u, v}, e); })) return false;
    }
  return true;
}

bool totally_triangulated_geometric(const Graph& g, const std::vector<int>& cycle, TriangulatedReading reading) {
  const Drawing d(cycle);
  const Edges edges = g.edges();
  auto non_crossing = [&](const Edges& es) {
    for (size_t i = 0; i < es.size(); ++i)
      for (size_t j = i + 1; j < es.size(); ++j)
        if (d.cross(es[i], es[j])) return false;
    return true;
  };
  switch (reading) {
    case TriangulatedReading::kEveryChordCrosses:
      return every_non_edge_crosses_geometric(g, d, edges);
    case TriangulatedReading::kMaximalOuterplanar:
      return non_crossing(edges) && every_non_edge_crosses_geometric(g, d, edges);
    case TriangulatedReading::kPlanarDrawing: {
      // Every assignment of every chord to inside or outside (the sides of C are the circle's
      // arcs, on neither side; as segments they would cross nothing anyway).
      Edges chords;
      for (const auto& e : edges) {
        const auto at = [&](int v) { return std::find(cycle.begin(), cycle.end(), v) - cycle.begin(); };
        const long gap = std::abs(at(e.first) - at(e.second));
        if (gap != 1 && gap != g.n() - 1) chords.push_back(e);
      }
      for (uint32_t mask = 0; mask < (uint32_t{1} << chords.size()); ++mask) {
        Edges inside, outside;
        for (size_t i = 0; i < chords.size(); ++i) (mask >> i & 1u ? inside : outside).push_back(chords[i]);
        if (non_crossing(inside) && non_crossing(outside) && every_non_edge_crosses_geometric(g, d, inside) &&
            every_non_edge_crosses_geometric(g, d, outside))
          return true;
      }
      return false;
    }
  }
  return false;
}

std::vector<std::vector<int>> hamiltonian_cycles_by_permutations(const Graph& g) {
  std::vector<std::vector<int>> out;
  const int n = g.n();
  if (n < 3) return out;
  std::vector<int> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  do {
    if (p[1] > p[static_cast<size_t>(n - 1)]) continue;
    bool cycle = true;
    for (int i = 0; i < n && cycle; ++i) cycle = g.adjacent(p[static_cast<size_t>(i)], p[static_cast<size_t>((i + 1) % n)]);
    if (cycle) out.push_back(p);
  } while (std::next_permutation(p.begin() + 1, p.end()));
  return out;
}

// ---------------------------------------------------------------------------------------------
// geng and graph6

TEST(Theorem3Geng, GraphCountsMatchOeis) {
  // OEIS A000088 (all graphs) and A001349 (connected graphs), n = 1..8.
  const long all[] = {1, 2, 4, 11, 34, 156, 1044, 12346};
  const long connected[] = {1, 1, 2, 6, 21, 112, 853, 11117};
  for (int n = 1; n <= 8; ++n) {
    auto a = all_graphs(n, false);
    auto c = all_graphs(n, true);
    ASSERT_TRUE(a.ok()) << a.error().to_string();
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    EXPECT_EQ(static_cast<long>(a->size()), all[n - 1]) << "n=" << n;
    EXPECT_EQ(static_cast<long>(c->size()), connected[n - 1]) << "n=" << n;
    for (const Graph& g : *a) ASSERT_EQ(g.n(), n);
  }
}

TEST(Theorem3Geng, SizesOutsideTheRangeAreErrors) {
  EXPECT_EQ(all_graphs(0, false).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(all_graphs(kMaxGengNodes + 1, false).error().code, ErrorCode::kInvalidArgument);
}

TEST(Theorem3Geng, MissingProgramIsANotFoundError) {
  const char* old = std::getenv("PATH");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("PATH", "/nonexistent-topocheck-dir", 1);
  auto graphs = all_graphs(4, false);
  if (old != nullptr) ::setenv("PATH", saved.c_str(), 1); else ::unsetenv("PATH");
  ASSERT_FALSE(graphs.ok());
  EXPECT_EQ(graphs.error().code, ErrorCode::kNotFound);
  EXPECT_NE(graphs.error().message.find("nauty"), std::string::npos) << graphs.error().message;
}

TEST(Theorem3Graph6, FormatsTxtExampleParsesAndPrints) {
  // nauty's formats.txt: n = 5 with edges 0-2, 0-4, 1-3, 3-4 is "DQc".
  auto g = parse_graph6("DQc");
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->edges(), (Edges{{0, 2}, {0, 4}, {1, 3}, {3, 4}}));
  EXPECT_EQ(to_graph6(*g), "DQc");
  EXPECT_EQ(to_graph6(complete_graph(4)), "C~");
  EXPECT_EQ(to_graph6(Graph(0)), "?");
  EXPECT_EQ(to_graph6(Graph(1)), "@");
}

TEST(Theorem3Graph6, PrintThenParseIsTheIdentityOnEveryGraphUpTo7Nodes) {
  for (int n = 1; n <= 7; ++n)
    for (const Graph& g : geng(n)) {
      auto back = parse_graph6(to_graph6(g));
      ASSERT_TRUE(back.ok()) << back.error().message;
      EXPECT_EQ(*back, g);
    }
}

TEST(Theorem3Graph6, ErrorsNameTheLine) {
  auto ok = parse_graph6_lines(">>graph6<<C~\nDQc\n", "in.g6");
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_EQ(ok->size(), 2u);
  EXPECT_EQ(parse_graph6_lines("", "in.g6")->size(), 0u);

  auto bad_length = parse_graph6_lines("C~\nDQ\n", "in.g6");
  ASSERT_FALSE(bad_length.ok());
  EXPECT_EQ(bad_length.error().code, ErrorCode::kParse);
  EXPECT_EQ(bad_length.error().line, 2);
  EXPECT_EQ(bad_length.error().file, "in.g6");
  EXPECT_EQ(bad_length.error().to_string().rfind("in.g6:2: error: ", 0), 0u) << bad_length.error().to_string();

  EXPECT_EQ(parse_graph6_lines("C~\n\nC~\n", "x").error().line, 2);        // empty line
  EXPECT_EQ(parse_graph6_lines("C~\nC~\r\n", "x").error().line, 2);        // stray CR
  EXPECT_EQ(parse_graph6_lines("C~\nC~\nC\x7f", "x").error().line, 3);    // byte outside '?'..'~'
  EXPECT_EQ(parse_graph6("Bw")->num_edges(), 3);  // K3: bits 111, padding 000
  EXPECT_EQ(parse_graph6("Bo")->num_edges(), 2);  // the path 1 - 0 - 2: 110, padding 000
  EXPECT_NE(parse_graph6("Bx").error().message.find("padding"), std::string::npos);  // 111001
  EXPECT_NE(parse_graph6("DQ").error().message.find("bytes"), std::string::npos);
  EXPECT_NE(parse_graph6(":Fa@x^").error().message.find("sparse6"), std::string::npos);
  EXPECT_NE(parse_graph6("~?@?").error().message.find("not supported"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Hamiltonian cycles

TEST(Theorem3Hamiltonian, CountsOfKnownGraphs) {
  const long factorial_half[] = {0, 0, 0, 1, 3, 12, 60, 360, 2520};  // (n-1)!/2
  for (int n = 3; n <= 8; ++n) EXPECT_EQ(static_cast<long>(hamiltonian_cycles(complete_graph(n)).size()), factorial_half[n]);
  for (int n = 3; n <= 8; ++n) {
    const auto cycles = hamiltonian_cycles(cycle_graph(n));
    ASSERT_EQ(cycles.size(), 1u);
    std::vector<int> expected(static_cast<size_t>(n));
    std::iota(expected.begin(), expected.end(), 0);
    EXPECT_EQ(cycles[0], expected);
  }
  EXPECT_EQ(hamiltonian_cycles(complete_bipartite(3, 3)).size(), 6u);  // (3!)^2 / 6
  EXPECT_TRUE(hamiltonian_cycles(petersen()).empty());
  EXPECT_TRUE(hamiltonian_cycles(k113()).empty());
  EXPECT_TRUE(hamiltonian_cycles(complete_graph(2)).empty());
}

TEST(Theorem3Hamiltonian, MatchesPermutationsOnEveryGraphUpTo7Nodes) {
  for (int n = 1; n <= 7; ++n)
    for (const Graph& g : geng(n)) {
      auto cycles = hamiltonian_cycles(g);
      std::sort(cycles.begin(), cycles.end());
      ASSERT_EQ(cycles, hamiltonian_cycles_by_permutations(g)) << g.to_string();
    }
}

// ---------------------------------------------------------------------------------------------
// The deciders on hand-made graphs

struct Expected {
  const char* name;
  Graph g;
  bool any_edge, exterior;  // spanning ITM under the rule
  bool every_chord_crosses, maximal_outerplanar, planar_drawing;  // rhs under the reading
};

TEST(Theorem3Deciders, HandMadeGraphs) {
  std::vector<Expected> cases = {
      {"C3", cycle_graph(3), true, true, true, true, true},
      {"C4", cycle_graph(4), false, false, false, false, false},
      {"C7", cycle_graph(7), false, false, false, false, false},
      {"diamond", diamond(), true, true, true, true, false},
      {"K4", complete_graph(4), true, true, true, false, true},
      {"K5", complete_graph(5), true, true, true, false, false},
      {"K_{1,1,3}", k113(), true, false, false, false, false},
      {"K_{3,3}", complete_bipartite(3, 3), false, false, true, false, false},
      {"fan 6", fan(6), true, true, true, true, false},
      {"fan 8", fan(8), true, true, true, true, false},
      {"octahedron", octahedron(), true, true, true, false, true},
      {"3x3 grid", grid_graph(3, 3), false, false, false, false, false},
      {"petersen", petersen(), false, false, false, false, false},
  };
  for (const Expected& c : cases) {
    SCOPED_TRACE(c.name);
    for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
      const bool expected = rule == Rule::kAnyEdge ? c.any_edge : c.exterior;
      const auto found = spanning_itm(c.g, rule);
      EXPECT_EQ(found.has_value(), expected) << to_string(rule);
      EXPECT_EQ(spanning_itm_by_search(c.g, rule).has_value(), expected) << to_string(rule);
      if (found) expect_valid_witness(c.g, *found, rule);
    }
    const bool expected_rhs[] = {c.every_chord_crosses, c.maximal_outerplanar, c.planar_drawing};
    for (TriangulatedReading reading : kTriangulatedReadings) {
      std::vector<int> cycle;
      const bool holds = rhs(c.g, reading, &cycle);
      EXPECT_EQ(holds, expected_rhs[static_cast<size_t>(reading)]) << to_string(reading);
      if (holds) {
        EXPECT_TRUE(totally_triangulated(c.g, cycle, reading));
      }
    }
  }
}

TEST(Theorem3Deciders, K4OnTheSquareHasCrossingDiagonals) {
  const Graph k4 = complete_graph(4);
  EXPECT_TRUE(totally_triangulated(k4, {0, 1, 2, 3}, TriangulatedReading::kEveryChordCrosses));
  EXPECT_FALSE(totally_triangulated(k4, {0, 1, 2, 3}, TriangulatedReading::kMaximalOuterplanar));
  EXPECT_TRUE(totally_triangulated(k4, {0, 1, 2, 3}, TriangulatedReading::kPlanarDrawing));
  const auto w = spanning_itm(k4, Rule::kExterior);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->order, (std::vector<int>{0, 1, 3, 2}));
  EXPECT_EQ(to_string(w->steps), "3:(1,2)");
  // Cycle 0 1 2 3, kernel {0, 1, 3} on the side (3, 0), then 2 at (1, 3): K4 minus (0, 2).
  EXPECT_EQ(w->edges, (Edges{{0, 1}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}));
}

TEST(Theorem3Deciders, K33IsTotallyTriangulatedOnlyOnAHexagonWithItsLongDiagonals) {
  // Parts {0,1,2} and {3,4,5}; around the hexagon 0 3 1 4 2 5 the other edges are the long
  // diagonals (0,4), (1,5), (2,3), and each short diagonal crosses one of them.
  const Graph k33 = complete_bipartite(3, 3);
  EXPECT_TRUE(totally_triangulated(k33, {0, 3, 1, 4, 2, 5}, TriangulatedReading::kEveryChordCrosses));
  EXPECT_FALSE(totally_triangulated(k33, {0, 3, 1, 4, 2, 5}, TriangulatedReading::kMaximalOuterplanar));
  EXPECT_FALSE(totally_triangulated(k33, {0, 3, 1, 4, 2, 5}, TriangulatedReading::kPlanarDrawing));
}

TEST(Theorem3Deciders, ReadingNamesRoundTrip) {
  for (TriangulatedReading r : kTriangulatedReadings) EXPECT_EQ(parse_triangulated_reading(to_string(r)), r);
  EXPECT_FALSE(parse_triangulated_reading("literal"));
}

// ---------------------------------------------------------------------------------------------
// The deciders against brute force

TEST(Theorem3Deciders, SpanningItmMatchesEdgeSubsetsUpTo7Nodes) {
  for (int n = 1; n <= 7; ++n)
    for (const Graph& g : geng(n))
      for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
        const auto found = spanning_itm(g, rule);
        ASSERT_EQ(found.has_value(), spanning_itm_brute_force(g, rule)) << to_string(rule) << " " << g.to_string();
        if (found) expect_valid_witness(g, *found, rule);
      }
}

TEST(Theorem3Deciders, BothExteriorDecidersAgreeAndWitnessesReplayUpTo8Nodes) {
  for (int n = 1; n <= 8; ++n)
    for (const Graph& g : geng(n)) {
      const auto by_cycles = spanning_itm(g, Rule::kExterior);
      const auto by_search = spanning_itm_by_search(g, Rule::kExterior);
      ASSERT_EQ(by_cycles.has_value(), by_search.has_value()) << g.to_string();
      if (by_cycles) expect_valid_witness(g, *by_cycles, Rule::kExterior);
      if (by_search) expect_valid_witness(g, *by_search, Rule::kExterior);
      const auto any = spanning_itm(g, Rule::kAnyEdge);
      if (by_cycles) {
        ASSERT_TRUE(any) << "a maximal outerplanar graph is a 2-tree: " << g.to_string();
      }
      if (any) expect_valid_witness(g, *any, Rule::kAnyEdge);
    }
}

TEST(Theorem3Deciders, UnlabelledTwoTreesAndTriangulatedPolygonsAreCounted) {
  // Graphs with exactly 2n - 3 edges that are their own spanning ITM: unlabelled 2-trees
  // (OEIS A054581) and triangulated polygons up to symmetry (A000207), n = 3..8.
  const long two_trees[] = {1, 1, 2, 5, 12, 39};
  const long polygons[] = {1, 1, 1, 3, 4, 12};
  for (int n = 3; n <= 8; ++n) {
    long t = 0, p = 0;
    for (const Graph& g : geng(n)) {
      if (g.num_edges() != 2 * n - 3) continue;
      t += spanning_itm(g, Rule::kAnyEdge).has_value();
      p += spanning_itm(g, Rule::kExterior).has_value();
    }
    EXPECT_EQ(t, two_trees[n - 3]) << "n=" << n;
    EXPECT_EQ(p, polygons[n - 3]) << "n=" << n;
  }
}

TEST(Theorem3Deciders, TotallyTriangulatedMatchesGeometryOnEveryCycleUpTo6Nodes) {
  for (int n = 3; n <= 6; ++n)
    for (const Graph& g : geng(n))
      for (const auto& cycle : hamiltonian_cycles(g))
        for (TriangulatedReading reading : kTriangulatedReadings)
          ASSERT_EQ(totally_triangulated(g, cycle, reading), totally_triangulated_geometric(g, cycle, reading))
              << to_string(reading) << " " << g.to_string();
}

TEST(Theorem3Deciders, TotallyTriangulatedAnyStartAndDirection) {
  // The same cycle, rotated and reversed, gives the same verdicts.
  for (const Graph& g : geng(6))
    for (const auto& cycle : hamiltonian_cycles(g))
      for (TriangulatedReading reading : kTriangulatedReadings) {
        std::vector<int> other(cycle.rbegin(), cycle.rend());
        std::rotate(other.begin(), other.begin() + 2, other.end());
        ASSERT_EQ(totally_triangulated(g, cycle, reading), totally_triangulated(g, other, reading));
      }
}

// ---------------------------------------------------------------------------------------------
// The theorem

struct Verdict {
  Theorem3Combination combination;
  const char* first_counterexample;  // graph6, or nullptr when the direction holds up to n = 7
  std::vector<long> by_n;            // counterexamples on n = 1..7 nodes
};

TEST(Theorem3, VerdictOfEachCombinationUpTo7Nodes) {
  using R = TriangulatedReading;
  using D = Theorem3Direction;
  const Rule any = Rule::kAnyEdge, ext = Rule::kExterior;
  // EFz_ = K_{3,3} (parts {0,1,2}, {3,4,5}); DF{ = K_{1,1,3} (hubs 3, 4); C~ = K4;
  // C^ = the diamond (K4 minus (0,1)).
  const std::vector<Verdict> expected = {
      {{any, R::kEveryChordCrosses, D::kIf}, "EFz_", {0, 0, 0, 0, 0, 3, 31}},
      {{any, R::kEveryChordCrosses, D::kOnlyIf}, "DF{", {0, 0, 0, 0, 1, 3, 27}},
      {{any, R::kMaximalOuterplanar, D::kIf}, nullptr, {0, 0, 0, 0, 0, 0, 0}},
      {{any, R::kMaximalOuterplanar, D::kOnlyIf}, "C~", {0, 0, 0, 1, 5, 26, 215}},
      {{any, R::kPlanarDrawing, D::kIf}, nullptr, {0, 0, 0, 0, 0, 0, 0}},
      {{any, R::kPlanarDrawing, D::kOnlyIf}, "C^", {0, 0, 0, 1, 5, 27, 214}},
      {{ext, R::kEveryChordCrosses, D::kIf}, "EFz_", {0, 0, 0, 0, 0, 3, 36}},
      {{ext, R::kEveryChordCrosses, D::kOnlyIf}, nullptr, {0, 0, 0, 0, 0, 0, 0}},
      {{ext, R::kMaximalOuterplanar, D::kIf}, nullptr, {0, 0, 0, 0, 0, 0, 0}},
      {{ext, R::kMaximalOuterplanar, D::kOnlyIf}, "C~", {0, 0, 0, 1, 4, 23, 183}},
      {{ext, R::kPlanarDrawing, D::kIf}, nullptr, {0, 0, 0, 0, 0, 0, 0}},
      {{ext, R::kPlanarDrawing, D::kOnlyIf}, "C^", {0, 0, 0, 1, 4, 24, 182}},
  };
  auto survey = survey_theorem3(7);
  ASSERT_TRUE(survey.ok()) << survey.error().to_string();
  ASSERT_EQ(survey->size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const Theorem3Finding& f = (*survey)[i];
    const Verdict& e = expected[i];
    SCOPED_TRACE(to_string(e.combination));
    ASSERT_EQ(f.combination, e.combination);
    EXPECT_EQ(f.graphs_checked, 1 + 2 + 4 + 11 + 34 + 156 + 1044);
    EXPECT_EQ(std::vector<long>(f.counterexamples_by_n.begin() + 1, f.counterexamples_by_n.end()), e.by_n);
    if (e.first_counterexample == nullptr) {
      EXPECT_FALSE(f.first_counterexample) << f.first_counterexample->to_string();
      continue;
    }
    ASSERT_TRUE(f.first_counterexample);
    EXPECT_EQ(to_graph6(*f.first_counterexample), e.first_counterexample) << f.first_counterexample->to_string();
    EXPECT_FALSE(theorem3_holds_for(*f.first_counterexample, e.combination));
  }
  // first_counterexample agrees with the survey.
  auto first = first_counterexample({any, R::kEveryChordCrosses, D::kOnlyIf}, 7);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ(to_graph6(**first), "DF{");
}

TEST(Theorem3, HandDerivedCounterexamples) {
  using R = TriangulatedReading;
  using D = Theorem3Direction;
  // A non-Hamiltonian 2-tree refutes "only if" under kAnyEdge (every reading).
  for (R r : kTriangulatedReadings) EXPECT_FALSE(theorem3_holds_for(k113(), {Rule::kAnyEdge, r, D::kOnlyIf}));
  // K_{3,3}: every chord crosses, but it is triangle-free, so it has no ITM subgraph.
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    EXPECT_FALSE(theorem3_holds_for(complete_bipartite(3, 3), {rule, R::kEveryChordCrosses, D::kIf}));
  // K4: a spanning ITM, but its diagonals cross on every 4-cycle.
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    EXPECT_FALSE(theorem3_holds_for(complete_graph(4), {rule, R::kMaximalOuterplanar, D::kOnlyIf}));
  // The diamond is an ITM with 5 < 3n - 6 edges: no maximal planar drawing.
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    EXPECT_FALSE(theorem3_holds_for(diamond(), {rule, R::kPlanarDrawing, D::kOnlyIf}));
}

// Theorem 5 outside its premise (catalog/itm): the outer cycle of a polygon with non-crossing
// chords is its circular order; graphs without one are skipped.
TEST(OuterCycle, PolygonsWithNonCrossingChordsHaveOneOthersNone) {
  EXPECT_TRUE(outer_cycle(cycle_graph(6)).has_value());
  Graph hexagon_with_chord = cycle_graph(6);
  hexagon_with_chord.add_edge(0, 3);
  const auto cycle = outer_cycle(hexagon_with_chord);
  ASSERT_TRUE(cycle.has_value());
  EXPECT_EQ(cycle->size(), 6u);
  EXPECT_FALSE(outer_cycle(complete_graph(4)).has_value());       // its two chords cross on every cycle
  EXPECT_FALSE(outer_cycle(complete_bipartite(2, 3)).has_value());  // not Hamiltonian
  EXPECT_FALSE(outer_cycle(grid_graph(1, 4)).has_value());          // a path
}

// The check the non-ITM graphs are put through can fail there (negative control): on the
// hexagon, in its own order, the reversed reading collides (0->1 and 5->2 both may use 0->1),
// while the paper's reading and the shared-endpoint one hold.
TEST(OuterCycle, ContentionOutsideThePremiseCanFail) {
  const Graph hexagon = cycle_graph(6);
  const auto order = outer_cycle(hexagon);
  ASSERT_TRUE(order.has_value());
  EXPECT_TRUE(check_contention_free(hexagon, *order, Contention::kReversed).has_value());
  EXPECT_TRUE(check_contention_free(hexagon, *order, Contention::kUndirected).has_value());
  EXPECT_FALSE(check_contention_free(hexagon, *order, Contention::kPaper).has_value());
  EXPECT_FALSE(check_contention_free(hexagon, *order, Contention::kSharedEndpoint).has_value());
}

}  // namespace
}  // namespace topocheck::itm
