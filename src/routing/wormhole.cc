#include "routing/wormhole.h"

namespace topocheck::routing {

ChannelTable::ChannelTable(const Network& net) {
  const NodeId n = net.num_nodes();
  first.assign(n + 1, 0);
  for (NodeId u = 0; u < n; ++u) {
    first[u] = static_cast<uint32_t>(tail.size());
    for (int p = 0; p < net.degree(u); ++p) {
      TC_CHECK(net.link(u, p, LinkKind::kUnidirectional) == tail.size(), "ChannelTable: link ids are not by port");
      tail.push_back(u);
      head.push_back(net.neighbor(u, p));
    }
  }
  first[n] = static_cast<uint32_t>(tail.size());
}

}  // namespace topocheck::routing
