// Traffic for the wormhole simulator (wormhole.h): open-loop uniform random traffic for the
// throughput experiment and adversarial bursts for the deadlock claims (issue 8). Every generator
// is a function of its arguments only (Rng of rng.h, portable).
//
//  - uniform_traffic(N, load, L, cycles, seed): offered load `load` in flits per node per cycle
//    (0 < load <= 1). In every cycle t in [0, cycles), node s (in order 0..N-1) creates a worm of
//    L flits with probability load / L (one Rng::unit() draw per node and cycle), destination
//    uniform among the N - 1 other nodes (Rng::below). Worms are listed by (created, src).
//  - adversarial_traffic(net, pattern, L, seed), bursts created at cycle 0 (a worm's position in
//    the list is its place in its source's injection queue; the list is Rng-shuffled):
//      kDistanceTwo: every ordered pair (a, c) with d(a, c) = 2, i.e. one worm per possible pair
//                    of consecutive shortest-path hops: every channel dependency of Theorem 2's
//                    graph is exercised at once (on C4: 0->2, 1->3, 2->0, 3->1);
//      kFarthest:    every node to every node at its largest distance (eccentricity);
//      kHotspot:     every node to one node drawn by Rng(seed);
//      kAllToAll:    every ordered pair of distinct nodes.
// Names: "distance-two", "farthest", "hotspot", "all-to-all".
// Cost: uniform O(N * cycles) draws; adversarial O(N^2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "network/network.h"
#include "wormhole/wormhole.h"

namespace topocheck::routing {

std::vector<WormMessage> uniform_traffic(uint32_t num_nodes, double load, uint32_t length, uint32_t cycles,
                                         uint64_t seed);

enum class Pattern { kDistanceTwo, kFarthest, kHotspot, kAllToAll };
inline constexpr Pattern kPatterns[] = {Pattern::kDistanceTwo, Pattern::kFarthest, Pattern::kHotspot,
                                        Pattern::kAllToAll};
std::string to_string(Pattern p);
std::optional<Pattern> parse_pattern(std::string_view s);
std::vector<WormMessage> adversarial_traffic(const Network& net, Pattern pattern, uint32_t length, uint64_t seed);

}  // namespace topocheck::routing
