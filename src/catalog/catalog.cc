#include "catalog/catalog.h"

namespace topocheck::claims {

void register_catalog(Registry& registry) {
  register_hypercube_claims(registry);
  register_metacube_claims(registry);
  register_itm_claims(registry);
  register_migration_claims(registry);
  register_aapc_claims(registry);
  register_routing_claims(registry);
  register_wormhole_claims(registry);
}

}  // namespace topocheck::claims
