// The enumeration of ITMs up to isomorphism (src/itm/enumerate.h) against the OEIS counts, against
// a naive enumeration of every labelled AddNode sequence with a brute-force canonical form that
// does not use nauty, and against its own contract (valid sequences, parents first, parts and
// threads that split the classes exactly).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "itm/enumerate.h"
#include "itm/itm.h"

namespace topocheck::itm {
namespace {

// OEIS A054581, unlabelled 2-trees on n = 3, 4, ... nodes.
constexpr uint64_t kTwoTrees[] = {1, 1, 2, 5, 12, 39, 136, 529, 2171, 9368, 41534, 188942, 874906, 4115060};
// OEIS A000207 from its a(1): triangulations of a convex n-gon, n = 3, 4, ..., up to rotation and
// reflection (the maximal outerplanar graphs on n nodes).
constexpr uint64_t kPolygonTriangulations[] = {1,    1,    1,     3,     4,     12,     27,    82,
                                               228,  733,  2282,  7528,  24834, 83898, 285357, 983244};

// per_n as enumerate_itms returns it for n_min = 3: the table's values from index 3 on.
template <size_t N>
std::vector<uint64_t> expected_per_n(const uint64_t (&table)[N], int n_max) {
  std::vector<uint64_t> per_n(static_cast<size_t>(n_max) + 1, 0);
  for (int n = 3; n <= n_max; ++n) per_n[static_cast<size_t>(n)] = table[n - 3];
  return per_n;
}

// Canonical forms of the visited graphs, by number of nodes.
using FormsByN = std::map<int, std::multiset<std::string>>;

FormsByN nauty_forms(int n_min, int n_max, Rule rule, int part = 0, int parts = 1) {
  FormsByN forms;
  enumerate_itms(n_min, n_max, rule, [&](const Itm& itm) { forms[itm.n()].insert(canonical_graph6(itm.graph())); },
                 part, parts);
  return forms;
}

// A canonical form without nauty: the smallest upper-triangle bit string over all orderings of the
// nodes by (degree, sorted degrees of the neighbours). Isomorphisms map such orderings to such
// orderings, so two graphs have the same form iff they are isomorphic. Exponential in the sizes
// of the classes of equal keys; for small graphs (n <= 11, the bits fit in 64).
std::string brute_force_form(const Graph& g) {
  const int n = g.n();
  std::vector<std::vector<int>> key(static_cast<size_t>(n));
  for (int u = 0; u < n; ++u) {
    auto& k = key[static_cast<size_t>(u)];
    k.push_back(static_cast<int>(g.neighbors(u).size()));
    for (int w : g.neighbors(u)) k.push_back(static_cast<int>(g.neighbors(w).size()));
    std::sort(k.begin() + 1, k.end());
  }
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const auto key_of = [&](int u) -> const std::vector<int>& { return key[static_cast<size_t>(u)]; };
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return key_of(a) != key_of(b) ? key_of(a) < key_of(b) : a < b; });
  // Blocks of equal keys: [begin, end) ranges of `order`, each permuted through all its orders.
  std::vector<std::pair<int, int>> blocks;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && key_of(order[static_cast<size_t>(j)]) == key_of(order[static_cast<size_t>(i)])) ++j;
    blocks.emplace_back(i, j);
    i = j;
  }
  uint64_t best = ~uint64_t{0};
  while (true) {
    uint64_t code = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        code = (code << 1) | (g.adjacent(order[static_cast<size_t>(i)], order[static_cast<size_t>(j)]) ? 1 : 0);
    best = std::min(best, code);
    // Next combination of block orders (an odometer of next_permutation, each block sorted
    // ascending when it wraps).
    size_t b = 0;
    for (; b < blocks.size(); ++b)
      if (std::next_permutation(order.begin() + blocks[b].first, order.begin() + blocks[b].second)) break;
    if (b == blocks.size()) break;
  }
  return std::to_string(n) + ":" + std::to_string(best);
}

// Every labelled AddNode sequence under `rule` up to n_max nodes, as given by the definition
// (Itm::add_node on each edge, or each exterior edge), the classes found by `form`.
template <class Form>
std::map<int, std::set<std::string>> naive_classes(int n_max, Rule rule, Form form) {
  std::map<int, std::set<std::string>> classes;
  std::vector<Itm> stack{Itm::kernel(rule)};
  while (!stack.empty()) {
    const Itm itm = std::move(stack.back());
    stack.pop_back();
    classes[itm.n()].insert(form(itm.graph()));
    if (itm.n() == n_max) continue;
    const auto edges = rule == Rule::kExterior ? itm.exterior_edges() : itm.graph().edges();
    for (const auto& [x, y] : edges) {
      Itm child = itm;
      const auto added = child.add_node(x, y);
      EXPECT_TRUE(added.ok()) << added.error().message;
      stack.push_back(std::move(child));
    }
  }
  return classes;
}

std::set<std::string> distinct(const std::multiset<std::string>& forms) { return {forms.begin(), forms.end()}; }

TEST(ItmEnumeration, AnyEdgeCountsAreTheUnlabelledTwoTrees) {
  const auto counts = enumerate_itms(3, 12, Rule::kAnyEdge, nullptr);
  EXPECT_EQ(counts.per_n, expected_per_n(kTwoTrees, 12));
}

TEST(ItmEnumeration, ExteriorCountsAreThePolygonTriangulations) {
  const auto counts = enumerate_itms(3, 13, Rule::kExterior, nullptr);
  EXPECT_EQ(counts.per_n, expected_per_n(kPolygonTriangulations, 13));
}

TEST(ItmEnumeration, VisitsOnlyTheRequestedSizes) {
  std::vector<uint64_t> seen(10, 0);
  const auto counts =
      enumerate_itms(6, 9, Rule::kAnyEdge, [&](const Itm& itm) { ++seen.at(static_cast<size_t>(itm.n())); });
  EXPECT_EQ(counts.per_n, (std::vector<uint64_t>{0, 0, 0, 0, 0, 0, 5, 12, 39, 136}));
  EXPECT_EQ(seen, counts.per_n);
  EXPECT_EQ(counts.total(), 5u + 12 + 39 + 136);
  EXPECT_EQ(enumerate_itms(3, 3, Rule::kExterior, nullptr).per_n, (std::vector<uint64_t>{0, 0, 0, 1}));
}

// The sequence of each visited Itm is valid under its rule (rebuilt from scratch), adds node n - 1
// last, and extends a sequence visited before it (its generation-tree parent).
TEST(ItmEnumeration, VisitedItmsRebuildUnderTheirRuleAfterTheirParents) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    SCOPED_TRACE(to_string(rule));
    std::set<std::string> visited;
    uint64_t checked = 0;
    enumerate_itms(3, 10, rule, [&](const Itm& itm) {
      const int n = itm.n();
      ASSERT_EQ(itm.steps().size(), static_cast<size_t>(n - 3));
      ASSERT_EQ(itm.rule(), rule);
      const auto rebuilt = Itm::build(itm.steps(), rule);
      ASSERT_TRUE(rebuilt.ok()) << rebuilt.error().message;
      EXPECT_EQ(rebuilt->graph(), itm.graph());
      EXPECT_EQ(itm.graph().num_edges(), 2 * n - 3);
      if (n > 3) {
        const Step& last = itm.steps().back();
        EXPECT_EQ(last.v, n - 1);
        Steps parent(itm.steps().begin(), itm.steps().end() - 1);
        EXPECT_TRUE(visited.count(to_string(parent))) << "parent of " << to_string(itm.steps()) << " not visited first";
      }
      visited.insert(to_string(itm.steps()));
      // Under kExterior the marking is the graph's own: an edge is exterior iff it lies on exactly
      // one triangle (for n >= 4). The enumerator relies on it: automorphisms preserve the marking.
      if (rule == Rule::kExterior && n >= 4)
        for (const auto& [u, w] : itm.graph().edges()) {
          int common = 0;
          for (int z : itm.graph().neighbors(u)) common += itm.graph().adjacent(z, w) ? 1 : 0;
          EXPECT_EQ(itm.exterior(u, w), common == 1) << to_string(itm.steps()) << " edge " << u << "," << w;
        }
      ++checked;
    });
    EXPECT_EQ(checked, visited.size());
  }
}

// The classes are those of all labelled sequences, with a canonical form independent of nauty.
TEST(ItmEnumeration, ClassesAreThoseOfAllLabelledSequencesUpToEightNodes) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    SCOPED_TRACE(to_string(rule));
    const auto naive = naive_classes(8, rule, brute_force_form);
    FormsByN generated;
    enumerate_itms(3, 8, rule, [&](const Itm& itm) { generated[itm.n()].insert(brute_force_form(itm.graph())); });
    for (int n = 3; n <= 8; ++n) {
      SCOPED_TRACE(n);
      EXPECT_EQ(distinct(generated[n]).size(), generated[n].size()) << "a class visited twice";
      EXPECT_EQ(distinct(generated[n]), naive.at(n));
    }
  }
}

// The same one size further with nauty's canonical form (135135 and 20160 labelled sequences).
TEST(ItmEnumeration, ClassesAreThoseOfAllLabelledSequencesAtNineNodes) {
  const auto form = [](const Graph& g) { return canonical_graph6(g); };
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    SCOPED_TRACE(to_string(rule));
    const auto naive = naive_classes(9, rule, form);
    const FormsByN generated = nauty_forms(9, 9, rule);
    EXPECT_EQ(distinct(generated.at(9)), naive.at(9));
  }
}

TEST(ItmEnumeration, VisitedClassesArePairwiseNonIsomorphicUpToTenNodes) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    SCOPED_TRACE(to_string(rule));
    for (const auto& [n, forms] : nauty_forms(3, 10, rule))
      EXPECT_EQ(distinct(forms).size(), forms.size()) << n << " nodes: two visited graphs are isomorphic";
  }
}

TEST(ItmEnumeration, PartsTogetherVisitEachClassOnce) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    for (int parts : {2, 3}) {
      SCOPED_TRACE(to_string(rule) + ", parts " + std::to_string(parts));
      const int n_max = rule == Rule::kAnyEdge ? 11 : 13;  // deeper than the split level
      FormsByN together;
      for (int part = 0; part < parts; ++part)
        for (auto& [n, forms] : nauty_forms(4, n_max, rule, part, parts)) together[n].merge(forms);
      const FormsByN whole = nauty_forms(4, n_max, rule);
      EXPECT_EQ(together, whole);
    }
  }
}

// Sharded sweeps (catalog/itm/methods.cc): contiguous ranges of a level's subtrees, concatenated,
// visit the level's classes in enumerate_itms's own order; the weights estimate the classes per
// subtree (exact when the lookahead reaches the level).
TEST(ItmEnumeration, SubtreeRangesInOrderAreTheWholeLevelInOrder) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    for (size_t min_roots : {size_t{1}, size_t{40}, size_t{300}}) {
      const int n = rule == Rule::kAnyEdge ? 11 : 13;
      SCOPED_TRACE(to_string(rule) + ", min_roots " + std::to_string(min_roots));
      std::vector<std::string> whole, cut;
      enumerate_itms(n, n, rule, [&](const Itm& itm) { whole.push_back(canonical_graph6(itm.graph())); });
      const std::vector<double> exact = subtree_weights(n, rule, min_roots, n, 1.0);
      const uint64_t roots = exact.size();
      EXPECT_GE(roots, std::min<uint64_t>(min_roots, whole.size()));
      double sum = 0;
      for (double w : exact) sum += w;
      EXPECT_EQ(sum, static_cast<double>(whole.size()));
      // Three uneven ranges, the last one empty.
      const uint64_t cuts[] = {0, roots / 3, roots / 3 + 1, roots, roots};
      for (size_t k = 0; k + 1 < std::size(cuts); ++k) {
        const auto counts = enumerate_subtrees(n, rule, [&](const Itm& itm) { cut.push_back(canonical_graph6(itm.graph())); },
                                               min_roots, cuts[k], cuts[k + 1]);
        double expected = 0;
        for (uint64_t r = cuts[k]; r < cuts[k + 1]; ++r) expected += exact[r];
        EXPECT_EQ(static_cast<double>(counts.per_n[static_cast<size_t>(n)]), expected);
      }
      EXPECT_EQ(cut, whole);
    }
  }
}

TEST(ItmEnumeration, ThreadsVisitEachClassOnceParentsFirst) {
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    std::mutex mutex;
    std::set<std::string> visited{""};
    FormsByN forms;
    bool parents_first = true;
    const auto counts = enumerate_itms_parallel(3, 11, Rule::kAnyEdge, [&](const Itm& itm) {
      const std::string form = canonical_graph6(itm.graph());
      const std::lock_guard lock(mutex);
      if (itm.n() > 3) {
        Steps parent(itm.steps().begin(), itm.steps().end() - 1);
        parents_first = parents_first && visited.count(to_string(parent)) == 1;
      }
      visited.insert(to_string(itm.steps()));
      forms[itm.n()].insert(form);
    }, threads);
    EXPECT_TRUE(parents_first);
    EXPECT_EQ(counts.per_n, expected_per_n(kTwoTrees, 11));
    EXPECT_EQ(forms, nauty_forms(3, 11, Rule::kAnyEdge));
  }
}

TEST(ItmEnumeration, ParallelRethrowsTheVisitorsException) {
  EXPECT_THROW(enumerate_itms_parallel(3, 12, Rule::kAnyEdge,
                                       [](const Itm& itm) {
                                         if (itm.n() == 10) throw std::runtime_error("stop");
                                       },
                                       2),
               std::runtime_error);
}

TEST(CanonicalGraph6, IsInvariantUnderRelabellingAndSeparatesClasses) {
  EXPECT_EQ(canonical_graph6(complete_graph(3)), "Bw");
  EXPECT_EQ(canonical_graph6(complete_graph(1)), "@");
  EXPECT_NE(canonical_graph6(cycle_graph(4)), canonical_graph6(complete_bipartite(1, 3)));
  EXPECT_EQ(canonical_graph6(cycle_graph(4)), canonical_graph6(complete_bipartite(2, 2)));
  // Past one set word and graph6's one-character size.
  EXPECT_EQ(canonical_graph6(cycle_graph(70)).substr(0, 4), "~?@E");  // 70 = 1 * 64 + 6
  EXPECT_NE(canonical_graph6(cycle_graph(70)), canonical_graph6(grid_graph(7, 10)));

  std::mt19937 random(2002);
  for (const Graph& g : {grid_graph(3, 4), complete_bipartite(2, 5), cycle_graph(9), grid_graph(9, 8)}) {
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<int> relabel(static_cast<size_t>(g.n()));
      std::iota(relabel.begin(), relabel.end(), 0);
      std::shuffle(relabel.begin(), relabel.end(), random);
      std::vector<std::pair<int, int>> edges;
      for (const auto& [u, w] : g.edges())
        edges.emplace_back(relabel[static_cast<size_t>(u)], relabel[static_cast<size_t>(w)]);
      const auto h = Graph::from_edges(g.n(), edges);
      ASSERT_TRUE(h.ok());
      EXPECT_EQ(canonical_graph6(*h), canonical_graph6(g)) << g.to_string();
    }
  }
}

// The whole tables (about a minute on two cores); run by the deep test label.
TEST(ItmEnumerationDeep, DISABLED_CountsMatchOeisToSixteenAndEighteenNodes) {
  EXPECT_EQ(enumerate_itms_parallel(3, 16, Rule::kAnyEdge, nullptr, 2).per_n, expected_per_n(kTwoTrees, 16));
  EXPECT_EQ(enumerate_itms_parallel(3, 18, Rule::kExterior, nullptr, 2).per_n,
            expected_per_n(kPolygonTriangulations, 18));
}

}  // namespace
}  // namespace topocheck::itm
