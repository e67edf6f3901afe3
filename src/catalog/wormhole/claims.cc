// Wormhole switching on ITMs (issue 8; papers/002): the paper's motivation tied to behaviour, by
// the flit-level simulator (wormhole/wormhole.h) and its deadlock detector. The claims, by paper
// section: Theorem 2 in thm2_claims.cc, the recursive broadcast in broadcast_claims.cc, the
// abstract's throughput comparison (and why it ties) in abstract_claims.cc.
#include "catalog/catalog.h"
#include "catalog/wormhole/parts.h"

namespace topocheck::claims {

void register_wormhole_claims(Registry& registry) {
  using namespace wormhole_parts;
  add_deadlock_claim(registry);
  add_control_claim(registry);
  add_broadcast_claim(registry);
  add_throughput_claim(registry);
  add_updown_claim(registry);
}

}  // namespace topocheck::claims
