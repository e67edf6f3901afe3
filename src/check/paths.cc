// The path-system check of paths.h.
#include "check/paths.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "core/checks.h"
#include "core/graph.h"
#include "hypercube/hypercube.h"
#include "metacube/metacube.h"

namespace topocheck::check {
namespace {

using nlohmann::json;

constexpr size_t kMaxPaths = 4096;
constexpr size_t kMaxPathNodes = 65536;
constexpr uint64_t kMaxGraphNodes = uint64_t{1} << 20;
constexpr size_t kMaxGraphEdges = size_t{1} << 24;
constexpr size_t kMaxFaultTolerancePaths = 12;

class ExplicitGraph final : public Topology {
 public:
  ExplicitGraph(uint64_t n, const std::vector<std::pair<uint64_t, uint64_t>>& edges) : n_(n), adj_(n) {
    width_ = 1;
    while (width_ < 63 && (uint64_t{1} << width_) < n) ++width_;
    for (auto [a, b] : edges) {
      if (a == b) continue;
      adj_[a].insert(b);
      adj_[b].insert(a);
    }
  }
  std::string name() const override { return fmt::format("graph of {} nodes", n_); }
  int width() const override { return width_; }
  uint64_t num_nodes() const override { return n_; }
  bool contains(Node u) const override { return u.width == width_ && u.bits < n_; }
  std::vector<Node> neighbors(Node u) const override {
    std::vector<Node> out;
    for (uint64_t v : adj_[u.bits]) out.push_back(Node{v, width_});
    return out;
  }
  bool is_edge(Node u, Node v) const override { return contains(u) && contains(v) && adj_[u.bits].count(v.bits); }
  std::optional<int> edge_dimension(Node u, Node v) const override {
    if (!is_edge(u, v)) return std::nullopt;
    return 0;  // an explicit graph has no dimensions
  }
  uint64_t index_of(Node u) const override { return u.bits; }
  Node node_at(uint64_t index) const override { return Node{index, width_}; }

 private:
  uint64_t n_;
  int width_ = 1;
  std::vector<std::set<uint64_t>> adj_;
};

// An explicit undirected graph as a Topology: nodes 0..n-1, held as Nodes of the width of n - 1.
std::shared_ptr<const Topology> explicit_graph(uint64_t nodes, const std::vector<std::pair<uint64_t, uint64_t>>& edges) {
  return std::make_shared<ExplicitGraph>(nodes, edges);
}

Result<int> small_int(const std::string& text, int lo, int hi, const std::string& what) {
  int v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < lo || v > hi)
    return invalid_argument(fmt::format("{} must be an integer in {}..{}, not '{}'", what, lo, hi, text));
  return v;
}

Result<std::shared_ptr<const Topology>> parse_topology(const json& j, const FileErrors& w, std::string* text,
                                                       bool* numbered) {
  *numbered = false;
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    *text = s;
    if (s.rfind("hypercube:", 0) == 0) {
      auto n = small_int(s.substr(10), 1, 63, "hypercube:n, n");
      if (!n) return w.at("/topology", n.error().message);
      auto q = hypercube::Hypercube::make(*n);
      if (!q) return w.at("/topology", q.error().message);
      return std::shared_ptr<const Topology>(std::make_shared<hypercube::Hypercube>(std::move(q).value()));
    }
    if (s.rfind("metacube:", 0) == 0) {
      const std::string rest = s.substr(9);
      const size_t comma = rest.find(',');
      if (comma == std::string::npos) return w.at("/topology", "metacube:k,m needs two numbers, e.g. metacube:2,2");
      auto k = small_int(rest.substr(0, comma), 0, 5, "metacube:k,m, k");
      if (!k) return w.at("/topology", k.error().message);
      auto m = small_int(rest.substr(comma + 1), 1, 63, "metacube:k,m, m");
      if (!m) return w.at("/topology", m.error().message);
      auto mc = metacube::Metacube::make(*k, *m);
      if (!mc) return w.at("/topology", mc.error().message);
      return std::shared_ptr<const Topology>(std::make_shared<metacube::Metacube>(std::move(mc).value()));
    }
    return w.at("/topology", fmt::format("'{}' is not hypercube:n, metacube:k,m or a graph object", s));
  }
  if (!j.is_object()) return w.at("/topology", "must be \"hypercube:n\", \"metacube:k,m\" or {\"nodes\": N, \"edges\": [[u, v], ...]}");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "nodes" && it.key() != "edges") return w.at("/topology/" + it.key(), "unknown field (nodes, edges)");
  if (!j.contains("nodes") || !is_count(j.at("nodes")) || j.at("nodes").get<uint64_t>() < 2 ||
      j.at("nodes").get<uint64_t>() > kMaxGraphNodes)
    return w.at("/topology/nodes", fmt::format("must be an integer in 2..{}", kMaxGraphNodes));
  const uint64_t n = j.at("nodes").get<uint64_t>();
  if (!j.contains("edges") || !j.at("edges").is_array()) return w.at("/topology/edges", "must be an array of [u, v] pairs");
  const json& edges = j.at("edges");
  if (edges.size() > kMaxGraphEdges) return w.at("/topology/edges", fmt::format("at most {} edges", kMaxGraphEdges));
  std::vector<std::pair<uint64_t, uint64_t>> list;
  for (size_t i = 0; i < edges.size(); ++i) {
    const std::string p = fmt::format("/topology/edges/{}", i);
    const json& e = edges[i];
    if (!e.is_array() || e.size() != 2 || !is_count(e[0]) || !is_count(e[1]))
      return w.at(p, "must be a pair [u, v] of node numbers");
    const uint64_t a = e[0].get<uint64_t>(), b = e[1].get<uint64_t>();
    if (a >= n || b >= n) return w.at(p, fmt::format("[{}, {}]: nodes are 0..{}", a, b, n - 1));
    if (a == b) return w.at(p, fmt::format("[{}, {}] is a loop", a, b));
    list.emplace_back(a, b);
  }
  *text = fmt::format("graph of {} nodes, {} edges", n, list.size());
  *numbered = true;
  return explicit_graph(n, list);
}

Result<Node> parse_one(const json& j, const Topology& topo, bool numbered, const FileErrors& w, const std::string& pointer) {
  if (numbered) {
    if (!is_count(j) || j.get<uint64_t>() >= topo.num_nodes())
      return w.at(pointer, fmt::format("must be a node number 0..{}", topo.num_nodes() - 1));
    return topo.node_at(j.get<uint64_t>());
  }
  if (!j.is_string()) return w.at(pointer, fmt::format("must be a node of {} as a bit string of width {}", topo.name(), topo.width()));
  const std::string s = j.get<std::string>();
  if (auto mc = dynamic_cast<const metacube::Metacube*>(&topo); mc && !s.empty() && s[0] == '(') {
    auto u = mc->parse_fields(s);
    if (!u) return w.at(pointer, u.error().message);
    return *u;
  }
  auto u = parse_node(s, topo.width());
  if (!u) return w.at(pointer, u.error().message);
  if (!topo.contains(*u)) return w.at(pointer, fmt::format("{} is not a node of {}", s, topo.name()));
  return *u;
}

// The least number of nodes (not s or t) that meets every path, if it is below `limit`; the set.
std::optional<std::vector<Node>> small_hitting_set(const std::vector<std::vector<Node>>& internal, size_t limit) {
  std::vector<Node> chosen;
  std::function<bool(size_t)> search = [&](size_t budget) -> bool {
    // The first path the chosen set misses.
    const std::vector<Node>* missed = nullptr;
    for (const auto& p : internal) {
      bool hit = false;
      for (const Node& u : p)
        if (std::find(chosen.begin(), chosen.end(), u) != chosen.end()) {
          hit = true;
          break;
        }
      if (!hit) {
        missed = &p;
        break;
      }
    }
    if (!missed) return true;
    if (budget == 0) return false;
    for (const Node& u : *missed) {
      chosen.push_back(u);
      if (search(budget - 1)) return true;
      chosen.pop_back();
    }
    return false;
  };
  for (size_t b = 0; b < limit; ++b)
    if (search(b)) return chosen;
  return std::nullopt;
}

}  // namespace


namespace {

// The settings a paths file gives besides s, t and paths: also a JSON Lines table's first line.
Result<bool> parse_settings(const json& j, const FileErrors& w, PathsInput& in, bool* numbered) {
  if (!j.contains("topology")) return w.at("", "missing field topology");
  auto topo = parse_topology(j.at("topology"), w, &in.topology_text, numbered);
  if (!topo) return topo.error();
  in.topology = *topo;
  if (j.contains("disjoint")) {
    const json& d = j.at("disjoint");
    if (d == "node") in.disjoint = Disjointness::kNode;
    else if (d == "link") in.disjoint = Disjointness::kLink;
    else if (d == "directed-link") in.disjoint = Disjointness::kDirectedLink;
    else if (d == "none") in.disjoint = Disjointness::kNone;
    else return w.at("/disjoint", "must be \"node\", \"link\", \"directed-link\" or \"none\"");
  }
  if (j.contains("fault_tolerance")) {
    if (!j.at("fault_tolerance").is_boolean()) return w.at("/fault_tolerance", "must be true or false");
    in.fault_tolerance = j.at("fault_tolerance").get<bool>();
  }
  return true;
}

Result<bool> parse_max_length(const json& j, const FileErrors& w, PathsInput& in) {
  if (!j.contains("max_length")) return true;
  const json& m = j.at("max_length");
  if (!is_count(m) || m.get<uint64_t>() > kMaxPathNodes)
    return w.at("/max_length", fmt::format("must be an integer in 0..{}", kMaxPathNodes));
  in.max_length = static_cast<int>(m.get<uint64_t>());
  return true;
}

// s, t and the paths of one system, on the settings already in `in`.
Result<bool> parse_system(const json& j, const FileErrors& w, PathsInput& in, bool numbered) {
  for (const char* f : {"s", "t", "paths"})
    if (!j.contains(f)) return w.at("", fmt::format("missing field {}", f));
  auto s = parse_one(j.at("s"), *in.topology, numbered, w, "/s");
  if (!s) return s.error();
  auto t = parse_one(j.at("t"), *in.topology, numbered, w, "/t");
  if (!t) return t.error();
  if (*s == *t) return w.at("/t", "s and t must differ");
  in.s = *s;
  in.t = *t;
  const json& paths = j.at("paths");
  if (!paths.is_array() || paths.empty()) return w.at("/paths", "must be a non-empty array of paths");
  if (paths.size() > kMaxPaths) return w.at("/paths", fmt::format("at most {} paths", kMaxPaths));
  in.paths.clear();
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string p = fmt::format("/paths/{}", i);
    if (!paths[i].is_array() || paths[i].empty()) return w.at(p, "must be a non-empty array of nodes");
    if (paths[i].size() > kMaxPathNodes) return w.at(p, fmt::format("at most {} nodes", kMaxPathNodes));
    Path path;
    for (size_t k = 0; k < paths[i].size(); ++k) {
      auto u = parse_one(paths[i][k], *in.topology, numbered, w, fmt::format("{}/{}", p, k));
      if (!u) return u.error();
      path.nodes.push_back(*u);
    }
    in.paths.push_back(std::move(path));
  }
  if (in.fault_tolerance && in.paths.size() > kMaxFaultTolerancePaths)
    return w.at(j.contains("fault_tolerance") ? "/fault_tolerance" : "/paths",
                fmt::format("fault tolerance is checked for at most {} paths (this system has {})",
                            kMaxFaultTolerancePaths, in.paths.size()));
  return true;
}

Result<bool> only_fields(const json& j, const FileErrors& w, const std::set<std::string>& known, const std::string& list) {
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!known.count(it.key())) return w.at("/" + it.key(), fmt::format("unknown field ({})", list));
  return true;
}

}  // namespace

Result<PathsInput> paths_from_json(const json& j, const std::string& text, const std::string& file) {
  const FileErrors w(text, file);
  if (!j.is_object()) return w.at("", "a paths file is a JSON object (topology, s, t, paths)");
  if (auto k = only_fields(j, w, {"kind", "topology", "s", "t", "paths", "disjoint", "max_length", "fault_tolerance", "origin"},
                           "topology, s, t, paths, disjoint, max_length, fault_tolerance, origin");
      !k)
    return k.error();
  if (j.contains("origin") && !j.at("origin").is_object()) return w.at("/origin", "must be an object (where the case came from)");
  if (j.contains("kind") && j.at("kind") != "paths") return w.at("/kind", "must be \"paths\" in a paths file");
  PathsInput in;
  bool numbered = false;
  if (auto r = parse_settings(j, w, in, &numbered); !r) return r.error();
  if (auto r = parse_system(j, w, in, numbered); !r) return r.error();
  if (auto r = parse_max_length(j, w, in); !r) return r.error();
  return in;
}

struct OptimumCache::Graph {
  UndirectedGraph g;
};
OptimumCache::OptimumCache() = default;
OptimumCache::~OptimumCache() = default;

int OptimumCache::max_paths(const Topology& topo, Node s, Node t) {
  if (!graph_ || topology_ != &topo) {
    graph_ = std::make_unique<Graph>(Graph{materialize(topo)});
    topology_ = &topo;
  }
  return max_node_disjoint_paths(graph_->g, topo.index_of(s), topo.index_of(t));
}

CheckReport judge_paths(const PathsInput& in, OptimumCache* cache) {
  CheckReport r;
  r.kind = "paths";
  const size_t k = in.paths.size();
  // valid: each a walk of the topology from s to t.
  Violation valid;
  for (size_t i = 0; i < k && !valid; ++i) {
    if (auto v = check_path_valid(*in.topology, in.paths[i])) valid = fmt::format("path {}: {}", i, *v);
    else if (auto e = check_endpoints(in.paths[i], in.s, in.t)) valid = fmt::format("path {}: {}", i, *e);
  }
  const bool walks = r.add("valid", valid, fmt::format("{} path(s), each a walk of {} from {} to {}", k, in.topology->name(),
                                                     in.s.to_string(), in.t.to_string()));
  Violation simple;
  for (size_t i = 0; i < k && walks && !simple; ++i)
    if (auto v = check_simple(in.paths[i])) simple = fmt::format("path {}: {}", i, *v);
  const bool simple_ok = walks ? r.add("simple", simple, "no path repeats a node") : (r.skip("simple", "the paths are not walks from s to t"), false);
  const bool judged = walks && simple_ok;
  bool node_disjoint = false;
  if (in.disjoint == Disjointness::kNone) {
    r.skip("disjoint", "the file asks for no disjointness (\"disjoint\": \"none\")");
  } else if (!judged) {
    r.skip("disjoint", "the paths are not simple walks from s to t");
  } else if (in.disjoint == Disjointness::kNode) {
    node_disjoint = r.add("disjoint", check_internally_node_disjoint(in.paths), "internally node-disjoint: no internal node of one path is on another");
  } else if (in.disjoint == Disjointness::kLink) {
    r.add("disjoint", check_link_disjoint(in.paths), "link-disjoint: no link is used by two paths");
  } else {
    r.add("disjoint", check_directed_link_disjoint(in.paths), "directed-link-disjoint: no directed link is used by two paths");
  }
  if (in.disjoint != Disjointness::kNode && judged) node_disjoint = !check_internally_node_disjoint(in.paths);
  if (in.max_length) {
    if (judged) r.add("max_length", check_max_length(in.paths, *in.max_length), fmt::format("every path has at most {} hops", *in.max_length));
    else r.skip("max_length", "the paths are not simple walks from s to t");
  }
  if (in.fault_tolerance) {
    if (!walks) {
      r.skip("fault_tolerance", "the paths are not walks from s to t");
    } else {
      std::vector<std::vector<Node>> internal;
      for (const Path& p : in.paths) {
        std::vector<Node> inner;
        for (const Node& u : p.nodes)
          if (u != in.s && u != in.t && std::find(inner.begin(), inner.end(), u) == inner.end()) inner.push_back(u);
        internal.push_back(std::move(inner));
      }
      // A path s, t (a direct link) no fault can cut: then no set of nodes meets every path.
      const bool uncuttable = std::any_of(internal.begin(), internal.end(), [](const auto& v) { return v.empty(); });
      std::optional<std::vector<Node>> cut = uncuttable ? std::nullopt : small_hitting_set(internal, k);
      if (cut) {
        std::string nodes;
        for (const Node& u : *cut) nodes += (nodes.empty() ? "" : ", ") + u.to_string();
        r.add("fault_tolerance", fmt::format("{} faulty node(s) {{{}}} (fewer than the {} paths) meet every path", cut->size(), nodes, k), "");
      } else {
        r.add("fault_tolerance", std::nullopt, fmt::format("no {} faulty node(s) other than s and t meet every path", k - 1));
      }
    }
  }
  if (!node_disjoint) {
    r.skip("optimum", "compared only for internally node-disjoint simple walks from s to t");
  } else if (in.topology->num_nodes() > kMaxGraphNodes) {
    r.skip("optimum", fmt::format("{} has more than {} nodes to materialize for max-flow", in.topology->name(), kMaxGraphNodes));
  } else {
    // Disjoint paths leave s by distinct links and enter t by distinct links, so there are at most
    // min(deg s, deg t) of them; as many with distinct first and last hops are the optimum.
    std::set<Node> first, last;
    for (const Path& p : in.paths) {
      first.insert(p.nodes[1]);
      last.insert(p.nodes[p.nodes.size() - 2]);
    }
    const size_t degree = std::min(in.topology->neighbors(in.s).size(), in.topology->neighbors(in.t).size());
    int best = 0;
    if (first.size() == k && last.size() == k && k == degree) {
      best = static_cast<int>(k);
    } else {
      OptimumCache local;
      best = (cache ? *cache : local).max_paths(*in.topology, in.s, in.t);
    }
    if (static_cast<int>(k) < best)
      r.add("optimum", fmt::format("{} path(s), but {} internally node-disjoint paths join s and t (max-flow)", k, best), "");
    else
      r.add("optimum", std::nullopt, fmt::format("{} path(s): as many as max-flow finds ({})", k, best));
  }
  return r;
}

// ---- Tables ---------------------------------------------------------------------------------

namespace {

// The counts of one check over a table's systems.
struct CheckTally {
  uint64_t ok = 0, violated = 0, not_applicable = 0;
  std::string first_violation, first_reason;
};

}  // namespace

Result<PathsTableReport> judge_paths_table(std::istream& stream, const std::string& file,
                                           const std::function<void(uint64_t)>& progress) {
  PathsTableReport out;
  PathsInput settings;
  bool numbered = false;
  bool have_settings = false;
  OptimumCache cache;
  std::vector<std::string> order;  // checks in the order they first appear
  std::map<std::string, CheckTally> tally;
  std::string text;
  int line = 0;
  while (std::getline(stream, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j;
    try {
      j = json::parse(text);
    } catch (const json::exception& e) {
      return parse_error(fmt::format("invalid JSON: {}", e.what()), file, line);
    }
    const FileErrors w(text, file, line);
    if (!j.is_object()) return w.at("", "each line of a paths table is a JSON object");
    if (!have_settings) {
      if (auto r = only_fields(j, w, {"kind", "topology", "disjoint", "max_length", "fault_tolerance"},
                               "the first line holds the settings: kind, topology, disjoint, max_length, fault_tolerance");
          !r)
        return r.error();
      if (!j.contains("kind") || j.at("kind") != "paths")
        return w.at("/kind", "the first line of a paths table says \"kind\": \"paths\"");
      if (auto r = parse_settings(j, w, settings, &numbered); !r) return r.error();
      if (auto r = parse_max_length(j, w, settings); !r) return r.error();
      out.topology_text = settings.topology_text;
      out.topology_name = settings.topology->name();
      have_settings = true;
      continue;
    }
    if (auto r = only_fields(j, w, {"s", "t", "paths", "max_length"}, "a system's line: s, t, paths, max_length"); !r)
      return r.error();
    PathsInput in = settings;
    if (auto r = parse_system(j, w, in, numbered); !r) return r.error();
    if (auto r = parse_max_length(j, w, in); !r) return r.error();
    const CheckReport r = judge_paths(in, &cache);
    ++out.systems;
    bool any = false;
    for (const CheckLine& l : r.lines) {
      if (!tally.count(l.check)) order.push_back(l.check);
      CheckTally& c = tally[l.check];
      if (l.verdict == "violated") {
        ++c.violated;
        if (c.first_violation.empty())
          c.first_violation = fmt::format("line {} ({} to {}): {}", line, in.s.to_string(), in.t.to_string(), l.words);
        if (out.violations.size() < PathsTableReport::kMaxListedViolations)
          out.violations.push_back({{"line", line}, {"s", in.s.to_string()}, {"t", in.t.to_string()},
                                    {"check", l.check}, {"words", l.words}});
        any = true;
      } else if (l.verdict == "ok") {
        ++c.ok;
      } else {
        ++c.not_applicable;
        if (c.first_reason.empty()) c.first_reason = fmt::format("line {}: {}", line, l.words);
      }
    }
    out.violated_systems += any;
    if (progress && out.systems % 1000 == 0) progress(out.systems);
  }
  if (stream.bad()) return parse_error("could not be read to its end", file, line);
  if (!have_settings) return parse_error("an empty paths table (the first line holds the settings)", file, line);
  if (out.systems == 0) return parse_error("a paths table with its settings and no system", file, line);
  out.report.kind = "paths";
  for (const std::string& check : order) {
    const CheckTally& c = tally.at(check);
    const std::string na = c.not_applicable ? fmt::format(", not applicable on {}", c.not_applicable) : "";
    if (c.violated)
      out.report.lines.push_back({check, "violated", fmt::format("{} of {} systems; first at {}", c.violated, out.systems, c.first_violation)});
    else if (c.ok)
      out.report.lines.push_back({check, "ok", fmt::format("on {} of {} systems{}", c.ok, out.systems, na)});
    else
      out.report.lines.push_back({check, "not applicable", fmt::format("on all {} systems; first at {}", out.systems, c.first_reason)});
  }
  return out;
}

}  // namespace topocheck::check
