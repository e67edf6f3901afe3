#include "itm/itm.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace topocheck::itm {

// ---------------------------------------------------------------------------------------------
// Graph

Graph::Graph(int n) : n_(n), adj_(static_cast<size_t>(n)), matrix_(static_cast<size_t>(n * n), 0) {
  TC_CHECK(n >= 0, "Graph: negative size");
}

Result<Graph> Graph::from_edges(int n, const std::vector<std::pair<int, int>>& edges) {
  if (n < 0) return invalid_argument(fmt::format("graph size {} is negative", n));
  Graph g(n);
  for (const auto& [u, v] : edges) {
    if (u < 0 || u >= n || v < 0 || v >= n)
      return invalid_argument(fmt::format("edge ({},{}) has an endpoint outside 0..{}", u, v, n - 1));
    if (u == v) return invalid_argument(fmt::format("edge ({},{}) is a loop", u, v));
    if (g.adjacent(u, v)) return invalid_argument(fmt::format("edge ({},{}) is repeated", u, v));
    g.add_edge(u, v);
  }
  return g;
}

void Graph::add_edge(int u, int v) {
  TC_CHECK(u >= 0 && u < n_ && v >= 0 && v < n_ && u != v && !adjacent(u, v), "Graph::add_edge: bad edge");
  matrix_[static_cast<size_t>(u * n_ + v)] = matrix_[static_cast<size_t>(v * n_ + u)] = 1;
  auto insert = [](std::vector<int>& list, int x) { list.insert(std::lower_bound(list.begin(), list.end(), x), x); };
  insert(adj_[static_cast<size_t>(u)], v);
  insert(adj_[static_cast<size_t>(v)], u);
  ++num_edges_;
}

std::vector<std::pair<int, int>> Graph::edges() const {
  std::vector<std::pair<int, int>> out;
  for (int u = 0; u < n_; ++u)
    for (int v : adj_[static_cast<size_t>(u)])
      if (u < v) out.emplace_back(u, v);
  return out;
}

std::string Graph::to_string() const {
  std::string out = fmt::format("n={} edges=", n_);
  bool first = true;
  for (const auto& [u, v] : edges()) {
    out += fmt::format("{}({},{})", first ? "" : " ", u, v);
    first = false;
  }
  return out;
}

Graph cycle_graph(int n) {
  TC_CHECK(n >= 3, "cycle_graph: n < 3");
  Graph g(n);
  for (int i = 0; i < n; ++i) g.add_edge(i, (i + 1) % n);
  return g;
}

Graph complete_bipartite(int a, int b) {
  Graph g(a + b);
  for (int i = 0; i < a; ++i)
    for (int j = 0; j < b; ++j) g.add_edge(i, a + j);
  return g;
}

Graph grid_graph(int rows, int cols) {
  Graph g(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      if (c + 1 < cols) g.add_edge(r * cols + c, r * cols + c + 1);
      if (r + 1 < rows) g.add_edge(r * cols + c, (r + 1) * cols + c);
    }
  return g;
}

Graph complete_graph(int n) {
  Graph g(n);
  for (int u = 0; u < n; ++u)
    for (int v = u + 1; v < n; ++v) g.add_edge(u, v);
  return g;
}

// ---------------------------------------------------------------------------------------------
// Rules and steps

std::string to_string(Rule rule) { return rule == Rule::kAnyEdge ? "any-edge" : "exterior"; }

std::optional<Rule> parse_rule(std::string_view text) {
  if (text == "any-edge") return Rule::kAnyEdge;
  if (text == "exterior") return Rule::kExterior;
  return std::nullopt;
}

namespace {

// Parses a non-negative decimal integer at text[pos...], advancing pos.
std::optional<int> parse_int(std::string_view text, size_t& pos) {
  const size_t start = pos;
  long value = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
    value = value * 10 + (text[pos] - '0');
    if (value > 1000000) return std::nullopt;
    ++pos;
  }
  if (pos == start) return std::nullopt;
  return static_cast<int>(value);
}

}  // namespace

Result<Steps> parse_steps(std::string_view text) {
  Steps steps;
  size_t pos = 0;
  int index = 0;
  while (true) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == text.size()) break;
    size_t end = pos;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    const std::string_view token = text.substr(pos, end - pos);
    ++index;
    auto bad = [&](std::string_view why) {
      return parse_error(fmt::format("step {} `{}`: {} (expected v:(x,y), e.g. 3:(0,1))", index, token, why));
    };
    size_t p = 0;
    const auto v = parse_int(token, p);
    if (!v) return bad("no node number before ':'");
    if (p >= token.size() || token[p] != ':') return bad("missing ':'");
    ++p;
    if (p >= token.size() || token[p] != '(') return bad("missing '('");
    ++p;
    const auto x = parse_int(token, p);
    if (!x) return bad("no first endpoint");
    if (p >= token.size() || token[p] != ',') return bad("missing ','");
    ++p;
    const auto y = parse_int(token, p);
    if (!y) return bad("no second endpoint");
    if (p >= token.size() || token[p] != ')') return bad("missing ')'");
    ++p;
    if (p != token.size()) return bad("text after ')'");
    steps.push_back(Step{*v, *x, *y});
    pos = end;
  }
  return steps;
}

std::string to_string(const Steps& steps) {
  std::string out;
  for (const Step& s : steps) {
    if (!out.empty()) out += ' ';
    out += fmt::format("{}:({},{})", s.v, s.x, s.y);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Itm

Itm Itm::kernel(Rule rule) {
  Itm itm;
  itm.rule_ = rule;
  itm.graph_ = complete_graph(3);
  itm.exterior_.assign(9, 0);
  for (int u = 0; u < 3; ++u)
    for (int v = 0; v < 3; ++v) itm.exterior_[static_cast<size_t>(u * 3 + v)] = u != v;
  return itm;
}

Result<int> Itm::add_node(int x, int y) {
  const int v = n();
  const Step step{v, x, y};
  auto bad = [&](std::string_view why) {
    return invalid_argument(
        fmt::format("step {} `{}`: {}", steps_.size() + 1, to_string(Steps{step}), why));
  };
  if (x < 0 || x >= v || y < 0 || y >= v)
    return bad(fmt::format("the corresponding edge needs two existing nodes (0..{})", v - 1));
  if (x == y || !graph_.adjacent(x, y)) return bad(fmt::format("({},{}) is not an edge", x, y));
  if (rule_ == Rule::kExterior && !exterior(x, y))
    return bad(fmt::format("({},{}) is interior; the exterior reading adds nodes at exterior edges only", x, y));
  // Grow the graph and the marking by one node.
  Graph g(v + 1);
  std::vector<char> ext(static_cast<size_t>((v + 1) * (v + 1)), 0);
  for (const auto& [a, b] : graph_.edges()) {
    g.add_edge(a, b);
    ext[static_cast<size_t>(a * (v + 1) + b)] = ext[static_cast<size_t>(b * (v + 1) + a)] = exterior(a, b);
  }
  g.add_edge(v, x);
  g.add_edge(v, y);
  ext[static_cast<size_t>(x * (v + 1) + y)] = ext[static_cast<size_t>(y * (v + 1) + x)] = 0;
  for (int z : {x, y}) ext[static_cast<size_t>(v * (v + 1) + z)] = ext[static_cast<size_t>(z * (v + 1) + v)] = 1;
  graph_ = std::move(g);
  exterior_ = std::move(ext);
  steps_.push_back(step);
  return v;
}

Result<Itm> Itm::build(const Steps& steps, Rule rule) {
  Itm itm = kernel(rule);
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    if (s.v != itm.n())
      return invalid_argument(fmt::format("step {} `{}`: adds node {}, but the next node is {}", i + 1,
                                          to_string(Steps{s}), s.v, itm.n()));
    auto added = itm.add_node(s.x, s.y);
    if (!added) return added.error();
  }
  return itm;
}

bool Itm::exterior(int u, int v) const {
  return graph_.adjacent(u, v) && exterior_[static_cast<size_t>(u * n() + v)] != 0;
}

std::vector<std::pair<int, int>> Itm::exterior_edges() const {
  std::vector<std::pair<int, int>> out;
  for (const auto& e : graph_.edges())
    if (exterior(e.first, e.second)) out.push_back(e);
  return out;
}

std::vector<std::pair<int, int>> Itm::interior_edges() const {
  std::vector<std::pair<int, int>> out;
  for (const auto& e : graph_.edges())
    if (!exterior(e.first, e.second)) out.push_back(e);
  return out;
}

Result<std::vector<int>> circular_order(const Itm& itm) {
  const int n = itm.n();
  std::vector<std::vector<int>> ext(static_cast<size_t>(n));
  for (const auto& [u, v] : itm.exterior_edges()) {
    ext[static_cast<size_t>(u)].push_back(v);
    ext[static_cast<size_t>(v)].push_back(u);
  }
  for (int u = 0; u < n; ++u)
    if (ext[static_cast<size_t>(u)].size() != 2)
      return invalid_argument(fmt::format("the exterior edges do not form a cycle through every node: node {} is on {} "
                                          "of them, not 2",
                                          u, ext[static_cast<size_t>(u)].size()));
  std::vector<int> order{0};
  std::vector<char> seen(static_cast<size_t>(n), 0);
  seen[0] = 1;
  int prev = 0, cur = std::min(ext[0][0], ext[0][1]);
  while (cur != 0) {
    if (seen[static_cast<size_t>(cur)])
      return invalid_argument(fmt::format("the exterior edges do not form one cycle: the walk from node 0 returns to "
                                          "node {} first",
                                          cur));
    seen[static_cast<size_t>(cur)] = 1;
    order.push_back(cur);
    const auto& nb = ext[static_cast<size_t>(cur)];
    const int next = nb[0] == prev ? nb[1] : nb[0];
    prev = cur;
    cur = next;
  }
  if (static_cast<int>(order.size()) != n)
    return invalid_argument(fmt::format("the exterior edges do not form one cycle through every node: the cycle from "
                                        "node 0 has {} of the {} nodes",
                                        order.size(), n));
  return order;
}

}  // namespace topocheck::itm
