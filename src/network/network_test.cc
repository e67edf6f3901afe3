#include "network/network.h"

#include <bit>
#include <vector>

#include <gtest/gtest.h>

#include "hypercube/hypercube.h"

namespace topocheck::routing {
namespace {

TEST(RoutingNetwork, HypercubePortsAreDimensionsAndDistancesAreHamming) {
  auto net = Network::hypercube(4);
  ASSERT_TRUE(net.ok());
  EXPECT_EQ(net->name(), "Q_4");
  EXPECT_EQ(net->num_nodes(), 16u);
  EXPECT_EQ(net->diameter(), 4);
  EXPECT_EQ(net->num_links(LinkKind::kBidirectional), 32u);
  EXPECT_EQ(net->num_links(LinkKind::kUnidirectional), 64u);
  for (NodeId u = 0; u < 16; ++u) {
    for (int p = 0; p < 4; ++p) {
      EXPECT_EQ(net->neighbor(u, p), u ^ (1u << p));
      const NodeId v = net->neighbor(u, p);
      // One undirected link seen from both ends; two distinct directed links.
      EXPECT_EQ(net->link(u, p, LinkKind::kBidirectional), net->link(v, p, LinkKind::kBidirectional));
      EXPECT_NE(net->link(u, p, LinkKind::kUnidirectional), net->link(v, p, LinkKind::kUnidirectional));
    }
    for (NodeId v = 0; v < 16; ++v) EXPECT_EQ(net->distance(u, v), std::popcount(u ^ v));
  }
}

TEST(RoutingNetwork, StaticIsEcubeAndDynamicTriesDifferingDimensionsAscending) {
  auto net = Network::hypercube(5);
  ASSERT_TRUE(net.ok());
  std::vector<int> ports;
  for (NodeId c = 0; c < 32; ++c)
    for (NodeId d = 0; d < 32; ++d) {
      net->candidates(c, d, Routing::kStatic, ports);
      if (c == d) {
        EXPECT_TRUE(ports.empty());
        continue;
      }
      ASSERT_EQ(ports.size(), 1u);
      EXPECT_EQ(ports[0], std::countr_zero(c ^ d));  // the rightmost differing bit
      net->candidates(c, d, Routing::kDynamic, ports);
      std::vector<int> expected;
      for (int i = 0; i < 5; ++i)
        if ((c ^ d) >> i & 1) expected.push_back(i);
      EXPECT_EQ(ports, expected);
    }
}

TEST(RoutingNetwork, RejectsSizesOutsideTheLimits) {
  EXPECT_FALSE(Network::hypercube(0).ok());
  EXPECT_FALSE(Network::hypercube(13).ok());
  EXPECT_TRUE(Network::hypercube(1).ok());
}

TEST(RoutingNetwork, ParsesItsWords) {
  EXPECT_EQ(parse_routing("static"), Routing::kStatic);
  EXPECT_EQ(parse_routing("dynamic"), Routing::kDynamic);
  EXPECT_FALSE(parse_routing("ecube").has_value());
  EXPECT_EQ(parse_link_kind("bi"), LinkKind::kBidirectional);
  EXPECT_EQ(parse_link_kind("unidirectional"), LinkKind::kUnidirectional);
  EXPECT_FALSE(parse_link_kind("duplex").has_value());
}

}  // namespace
}  // namespace topocheck::routing
