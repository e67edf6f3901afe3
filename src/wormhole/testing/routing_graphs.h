// Helpers of the wormhole routing tests only (wormhole_routing_test.cc, wormhole_graphs_test.cc;
// not part of the library): the shortest-path routing specs, networks and routings built (or the
// test fails), the graphs the tests sweep (random ITMs under both rules, the non-ITM controls, small
// graphs of every kind), and a deliberately broken up*/down* that forgets the phase.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "itm/itm.h"
#include "network/network.h"
#include "wormhole/wormhole.h"
#include "wormhole/wormhole_graphs.h"
#include "wormhole/wormhole_routing.h"

namespace topocheck::routing {

inline constexpr RoutingSpec kSpDeterministic{RoutingFamily::kShortestPath, Adaptivity::kDeterministic, 0};
inline constexpr RoutingSpec kSpAdaptive{RoutingFamily::kShortestPath, Adaptivity::kAdaptive, 0};

// up*/down* with adaptivity a and root `root`.
inline RoutingSpec updown(Adaptivity a, NodeId root) { return RoutingSpec{RoutingFamily::kUpDown, a, root}; }

inline Network net_of(const itm::Graph& g, const std::string& name) {
  auto net = network_of(g, name);
  EXPECT_TRUE(net.ok()) << name << ": " << (net.ok() ? "" : net.error().message);
  return std::move(net).value();
}

inline std::unique_ptr<WormholeRouting> routing_of(const Network& net, const RoutingSpec& spec) {
  auto r = make_routing(net, spec);
  EXPECT_TRUE(r.ok()) << to_string(spec) << " on " << net.name() << ": " << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

inline itm::Graph itm_graph(int n, itm::Rule rule, uint64_t seed) {
  return itm::Itm::build(random_itm(n, rule, seed), rule).value().graph();
}

struct Named {
  std::string name;
  itm::Graph g;
};

// Random ITMs under both rules, `sizes` x seeds 1..`seeds`.
inline std::vector<Named> random_itms(const std::vector<int>& sizes, uint64_t seeds) {
  std::vector<Named> out;
  for (itm::Rule rule : {itm::Rule::kAnyEdge, itm::Rule::kExterior})
    for (int n : sizes)
      for (uint64_t seed = 1; seed <= seeds; ++seed)
        out.push_back({fmt::format("ITM({}, {}, seed {})", itm::to_string(rule), n, seed), itm_graph(n, rule, seed)});
  return out;
}

// The four non-ITM controls of wormhole_graphs.h.
inline std::vector<Named> controls() {
  std::vector<Named> out;
  for (std::string_view name : kControlNames) out.push_back({control_title(name), control_graph(name).value()});
  return out;
}

// Small graphs of every kind (at most 9 nodes): random ITMs, the controls, random non-chordal
// graphs, cycles, K5, K_{3,3}, a 2x4 grid.
inline std::vector<Named> small_graphs() {
  std::vector<Named> graphs = random_itms({3, 4, 5, 6, 7, 8}, 2);
  for (Named& c : controls()) graphs.push_back(std::move(c));  // grid 3x3 has 9 nodes
  for (int n = 4; n <= 8; ++n)
    for (uint64_t seed = 1; seed <= 3; ++seed)
      graphs.push_back({fmt::format("nonchordal({}, seed {})", n, seed), random_nonchordal(n, seed)});
  for (int n = 3; n <= 7; ++n) graphs.push_back({fmt::format("C{}", n), itm::cycle_graph(n)});
  graphs.push_back({"K5", itm::complete_graph(5)});
  graphs.push_back({"K_{3,3}", itm::complete_bipartite(3, 3)});
  graphs.push_back({"grid 2x4", itm::grid_graph(2, 4)});
  return graphs;
}

// DELIBERATELY BROKEN: up*/down* that forgets the phase (every arrival is treated as an
// injection), so a header that went down may be sent up again.
class PhaseBlindUpDown final : public WormholeRouting {
 public:
  explicit PhaseBlindUpDown(std::unique_ptr<WormholeRouting> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return "phase-blind " + inner_->name(); }
  void allowed(NodeId at, uint32_t, NodeId dst, std::vector<uint32_t>& out) const override {
    inner_->allowed(at, kInjection, dst, out);
  }

 private:
  std::unique_ptr<WormholeRouting> inner_;
};

}  // namespace topocheck::routing
