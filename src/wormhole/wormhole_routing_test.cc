// Tests of the wormhole routing functions (wormhole_routing.h). Every routing is judged by an
// independent brute force: shortest-path routing by BFS distances of itm::distances, up*/down*
// by enumerating every legal simple route by DFS. Deliberately broken routings are negative
// controls for the judges. The graphs and the channel dependency graphs are tested in
// wormhole_graphs_test.cc (the same binary); the helpers of both are in testing/routing_graphs.h.
#include <algorithm>
#include <array>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/checks.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "wormhole/testing/routing_graphs.h"
#include "wormhole/wormhole.h"
#include "wormhole/wormhole_graphs.h"
#include "wormhole/wormhole_routing.h"

namespace topocheck::routing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The arrivals at x: kInjection, then every channel into x.
std::vector<uint32_t> arrivals(const Network& net, const ChannelTable& ct, NodeId x) {
  std::vector<uint32_t> out{kInjection};
  for (int p = 0; p < net.degree(x); ++p) {
    const NodeId v = net.neighbor(x, p);
    out.push_back(ct.of(v, net.port_to(v, x)));
  }
  return out;
}

std::string channel_text(const ChannelTable& ct, uint32_t c) {
  return c == kInjection ? "injection" : fmt::format("{}->{}", ct.tail[c], ct.head[c]);
}
std::string channels_text(const ChannelTable& ct, const std::vector<uint32_t>& cs) {
  std::vector<std::string> parts;
  for (uint32_t c : cs) parts.push_back(channel_text(ct, c));
  return fmt::format("[{}]", fmt::join(parts, " "));
}

// ---------------------------------------------------------------------------------------------
// Brute-force judges

// Shortest-path routing against BFS distances of the itm::Graph (not the Network's table): the
// allowed channels from x toward d, for every arrival, are the x -> y with d(y, d) = d(x, d) - 1
// in port order (ports = g's sorted neighbours), the first only when deterministic.
Violation check_shortest_path(const itm::Graph& g, const Network& net, const WormholeRouting& routing,
                              Adaptivity adaptivity) {
  const std::vector<int> dist = itm::distances(g);
  const int n = g.n();
  const ChannelTable ct(net);
  std::vector<uint32_t> got;
  for (int x = 0; x < n; ++x) {
    const std::vector<int>& nb = g.neighbors(x);
    if (net.degree(static_cast<NodeId>(x)) != static_cast<int>(nb.size())) return fmt::format("degree of {}", x);
    for (size_t p = 0; p < nb.size(); ++p)
      if (net.neighbor(static_cast<NodeId>(x), static_cast<int>(p)) != static_cast<NodeId>(nb[p]))
        return fmt::format("port {} of {} is not its {}th sorted neighbour", p, x, p);
    for (int d = 0; d < n; ++d) {
      std::vector<uint32_t> expected;
      for (size_t p = 0; p < nb.size(); ++p)
        if (dist[static_cast<size_t>(nb[p] * n + d)] == dist[static_cast<size_t>(x * n + d)] - 1)
          expected.push_back(ct.of(static_cast<NodeId>(x), static_cast<int>(p)));
      if (adaptivity == Adaptivity::kDeterministic && expected.size() > 1)
        expected.erase(expected.begin() + 1, expected.end());
      for (uint32_t in : arrivals(net, ct, static_cast<NodeId>(x))) {
        routing.allowed(static_cast<NodeId>(x), in, static_cast<NodeId>(d), got);
        if (got != expected)
          return fmt::format("{} at {} from {} toward {}: allowed {}, BFS says {}", routing.name(), x,
                             channel_text(ct, in), d, channels_text(ct, got), channels_text(ct, expected));
      }
    }
  }
  return std::nullopt;
}

// up*/down* by brute force. Levels are the Network's distances from the root (not updown_tree);
// a hop u -> v is up iff (level v, v) < (level u, u). From each state (x, phase) toward d every
// legal simple route is enumerated by DFS (phase "down": no up hop at all; "up": no up hop after
// a down hop); the minimal length m and the set F of first hops of the routes of length m follow.
// Checked for every x != d and every arrival at x: allowed() is F in port order (its first only
// when deterministic; empty when no legal route exists), and every walk that follows allowed()
// from the state is legal and reaches d in exactly m hops.
Violation check_updown(const Network& net, NodeId root, const WormholeRouting& routing, Adaptivity adaptivity) {
  const NodeId n = net.num_nodes();
  const ChannelTable ct(net);
  std::vector<int> level(n);
  for (NodeId v = 0; v < n; ++v) level[v] = net.distance(root, v);
  auto up = [&](NodeId u, NodeId v) { return std::pair(level[v], v) < std::pair(level[u], u); };
  constexpr int kNone = 1 << 30;

  for (NodeId d = 0; d < n; ++d) {
    // best[x][phase] = (m, F) from the DFS.
    std::vector<std::array<std::pair<int, std::set<uint32_t>>, 2>> best(n);
    std::vector<char> on_route(n, 0);
    for (NodeId x = 0; x < n; ++x)
      for (int phase = 0; phase < 2; ++phase) {
        int& m = best[x][static_cast<size_t>(phase)].first;
        std::set<uint32_t>& first = best[x][static_cast<size_t>(phase)].second;
        m = x == d ? 0 : kNone;
        if (x == d) continue;
        std::function<void(NodeId, bool, int, uint32_t)> dfs = [&](NodeId u, bool down, int len, uint32_t first_hop) {
          if (u == d) {
            if (len < m) m = len, first.clear();
            if (len == m) first.insert(first_hop);
            return;
          }
          for (int p = 0; p < net.degree(u); ++p) {
            const NodeId v = net.neighbor(u, p);
            if (on_route[v] || (down && up(u, v))) continue;
            on_route[v] = 1;
            dfs(v, down || !up(u, v), len + 1, len == 0 ? ct.of(u, p) : first_hop);
            on_route[v] = 0;
          }
        };
        on_route[x] = 1;
        dfs(x, phase == 1, 0, kInjection);
        on_route[x] = 0;
      }

    std::vector<uint32_t> got;
    for (NodeId x = 0; x < n; ++x) {
      if (x == d) continue;
      for (uint32_t in : arrivals(net, ct, x)) {
        const int phase = in != kInjection && !up(ct.tail[in], x) ? 1 : 0;
        const int m = best[x][static_cast<size_t>(phase)].first;
        const std::set<uint32_t>& first = best[x][static_cast<size_t>(phase)].second;
        std::vector<uint32_t> expected(first.begin(), first.end());  // channel ids of x: port order
        if (adaptivity == Adaptivity::kDeterministic && expected.size() > 1)
        expected.erase(expected.begin() + 1, expected.end());
        routing.allowed(x, in, d, got);
        if (got != expected)
          return fmt::format("{} at {} from {} toward {}: allowed {}, legal routes say {} (minimal length {})",
                             routing.name(), x, channel_text(ct, in), d, channels_text(ct, got),
                             channels_text(ct, expected), m == kNone ? -1 : m);
        if (m == kNone) continue;
        // Follow allowed() along every branch.
        std::optional<std::string> flaw;
        std::function<void(NodeId, uint32_t, bool, int)> follow = [&](NodeId u, uint32_t arrived, bool down, int len) {
          if (flaw) return;
          if (u == d) {
            if (len != m) flaw = fmt::format("a walk reaches {} in {} hops, not {}", d, len, m);
            return;
          }
          if (len >= m) {
            flaw = fmt::format("a walk has not reached {} after {} hops", d, len);
            return;
          }
          std::vector<uint32_t> next;
          routing.allowed(u, arrived, d, next);
          if (next.empty()) flaw = fmt::format("a walk is stuck at {}", u);
          for (uint32_t c : next) {
            if (ct.tail[c] != u) flaw = fmt::format("channel {} does not leave {}", channel_text(ct, c), u);
            if (down && up(u, ct.head[c])) flaw = fmt::format("an up hop {} after a down hop", channel_text(ct, c));
            if (flaw) return;
            follow(ct.head[c], c, down || !up(u, ct.head[c]), len + 1);
          }
        };
        follow(x, in, phase == 1, 0);
        if (flaw)
          return fmt::format("{} from {} at {} toward {}: {}", routing.name(), channel_text(ct, in), x, d, *flaw);
      }
    }
  }
  return std::nullopt;
}

// DELIBERATELY BROKEN: shortest-path routing that also offers one non-minimal channel (the last
// port that is not productive), a misroute.
class MisroutingShortestPath final : public WormholeRouting {
 public:
  MisroutingShortestPath(const Network& net, std::unique_ptr<WormholeRouting> inner)
      : ct_(net), inner_(std::move(inner)) {}
  std::string name() const override { return "misrouting " + inner_->name(); }
  void allowed(NodeId at, uint32_t in, NodeId dst, std::vector<uint32_t>& out) const override {
    inner_->allowed(at, in, dst, out);
    if (out.empty()) return;
    for (uint32_t c = ct_.first[at + 1]; c-- > ct_.first[at];)
      if (std::find(out.begin(), out.end(), c) == out.end()) {
        out.push_back(c);
        return;
      }
  }

 private:
  ChannelTable ct_;
  std::unique_ptr<WormholeRouting> inner_;
};

// ---------------------------------------------------------------------------------------------
// Names and errors

TEST(RoutingSpec, PrintsAndParsesTheFourWords) {
  for (const char* word : {"sp-deterministic", "sp-adaptive", "updown-deterministic", "updown-adaptive"}) {
    const auto spec = parse_routing_spec(word);
    ASSERT_TRUE(spec.has_value()) << word;
    EXPECT_EQ(to_string(*spec), word);
    EXPECT_EQ(spec->root, 0u);
  }
  EXPECT_EQ(parse_routing_spec("updown-adaptive")->family, RoutingFamily::kUpDown);
  EXPECT_EQ(parse_routing_spec("sp-deterministic")->adaptivity, Adaptivity::kDeterministic);
  for (const char* bad : {"", "sp", "updown", "SP-adaptive", "sp-adaptive ", "updown-adaptive(root 0)", "static"})
    EXPECT_FALSE(parse_routing_spec(bad).has_value()) << bad;
}

TEST(MakeRouting, NamesSayFamilyAdaptivityAndRoot) {
  const Network net = net_of(itm::cycle_graph(5), "C5");
  EXPECT_EQ(routing_of(net, kSpDeterministic)->name(), "sp-deterministic");
  EXPECT_EQ(routing_of(net, kSpAdaptive)->name(), "sp-adaptive");
  EXPECT_EQ(routing_of(net, updown(Adaptivity::kDeterministic, 3))->name(), "updown-deterministic(root 3)");
  EXPECT_EQ(routing_of(net, updown(Adaptivity::kAdaptive, 0))->name(), "updown-adaptive(root 0)");
}

TEST(MakeRouting, RejectsAnUpDownRootOutsideTheNetwork) {
  const Network net = net_of(itm::cycle_graph(5), "C5");
  for (NodeId root : {5u, 6u, 1000u}) {
    auto r = make_routing(net, updown(Adaptivity::kAdaptive, root));
    ASSERT_FALSE(r.ok()) << root;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    EXPECT_THAT(r.error().message, HasSubstr(fmt::format("root {}", root)));
    EXPECT_THAT(r.error().message, HasSubstr("C5"));
  }
  // Shortest-path routing has no root: it is ignored.
  EXPECT_TRUE(make_routing(net, RoutingSpec{RoutingFamily::kShortestPath, Adaptivity::kAdaptive, 99}).ok());
}

TEST(MakeRouting, RejectsUpDownRoutesTooLongForTheByteTable) {
  // Root 0 on C_400: the far node 200 has level 200, and the only legal route between its two
  // neighbours goes up to the root and down again, 398 hops. On C_200 the longest is 198.
  itm::Graph cycle = itm::cycle_graph(400);
  const Network net = net_of(cycle, "C_400");
  auto r = make_routing(net, updown(Adaptivity::kAdaptive, 0));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("longer than 254 hops"));
  EXPECT_TRUE(make_routing(net_of(itm::cycle_graph(200), "C_200"), updown(Adaptivity::kAdaptive, 0)).ok());
}

// ---------------------------------------------------------------------------------------------
// The header's example

TEST(WormholeRoutingExample, C4ShortestPathAndUpDownAsInTheHeader) {
  const Network net = net_of(itm::cycle_graph(4), "C4");
  const ChannelTable ct(net);
  auto ch = [&](NodeId u, NodeId v) { return ct.of(u, net.port_to(u, v)); };
  std::vector<uint32_t> out;
  routing_of(net, kSpAdaptive)->allowed(0, kInjection, 2, out);
  EXPECT_THAT(out, ElementsAre(ch(0, 1), ch(0, 3)));
  routing_of(net, kSpDeterministic)->allowed(0, kInjection, 2, out);
  EXPECT_THAT(out, ElementsAre(ch(0, 1)));

  const UpDownTree tree = updown_tree(net, 0);
  EXPECT_THAT(tree.level, ElementsAre(0, 1, 2, 1));
  EXPECT_THAT(tree.parent, ElementsAre(0u, 0u, 1u, 0u));
  EXPECT_TRUE(tree.up(1, 0));
  EXPECT_FALSE(tree.up(1, 2));  // 1 -> 2 is down
  EXPECT_TRUE(tree.up(2, 3));   // 2 -> 3 is up: 1 -> 2 -> 3 is down then up
  for (Adaptivity a : {Adaptivity::kDeterministic, Adaptivity::kAdaptive}) {
    const auto ud = routing_of(net, updown(a, 0));
    ud->allowed(1, kInjection, 3, out);
    EXPECT_THAT(out, ElementsAre(ch(1, 0))) << ud->name();
    ud->allowed(0, ch(1, 0), 3, out);  // up then down
    EXPECT_THAT(out, ElementsAre(ch(0, 3))) << ud->name();
    ud->allowed(2, ch(1, 2), 3, out);  // arrived down at 2: 2 -> 3 would be up; no legal route
    EXPECT_TRUE(out.empty()) << ud->name();
    ud->allowed(3, ch(0, 3), 3, out);
    EXPECT_TRUE(out.empty()) << ud->name();
  }
}

// ---------------------------------------------------------------------------------------------
// Shortest-path routing

TEST(ShortestPathRouting, AllowedSetsAreTheProductiveChannelsOfBfsDistances) {
  std::vector<Named> graphs = random_itms({3, 4, 5, 8, 13, 21, 34}, 3);
  for (Named& c : controls()) graphs.push_back(std::move(c));
  for (int n = 4; n <= 12; ++n) graphs.push_back({fmt::format("nonchordal({}, seed 5)", n), random_nonchordal(n, 5)});
  for (const auto& [name, g] : graphs) {
    const Network net = net_of(g, name);
    for (const RoutingSpec& spec : {kSpDeterministic, kSpAdaptive}) {
      const Violation v = check_shortest_path(g, net, *routing_of(net, spec), spec.adaptivity);
      EXPECT_FALSE(v.has_value()) << name << ": " << v.value_or("");
    }
  }
}

TEST(ShortestPathRouting, TheBruteForceRejectsAMisroutingRouting) {
  const itm::Graph g = itm_graph(8, itm::Rule::kExterior, 2);
  const Network net = net_of(g, "ITM");
  const MisroutingShortestPath broken(net, routing_of(net, kSpAdaptive));
  const Violation v = check_shortest_path(g, net, broken, Adaptivity::kAdaptive);
  ASSERT_TRUE(v.has_value());
  EXPECT_THAT(*v, HasSubstr("misrouting sp-adaptive"));
}

// ---------------------------------------------------------------------------------------------
// up*/down*

TEST(UpDownRouting, AllowedIsExactlyTheFirstHopsOfMinimalLegalRoutesFromEveryState) {
  int checked = 0;
  for (const auto& [name, g] : small_graphs()) {
    const Network net = net_of(g, name);
    for (NodeId root = 0; root < net.num_nodes(); ++root)
      for (Adaptivity a : {Adaptivity::kDeterministic, Adaptivity::kAdaptive}) {
        const Violation v = check_updown(net, root, *routing_of(net, updown(a, root)), a);
        EXPECT_FALSE(v.has_value()) << name << ", root " << root << ": " << v.value_or("");
        ++checked;
      }
  }
  EXPECT_GT(checked, 500);
}

TEST(UpDownRouting, TreeLevelsAreDistancesFromTheRootAndParentsAreOneLevelUp) {
  for (const auto& [name, g] : small_graphs()) {
    const Network net = net_of(g, name);
    for (NodeId root = 0; root < net.num_nodes(); ++root) {
      const UpDownTree tree = updown_tree(net, root);
      EXPECT_EQ(tree.root, root);
      EXPECT_EQ(tree.parent[root], root);
      for (NodeId v = 0; v < net.num_nodes(); ++v) {
        EXPECT_EQ(tree.level[v], net.distance(root, v)) << name;
        if (v == root) continue;
        EXPECT_GE(net.port_to(v, tree.parent[v]), 0) << name;
        EXPECT_EQ(tree.level[tree.parent[v]], tree.level[v] - 1) << name;
        EXPECT_TRUE(tree.up(v, tree.parent[v]));
      }
    }
  }
}

TEST(UpDownRouting, TheBruteForceRejectsAPhaseBlindUpDown) {
  const Network net = net_of(itm::cycle_graph(4), "C4");
  const PhaseBlindUpDown broken(routing_of(net, updown(Adaptivity::kAdaptive, 0)));
  const Violation v = check_updown(net, 0, broken, Adaptivity::kAdaptive);
  ASSERT_TRUE(v.has_value());
  EXPECT_THAT(*v, HasSubstr("phase-blind updown-adaptive(root 0)"));
}

TEST(UpDownRouting, ScalesToALargeRandomItm) {
  const Network net = net_of(itm_graph(300, itm::Rule::kExterior, 1), "ITM(exterior, 300, seed 1)");
  const auto r = routing_of(net, updown(Adaptivity::kAdaptive, 17));
  std::vector<uint32_t> out;
  const ChannelTable ct(net);
  // Follow the first allowed channel from 5 to 290: it arrives, in at least d(5, 290) hops.
  NodeId at = 5;
  uint32_t in = kInjection;
  int hops = 0;
  while (at != 290) {
    r->allowed(at, in, 290, out);
    ASSERT_FALSE(out.empty());
    in = out.front();
    at = ct.head[in];
    ASSERT_LT(++hops, 300);
  }
  EXPECT_GE(hops, net.distance(5, 290));
}

}  // namespace
}  // namespace topocheck::routing
