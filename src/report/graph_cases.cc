// The Graphviz drawings of cases (internal/cases.h): hypercube and Metacube paths, ITMs, wormhole
// deadlocks and migration instances. Each reads the witness through json_checks.h, so that every
// value the drawing shows has been checked against the case's params, then emits dot.h's text.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hypercube/hypercube.h"
#include "metacube/metacube.h"
#include "migration/migration.h"
#include "report/dot.h"
#include "report/internal/cases.h"
#include "report/internal/json_checks.h"

namespace topocheck::report::internal {
namespace {

using nlohmann::json;

bool is_bit_string(const std::string& s) { return !s.empty() && s.find_first_not_of("01") == std::string::npos; }

// The last key of a JSON pointer ("/expected/class_path" -> "class_path").
std::string last_key(const std::string& pointer) { return pointer.substr(pointer.rfind('/') + 1); }

// Calls `check(s, pointer)` for every string of every array that holds strings only, at least one
// of them a bit string: the arrays collect_paths takes as paths when they parse, so that a
// malformed node in one ("0x1") is reported instead of the array being silently left out.
template <class Check>
void for_each_path_string(const json& j, const std::string& pointer, const Check& check) {
  if (j.is_array() && !j.empty() && std::all_of(j.begin(), j.end(), [](const json& e) { return e.is_string(); }) &&
      std::any_of(j.begin(), j.end(), [](const json& e) { return is_bit_string(e.get<std::string>()); })) {
    for (size_t i = 0; i < j.size(); ++i) check(j[i].get<std::string>(), child(pointer, i));
    return;
  }
  if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) for_each_path_string(j[i], child(pointer, i), check);
  else if (j.is_object())
    for (const auto& [k, v] : j.items()) for_each_path_string(v, child(pointer, k), check);
}

// Calls `check(s, pointer)` for every string member named s, t, u, x, y or a (the single nodes of
// the hypercube and Metacube inputs and witnesses: endpoints, a node, a translation).
template <class Check>
void for_each_single_node(const json& j, const std::string& pointer, const Check& check) {
  if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) for_each_single_node(j[i], child(pointer, i), check);
  else if (j.is_object())
    for (const auto& [k, v] : j.items()) {
      if (v.is_string() && (k == "s" || k == "t" || k == "u" || k == "x" || k == "y" || k == "a"))
        check(v.template get<std::string>(), child(pointer, k));
      else
        for_each_single_node(v, child(pointer, k), check);
    }
}

// Calls `check(s, pointer)` for every string in `j`.
template <class Check>
void for_each_string(const json& j, const std::string& pointer, const Check& check) {
  if (j.is_string()) check(j.get<std::string>(), pointer);
  else if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) for_each_string(j[i], child(pointer, i), check);
  else if (j.is_object())
    for (const auto& [k, v] : j.items()) for_each_string(v, child(pointer, k), check);
}

std::string heading_line(const corpus::Case& c) { return fmt::format("{} [{}]", c.claim, c.reading); }

// An example's errata in words, for its caption.
std::string errata_words(const corpus::Case& c) {
  if (c.kind != corpus::CaseKind::kExample || c.errata.empty()) return "";
  std::vector<std::string> words;
  for (const auto& e : c.errata)
    words.push_back(fmt::format("{} ({}): printed {}, computed {}", e.cell, e.kind, e.printed.dump(), e.computed.dump()));
  return fmt::format(" Errata: {}.", fmt::join(words, "; "));
}

// An edge list [[u, v], ...] of a graph on nodes 0..limit-1, undirected, no loops or repeats.
struct EdgeList {
  std::vector<std::pair<int, int>> edges;
  std::set<std::pair<int, int>> set;  // as (min, max)
  int nodes = 0;                      // 1 + the largest endpoint
  bool has(int u, int v) const { return set.count({std::min(u, v), std::max(u, v)}) > 0; }
};

std::pair<int, int> node_pair(const json& e, const std::string& pointer, int limit) {
  array(e, pointer, 2);
  const int u = static_cast<int>(integer(e[0], child(pointer, 0), 0, limit - 1));
  const int v = static_cast<int>(integer(e[1], child(pointer, 1), 0, limit - 1));
  if (u == v) fail(pointer, fmt::format("a loop at node {}", u));
  return {u, v};
}

EdgeList read_edges(const json& j, const std::string& pointer, int limit) {
  EdgeList out;
  for (size_t i = 0; i < array(j, pointer).size(); ++i) {
    const auto [u, v] = node_pair(j[i], child(pointer, i), limit);
    if (!out.set.insert({std::min(u, v), std::max(u, v)}).second)
      fail(child(pointer, i), fmt::format("edge ({}, {}) is repeated", u, v));
    out.edges.push_back({u, v});
    out.nodes = std::max({out.nodes, u + 1, v + 1});
  }
  if (out.edges.empty()) fail(pointer, "no edges");
  return out;
}

// A sub-list of edges ("exterior", "spanning_itm"): each must be an edge of the graph.
void check_edge_subset(const json& j, const std::string& pointer, const EdgeList& graph) {
  for (size_t i = 0; i < array(j, pointer).size(); ++i) {
    const auto [u, v] = node_pair(j[i], child(pointer, i), graph.nodes);
    if (!graph.has(u, v)) fail(child(pointer, i), fmt::format("({}, {}) is not an edge of /witness/edges", u, v));
  }
}

// A channel's text form "a->b": both ends nodes of the graph, joined by one of its edges.
std::pair<int, int> channel(const json& j, const std::string& pointer, const EdgeList& graph) {
  const std::string& s = text(j, pointer);
  const size_t arrow = s.find("->");
  const std::string a = arrow == std::string::npos ? "" : s.substr(0, arrow);
  const std::string b = arrow == std::string::npos ? "" : s.substr(arrow + 2);
  auto number = [](const std::string& t) { return !t.empty() && t.size() < 9 && t.find_first_not_of("0123456789") == std::string::npos; };
  if (!number(a) || !number(b)) fail(pointer, fmt::format("\"{}\" is not a channel \"a->b\"", s));
  const int u = std::stoi(a), v = std::stoi(b);
  if (u >= graph.nodes || v >= graph.nodes || !graph.has(u, v))
    fail(pointer, fmt::format("channel {} is not along an edge of /witness/edges", s));
  return {u, v};
}

}  // namespace

Prepared prepare_paths(const corpus::Case& c) {
  const bool is_metacube = c.claim.rfind("metacube.", 0) == 0;
  std::optional<hypercube::Hypercube> hc;
  std::optional<metacube::Metacube> mc;
  if (is_metacube) {
    const int k = static_cast<int>(integer(member(c.params, "/params", "k"), "/params/k", 0, 6));
    const int m = static_cast<int>(integer(member(c.params, "/params", "m"), "/params/m", 1, 63));
    auto made = metacube::Metacube::make(k, m);
    if (!made) fail("/params", made.error().message);
    mc = *made;
  } else {
    const int n = static_cast<int>(integer(member(c.params, "/params", "n"), "/params/n", 1, hypercube::kMaxDimension));
    auto made = hypercube::Hypercube::make(n);
    if (!made) fail("/params/n", made.error().message);
    hc = *made;
  }
  const Topology& topology = is_metacube ? static_cast<const Topology&>(*mc) : *hc;
  const json& doc = data_of(c);
  const std::string doc_pointer = data_pointer(c);

  // Every node string: a node of the topology, or (a Metacube class path) a class of k bits, or
  // (a Metacube input) the fielded form.
  auto check_string = [&](const std::string& s, const std::string& pointer) {
    if (mc && last_key(pointer.substr(0, pointer.rfind('/'))) == "class_path") {
      auto cls = parse_node(s, mc->k());
      if (!cls) fail(pointer, fmt::format("\"{}\" is not a class of {} (k = {} bits)", s, mc->name(), mc->k()));
    } else if (mc && !s.empty() && s[0] == '(') {
      auto u = mc->parse_fields(s);
      if (!u) fail(pointer, fmt::format("\"{}\" is not a node of {}: {}", s, mc->name(), u.error().message));
    } else {
      node_of(s, pointer, topology);
    }
  };
  for (const auto& [root, pointer] : {std::pair<const json*, std::string>{&c.input, "/input"}, {&doc, doc_pointer}}) {
    for_each_path_string(*root, pointer, check_string);
    for_each_single_node(*root, pointer, check_string);
    if (mc)  // fielded nodes anywhere (the neighbours example's lists)
      for_each_string(*root, pointer, [&](const std::string& s, const std::string& p) {
        if (!s.empty() && s[0] == '(') check_string(s, p);
      });
  }
  std::vector<NamedPath> paths = collect_paths(doc);
  // Indices into the paths ("longest": [0, 1]) must name paths.
  if (const json* longest = find(doc, "longest")) {
    const json* listed = find(doc, "paths");
    const int64_t count = listed && listed->is_array() ? static_cast<int64_t>(listed->size()) : 0;
    if (count == 0) fail(child(doc_pointer, "longest"), "indexes paths, but there is no \"paths\" array");
    number_array(*longest, child(doc_pointer, "longest"), 0, count - 1);
  }
  // A counterexample's paths are walks of the topology, except where the claim is their validity
  // (a non-link hop may be its violation); an example's printed paths may hold typos (errata).
  const bool claim_is_validity = c.claim.size() >= 6 && c.claim.compare(c.claim.size() - 6, 6, ".valid") == 0;
  if (c.kind == corpus::CaseKind::kCounterexample && !claim_is_validity)
    for (const NamedPath& p : paths) {
      if (last_key(p.pointer) == "class_path") continue;
      for (size_t k = 0; k + 1 < p.nodes.size(); ++k) {
        const Node u = *parse_node(p.nodes[k]), v = *parse_node(p.nodes[k + 1]);
        if (!topology.is_edge(u, v))
          fail(doc_pointer + p.pointer + "/" + std::to_string(k + 1),
               fmt::format("hop {} -> {} is not a link of {}", p.nodes[k], p.nodes[k + 1], topology.name()));
      }
    }
  const std::string family = is_metacube ? "metacube" : "hypercube";
  if (paths.empty()) return prepare_table(c, family + " table", fmt::format("The case holds no paths to draw ({}).", topology.name()));

  Prepared out;
  out.kind = family + " paths";
  out.dot = paths_dot(c, paths, DotStyle{.label_highlights = true});
  std::vector<std::string> shared;
  for (const SharedNode& s : shared_nodes(paths)) shared.push_back(fmt::format("{} (at {})", s.node, fmt::join(s.where, ", ")));
  out.caption = fmt::format(
      "{} {} of {} as arrows, one colour per path, each labelled with its JSON pointer in the case{}. {}{}",
      paths.size(), c.kind == corpus::CaseKind::kExample ? "printed paths" : "witness paths", topology.name(),
      mc ? "; each node shows its bit string and its fields (class, M[h-1] ... M[0])" : "",
      shared.empty() ? "No node is shared: none occurs twice among the paths of one set while internal to one of them."
                     : fmt::format("Shared nodes (occurring twice among the paths of one set, internal to one of them) are "
                                   "filled red and labelled \"shared node\": {}.",
                                   fmt::join(shared, "; ")),
      errata_words(c));
  return out;
}

Prepared prepare_itm(const corpus::Case& c) {
  const json& w = c.witness;
  const std::string wp = "/witness";
  constexpr int kMaxNodes = 4096;
  int declared = 0;
  if (const json* n = find(c.params, "n")) declared = static_cast<int>(integer(*n, "/params/n", 1, kMaxNodes));
  const EdgeList graph = read_edges(member(w, wp, "edges"), wp + "/edges", declared > 0 ? declared : kMaxNodes);
  const int n = graph.nodes;
  if (declared > 0 && n != declared)
    fail(wp + "/edges", fmt::format("the edges reach nodes 0..{}, but /params/n is {}", n - 1, declared));
  std::vector<bool> touched(static_cast<size_t>(n), false);
  for (const auto& [u, v] : graph.edges) touched[static_cast<size_t>(u)] = touched[static_cast<size_t>(v)] = true;
  for (int u = 0; u < n; ++u)
    if (!touched[static_cast<size_t>(u)]) fail(wp + "/edges", fmt::format("node {} is on no edge", u));
  if (const json* e = find(w, "exterior")) check_edge_subset(*e, wp + "/exterior", graph);
  if (const json* e = find(w, "spanning_itm")) check_edge_subset(*e, wp + "/spanning_itm", graph);
  std::string order_words = "in node order 0..n-1 (the witness gives no circular order)";
  for (const char* key : {"order", "found_order"})
    if (const json* o = find(w, key)) {
      const std::string pointer = child(wp, key);
      if (number_array(*o, pointer, 0, n - 1).size() != static_cast<size_t>(n))
        fail(pointer, fmt::format("is not an order of the {} nodes", n));
    }
  if (find(w, "order")) order_words = "in the witness's circular order (/witness/order)";
  else if (find(w, "found_order")) order_words = "in the circular order found (/witness/found_order)";
  std::optional<int> root;
  if (const json* r = find(w, "root")) root = static_cast<int>(integer(*r, wp + "/root", 0, n - 1));
  std::vector<std::vector<int>> paths;
  if (const json* ps = find(w, "paths"))
    for (size_t i = 0; i < array(*ps, wp + "/paths").size(); ++i) {
      const std::string pointer = child(wp + "/paths", i);
      std::vector<int> path;
      for (size_t k = 0; k < array((*ps)[i], pointer).size(); ++k)
        path.push_back(static_cast<int>(integer((*ps)[i][k], child(pointer, k), 0, n - 1)));
      if (path.empty()) fail(pointer, "an empty path");
      for (size_t k = 0; k + 1 < path.size(); ++k)
        if (!graph.has(path[k], path[k + 1]))
          fail(child(pointer, k + 1), fmt::format("hop {} -> {} is not an edge", path[k], path[k + 1]));
      paths.push_back(path);
    }
  // The edges two paths both use (itm_dot's highlight).
  std::map<std::pair<int, int>, std::set<size_t>> users;
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t k = 0; k + 1 < paths[i].size(); ++k)
      users[{std::min(paths[i][k], paths[i][k + 1]), std::max(paths[i][k], paths[i][k + 1])}].insert(i);
  std::vector<std::string> shared, path_words;
  for (const auto& [e, who] : users)
    if (who.size() > 1) shared.push_back(fmt::format("{}-{}", e.first, e.second));
  for (size_t i = 0; i < paths.size(); ++i) path_words.push_back(fmt::format("P{} = {}", i, fmt::join(paths[i], "->")));

  Prepared out;
  out.kind = "itm graph";
  out.layout = Layout::kNeatoPinned;
  out.dot = itm_dot(c, DotStyle{.label_highlights = true});
  std::string caption = fmt::format("The graph's {} nodes on a circle {}; exterior edges solid, interior edges dashed grey{}.",
                                    n, order_words, find(w, "exterior") ? "" : " (the witness marks no exterior edges)");
  if (const json* s = find(w, "spanning_itm"))
    caption += fmt::format(" Its spanning ITM (/witness/spanning_itm) has {} edges.", s->size());
  if (!paths.empty())
    caption += fmt::format(" The messages' paths are coloured arrows labelled P0, P1, ... ({}); {}.", fmt::join(path_words, ", "),
                           shared.empty() ? std::string("no edge is used by two paths")
                                          : fmt::format("edges two paths both use are red, thick and labelled \"shared edge\": {}",
                                                        fmt::join(shared, ", ")));
  if (root) caption += fmt::format(" Node {} is the root: a double circle labelled \"root\".", *root);
  out.caption = caption;
  return out;
}

Prepared prepare_wormhole(const corpus::Case& c) {
  const json& w = c.witness;
  const std::string wp = "/witness";
  if (find(w, "instances")) return prepare_throughput(c);
  if (!find(w, "deadlock")) {
    if (find(w, "edges") && (find(w, "order") || find(w, "exterior"))) return prepare_itm(c);
    return prepare_table(c, "wormhole table", "The witness holds neither a deadlock, throughput figures nor an ITM.");
  }
  const EdgeList graph = read_edges(member(w, wp, "edges"), wp + "/edges", 1 << 20);
  const std::string dp = wp + "/deadlock";
  const json& d = member(w, wp, "deadlock");
  const std::vector<int64_t> cycle = number_array(member(d, dp, "cycle_worms"), dp + "/cycle_worms", 0, INT32_MAX);
  if (cycle.empty()) fail(dp + "/cycle_worms", "an empty waiting cycle");
  std::set<int64_t> stuck_worms;
  const json& stuck = array(member(d, dp, "stuck"), dp + "/stuck");
  for (size_t i = 0; i < stuck.size(); ++i) {
    const std::string sp = child(dp + "/stuck", i);
    stuck_worms.insert(integer(member(stuck[i], sp, "worm"), sp + "/worm", 0, INT32_MAX));
    for (const char* key : {"held_text", "wants_text"})
      if (const json* list = find(stuck[i], key))
        for (size_t k = 0; k < array(*list, child(sp, key)).size(); ++k) channel((*list)[k], child(child(sp, key), k), graph);
  }
  for (size_t i = 0; i < cycle.size(); ++i)
    if (!stuck_worms.count(cycle[i]))
      fail(child(dp + "/cycle_worms", i), fmt::format("worm {} has no entry in {}/stuck", cycle[i], dp));
  std::vector<std::string> waits;
  const json& waits_on = array(member(d, dp, "waits_on_text"), dp + "/waits_on_text");
  for (size_t k = 0; k < waits_on.size(); ++k) {
    channel(waits_on[k], child(dp + "/waits_on_text", k), graph);
    waits.push_back(waits_on[k].get<std::string>());
  }
  Prepared out;
  out.kind = "wormhole deadlock";
  out.dot = *wormhole_dot(c);
  std::vector<std::string> worms;
  for (int64_t x : cycle) worms.push_back(fmt::format("w{}", x));
  out.caption = fmt::format(
      "The graph's {} nodes and {} edges (grey). Each worm of the waiting cycle ({}) holds the channels drawn as arrows in its "
      "colour, labelled with the worm; the channels they wait on are dashed red arrows labelled \"waits\" ({}). Held and "
      "awaited channels close the cycle of waiting.",
      graph.nodes, graph.edges.size(), fmt::join(worms, ", "), fmt::join(waits, ", "));
  return out;
}

Prepared prepare_migration(const corpus::Case& c) {
  const int n = static_cast<int>(integer(member(c.params, "/params", "n"), "/params/n", 1, 12));
  const json& doc = data_of(c);
  const std::string doc_pointer = data_pointer(c);
  MigrationScene scene;
  scene.n = n;
  // S, T and the blocks, from the input and (counterexamples) the witness: both must agree.
  std::optional<std::string> blocks_text, blocks_pointer;
  for (const auto& [root, pointer] : {std::pair<const json*, std::string>{&c.input, "/input"}, {&c.witness, "/witness"}}) {
    for (auto [key, cube] : {std::pair{"S", &scene.S}, std::pair{"T", &scene.T}})
      if (const json* s = find(*root, key)) {
        const Subcube read = cube_subcube(text(*s, child(pointer, key)), child(pointer, key), n);
        if (*cube && !(**cube == read)) fail(child(pointer, key), fmt::format("{} differs from /input/{} = {}", read, key, **cube));
        *cube = read;
      }
    if (const json* b = find(*root, "blocks")) {
      const std::string& t = text(*b, child(pointer, "blocks"));
      if (blocks_text && *blocks_text != t) fail(child(pointer, "blocks"), fmt::format("\"{}\" differs from /input/blocks", t));
      blocks_text = t;
      blocks_pointer = child(pointer, "blocks");
    }
  }
  if (blocks_text && !blocks_text->empty()) {
    size_t start = 0;
    while (start <= blocks_text->size()) {
      const size_t comma = std::min(blocks_text->find(',', start), blocks_text->size());
      scene.blocks.push_back(cube_subcube(blocks_text->substr(start, comma - start), *blocks_pointer, n));
      start = comma + 1;
    }
  }
  if (scene.S && scene.T) {
    auto inst = migration::make_instance(*scene.S, *scene.T);
    if (!inst) fail("/input/S", inst.error().message);
    if (auto bad = migration::validate_blocks(*inst, scene.blocks)) fail(blocks_pointer.value_or("/input"), bad->message);
  }
  std::vector<std::string> notes;
  auto walk = [&](const std::vector<Node>& nodes, const std::string& pointer, bool check_hops) {
    if (nodes.empty()) fail(pointer, "an empty path");
    if (check_hops)
      for (size_t k = 0; k + 1 < nodes.size(); ++k)
        if (hamming(nodes[k], nodes[k + 1]) != 1)
          fail(child(pointer, k + 1), fmt::format("hop {} -> {} is not a link of Q_{}", nodes[k], nodes[k + 1], n));
  };
  // The procedure's plan: every node u of S with its paths u -> g(u), which end in T.
  if (const json* plan = find(c.witness, "nodes")) {
    const std::string pp = "/witness/nodes";
    for (size_t i = 0; i < array(*plan, pp).size(); ++i) {
      const std::string np = child(pp, i);
      const Node u = cube_node(text(member((*plan)[i], np, "u"), np + "/u"), np + "/u", n);
      if (scene.S && !scene.S->contains(u)) fail(np + "/u", fmt::format("{} is not a node of S = {}", u, *scene.S));
      if (const json* missing = find((*plan)[i], "missing"))
        notes.push_back(fmt::format("node {}: {}", u, text(*missing, np + "/missing")));
      const json& paths = array(member((*plan)[i], np, "paths"), np + "/paths");
      for (size_t j = 0; j < paths.size(); ++j) {
        const std::string p = child(np + "/paths", j), pathp = p + "/path";
        std::vector<Node> nodes;
        for (size_t k = 0; k < array(member(paths[j], p, "path"), pathp).size(); ++k)
          nodes.push_back(cube_node(text(paths[j].at("path")[k], child(pathp, k)), child(pathp, k), n));
        walk(nodes, pathp, true);
        if (nodes.front() != u) fail(pathp + "/0", fmt::format("the path starts at {}, not at u = {}", nodes.front(), u));
        if (scene.T && !scene.T->contains(nodes.back()))
          fail(child(pathp, nodes.size() - 1), fmt::format("the path ends at {}, outside T = {}", nodes.back(), *scene.T));
        const json* kind = find(paths[j], "kind");
        scene.paths.push_back({fmt::format("{} (u = {}{})", p, u, kind ? ", " + text(*kind, p + "/kind") : ""), nodes});
      }
    }
  }
  // An example's printed paths (hops unchecked: a printed path may hold a typo), the input's paths.
  auto add_arrays = [&](const json& root, const std::string& pointer, bool check_hops) {
    for_each_path_string(root, pointer, [&](const std::string& s, const std::string& p) { cube_node(s, p, n); });
    for (const NamedPath& p : collect_paths(root)) {
      std::vector<Node> nodes;
      for (const std::string& s : p.nodes) nodes.push_back(*parse_node(s, n));
      walk(nodes, pointer + p.pointer, check_hops);
      scene.paths.push_back({pointer + p.pointer, nodes});
    }
  };
  if (c.kind == corpus::CaseKind::kExample) add_arrays(doc, doc_pointer, false);
  if (const json* given = find(c.input, "paths")) add_arrays(*given, "/input/paths", true);
  // The paths the violation names ("0011:0001:0000"): node strings of n bits joined by ':', each
  // drawn unless it repeats a path already drawn.
  if (c.kind == corpus::CaseKind::kCounterexample) {
    const std::string& v = c.violation;
    int count = 0;
    for (size_t i = 0; i < v.size();) {
      if (v[i] != '0' && v[i] != '1') {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < v.size() && (v[j] == '0' || v[j] == '1' || v[j] == ':')) ++j;
      const bool bounded = (i == 0 || !std::isalnum(static_cast<unsigned char>(v[i - 1]))) &&
                           (j == v.size() || !std::isalnum(static_cast<unsigned char>(v[j])));
      std::string token = v.substr(i, j - i);
      while (!token.empty() && token.back() == ':') token.pop_back();  // "... 0001:0000: paths"
      i = j;
      std::vector<std::string> parts;
      for (size_t s = 0; s <= token.size();) {
        const size_t colon = std::min(token.find(':', s), token.size());
        parts.push_back(token.substr(s, colon - s));
        s = colon + 1;
      }
      if (!bounded || parts.size() < 2 ||
          !std::all_of(parts.begin(), parts.end(), [&](const std::string& p) { return static_cast<int>(p.size()) == n; }))
        continue;
      std::vector<Node> nodes;
      for (const std::string& p : parts) nodes.push_back(*parse_node(p, n));
      ++count;
      for (size_t k = 0; k + 1 < nodes.size(); ++k)
        if (hamming(nodes[k], nodes[k + 1]) != 1)
          fail("/violation", fmt::format("the path {} it names has a hop {} -> {} that is not a link of Q_{}", token, nodes[k],
                                         nodes[k + 1], n));
      if (std::none_of(scene.paths.begin(), scene.paths.end(), [&](const auto& p) { return p.nodes == nodes; }))
        scene.paths.push_back({fmt::format("path {} of the violation", count), nodes});
    }
  }
  scene.collision = c.reading.find("directed-link") != std::string::npos ? MigrationScene::Collision::kDirectedLink
                    : c.reading.find("link") != std::string::npos    ? MigrationScene::Collision::kLink
                                                                      : MigrationScene::Collision::kNode;
  scene.heading = {heading_line(c), statement_of(c)};
  scene.heading.insert(scene.heading.end(), notes.begin(), notes.end());

  Prepared out;
  out.kind = "migration instance";
  out.dot = migration_dot(scene);
  const std::vector<std::string> collisions = migration_collisions(scene);
  const char* what = scene.collision == MigrationScene::Collision::kNode ? "nodes"
                     : scene.collision == MigrationScene::Collision::kLink ? "links"
                                                                            : "directed links";
  std::vector<std::string> blocks;
  for (const Subcube& b : scene.blocks) blocks.push_back(b.to_string());
  out.caption = fmt::format(
      "Q_{}: {}; each node is labelled with its membership (in S, in T, in block ...) and filled light blue (S), light green "
      "(T), khaki (both) or grey (a block). S = {}, T = {}, blocks: {}. {} drawn as coloured arrows, each labelled with where it "
      "comes from. Collisions drawn: shared {} ({}): {}.{}{}",
      n, n <= 4 ? "every node and link (links grey)" : "the nodes of S, T and the paths", scene.S ? scene.S->to_string() : "none",
      scene.T ? scene.T->to_string() : "none", blocks.empty() ? std::string("none") : fmt::format("{}", fmt::join(blocks, ", ")),
      scene.paths.empty() ? std::string("No paths are") : fmt::format("{} path{}", scene.paths.size(), scene.paths.size() == 1 ? " is" : "s are"),
      what,
      scene.collision == MigrationScene::Collision::kNode ? "nodes unless the reading names links"
                                                          : fmt::format("the reading '{}' names them", c.reading),
      collisions.empty() ? std::string("none among the drawn paths")
                         : fmt::format("red and labelled ({})", fmt::join(collisions, "; ")),
      notes.empty() ? "" : fmt::format(" Notes: {}.", fmt::join(notes, "; ")), errata_words(c));
  return out;
}

}  // namespace topocheck::report::internal
