#include "core/checks.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

namespace topocheck {
namespace {

struct PairHash {
  size_t operator()(const std::pair<Node, Node>& p) const noexcept {
    return std::hash<Node>()(p.first) * 31 + std::hash<Node>()(p.second);
  }
};

}  // namespace

Violation check_path_valid(const Topology& topo, const Path& path) {
  if (path.nodes.empty()) return "the path is empty";
  for (size_t k = 0; k < path.nodes.size(); ++k) {
    const Node& u = path.nodes[k];
    if (u.width != topo.width() || !topo.contains(u))
      return fmt::format("node {} at position {} is not a node of {}", u, k, topo.name());
  }
  for (size_t k = 0; k + 1 < path.nodes.size(); ++k) {
    const Node& u = path.nodes[k];
    const Node& v = path.nodes[k + 1];
    if (!topo.is_edge(u, v))
      return fmt::format("hop {} ({} -> {}) is not an edge of {}", k, u, v, topo.name());
  }
  return std::nullopt;
}

Violation check_endpoints(const Path& path, Node s, Node t) {
  if (path.nodes.empty()) return "the path is empty";
  if (path.front() != s) return fmt::format("the path starts at {}, not at {}", path.front(), s);
  if (path.back() != t) return fmt::format("the path ends at {}, not at {}", path.back(), t);
  return std::nullopt;
}

Violation check_simple(const Path& path) {
  std::unordered_map<Node, size_t> seen;
  const bool closed = path.nodes.size() >= 2 && path.front() == path.back();
  const size_t last = closed ? path.nodes.size() - 1 : path.nodes.size();
  for (size_t k = 0; k < last; ++k) {
    auto [it, inserted] = seen.emplace(path.nodes[k], k);
    if (!inserted)
      return fmt::format("node {} occurs twice, at positions {} and {}", path.nodes[k], it->second, k);
  }
  return std::nullopt;
}

Violation check_internally_node_disjoint(const std::vector<Path>& paths) {
  // Every node of every path, with the paths it occurs in.
  std::unordered_map<Node, std::vector<size_t>> occurs;
  for (size_t i = 0; i < paths.size(); ++i)
    for (const Node& u : paths[i].nodes) {
      auto& list = occurs[u];
      if (list.empty() || list.back() != i) list.push_back(i);
    }
  for (size_t i = 0; i < paths.size(); ++i) {
    const auto& nodes = paths[i].nodes;
    for (size_t k = 1; k + 1 < nodes.size(); ++k)
      for (size_t j : occurs[nodes[k]])
        if (j != i)
          return fmt::format("paths {} and {} share node {}, internal to path {} (position {})",
                             std::min(i, j), std::max(i, j), nodes[k], i, k);
  }
  return std::nullopt;
}

Violation check_link_disjoint(const std::vector<Path>& paths) {
  std::unordered_map<std::pair<Node, Node>, size_t, PairHash> used;
  for (size_t i = 0; i < paths.size(); ++i) {
    const auto& nodes = paths[i].nodes;
    for (size_t k = 0; k + 1 < nodes.size(); ++k) {
      const Link l = Link::of(nodes[k], nodes[k + 1]);
      auto [it, inserted] = used.emplace(std::pair{l.a, l.b}, i);
      if (!inserted && it->second != i)
        return fmt::format("paths {} and {} both use link {}-{}", it->second, i, l.a, l.b);
    }
  }
  return std::nullopt;
}

Violation check_directed_link_disjoint(const std::vector<Path>& paths) {
  std::unordered_map<std::pair<Node, Node>, size_t, PairHash> used;
  for (size_t i = 0; i < paths.size(); ++i) {
    const auto& nodes = paths[i].nodes;
    for (size_t k = 0; k + 1 < nodes.size(); ++k) {
      auto [it, inserted] = used.emplace(std::pair{nodes[k], nodes[k + 1]}, i);
      if (!inserted && it->second != i)
        return fmt::format("paths {} and {} both use directed link {}->{}", it->second, i,
                           nodes[k], nodes[k + 1]);
    }
  }
  return std::nullopt;
}

Violation check_avoids_links(const std::vector<Path>& paths, const std::set<Link>& forbidden) {
  for (size_t i = 0; i < paths.size(); ++i) {
    const auto& nodes = paths[i].nodes;
    for (size_t k = 0; k + 1 < nodes.size(); ++k)
      if (forbidden.count(Link::of(nodes[k], nodes[k + 1])))
        return fmt::format("path {} uses forbidden link {}-{} at hop {}", i, nodes[k], nodes[k + 1], k);
  }
  return std::nullopt;
}

Violation check_max_length(const std::vector<Path>& paths, int bound) {
  for (size_t i = 0; i < paths.size(); ++i)
    if (paths[i].length() > bound)
      return fmt::format("path {} has length {}, more than the bound {}", i, paths[i].length(), bound);
  return std::nullopt;
}

Violation check_paths_valid_simple(const Topology& topo, const std::vector<Path>& paths, Node s,
                                   Node t) {
  for (size_t i = 0; i < paths.size(); ++i) {
    if (auto v = check_path_valid(topo, paths[i])) return fmt::format("path {}: {}", i, *v);
    if (auto v = check_endpoints(paths[i], s, t)) return fmt::format("path {}: {}", i, *v);
    if (auto v = check_simple(paths[i])) return fmt::format("path {}: {}", i, *v);
  }
  return std::nullopt;
}

}  // namespace topocheck
