#include "migration/migration_oracle.h"

#include <set>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>

#include "core/graph.h"

namespace topocheck::migration {
namespace {

using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

}  // namespace

std::optional<Path> second_path_with_others_fixed(const Plan& plan, size_t node_index, Disjointness d) {
  const NodePlan& me = plan.nodes.at(node_index);
  const int n = plan.inst.n;
  const uint64_t size = uint64_t{1} << n;
  const Node s = me.u, t = g(plan.inst, plan.params.alpha, me.u, plan.params.bars);
  if (s == t) return std::nullopt;
  // What the fixed paths use: every node of another node's path, the internal nodes of the own
  // paths (node reading); their links (link reading); their directed links.
  std::vector<bool> node_used(size, false);
  std::set<std::pair<uint64_t, uint64_t>> link_used, arc_used;
  bool ends_inside_another = false;  // s or t is an internal node of another node's path
  for (size_t i = 0; i < plan.nodes.size(); ++i)
    for (const MigrationPath& mp : plan.nodes[i].paths) {
      const auto& nodes = mp.path.nodes;
      for (size_t k = 0; k < nodes.size(); ++k) {
        if (i != node_index || (k > 0 && k + 1 < nodes.size())) node_used[nodes[k].bits] = true;
        if (i != node_index && k > 0 && k + 1 < nodes.size() && (nodes[k] == s || nodes[k] == t))
          ends_inside_another = true;
      }
      for (size_t k = 0; k + 1 < nodes.size(); ++k) {
        const uint64_t a = nodes[k].bits, b = nodes[k + 1].bits;
        link_used.insert({std::min(a, b), std::max(a, b)});
        arc_used.insert({a, b});
      }
    }
  // Node reading: every path from s to t contains s and t, so none is disjoint from a path
  // through either of them.
  if (d == Disjointness::kNode && ends_inside_another) return std::nullopt;
  Digraph graph(size);
  for (uint64_t a = 0; a < size; ++a)
    for (int dim = 0; dim < n; ++dim) {
      const uint64_t b = a ^ (uint64_t{1} << dim);
      if (is_block_link(plan.blocks, Node{a, n}, Node{b, n})) continue;
      if (b == s.bits || a == t.bits) continue;  // a simple path never re-enters s or leaves t
      // The own fixed paths: never repeat one of them as the new path's direct link.
      bool own_direct = false;
      for (const MigrationPath& mp : me.paths)
        if (mp.path.length() == 1 && a == s.bits && b == t.bits) own_direct = true;
      if (own_direct) continue;
      if (d == Disjointness::kNode) {
        if (b != t.bits && node_used[b]) continue;
        if (a != s.bits && node_used[a]) continue;
      } else if (d == Disjointness::kLink) {
        if (link_used.count({std::min(a, b), std::max(a, b)})) continue;
      } else if (arc_used.count({a, b})) {
        continue;
      }
      boost::add_edge(a, b, graph);
    }
  std::vector<Digraph::vertex_descriptor> pred(size);
  for (uint64_t v = 0; v < size; ++v) pred[v] = v;
  boost::breadth_first_search(graph, s.bits,
                              boost::visitor(boost::make_bfs_visitor(boost::record_predecessors(
                                  boost::make_iterator_property_map(pred.begin(), boost::get(boost::vertex_index, graph)),
                                  boost::on_tree_edge()))));
  if (pred[t.bits] == t.bits) return std::nullopt;
  Path path;
  for (uint64_t v = t.bits;; v = pred[v]) {
    path.nodes.insert(path.nodes.begin(), Node{v, n});
    if (v == s.bits) break;
  }
  // Re-judge with the naive checkers: valid, simple, from s to t, block-free, disjoint from each
  // fixed path under d (the fixed paths need not be disjoint from one another).
  Plan probe = plan;
  probe.nodes[node_index].paths.push_back({PathKind::kSpecificSecond, path, static_cast<int>(path.nodes.size()) - 1});
  TC_CHECK(!check_plan_paths_valid(probe) && !check_plan_no_block_link(probe),
           "the BFS oracle built a path the checkers reject");
  for (size_t i = 0; i < plan.nodes.size(); ++i)
    if (i != node_index)
      for (const MigrationPath& mp : plan.nodes[i].paths)
        TC_CHECK(!check_disjoint({mp.path, path}, d), "the BFS oracle built a path that meets another node's path");
  std::vector<Path> own;
  for (const MigrationPath& mp : probe.nodes[node_index].paths) own.push_back(mp.path);
  for (size_t k = 0; k + 1 < own.size(); ++k)
    TC_CHECK(!check_disjoint({own[k], own.back()}, d) && own[k] != own.back(),
             "the BFS oracle built a path that meets the node's own path");
  return path;
}

int isolated_disjoint_paths(const Plan& plan, size_t node_index) {
  const NodePlan& me = plan.nodes.at(node_index);
  const int n = plan.inst.n;
  const uint64_t size = uint64_t{1} << n;
  const Node t = g(plan.inst, plan.params.alpha, me.u, plan.params.bars);
  if (t == me.u) return 0;
  UndirectedGraph graph(size);
  for (uint64_t a = 0; a < size; ++a)
    for (int dim = 0; dim < n; ++dim) {
      const uint64_t b = a ^ (uint64_t{1} << dim);
      if (a < b && !is_block_link(plan.blocks, Node{a, n}, Node{b, n})) boost::add_edge(a, b, graph);
    }
  return std::min(2, max_node_disjoint_paths(graph, me.u.bits, t.bits));
}

}  // namespace topocheck::migration
