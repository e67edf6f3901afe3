#include "metacube/metacube_checks.h"

#include <algorithm>
#include <bit>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/sweep/fast_checks.h"

namespace topocheck::metacube {

// Every check below decides with core's fast verdict first and, only when it says false, runs the
// worded form for the message (the first violation, in words): same verdicts, no allocation or
// formatting on the common path.

Violation check_thm2_valid(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths) {
  if (static_cast<int>(paths.size()) == mc.k() + mc.m() && paths_valid_simple_ok(mc, paths, s, t))
    return std::nullopt;
  if (static_cast<int>(paths.size()) != mc.k() + mc.m())
    return fmt::format("{} paths, expected k + m = {}", paths.size(), mc.k() + mc.m());
  for (size_t i = 0; i < paths.size(); ++i) {
    if (auto v = check_path_valid(mc, paths[i])) return fmt::format("P_{}: {}", i, *v);
    if (auto v = check_endpoints(paths[i], s, t)) return fmt::format("P_{}: {}", i, *v);
    if (auto v = check_simple(paths[i])) return fmt::format("P_{}: {}", i, *v);
  }
  return std::nullopt;
}

Violation check_thm2_disjoint(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths) {
  if (static_cast<int>(paths.size()) == mc.k() + mc.m() && disjoint_paths_ok(mc, paths, s, t))
    return std::nullopt;
  if (auto v = check_thm2_valid(mc, s, t, paths)) return v;
  return check_internally_node_disjoint(paths);
}

namespace {

// Theorem 2's bound on every path: H(s,t) + 2^k + m + 5.
int length_bound(const Metacube& mc, Node s, Node t) { return hamming(s, t) + mc.h() + mc.m() + 5; }

}  // namespace

Violation check_thm2_length(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths) {
  const int bound = length_bound(mc, s, t);
  if (max_length_ok(paths, bound)) return std::nullopt;
  for (size_t i = 0; i < paths.size(); ++i)
    if (paths[i].length() > bound)
      return fmt::format("P_{} has length {} > H(s,t) + 2^k + m + 5 = {}", i, paths[i].length(), bound);
  return std::nullopt;
}

int case_bound(const Metacube& mc, Node s, Node t) {
  const int H = hamming(s, t);
  switch (alg4_case(mc, s, t)) {
    case 0: return H + 6;
    case 1: return H + mc.h() + 4;
    default: {
      const int d = mc.class_distance(s, t);
      const int zmax = d < mc.k() ? d + 1 : d - 1;
      return H + mc.h() + 4 + zmax;
    }
  }
}

Violation check_thm2_case_bound(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths) {
  const int bound = case_bound(mc, s, t);
  if (max_length_ok(paths, bound)) return std::nullopt;
  for (size_t i = 0; i < paths.size(); ++i)
    if (paths[i].length() > bound)
      return fmt::format("P_{} has length {} > the case-{} bound {}", i, paths[i].length(), alg4_case(mc, s, t), bound);
  return std::nullopt;
}

namespace {

// Can `budget` nodes hit every path in `sets` (each a sorted list of internal nodes)?
// On success `chosen` holds the hitting set.
bool can_hit_all(const std::vector<std::vector<Node>>& sets, size_t first_unhit, int budget, std::vector<Node>& chosen) {
  // Find the first path not hit by `chosen`.
  for (size_t i = first_unhit; i < sets.size(); ++i) {
    bool hit = false;
    for (const Node& c : chosen)
      if (std::binary_search(sets[i].begin(), sets[i].end(), c)) {
        hit = true;
        break;
      }
    if (hit) continue;
    if (budget == 0 || sets[i].empty()) return false;
    // Prune (sound): a hitting set needs at least one node per set of any family of pairwise
    // disjoint unhit sets, so a greedy packing larger than the budget means no. Without this the
    // search is exponential exactly when the answer is no (k+m disjoint paths, budget k+m-1).
    {
      std::vector<Node> packed;
      int packing = 0;
      for (size_t j = i; j < sets.size(); ++j) {
        bool unhit = true, meets = false;
        for (const Node& c : chosen) unhit = unhit && !std::binary_search(sets[j].begin(), sets[j].end(), c);
        if (!unhit) continue;
        for (const Node& v : sets[j]) meets = meets || std::binary_search(packed.begin(), packed.end(), v);
        if (meets) continue;
        ++packing;
        packed.insert(packed.end(), sets[j].begin(), sets[j].end());
        std::sort(packed.begin(), packed.end());
      }
      if (packing > budget) return false;
    }
    for (const Node& c : sets[i]) {
      chosen.push_back(c);
      if (can_hit_all(sets, i + 1, budget - 1, chosen)) return true;
      chosen.pop_back();
    }
    return false;
  }
  return true;
}

}  // namespace

namespace {

// A set of at most k+m-1 nodes other than s and t meeting every path's node set: the violation,
// or nullopt when there is none. The paths' hops are not looked at.
Violation fault_cut(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths) {
  std::vector<std::vector<Node>> internal;
  for (const Path& p : paths) {
    std::vector<Node> in;
    for (size_t q = 1; q + 1 < p.nodes.size(); ++q)
      if (p.nodes[q] != s && p.nodes[q] != t) in.push_back(p.nodes[q]);
    std::sort(in.begin(), in.end());
    in.erase(std::unique(in.begin(), in.end()), in.end());
    internal.push_back(in);
  }
  // A path with no internal node (the edge s : t) cannot be hit by faults other than s, t.
  for (const auto& in : internal)
    if (in.empty()) return std::nullopt;
  std::vector<Node> chosen;
  const int budget = mc.k() + mc.m() - 1;
  if (can_hit_all(internal, 0, budget, chosen)) {
    std::vector<std::string> names;
    for (const Node& c : chosen) names.push_back(c.to_string());
    return fmt::format("{} faulty node(s) {{{}}} (at most k+m-1 = {}) meet every constructed path", chosen.size(),
                       fmt::join(names, ", "), budget);
  }
  return std::nullopt;
}

}  // namespace

Violation check_fault_tolerance(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths) {
  if (auto v = check_thm2_valid(mc, s, t, paths)) return v;
  return fault_cut(mc, s, t, paths);
}

Violation check_walks(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths) {
  for (size_t i = 0; i < paths.size(); ++i) {
    if (auto v = check_path_valid(mc, paths[i])) return fmt::format("P_{}: {}", i, *v);
    if (auto v = check_endpoints(paths[i], s, t)) return fmt::format("P_{}: {}", i, *v);
  }
  return std::nullopt;
}

namespace {

// The route a walk from s to t describes: the walk up to its first arrival at t (a message along
// it has arrived there; what follows is not part of the route).
Path route_until_t(const Path& p, Node t) {
  Path r;
  for (const Node& u : p.nodes) {
    r.nodes.push_back(u);
    if (u == t && r.nodes.size() > 1) break;
  }
  return r;
}

std::vector<Path> routes_until_t(const std::vector<Path>& paths, Node t) {
  std::vector<Path> out;
  for (const Path& p : paths) out.push_back(route_until_t(p, t));
  return out;
}

}  // namespace

Judgement judge_thm2_shared_node(const Metacube& mc, Node s, Node t, const std::vector<Path>& walks) {
  if (static_cast<int>(walks.size()) != mc.k() + mc.m())
    return Judgement::not_applicable(fmt::format("{} paths, expected k + m = {}", walks.size(), mc.k() + mc.m()));
  if (auto v = check_walks(mc, s, t, walks)) return Judgement::not_applicable(*v);
  if (disjoint_paths_ok(mc, walks, s, t)) return std::nullopt;  // valid, simple and disjoint: the common case
  const std::vector<Path> paths = routes_until_t(walks, t);
  // Each path as s, its distinct nodes other than s and t in order of first visit, t.
  std::vector<Path> reduced;
  bool any_repeat = false;
  for (const Path& p : paths) {
    Path r;
    r.nodes.push_back(s);
    std::set<Node> seen;
    for (size_t q = 1; q + 1 < p.nodes.size(); ++q) {
      const Node u = p.nodes[q];
      if (u == s || u == t || !seen.insert(u).second) {
        any_repeat = true;
        continue;
      }
      r.nodes.push_back(u);
    }
    r.nodes.push_back(t);
    reduced.push_back(std::move(r));
  }
  if (auto v = check_internally_node_disjoint(reduced))
    return Violation{fmt::format("{}{}", *v,
                                 any_repeat ? " (judged on the routes' node sets less s and t, each route cut at its "
                                              "first arrival at t: some path repeats a node)"
                                            : "")};
  return std::nullopt;
}

Judgement judge_fault_cut(const Metacube& mc, Node s, Node t, const std::vector<Path>& walks) {
  if (auto v = check_walks(mc, s, t, walks)) return Judgement::not_applicable(*v);
  if (walks.empty()) return Judgement::not_applicable("no path");
  return fault_cut(mc, s, t, routes_until_t(walks, t));
}

namespace {

Violation check_part(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths, Thm2Part part) {
  switch (part) {
    case Thm2Part::kValid: return check_thm2_valid(mc, s, t, paths);
    case Thm2Part::kDisjoint: return check_thm2_disjoint(mc, s, t, paths);
    case Thm2Part::kLength: return check_thm2_length(mc, s, t, paths);
    case Thm2Part::kCaseBound: return check_thm2_case_bound(mc, s, t, paths);
    case Thm2Part::kFaultTolerance: return check_fault_tolerance(mc, s, t, paths);
  }
  return std::nullopt;
}

}  // namespace

Violation check_alg4(const Metacube& mc, Node s, Node t, const Alg4Options& options, Thm2Part part) {
  if (!options.repair) {
    // The sweeps' form: Algorithm 4 into a block (one per thread, reused from pair to pair: no
    // allocation once grown), judged by core's fast verdicts on the block. Only a set they reject
    // (and every fault-tolerance question) is copied into paths for the checks above, which decide
    // again and word the violation.
    thread_local PathBlock block;
    metacube_disjoint_paths_block(mc, s, t, options, block);
    const bool count = static_cast<int>(block.size()) == mc.k() + mc.m();
    bool holds = false;
    switch (part) {
      case Thm2Part::kValid: holds = count && paths_valid_simple_ok(mc, block, s, t); break;
      case Thm2Part::kDisjoint: holds = count && disjoint_paths_ok(mc, block, s, t); break;
      case Thm2Part::kLength: holds = max_length_ok(block, length_bound(mc, s, t)); break;
      case Thm2Part::kCaseBound: holds = max_length_ok(block, case_bound(mc, s, t)); break;
      case Thm2Part::kFaultTolerance: break;
    }
    if (holds) return std::nullopt;
    return check_part(mc, s, t, block.to_paths(), part);
  }
  Alg4Options quiet = options;
  quiet.record_notes = false;  // the notes are for people; the judge needs only the paths
  // One result per thread, reused from pair to pair.
  thread_local Alg4Result r;
  metacube_disjoint_paths_into(mc, s, t, quiet, r);
  return check_part(mc, s, t, r.paths, part);
}

Judgement judge_alg4(const Metacube& mc, Node s, Node t, const Alg4Options& options, Thm2Part part) {
  if (part != Thm2Part::kDisjoint && part != Thm2Part::kFaultTolerance) return check_alg4(mc, s, t, options, part);
  if (!options.repair) {
    // The sweeps' fast path: a valid, simple, disjoint set needs no copy. It also settles fault
    // tolerance: k + m paths from s to t whose internal nodes are distinct and none is s or t
    // are walks from s to t, and a faulty node (other than s, t) lies on at most one of them, so
    // k + m - 1 faults leave one path free (judge_fault_cut would find no cut: the same verdict).
    thread_local PathBlock block;
    metacube_disjoint_paths_block(mc, s, t, options, block);
    if (static_cast<int>(block.size()) == mc.k() + mc.m() && disjoint_paths_ok(mc, block, s, t)) return std::nullopt;
    const std::vector<Path> paths = block.to_paths();
    return part == Thm2Part::kDisjoint ? judge_thm2_shared_node(mc, s, t, paths) : judge_fault_cut(mc, s, t, paths);
  }
  Alg4Options quiet = options;
  quiet.record_notes = false;
  thread_local Alg4Result r;
  metacube_disjoint_paths_into(mc, s, t, quiet, r);
  return part == Thm2Part::kDisjoint ? judge_thm2_shared_node(mc, s, t, r.paths) : judge_fault_cut(mc, s, t, r.paths);
}

Node translate(Node u, Node a) { return Node{u.bits ^ a.bits, u.width}; }

}  // namespace topocheck::metacube
