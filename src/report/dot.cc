// The DOT emitters of dot.h. The first three were `show`'s printers (src/cli/show_cmd.cc); their
// text is kept byte for byte (drawing_test.cc compares it with stored files).
#include "report/dot.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "metacube/metacube.h"

namespace topocheck::report {
namespace {

using nlohmann::json;

void collect_paths_into(const json& j, const std::string& pointer, std::vector<NamedPath>& out) {
  if (j.is_array() && !j.empty() && std::all_of(j.begin(), j.end(), [](const json& e) { return e.is_string(); })) {
    std::vector<std::string> p;
    for (const json& e : j) p.push_back(e.get<std::string>());
    if (std::all_of(p.begin(), p.end(), [](const std::string& s) { return parse_node(s).ok(); })) {
      out.push_back({pointer.empty() ? "/" : pointer, p});
      return;
    }
  }
  if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) collect_paths_into(j[i], fmt::format("{}/{}", pointer, i), out);
  else if (j.is_object())
    for (const auto& [k, v] : j.items()) collect_paths_into(v, pointer + "/" + k, out);
}

// The colours of paths; red is kept for the highlights.
constexpr const char* kPathColors[] = {"blue", "darkgreen", "orange", "purple", "brown", "magenta", "cyan", "gray40"};

}  // namespace

std::vector<NamedPath> collect_paths(const json& j) {
  std::vector<NamedPath> out;
  collect_paths_into(j, "", out);
  return out;
}

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string itm_dot(const corpus::Case& c, DotStyle style) {
  const json& w = c.witness;
  std::vector<std::pair<int, int>> edges;
  int n = 0;
  if (w.contains("edges") && w.at("edges").is_array())
    for (const json& e : w.at("edges"))
      if (e.is_array() && e.size() == 2 && e[0].is_number_integer() && e[1].is_number_integer()) {
        edges.emplace_back(e[0].get<int>(), e[1].get<int>());
        n = std::max({n, edges.back().first + 1, edges.back().second + 1});
      }
  std::set<std::pair<int, int>> exterior;
  if (w.contains("exterior") && w.at("exterior").is_array())
    for (const json& e : w.at("exterior"))
      if (e.is_array() && e.size() == 2) exterior.insert({e[0].get<int>(), e[1].get<int>()});
  std::vector<int> order;
  for (const char* key : {"order", "found_order"})
    if (order.empty() && w.contains(key) && w.at(key).is_array())
      for (const json& v : w.at(key)) order.push_back(v.get<int>());
  if (static_cast<int>(order.size()) != n) {
    order.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  }
  std::optional<int> root;
  if (w.contains("root") && w.at("root").is_number_integer()) root = w.at("root").get<int>();
  std::vector<std::vector<int>> paths;
  if (w.contains("paths") && w.at("paths").is_array())
    for (const json& p : w.at("paths")) {
      std::vector<int> path;
      if (p.is_array())
        for (const json& v : p)
          if (v.is_number_integer()) path.push_back(v.get<int>());
      paths.push_back(path);
    }
  // Undirected edges used by two different paths.
  std::map<std::pair<int, int>, std::set<size_t>> users;
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t k = 0; k + 1 < paths[i].size(); ++k)
      users[{std::min(paths[i][k], paths[i][k + 1]), std::max(paths[i][k], paths[i][k + 1])}].insert(i);
  std::set<std::pair<int, int>> shared;
  for (const auto& [e, who] : users)
    if (who.size() > 1) shared.insert(e);
  std::string out = "graph topocheck_itm_case {\n  // neato -n2 -Tsvg: positions are fixed (nodes on a circle in circular order)\n";
  out += "  node [shape=circle, fontname=monospace];\n";
  std::vector<std::string> names;
  for (const auto& e : shared) names.push_back(fmt::format("{}-{}", e.first, e.second));
  out += fmt::format("  label=\"{} [{}]\\n{}\\n{}\";\n", dot_escape(c.claim), dot_escape(c.reading),
                     dot_escape(c.violation),
                     shared.empty() ? std::string("no shared edge") : "shared: " + fmt::format("{}", fmt::join(names, ", ")));
  const double pi = 3.14159265358979323846, radius = 40.0 * std::max(n, 3);
  for (size_t i = 0; i < order.size(); ++i) {
    const double angle = 2 * pi * static_cast<double>(i) / static_cast<double>(order.size());
    out += fmt::format("  {} [pos=\"{:.0f},{:.0f}\"{}];\n", order[i], radius * std::sin(angle), radius * std::cos(angle),
                       root == order[i] ? ", shape=doublecircle, xlabel=\"root\"" : "");
  }
  for (const auto& [u, v] : edges) {
    const bool ext = exterior.count({std::min(u, v), std::max(u, v)}) > 0;
    const bool hot = shared.count({std::min(u, v), std::max(u, v)}) > 0;
    out += fmt::format("  {} -- {} [{}];\n", u, v,
                       hot   ? (style.label_highlights
                                    ? fmt::format("color=red, penwidth=4, label=\"shared edge {}-{}\", fontcolor=red",
                                                  std::min(u, v), std::max(u, v))
                                    : std::string("color=red, penwidth=4"))
                       : ext ? "penwidth=2"
                             : "style=dashed, color=gray50");
  }
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t k = 0; k + 1 < paths[i].size(); ++k)
      out += fmt::format("  {} -- {} [dir=forward, color={}, label=\"P{}\", fontcolor={}];\n", paths[i][k],
                         paths[i][k + 1], kPathColors[i % 4], i, kPathColors[i % 4]);
  out += "}\n";
  return out;
}

std::optional<std::string> wormhole_dot(const corpus::Case& c) {
  const json& w = c.witness;
  if (!w.contains("deadlock") || !w.at("deadlock").is_object() || !w.at("deadlock").contains("stuck")) return std::nullopt;
  const json& d = w.at("deadlock");
  // A channel's text form "a->b" as its two ends.
  auto ends = [](const json& t) -> std::optional<std::pair<int, int>> {
    if (!t.is_string()) return std::nullopt;
    const std::string s = t.get<std::string>();
    const size_t arrow = s.find("->");
    if (arrow == std::string::npos) return std::nullopt;
    return std::make_pair(std::atoi(s.substr(0, arrow).c_str()), std::atoi(s.substr(arrow + 2).c_str()));
  };
  std::string out = "digraph topocheck_wormhole_case {\n  node [shape=circle, fontname=monospace];\n";
  out += fmt::format("  label=\"{} [{}]\\n{}\";\n", dot_escape(c.claim), dot_escape(c.reading), dot_escape(c.violation));
  if (w.contains("edges") && w.at("edges").is_array())
    for (const json& e : w.at("edges"))
      if (e.is_array() && e.size() == 2) out += fmt::format("  {} -> {} [dir=none, color=gray70];\n", e[0].dump(), e[1].dump());
  std::map<int, size_t> color_of;
  if (d.contains("cycle_worms") && d.at("cycle_worms").is_array())
    for (const json& x : d.at("cycle_worms"))
      if (x.is_number_integer()) color_of.emplace(x.get<int>(), color_of.size());
  for (const json& s : d.at("stuck")) {
    if (!s.is_object() || !s.contains("worm") || !s.at("worm").is_number_integer()) continue;
    const int worm = s.at("worm").get<int>();
    const auto it = color_of.find(worm);
    if (it == color_of.end() || !s.contains("held_text")) continue;
    const char* color = kPathColors[it->second % 8];
    for (const json& t : s.at("held_text"))
      if (auto e = ends(t))
        out += fmt::format("  {} -> {} [color={}, penwidth=3, label=\"w{}\", fontcolor={}];\n", e->first, e->second, color,
                           worm, color);
  }
  if (d.contains("waits_on_text") && d.at("waits_on_text").is_array())
    for (const json& t : d.at("waits_on_text"))
      if (auto e = ends(t))
        out += fmt::format("  {} -> {} [color=red, style=dashed, label=\"waits\", fontcolor=red];\n", e->first, e->second);
  out += "}\n";
  return out;
}

std::vector<SharedNode> shared_nodes(const std::vector<NamedPath>& paths) {
  std::map<std::string, std::map<std::string, std::vector<std::string>>> seen;  // set -> node -> "path@pos"
  std::map<std::string, std::set<std::string>> internal;                        // set -> internal nodes
  for (const auto& p : paths) {
    const std::string set = p.pointer.substr(0, p.pointer.rfind('/'));
    for (size_t k = 0; k < p.nodes.size(); ++k) {
      seen[set][p.nodes[k]].push_back(fmt::format("{} @{}", p.pointer, k));
      if (k > 0 && k + 1 < p.nodes.size()) internal[set].insert(p.nodes[k]);
    }
  }
  std::vector<SharedNode> out;
  for (const auto& [set, nodes] : seen)
    for (const auto& [node, where] : nodes)
      if (where.size() > 1 && internal[set].count(node)) out.push_back({node, where});
  return out;
}

std::string paths_dot(const corpus::Case& c, const std::vector<NamedPath>& paths, DotStyle style) {
  std::set<std::string> shared;
  std::vector<std::string> legend;
  for (const SharedNode& s : shared_nodes(paths)) {
    shared.insert(s.node);
    legend.push_back(fmt::format("{} ({})", s.node, fmt::join(s.where, ", ")));
  }
  // Metacube cases: the fielded form (class, M[h-1] ... M[0]) under the bit string.
  std::optional<metacube::Metacube> mc;
  if (c.claim.rfind("metacube.", 0) == 0 && c.params.is_object() && c.params.contains("k") &&
      c.params.contains("m") && c.params.at("k").is_number_integer() && c.params.at("m").is_number_integer())
    if (auto made = metacube::Metacube::make(c.params.at("k").get<int>(), c.params.at("m").get<int>())) mc = *made;
  std::string out = "digraph topocheck_case {\n  rankdir=LR;\n  node [shape=box, fontname=monospace];\n";
  out += fmt::format("  label=\"{} [{}]\\n{}\\n{}\";\n", dot_escape(c.claim), dot_escape(c.reading),
                     dot_escape(c.kind == corpus::CaseKind::kExample ? c.source : c.violation),
                     dot_escape(shared.empty() ? "no shared node" : fmt::format("shared: {}", fmt::join(legend, "; "))));
  std::set<std::string> nodes;
  for (const auto& p : paths) nodes.insert(p.nodes.begin(), p.nodes.end());
  for (const std::string& n : nodes) {
    std::string label = n;
    if (mc)
      if (auto u = mc->parse_fields(n)) label += "\\n" + mc->format_fields(*u);
    const bool hot = shared.count(n) > 0;
    if (hot && style.label_highlights) label += "\\nshared node";
    out += fmt::format("  \"{}\" [label=\"{}\"{}];\n", n, label, hot ? ", style=filled, fillcolor=red, penwidth=3" : "");
  }
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t k = 0; k + 1 < paths[i].nodes.size(); ++k)
      out += fmt::format("  \"{}\" -> \"{}\" [color={}, fontcolor={}, label=\"{}\"];\n", paths[i].nodes[k],
                         paths[i].nodes[k + 1], kPathColors[i % 8], kPathColors[i % 8], dot_escape(paths[i].pointer));
  out += "}\n";
  return out;
}

namespace {

std::string link_name(Node a, Node b, MigrationScene::Collision kind) {
  if (kind == MigrationScene::Collision::kDirectedLink) return fmt::format("{}->{}", a, b);
  return fmt::format("{}-{}", std::min(a, b), std::max(a, b));
}

// The collisions of a scene, of its kind only.
struct Collisions {
  std::set<Node> nodes;                      // kNode: occurring twice among the paths, internal to one
  std::vector<std::pair<Node, Node>> links;  // kLink (as min, max) or kDirectedLink: used by two paths
};

Collisions find_collisions(const MigrationScene& scene) {
  using Collision = MigrationScene::Collision;
  std::map<Node, std::vector<std::pair<size_t, size_t>>> at;  // node -> (path, position)
  std::map<std::pair<Node, Node>, size_t> link_uses;
  for (size_t i = 0; i < scene.paths.size(); ++i) {
    const auto& p = scene.paths[i].nodes;
    for (size_t k = 0; k < p.size(); ++k) at[p[k]].push_back({i, k});
    for (size_t k = 0; k + 1 < p.size(); ++k)
      ++link_uses[scene.collision == Collision::kDirectedLink ? std::pair{p[k], p[k + 1]}
                                                              : std::pair{std::min(p[k], p[k + 1]), std::max(p[k], p[k + 1])}];
  }
  Collisions out;
  if (scene.collision == Collision::kNode) {
    for (const auto& [u, where] : at) {
      const bool internal = std::any_of(where.begin(), where.end(), [&](const auto& w) {
        return w.second > 0 && w.second + 1 < scene.paths[w.first].nodes.size();
      });
      if (where.size() > 1 && internal) out.nodes.insert(u);
    }
  } else {
    for (const auto& [link, uses] : link_uses)
      if (uses > 1) out.links.push_back(link);
  }
  return out;
}

}  // namespace

std::vector<std::string> migration_collisions(const MigrationScene& scene) {
  const Collisions found = find_collisions(scene);
  std::vector<std::string> out;
  for (Node u : found.nodes) out.push_back(fmt::format("shared node {}", u));
  for (const auto& [a, b] : found.links) out.push_back(fmt::format("shared link {}", link_name(a, b, scene.collision)));
  return out;
}

std::string migration_dot(const MigrationScene& scene) {
  using Collision = MigrationScene::Collision;
  const Collisions found = find_collisions(scene);
  auto in_block = [&](Node u) -> const Subcube* {
    for (const Subcube& b : scene.blocks)
      if (b.contains(u)) return &b;
    return nullptr;
  };
  // The drawn nodes: all of Q_n when small, else S, T and the paths' nodes.
  std::set<Node> drawn;
  const bool whole_cube = scene.n <= 4;
  for (uint64_t x = 0; whole_cube && x < (uint64_t{1} << scene.n); ++x) drawn.insert(Node{x, scene.n});
  for (const auto& cube : {scene.S, scene.T})
    if (cube)
      for (uint64_t x = 0; x < (uint64_t{1} << scene.n); ++x)
        if (cube->contains(Node{x, scene.n})) drawn.insert(Node{x, scene.n});
  for (const auto& p : scene.paths) drawn.insert(p.nodes.begin(), p.nodes.end());

  std::string out = "digraph topocheck_migration_case {\n  rankdir=LR;\n  node [shape=box, fontname=monospace];\n";
  std::vector<std::string> heading = scene.heading;
  heading.push_back(fmt::format("S = {}, T = {}, blocks: {}", scene.S ? scene.S->to_string() : "-",
                                scene.T ? scene.T->to_string() : "-",
                                scene.blocks.empty() ? std::string("none") : fmt::format("{}", fmt::join(scene.blocks, ", "))));
  const std::vector<std::string> collisions = migration_collisions(scene);
  heading.push_back(collisions.empty() ? std::string("no collision among the drawn paths")
                                       : fmt::format("{}", fmt::join(collisions, "; ")));
  // Long lines (violations) wrapped at a space near 100 characters.
  std::vector<std::string> escaped;
  for (std::string line : heading) {
    while (line.size() > 100) {
      size_t cut = line.rfind(' ', 100);
      if (cut == std::string::npos || cut < 50) cut = 100;
      escaped.push_back(dot_escape(line.substr(0, cut)));
      line = line.substr(cut < line.size() && line[cut] == ' ' ? cut + 1 : cut);
    }
    escaped.push_back(dot_escape(line));
  }
  out += fmt::format("  label=\"{}\";\n", fmt::join(escaped, "\\n"));
  for (Node u : drawn) {
    std::vector<std::string> tags;
    if (scene.S && scene.S->contains(u)) tags.push_back("in S");
    if (scene.T && scene.T->contains(u)) tags.push_back("in T");
    if (const Subcube* b = in_block(u)) tags.push_back(fmt::format("in block {}", *b));
    const bool hot = found.nodes.count(u) > 0;
    if (hot) tags.push_back("shared node");
    // Fill: red for a collision; else light blue for S, light green for T, khaki for both, grey
    // for a block; the words in the label say the same.
    const bool s = scene.S && scene.S->contains(u), t = scene.T && scene.T->contains(u);
    const char* fill = hot ? "red" : s && t ? "khaki" : s ? "lightblue" : t ? "palegreen" : in_block(u) ? "gray85" : "";
    out += fmt::format("  \"{}\" [label=\"{}{}{}\"{}{}];\n", u, u, tags.empty() ? "" : "\\n",
                       dot_escape(fmt::format("{}", fmt::join(tags, ", "))),
                       *fill ? fmt::format(", style=filled, fillcolor={}", fill) : "", hot ? ", penwidth=3, fontcolor=white" : "");
  }
  // The hypercube's links among the drawn nodes, grey and without arrows. The whole cube is laid
  // out by its links, u -> u^(i) for u[i] = 0, so that rank = number of ones (the layered drawing
  // of Q_n), and the paths do not move it; a partial drawing is laid out by its paths.
  const char* links_constrain = whole_cube ? "" : ", constraint=false";
  const char* paths_constrain = whole_cube ? ", constraint=false" : "";
  for (Node u : drawn)
    for (int i = 0; i < scene.n; ++i)
      if (Node v = u.flip(i); u < v && drawn.count(v))
        out += fmt::format("  \"{}\" -> \"{}\" [dir=none, color=gray80{}];\n", u, v, links_constrain);
  for (size_t i = 0; i < scene.paths.size(); ++i) {
    const auto& p = scene.paths[i].nodes;
    const char* color = kPathColors[i % 8];
    // The first hop carries the path's name, the others its short name P<i>.
    for (size_t k = 0; k + 1 < p.size(); ++k) {
      const bool block_link = in_block(p[k]) && in_block(p[k]) == in_block(p[k + 1]);
      const std::string name = k == 0 ? fmt::format("P{}: {}", i, scene.paths[i].name) : fmt::format("P{}", i);
      out += fmt::format("  \"{}\" -> \"{}\" [color={}, fontcolor={}, label=\"{}{}\"{}];\n", p[k], p[k + 1], color, color,
                         dot_escape(name), block_link ? "\\nblock link" : "", paths_constrain);
    }
  }
  for (const auto& [a, b] : found.links)
    out += fmt::format("  \"{}\" -> \"{}\" [color=red, penwidth=4, fontcolor=red, label=\"shared link {}\"{}{}];\n", a, b,
                       link_name(a, b, scene.collision), scene.collision == Collision::kLink ? ", dir=none" : "",
                       paths_constrain);
  out += "}\n";
  return out;
}

}  // namespace topocheck::report
