#include "migration/migration_checks.h"

#include <bit>

#include <fmt/format.h>

#include "hypercube/hypercube.h"

namespace topocheck::migration {

std::string to_string(Disjointness d) {
  switch (d) {
    case Disjointness::kNode: return "node";
    case Disjointness::kLink: return "link";
    case Disjointness::kDirectedLink: return "directed-link";
  }
  return "?";
}

std::optional<Disjointness> parse_disjointness(std::string_view s) {
  for (Disjointness d : kAllDisjointness)
    if (to_string(d) == s) return d;
  return std::nullopt;
}

Violation check_disjoint(const std::vector<Path>& paths, Disjointness d) {
  switch (d) {
    case Disjointness::kNode: return check_internally_node_disjoint(paths);
    case Disjointness::kLink: return check_link_disjoint(paths);
    case Disjointness::kDirectedLink: return check_directed_link_disjoint(paths);
  }
  return "unknown disjointness reading";
}

Violation check_plan_paths_valid(const Plan& plan) {
  const auto cube = hypercube::Hypercube::make(plan.inst.n);
  TC_CHECK(cube.ok(), "n out of range");
  for (const NodePlan& np : plan.nodes) {
    const Node target = g(plan.inst, plan.params.alpha, np.u, plan.params.bars);
    for (const MigrationPath& mp : np.paths) {
      const auto where = [&](const std::string& v) {
        return fmt::format("node {}: {} path {}: {}", np.u, to_string(mp.kind), mp.path, v);
      };
      if (auto v = check_path_valid(*cube, mp.path)) return where(*v);
      if (auto v = check_endpoints(mp.path, np.u, target)) return where(*v);
      if (auto v = check_simple(mp.path)) return where(*v);
      if (mp.ext_begin >= static_cast<int>(mp.path.nodes.size())) return where("extension starts after the path ends");
    }
  }
  return std::nullopt;
}

Violation check_plan_complete(const Plan& plan) {
  for (const NodePlan& np : plan.nodes) {
    const Node target = g(plan.inst, plan.params.alpha, np.u, plan.params.bars);
    if (target == np.u) continue;
    if (np.paths.size() < 2)
      return fmt::format("node {} -> {}: {} path{} ({})", np.u, target, np.paths.size(), np.paths.size() == 1 ? "" : "s",
                         np.missing.empty() ? "no reason given" : np.missing);
  }
  return std::nullopt;
}

Violation check_plan_pairs_disjoint(const Plan& plan, Disjointness d) {
  for (const NodePlan& np : plan.nodes) {
    if (np.paths.size() < 2) continue;
    std::vector<Path> pair = {np.paths[0].path, np.paths[1].path};
    if (pair[0] == pair[1]) return fmt::format("node {}: its two paths are the same path {}", np.u, pair[0]);
    if (auto v = check_disjoint(pair, d)) return fmt::format("node {}: its two paths {} and {}: {}", np.u, pair[0], pair[1], *v);
  }
  return std::nullopt;
}

Violation check_plan_all_disjoint(const Plan& plan, Disjointness d) {
  std::vector<Path> all;
  for (const NodePlan& np : plan.nodes)
    for (const MigrationPath& mp : np.paths) all.push_back(mp.path);
  if (!check_disjoint(all, d)) return std::nullopt;
  // Something is shared; name the first pair of paths of different nodes that shares it (the
  // two paths of one node are check_plan_pairs_disjoint's business).
  for (size_t i = 0; i < plan.nodes.size(); ++i)
    for (size_t j = i + 1; j < plan.nodes.size(); ++j)
      for (const MigrationPath& a : plan.nodes[i].paths)
        for (const MigrationPath& b : plan.nodes[j].paths)
          if (auto v = check_disjoint({a.path, b.path}, d))
            return fmt::format("nodes {} and {}: paths {} and {}: {}", plan.nodes[i].u, plan.nodes[j].u, a.path, b.path, *v);
  return std::nullopt;
}

Violation check_plan_no_block_link(const Plan& plan) {
  for (const NodePlan& np : plan.nodes)
    for (const MigrationPath& mp : np.paths)
      for (size_t k = 0; k + 1 < mp.path.nodes.size(); ++k)
        for (const Subcube& block : plan.blocks)
          if (block.contains(mp.path.nodes[k]) && block.contains(mp.path.nodes[k + 1]))
            return fmt::format("node {}: path {} uses link {}-{} of block {}", np.u, mp.path, mp.path.nodes[k],
                               mp.path.nodes[k + 1], block);
  return std::nullopt;
}

Violation check_plan_t_links(const Plan& plan) {
  for (const NodePlan& np : plan.nodes)
    for (const MigrationPath& mp : np.paths) {
      const size_t limit = mp.ext_begin >= 0 ? static_cast<size_t>(mp.ext_begin) : mp.path.nodes.size() - 1;
      for (size_t k = 0; k < limit && k + 1 < mp.path.nodes.size(); ++k)
        if (plan.inst.T.contains(mp.path.nodes[k]) && plan.inst.T.contains(mp.path.nodes[k + 1]))
          return fmt::format("node {}: {} path {} uses link {}-{} of T outside an h-extension", np.u, to_string(mp.kind),
                             mp.path, mp.path.nodes[k], mp.path.nodes[k + 1]);
    }
  return std::nullopt;
}

Violation check_plan_length(const Plan& plan) {
  const int bound = plan.inst.zeta() + 2 * plan.inst.beta();
  std::vector<Path> all;
  for (const NodePlan& np : plan.nodes)
    for (const MigrationPath& mp : np.paths) all.push_back(mp.path);
  if (auto v = check_max_length(all, bound)) return fmt::format("zeta + 2 beta = {}: {}", bound, *v);
  return std::nullopt;
}

bool proviso_holds(const Plan& plan) {
  if (!plan.section_42) return true;
  if (plan.inst.beta() == 0) return false;
  const int k = std::countr_zero(plan.inst.C);
  for (const Plan::BInfo& b : plan.bs) {
    bool some = false;
    for (const NodePlan& np : plan.nodes) {
      if (!b.cube.contains(np.u) || np.u == b.q) continue;
      for (const MigrationPath& mp : np.paths)
        if (mp.kind == PathKind::kAggressive) {
          const auto dims = hop_dimensions(mp.path);
          if (!dims.empty() && dims.back() != k) some = true;
        }
    }
    if (!some) return false;
  }
  return true;
}

}  // namespace topocheck::migration
