// The routing-table check of routing.h.
#include "check/routing.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/graph.h"
#include "network/network.h"
#include "itm/itm.h"
#include "wormhole/wormhole.h"
#include "wormhole/wormhole_graphs.h"
#include "wormhole/wormhole_routing.h"

namespace topocheck::check {
namespace {

using nlohmann::json;
using routing::NodeId;

constexpr size_t kMaxRows = size_t{1} << 24;

// The file's table as a routing function of the wormhole judge: allowed(at, -, dst) = the row's
// next hops as channels of `net` (the arrival channel is ignored).
class TableRouting final : public routing::WormholeRouting {
 public:
  TableRouting(const routing::Network& net, const RoutingFile& file) : net_(net), file_(file), channels_(net) {}
  std::string name() const override { return "the file's table"; }
  void allowed(NodeId at, uint32_t, NodeId dst, std::vector<uint32_t>& out) const override {
    out.clear();
    if (at == dst) return;
    for (uint32_t v : file_.next[at][dst]) out.push_back(channels_.of(at, net_.port_to(at, v)));
  }

 private:
  const routing::Network& net_;
  const RoutingFile& file_;
  routing::ChannelTable channels_;
};

}  // namespace

Result<RoutingFile> routing_file_from_json(const json& j, const std::string& text, const std::string& file) {
  const FileErrors errors(text, file);
  auto at = [&](const std::string& pointer, const std::string& what) { return errors.at(pointer, what); };
  if (!j.is_object()) return at("", "a routing file is a JSON object (graph, table)");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "kind" && it.key() != "graph" && it.key() != "table") return at("/" + it.key(), "unknown field (graph, table)");
  if (j.contains("kind") && j.at("kind") != "routing") return at("/kind", "must be \"routing\" in a routing file");
  if (!j.contains("graph") || !j.at("graph").is_object()) return at("/graph", "must be {\"nodes\": N, \"edges\": [[u, v], ...]}");
  const json& g = j.at("graph");
  for (auto it = g.begin(); it != g.end(); ++it)
    if (it.key() != "nodes" && it.key() != "edges") return at("/graph/" + it.key(), "unknown field (nodes, edges)");
  if (!g.contains("nodes") || !is_count(g.at("nodes")) || g.at("nodes").get<uint64_t>() < 2 ||
      g.at("nodes").get<uint64_t>() > routing::kMaxNodes)
    return at("/graph/nodes", fmt::format("must be an integer in 2..{}", routing::kMaxNodes));
  RoutingFile out;
  out.nodes = g.at("nodes").get<uint64_t>();
  if (!g.contains("edges") || !g.at("edges").is_array()) return at("/graph/edges", "must be an array of [u, v] pairs");
  std::set<std::pair<uint64_t, uint64_t>> edge_set;
  for (size_t i = 0; i < g.at("edges").size(); ++i) {
    const json& e = g.at("edges")[i];
    const std::string p = fmt::format("/graph/edges/{}", i);
    if (!e.is_array() || e.size() != 2 || !is_count(e[0]) || !is_count(e[1])) return at(p, "must be a pair [u, v] of node numbers");
    const uint64_t a = e[0].get<uint64_t>(), b = e[1].get<uint64_t>();
    if (a >= out.nodes || b >= out.nodes) return at(p, fmt::format("[{}, {}]: nodes are 0..{}", a, b, out.nodes - 1));
    if (a == b) return at(p, fmt::format("[{}, {}] is a loop", a, b));
    if (!edge_set.insert({std::min(a, b), std::max(a, b)}).second) return at(p, fmt::format("[{}, {}] is listed twice", a, b));
    out.edges.emplace_back(a, b);
  }
  if (!j.contains("table") || !j.at("table").is_array()) return at("/table", "must be an array of {node, dest, next} rows");
  const json& table = j.at("table");
  if (table.size() > kMaxRows) return at("/table", fmt::format("at most {} rows", kMaxRows));
  out.next.assign(out.nodes, std::vector<std::vector<uint32_t>>(out.nodes));
  std::vector<std::vector<bool>> seen(out.nodes, std::vector<bool>(out.nodes, false));
  for (size_t i = 0; i < table.size(); ++i) {
    const json& row = table[i];
    const std::string p = fmt::format("/table/{}", i);
    if (!row.is_object()) return at(p, "a row is {\"node\": u, \"dest\": d, \"next\": [v, ...]}");
    for (auto it = row.begin(); it != row.end(); ++it)
      if (it.key() != "node" && it.key() != "dest" && it.key() != "next") return at(p + "/" + it.key(), "unknown field (node, dest, next)");
    for (const char* f : {"node", "dest"})
      if (!row.contains(f) || !is_count(row.at(f)) || row.at(f).get<uint64_t>() >= out.nodes)
        return at(p + "/" + f, fmt::format("must be a node number 0..{}", out.nodes - 1));
    const uint64_t u = row.at("node").get<uint64_t>(), d = row.at("dest").get<uint64_t>();
    if (u == d) return at(p, fmt::format("node and dest are both {}: a message at its destination is not routed", u));
    if (seen[u][d]) return at(p, fmt::format("a second row for node {}, dest {}", u, d));
    seen[u][d] = true;
    if (!row.contains("next") || !row.at("next").is_array()) return at(p + "/next", "must be an array of neighbours");
    for (size_t k = 0; k < row.at("next").size(); ++k) {
      const json& v = row.at("next")[k];
      const std::string q = fmt::format("{}/next/{}", p, k);
      if (!is_count(v) || v.get<uint64_t>() >= out.nodes) return at(q, fmt::format("must be a node number 0..{}", out.nodes - 1));
      const uint64_t w = v.get<uint64_t>();
      if (!edge_set.count({std::min(u, w), std::max(u, w)})) return at(q, fmt::format("{} is not a neighbour of {}", w, u));
      auto& list = out.next[u][d];
      if (std::find(list.begin(), list.end(), w) != list.end()) return at(q, fmt::format("{} is listed twice", w));
      list.push_back(static_cast<uint32_t>(w));
    }
  }
  return out;
}

CheckReport judge_routing(const RoutingFile& in) {
  CheckReport r;
  r.kind = "routing";
  // The file's graph as the wormhole judge's Network (wormhole_graphs.h: ports in sorted order).
  std::vector<std::pair<int, int>> edges;
  for (auto [a, b] : in.edges) edges.emplace_back(static_cast<int>(a), static_cast<int>(b));
  auto graph = itm::Graph::from_edges(static_cast<int>(in.nodes), edges);  // the loader refused loops and repeats
  TC_CHECK(graph.ok(), "routing file: the loader's graph is a simple graph");
  auto net = routing::network_of(*graph, fmt::format("graph of {} nodes", in.nodes));
  if (!net) {
    // A disconnected graph: no routing reaches every destination.
    r.add("complete", net.error().message, "");
    for (const char* c : {"arrives", "deadlock_free", "minimal", "every_shortest_path"}) r.skip(c, "the graph is not connected");
    return r;
  }
  const NodeId n = net->num_nodes();
  std::optional<std::string> complete;
  for (NodeId u = 0; u < n && !complete; ++u)
    for (NodeId d = 0; d < n && !complete; ++d)
      if (u != d && in.next[u][d].empty()) complete = fmt::format("no next hop for a message at {} bound for {}", u, d);
  const bool is_complete = r.add("complete", complete, fmt::format("every one of the {} pairs has a next hop", size_t{n} * (n - 1)));
  // arrives: per destination d, the graph u -> next[u][d] is acyclic (then, being complete, every
  // path ends at d).
  std::optional<std::string> loops;
  if (is_complete) {
    for (NodeId d = 0; d < n && !loops; ++d) {
      std::vector<std::pair<uint64_t, uint64_t>> hops;
      for (NodeId u = 0; u < n; ++u)
        if (u != d)
          for (uint32_t v : in.next[u][d]) hops.emplace_back(u, v);
      if (auto cycle = find_dependency_cycle(n, hops))
        loops = fmt::format("messages bound for {} can go round {} forever", d, fmt::join(*cycle, " -> "));
    }
    r.add("arrives", loops, "from every node every allowed route reaches its destination");
  } else {
    r.skip("arrives", "the table is not complete");
  }
  // deadlock_free: the channel dependency graph.
  const TableRouting table(*net, in);
  const routing::ChannelTable channels(*net);
  const auto deps = routing::channel_dependencies(*net, table);
  if (auto cycle = find_dependency_cycle(channels.size(), deps)) {
    std::vector<std::string> words;
    for (uint64_t c : *cycle) words.push_back(fmt::format("{}->{}", channels.tail[c], channels.head[c]));
    r.add("deadlock_free",
        fmt::format("the channel dependency graph has the cycle {} (each channel waits on the next)", fmt::join(words, " => ")), "");
  } else {
    r.add("deadlock_free", std::nullopt,
        fmt::format("the channel dependency graph ({} channels, {} dependencies) is acyclic", channels.size(), deps.size()));
  }
  // minimal and every_shortest_path.
  std::optional<std::string> longer, forbids;
  for (NodeId u = 0; u < n; ++u)
    for (NodeId d = 0; d < n; ++d) {
      if (u == d) continue;
      for (uint32_t v : in.next[u][d])
        if (!longer && net->distance(v, d) != net->distance(u, d) - 1)
          longer = fmt::format("at {} bound for {} (distance {}) the table allows {}, at distance {}", u, d, net->distance(u, d), v,
                               net->distance(v, d));
      for (int port = 0; port < net->degree(u) && !forbids; ++port) {
        const NodeId v = net->neighbor(u, port);
        if (net->distance(v, d) == net->distance(u, d) - 1 &&
            std::find(in.next[u][d].begin(), in.next[u][d].end(), v) == in.next[u][d].end())
          forbids = fmt::format("at {} bound for {} the shortest-path hop to {} is not allowed", u, d, v);
      }
    }
  r.add("minimal", longer, "every allowed hop is one step closer to the destination");
  r.add("every_shortest_path", forbids, "every hop one step closer is allowed (fully adaptive among shortest paths)");
  return r;
}

}  // namespace topocheck::check
