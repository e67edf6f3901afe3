#include "cli/show_cmd.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/app.h"
#include "cli/output.h"
#include "corpus/corpus.h"
#include "corpus/loader.h"
#include "metacube/metacube.h"

namespace topocheck::cli {
namespace {

using nlohmann::json;

// Every array of node strings inside `j` (witness or printed output), in document order, with
// its JSON pointer (the same form errata cells use, e.g. /columns/3/paths/1).
struct NamedPath {
  std::string pointer;
  std::vector<std::string> nodes;
};

void collect_paths(const json& j, const std::string& pointer, std::vector<NamedPath>& out) {
  if (j.is_array() && !j.empty() && std::all_of(j.begin(), j.end(), [](const json& e) { return e.is_string(); })) {
    std::vector<std::string> p;
    for (const json& e : j) p.push_back(e.get<std::string>());
    if (std::all_of(p.begin(), p.end(), [](const std::string& s) { return parse_node(s).ok(); })) {
      out.push_back({pointer.empty() ? "/" : pointer, p});
      return;
    }
  }
  if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) collect_paths(j[i], fmt::format("{}/{}", pointer, i), out);
  else if (j.is_object())
    for (const auto& [k, v] : j.items()) collect_paths(v, pointer + "/" + k, out);
}

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// An ITM case (claims itm.*) as an undirected DOT graph for `neato -n`: the nodes on a circle in
// the witness's circular order ("order", else "found_order", else 0..n-1), exterior edges solid,
// interior edges dashed grey, the witness's paths as coloured arrows, and every edge two paths
// both use (in either direction) red and thick: the offending edges.
void print_itm_dot(const corpus::Case& c) {
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
  std::cout << "graph topocheck_itm_case {\n  // neato -n2 -Tsvg: positions are fixed (nodes on a circle in circular order)\n";
  std::cout << "  node [shape=circle, fontname=monospace];\n";
  std::vector<std::string> names;
  for (const auto& e : shared) names.push_back(fmt::format("{}-{}", e.first, e.second));
  std::cout << fmt::format("  label=\"{} [{}]\\n{}\\n{}\";\n", dot_escape(c.claim), dot_escape(c.reading),
                           dot_escape(c.violation),
                           shared.empty() ? std::string("no shared edge") : "shared: " + fmt::format("{}", fmt::join(names, ", ")));
  const double pi = 3.14159265358979323846, radius = 40.0 * std::max(n, 3);
  for (size_t i = 0; i < order.size(); ++i) {
    const double angle = 2 * pi * static_cast<double>(i) / static_cast<double>(order.size());
    std::cout << fmt::format("  {} [pos=\"{:.0f},{:.0f}\"];\n", order[i], radius * std::sin(angle), radius * std::cos(angle));
  }
  for (const auto& [u, v] : edges) {
    const bool ext = exterior.count({std::min(u, v), std::max(u, v)}) > 0;
    const bool hot = shared.count({std::min(u, v), std::max(u, v)}) > 0;
    std::cout << fmt::format("  {} -- {} [{}];\n", u, v,
                             hot ? "color=red, penwidth=4" : ext ? "penwidth=2" : "style=dashed, color=gray50");
  }
  static const char* colors[] = {"blue", "darkgreen", "orange", "purple"};
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t k = 0; k + 1 < paths[i].size(); ++k)
      std::cout << fmt::format("  {} -- {} [dir=forward, color={}, label=\"P{}\", fontcolor={}];\n", paths[i][k],
                               paths[i][k + 1], colors[i % 4], i, colors[i % 4]);
  std::cout << "}\n";
}

// A wormhole deadlock case (claims wormhole.*, witness.deadlock from catalog/wormhole/claims.cc) as a DOT
// digraph: the graph's edges grey and undirected, the channels each stuck worm of the waiting
// cycle holds as solid arrows in its colour (labelled with the worm), and the channel each waits
// on as a dashed red arrow: the cycle of waiting is the ring of red and coloured arrows.
bool print_wormhole_dot(const corpus::Case& c) {
  const json& w = c.witness;
  if (!w.contains("deadlock") || !w.at("deadlock").is_object() || !w.at("deadlock").contains("stuck")) return false;
  const json& d = w.at("deadlock");
  auto ends = [](const json& t) -> std::optional<std::pair<int, int>> {
    if (!t.is_string()) return std::nullopt;
    const std::string s = t.get<std::string>();
    const size_t arrow = s.find("->");
    if (arrow == std::string::npos) return std::nullopt;
    return std::make_pair(std::atoi(s.substr(0, arrow).c_str()), std::atoi(s.substr(arrow + 2).c_str()));
  };
  std::cout << "digraph topocheck_wormhole_case {\n  node [shape=circle, fontname=monospace];\n";
  std::cout << fmt::format("  label=\"{} [{}]\\n{}\";\n", dot_escape(c.claim), dot_escape(c.reading), dot_escape(c.violation));
  if (w.contains("edges") && w.at("edges").is_array())
    for (const json& e : w.at("edges"))
      if (e.is_array() && e.size() == 2)
        std::cout << fmt::format("  {} -> {} [dir=none, color=gray70];\n", e[0].dump(), e[1].dump());
  static const char* colors[] = {"blue", "darkgreen", "orange", "purple", "brown", "magenta", "cyan", "gray40"};
  std::map<int, size_t> color_of;
  if (d.contains("cycle_worms") && d.at("cycle_worms").is_array())
    for (const json& x : d.at("cycle_worms"))
      if (x.is_number_integer()) color_of.emplace(x.get<int>(), color_of.size());
  for (const json& s : d.at("stuck")) {
    if (!s.is_object() || !s.contains("worm") || !s.at("worm").is_number_integer()) continue;
    const int worm = s.at("worm").get<int>();
    const auto it = color_of.find(worm);
    if (it == color_of.end() || !s.contains("held_text")) continue;
    const char* color = colors[it->second % 8];
    for (const json& t : s.at("held_text"))
      if (auto e = ends(t))
        std::cout << fmt::format("  {} -> {} [color={}, penwidth=3, label=\"w{}\", fontcolor={}];\n", e->first, e->second,
                                 color, worm, color);
  }
  if (d.contains("waits_on_text") && d.at("waits_on_text").is_array())
    for (const json& t : d.at("waits_on_text"))
      if (auto e = ends(t))
        std::cout << fmt::format("  {} -> {} [color=red, style=dashed, label=\"waits\", fontcolor=red];\n", e->first, e->second);
  std::cout << "}\n";
  return true;
}

// Any other case as a DOT digraph of its paths. One colour per path (red is kept for the
// highlight). Paths are grouped by their parent pointer (/paths/0, /paths/1, ... form one set;
// /translate/paths/... another): a node is shared if it is internal to a path of its set and
// occurs there more than once (in two paths, or twice in one); shared nodes are filled red and
// named in the legend line.
void print_paths_dot(const corpus::Case& c, const std::vector<NamedPath>& paths) {
  static const char* colors[] = {"blue", "darkgreen", "orange", "purple", "brown", "magenta", "cyan", "gray40"};
  std::map<std::string, std::map<std::string, std::vector<std::string>>> seen;  // set -> node -> "path@pos"
  std::map<std::string, std::set<std::string>> internal;                        // set -> internal nodes
  for (const auto& p : paths) {
    const std::string set = p.pointer.substr(0, p.pointer.rfind('/'));
    for (size_t k = 0; k < p.nodes.size(); ++k) {
      seen[set][p.nodes[k]].push_back(fmt::format("{} @{}", p.pointer, k));
      if (k > 0 && k + 1 < p.nodes.size()) internal[set].insert(p.nodes[k]);
    }
  }
  std::set<std::string> shared;
  std::vector<std::string> legend;
  for (const auto& [set, nodes] : seen)
    for (const auto& [node, where] : nodes)
      if (where.size() > 1 && internal[set].count(node)) {
        shared.insert(node);
        legend.push_back(fmt::format("{} ({})", node, fmt::join(where, ", ")));
      }
  // Metacube cases: the fielded form (class, M[h-1] ... M[0]) under the bit string.
  std::optional<metacube::Metacube> mc;
  if (c.claim.rfind("metacube.", 0) == 0 && c.params.is_object() && c.params.contains("k") &&
      c.params.contains("m") && c.params.at("k").is_number_integer() && c.params.at("m").is_number_integer())
    if (auto made = metacube::Metacube::make(c.params.at("k").get<int>(), c.params.at("m").get<int>())) mc = *made;
  std::cout << "digraph topocheck_case {\n  rankdir=LR;\n  node [shape=box, fontname=monospace];\n";
  std::cout << fmt::format("  label=\"{} [{}]\\n{}\\n{}\";\n", dot_escape(c.claim), dot_escape(c.reading),
                           dot_escape(c.kind == corpus::CaseKind::kExample ? c.source : c.violation),
                           dot_escape(shared.empty() ? "no shared node"
                                                     : fmt::format("shared: {}", fmt::join(legend, "; "))));
  std::set<std::string> nodes;
  for (const auto& p : paths) nodes.insert(p.nodes.begin(), p.nodes.end());
  for (const std::string& n : nodes) {
    std::string label = n;
    if (mc)
      if (auto u = mc->parse_fields(n)) label += "\\n" + mc->format_fields(*u);
    std::cout << fmt::format("  \"{}\" [label=\"{}\"{}];\n", n, label,
                             shared.count(n) ? ", style=filled, fillcolor=red, penwidth=3" : "");
  }
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t k = 0; k + 1 < paths[i].nodes.size(); ++k)
      std::cout << fmt::format("  \"{}\" -> \"{}\" [color={}, fontcolor={}, label=\"{}\"];\n", paths[i].nodes[k],
                               paths[i].nodes[k + 1], colors[i % 8], colors[i % 8], dot_escape(paths[i].pointer));
  std::cout << "}\n";
}

// The text form: kind, claim, params, input, how it was found (or its errata), and its paths.
void print_case_text(const corpus::Case& c, const std::vector<NamedPath>& paths) {
  std::cout << fmt::format("{} case: {} [{}]\n", c.kind == corpus::CaseKind::kExample ? "example" : "counterexample",
                           c.claim, c.reading);
  std::cout << fmt::format("params: {}\ninput:  {}\n", c.params.dump(), c.input.dump());
  if (c.kind == corpus::CaseKind::kCounterexample) {
    std::cout << fmt::format("violation: {}\n", c.violation);
    std::cout << fmt::format("found by: {}{}{}; minimized: {}\n", c.method,
                             c.seed ? fmt::format(", seed {}", *c.seed) : "",
                             c.budget.empty() ? "" : ", budget " + c.budget, c.minimized ? "yes" : "no");
  } else {
    std::cout << fmt::format("source: {}; {} errata\n", c.source, c.errata.size());
    for (const auto& e : c.errata)
      std::cout << fmt::format("  erratum {} ({}): printed {}, computed {}: {}\n", e.cell, e.kind, e.printed.dump(),
                               e.computed.dump(), e.note);
  }
  if (!paths.empty()) std::cout << (c.kind == corpus::CaseKind::kExample ? "expected paths (as printed):\n" : "witness paths:\n");
  for (const auto& p : paths) std::cout << fmt::format("  {} = {}\n", p.pointer, fmt::join(p.nodes, ":"));
}

int cmd_show(const claims::Registry& registry, const std::string& file, const std::string& format) {
  if (format != "text" && format != "json" && format != "dot")
    return usage_error(fmt::format("--format: '{}' is not text, json or dot", format));
  auto c = corpus::load_checked_case(file, registry);
  if (!c) return report_error(c.error());
  if (format == "json") {
    std::cout << corpus::to_json(*c).dump(2) << "\n";
    return kExitOk;
  }
  if (format == "dot" && c->claim.rfind("itm.", 0) == 0) {
    print_itm_dot(*c);
    return kExitOk;
  }
  if (format == "dot" && c->claim.rfind("wormhole.", 0) == 0 && print_wormhole_dot(*c)) return kExitOk;
  std::vector<NamedPath> paths;
  collect_paths(c->kind == corpus::CaseKind::kExample ? c->expected : c->witness, "", paths);
  if (format == "dot") print_paths_dot(*c, paths);
  else print_case_text(*c, paths);
  return kExitOk;
}

struct ShowArgs {
  std::string file, format = "text";
};

}  // namespace

Command add_show_command(CLI::App& app, const Session& session) {
  auto args = std::make_shared<ShowArgs>();
  auto* show = app.add_subcommand("show", "print one corpus case");
  show->add_option("case", args->file, "CASE.json")->required();
  show->add_option("--format", args->format, "text (default), json or dot");
  return {show, [&session, args] { return cmd_show(session.registry(), args->file, args->format); }};
}

}  // namespace topocheck::cli
