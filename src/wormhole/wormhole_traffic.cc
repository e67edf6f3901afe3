#include "wormhole/wormhole_traffic.h"

#include <algorithm>

#include <fmt/format.h>

#include "network/rng.h"

namespace topocheck::routing {

std::vector<WormMessage> uniform_traffic(uint32_t num_nodes, double load, uint32_t length, uint32_t cycles,
                                         uint64_t seed) {
  TC_CHECK(num_nodes >= 2, fmt::format("uniform_traffic needs at least 2 nodes, got {}", num_nodes));
  TC_CHECK(load > 0 && load <= 1, fmt::format("uniform_traffic: load {} is outside (0, 1]", load));
  TC_CHECK(length >= 1, "uniform_traffic: worms need at least one flit");
  // A worm carries `length` flits, so `load` flits per node per cycle is load / length worms.
  const double p = load / length;
  Rng rng(seed);
  std::vector<WormMessage> out;
  out.reserve(static_cast<size_t>(p * num_nodes * cycles * 1.1) + 16);
  // Cycle-major, node-minor: the list comes out sorted by (created, src) with no sort.
  for (uint32_t t = 0; t < cycles; ++t)
    for (NodeId s = 0; s < num_nodes; ++s) {
      if (!(rng.unit() < p)) continue;
      // Uniform over the N - 1 other nodes: draw from [0, N - 1) and skip over s.
      NodeId d = static_cast<NodeId>(rng.below(num_nodes - 1));
      if (d >= s) ++d;
      out.push_back(WormMessage{s, d, length, t});
    }
  return out;
}

std::string to_string(Pattern p) {
  switch (p) {
    case Pattern::kDistanceTwo: return "distance-two";
    case Pattern::kFarthest: return "farthest";
    case Pattern::kHotspot: return "hotspot";
    case Pattern::kAllToAll: return "all-to-all";
  }
  return "?";
}

std::optional<Pattern> parse_pattern(std::string_view s) {
  for (Pattern p : kPatterns)
    if (to_string(p) == s) return p;
  return std::nullopt;
}

std::vector<WormMessage> adversarial_traffic(const Network& net, Pattern pattern, uint32_t length, uint64_t seed) {
  TC_CHECK(length >= 1, "adversarial_traffic: worms need at least one flit");
  const NodeId n = net.num_nodes();
  Rng rng(seed);
  std::vector<WormMessage> out;
  auto add = [&](NodeId a, NodeId c) { out.push_back(WormMessage{a, c, length, 0}); };
  switch (pattern) {
    case Pattern::kDistanceTwo:
      for (NodeId a = 0; a < n; ++a)
        for (NodeId c = 0; c < n; ++c)
          if (net.distance(a, c) == 2) add(a, c);
      break;
    case Pattern::kFarthest:
      for (NodeId a = 0; a < n; ++a) {
        int ecc = 0;
        for (NodeId c = 0; c < n; ++c) ecc = std::max(ecc, net.distance(a, c));
        if (ecc == 0) continue;  // a one-node network has no pair
        for (NodeId c = 0; c < n; ++c)
          if (net.distance(a, c) == ecc) add(a, c);
      }
      break;
    case Pattern::kHotspot: {
      // The hotspot is the first draw of Rng(seed); the shuffle below continues the same stream.
      const NodeId h = static_cast<NodeId>(rng.below(n));
      for (NodeId a = 0; a < n; ++a)
        if (a != h) add(a, h);
      break;
    }
    case Pattern::kAllToAll:
      for (NodeId a = 0; a < n; ++a)
        for (NodeId c = 0; c < n; ++c)
          if (a != c) add(a, c);
      break;
  }
  // Built in (src, dst) order, then shuffled: a worm's list position is its place in its
  // source's injection queue, so the shuffle decides which of a node's worms goes first.
  rng.shuffle(out);
  return out;
}

}  // namespace topocheck::routing
