#include "wormhole/wormhole_routing.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <utility>

#include <fmt/format.h>

namespace topocheck::routing {
namespace {

// The hop distance tables are bytes; this marks "no route" (and caps every stored distance).
constexpr uint8_t kUnreachable = 0xff;

// Shortest-path routing: the channels x -> y with d(y, dst) = d(x, dst) - 1, in port order.
// Copies the network's channels and distances, so that it does not outlive a borrowed Network.
class ShortestPathRouting final : public WormholeRouting {
 public:
  ShortestPathRouting(const Network& net, Adaptivity adaptivity)
      : channels_(net), n_(net.num_nodes()), adaptivity_(adaptivity) {
    dist_.resize(size_t{n_} * n_);
    for (NodeId u = 0; u < n_; ++u)
      for (NodeId v = 0; v < n_; ++v) dist_[size_t{u} * n_ + v] = static_cast<uint8_t>(net.distance(u, v));
  }

  std::string name() const override {
    return adaptivity_ == Adaptivity::kAdaptive ? "sp-adaptive" : "sp-deterministic";
  }

  void allowed(NodeId at, uint32_t in, NodeId dst, std::vector<uint32_t>& out) const override {
    out.clear();
    TC_CHECK(at < n_ && dst < n_, "ShortestPathRouting::allowed: node out of range");
    TC_CHECK(in == kInjection || (in < channels_.size() && channels_.head[in] == at),
             "ShortestPathRouting::allowed: the arrival channel does not end at the node");
    const int here = distance(at, dst);
    if (here == 0) return;
    for (uint32_t c = channels_.first[at]; c < channels_.first[at + 1]; ++c)
      if (distance(channels_.head[c], dst) == here - 1) {
        out.push_back(c);
        if (adaptivity_ == Adaptivity::kDeterministic) return;
      }
  }

 private:
  int distance(NodeId u, NodeId v) const { return dist_[size_t{u} * n_ + v]; }

  ChannelTable channels_;
  NodeId n_;
  Adaptivity adaptivity_;
  std::vector<uint8_t> dist_;  // N x N hop distances
};

// up*/down* routing over (node, phase) states. Phase 0 ("up"): any hop is legal; an up hop keeps
// phase 0, a down hop enters phase 1. Phase 1 ("down"): only down hops. dist_[(dst * N + x) * 2
// + phase] is the length of a shortest legal route from state (x, phase) to dst, kUnreachable if
// there is none (possible only in phase 1: from a node whose down-closure misses dst).
class UpDownRouting final : public WormholeRouting {
 public:
  UpDownRouting(const Network& net, UpDownTree tree, Adaptivity adaptivity, std::vector<uint8_t> dist)
      : channels_(net), n_(net.num_nodes()), tree_(std::move(tree)), adaptivity_(adaptivity),
        dist_(std::move(dist)) {}

  std::string name() const override {
    return fmt::format("updown-{}(root {})",
                       adaptivity_ == Adaptivity::kAdaptive ? "adaptive" : "deterministic", tree_.root);
  }

  void allowed(NodeId at, uint32_t in, NodeId dst, std::vector<uint32_t>& out) const override {
    out.clear();
    TC_CHECK(at < n_ && dst < n_, "UpDownRouting::allowed: node out of range");
    TC_CHECK(in == kInjection || (in < channels_.size() && channels_.head[in] == at),
             "UpDownRouting::allowed: the arrival channel does not end at the node");
    if (at == dst) return;
    const int phase = in != kInjection && !tree_.up(channels_.tail[in], at) ? 1 : 0;
    const uint8_t here = state(dst, at, phase);
    if (here == kUnreachable) return;  // an arrival this routing never produces toward dst
    for (uint32_t c = channels_.first[at]; c < channels_.first[at + 1]; ++c) {
      const NodeId y = channels_.head[c];
      const bool up = tree_.up(at, y);
      if (phase == 1 && up) continue;  // up after down: illegal
      if (state(dst, y, up ? 0 : 1) + 1 == here) {
        out.push_back(c);
        if (adaptivity_ == Adaptivity::kDeterministic) return;
      }
    }
  }

 private:
  uint8_t state(NodeId dst, NodeId x, int phase) const { return dist_[(size_t{dst} * n_ + x) * 2 + phase]; }

  ChannelTable channels_;
  NodeId n_;
  UpDownTree tree_;
  Adaptivity adaptivity_;
  std::vector<uint8_t> dist_;
};

// The (node, phase) distance table of UpDownRouting: one reverse BFS per destination. The
// predecessors of (w, 0) are the (v, 0) with v -> w an up hop; of (w, 1) the (v, 0) and (v, 1)
// with v -> w a down hop. Errors when a distance does not fit a byte.
Result<std::vector<uint8_t>> updown_distances(const Network& net, const UpDownTree& tree) {
  const NodeId n = net.num_nodes();
  std::vector<uint8_t> dist(size_t{n} * n * 2, kUnreachable);
  std::deque<std::pair<NodeId, int>> queue;
  for (NodeId d = 0; d < n; ++d) {
    uint8_t* row = dist.data() + size_t{d} * n * 2;
    row[d * 2] = row[d * 2 + 1] = 0;
    queue.assign({{d, 0}, {d, 1}});
    while (!queue.empty()) {
      const auto [w, phase] = queue.front();
      queue.pop_front();
      const int next = row[w * 2 + phase] + 1;
      for (int p = 0; p < net.degree(w); ++p) {
        const NodeId v = net.neighbor(w, p);
        const bool up = tree.up(v, w);  // the hop v -> w
        if (phase == 0 && !up) continue;  // (w, 0) is entered by up hops only
        if (phase == 1 && up) continue;   // (w, 1) by down hops only
        for (int from = 0; from <= phase; ++from) {  // (v, 1) precedes only (w, 1)
          uint8_t& slot = row[v * 2 + from];
          if (slot != kUnreachable) continue;
          if (next >= kUnreachable)
            return invalid_argument(fmt::format("{}: an up*/down* route from root {} is longer than {} hops",
                                                net.name(), tree.root, kUnreachable - 1));
          slot = static_cast<uint8_t>(next);
          queue.emplace_back(v, from);
        }
      }
    }
  }
  return dist;
}

}  // namespace

std::string to_string(const RoutingSpec& spec) {
  const char* family = spec.family == RoutingFamily::kShortestPath ? "sp" : "updown";
  const char* adaptivity = spec.adaptivity == Adaptivity::kAdaptive ? "adaptive" : "deterministic";
  return fmt::format("{}-{}", family, adaptivity);
}

std::optional<RoutingSpec> parse_routing_spec(std::string_view s) {
  for (RoutingFamily family : {RoutingFamily::kShortestPath, RoutingFamily::kUpDown})
    for (Adaptivity adaptivity : {Adaptivity::kDeterministic, Adaptivity::kAdaptive}) {
      const RoutingSpec spec{family, adaptivity, 0};
      if (to_string(spec) == s) return spec;
    }
  return std::nullopt;
}

UpDownTree updown_tree(const Network& net, NodeId root) {
  const NodeId n = net.num_nodes();
  TC_CHECK(root < n, fmt::format("updown_tree: root {} is not a node of {} ({} nodes)", root, net.name(), n));
  UpDownTree tree;
  tree.root = root;
  tree.level.assign(n, -1);
  tree.parent.assign(n, root);
  // BFS with neighbours in port order (the order Boost's BFS over the materialized graph would
  // visit them): the first discoverer of a node is its parent.
  std::vector<NodeId> queue{root};
  tree.level[root] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const NodeId u = queue[head];
    for (int p = 0; p < net.degree(u); ++p) {
      const NodeId v = net.neighbor(u, p);
      if (tree.level[v] >= 0) continue;
      tree.level[v] = tree.level[u] + 1;
      tree.parent[v] = u;
      queue.push_back(v);
    }
  }
  TC_CHECK(queue.size() == n, "updown_tree: the network is not connected");
  return tree;
}

Result<std::unique_ptr<WormholeRouting>> make_routing(const Network& net, const RoutingSpec& spec) {
  if (spec.family == RoutingFamily::kShortestPath)
    return std::unique_ptr<WormholeRouting>(std::make_unique<ShortestPathRouting>(net, spec.adaptivity));
  if (spec.root >= net.num_nodes())
    return invalid_argument(fmt::format("up*/down* root {} is not a node of {} (0..{})", spec.root, net.name(),
                                        net.num_nodes() - 1));
  UpDownTree tree = updown_tree(net, spec.root);
  auto dist = updown_distances(net, tree);
  if (!dist) return dist.error();
  return std::unique_ptr<WormholeRouting>(
      std::make_unique<UpDownRouting>(net, std::move(tree), spec.adaptivity, std::move(dist).value()));
}

std::vector<std::pair<uint64_t, uint64_t>> channel_dependencies(const Network& net, const WormholeRouting& routing) {
  const ChannelTable channels(net);
  const NodeId n = net.num_nodes();
  const uint32_t num_channels = channels.size();
  const size_t max_degree = static_cast<size_t>(net.max_degree());
  // reverse[c]: the channel head(c) -> tail(c); the in-channels of x are reverse[c], c out of x.
  std::vector<uint32_t> reverse(num_channels);
  for (uint32_t c = 0; c < num_channels; ++c)
    reverse[c] = channels.of(channels.head[c], net.port_to(channels.head[c], channels.tail[c]));
  // seen[c1 * max_degree + p]: c1 -> (port p of head(c1)) is a dependency.
  std::vector<char> seen(size_t{num_channels} * max_degree, 0);
  std::vector<char> toward(num_channels);  // c is allowed toward the current d at tail(c)
  std::vector<uint32_t> out;
  for (NodeId d = 0; d < n; ++d) {
    std::fill(toward.begin(), toward.end(), 0);
    for (NodeId x = 0; x < n; ++x) {
      if (x == d) continue;
      routing.allowed(x, kInjection, d, out);
      for (uint32_t c : out) toward[c] = 1;
      for (uint32_t c = channels.first[x]; c < channels.first[x + 1]; ++c) {
        routing.allowed(x, reverse[c], d, out);
        for (uint32_t c2 : out) toward[c2] = 1;
      }
    }
    for (uint32_t c1 = 0; c1 < num_channels; ++c1) {
      if (!toward[c1] || channels.head[c1] == d) continue;
      routing.allowed(channels.head[c1], c1, d, out);
      for (uint32_t c2 : out) seen[size_t{c1} * max_degree + (c2 - channels.first[channels.head[c1]])] = 1;
    }
  }
  std::vector<std::pair<uint64_t, uint64_t>> deps;
  for (uint32_t c1 = 0; c1 < num_channels; ++c1)
    for (size_t p = 0; p < max_degree; ++p)
      if (seen[size_t{c1} * max_degree + p]) deps.emplace_back(c1, channels.first[channels.head[c1]] + p);
  return deps;
}

}  // namespace topocheck::routing
