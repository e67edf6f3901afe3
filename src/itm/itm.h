// The Incremental Triangular Mesh (paper 002): graphs, AddNode sequences, exterior marking and the
// circular order.
//
// Words (DESIGN.md, READING.md 002):
//  - AddNode(G', v; (x, y)) adds node v joined to x and y; (x, y) is v's corresponding edge.
//  - An ITM on n nodes is the kernel triangle {0, 1, 2} followed by n - 3 AddNode steps; step i
//    (0-based) adds node 3 + i. Two readings of which edges a step may use (Rule):
//      kAnyEdge  — the definition: any edge of the current graph (these are exactly the 2-trees);
//      kExterior — the contention-free section: only an edge currently marked exterior.
//  - Marking (the paper's rule, applied under both readings): the kernel's three edges are
//    exterior; a step at (x, y) marks (x, y) interior and adds (v, x), (v, y) as exterior. Under
//    kAnyEdge a step may use an edge already interior; it stays interior.
//  - Text form of a sequence: the steps separated by spaces, each `v:(x,y)`, e.g.
//    `3:(0,1) 4:(1,3) 5:(0,3)`; the empty text is the kernel triangle alone.
//  - Circular order: the exterior edges, when they form one simple cycle through every node
//    (Lemma 4), walked from node 0 towards its smaller exterior neighbour (one of the paper's two
//    directions; the claims' definitions are symmetric under reversal).
//
// Graph is the plain undirected simple graph every ITM check takes, so that the same checkers run
// on negative controls (C4, K_{2,3}, grids) and on the graphs of Theorem 3.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace topocheck::itm {

// An undirected simple graph on nodes 0..n-1: sorted adjacency lists and an adjacency matrix.
class Graph {
 public:
  Graph() = default;
  explicit Graph(int n);
  // Errors name the offending edge (endpoint out of range, loop, repeated edge).
  static Result<Graph> from_edges(int n, const std::vector<std::pair<int, int>>& edges);

  int n() const { return n_; }
  int num_edges() const { return num_edges_; }
  bool adjacent(int u, int v) const { return matrix_[static_cast<size_t>(u * n_ + v)] != 0; }
  const std::vector<int>& neighbors(int u) const { return adj_[static_cast<size_t>(u)]; }
  std::vector<std::pair<int, int>> edges() const;  // (u, v) with u < v, sorted
  // Adds {u, v} (u != v, not yet an edge; aborts otherwise).
  void add_edge(int u, int v);
  // "n=4 edges=(0,1) (0,2) ..." for messages.
  std::string to_string() const;

  friend bool operator==(const Graph& a, const Graph& b) { return a.n_ == b.n_ && a.matrix_ == b.matrix_; }

 private:
  int n_ = 0;
  int num_edges_ = 0;
  std::vector<std::vector<int>> adj_;
  std::vector<char> matrix_;
};

// Well-known graphs for negative controls and tests.
Graph cycle_graph(int n);                  // C_n, n >= 3
Graph complete_bipartite(int a, int b);    // K_{a,b}: nodes 0..a-1 and a..a+b-1
Graph grid_graph(int rows, int cols);      // node r * cols + c
Graph complete_graph(int n);

enum class Rule { kAnyEdge, kExterior };
std::string to_string(Rule rule);                       // "any-edge", "exterior"
std::optional<Rule> parse_rule(std::string_view text);  // the same words

struct Step {
  int v = 0;     // the node added (3 + the step's index)
  int x = 0, y = 0;  // its corresponding edge
  friend bool operator==(const Step&, const Step&) = default;
};
using Steps = std::vector<Step>;

// Parses the text form; errors name the token ("step 2 `4:(1,x)`: ...").
Result<Steps> parse_steps(std::string_view text);
std::string to_string(const Steps& steps);

class Itm {
 public:
  // Replays `steps` from the kernel triangle under `rule`. Errors name the step (1-based, with its
  // text): the node is not the next one, the edge does not exist, or (kExterior) it is interior.
  static Result<Itm> build(const Steps& steps, Rule rule);
  // The kernel triangle (n = 3).
  static Itm kernel(Rule rule);

  int n() const { return graph_.n(); }
  Rule rule() const { return rule_; }
  const Steps& steps() const { return steps_; }
  const Graph& graph() const { return graph_; }

  // The paper's marking after all steps (see the header comment).
  bool exterior(int u, int v) const;
  std::vector<std::pair<int, int>> exterior_edges() const;  // (u, v), u < v, sorted
  std::vector<std::pair<int, int>> interior_edges() const;

  // Adds node n() at (x, y) and returns it; errors as build (nothing changed on error).
  Result<int> add_node(int x, int y);

 private:
  Rule rule_ = Rule::kAnyEdge;
  Steps steps_;
  Graph graph_;
  std::vector<char> exterior_;  // n * n, symmetric, only meaningful on edges
};

// The circular order: the exterior edges as one cycle through every node, from node 0 towards its
// smaller exterior neighbour. An error (saying how the exterior edges fail to be such a cycle)
// when they are not one: possible under kAnyEdge, never under kExterior (Lemma 4).
Result<std::vector<int>> circular_order(const Itm& itm);

}  // namespace topocheck::itm
