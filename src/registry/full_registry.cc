#include "registry/full_registry.h"

#include "catalog/catalog.h"
#include "smt/aapc_smt.h"
#include "smt/aapc_smt_claims.h"
#include "smt/hypercube_smt.h"
#include "smt/itm_smt.h"
#include "smt/metacube_smt.h"
#include "smt/migration_smt.h"

namespace topocheck {

claims::Registry full_registry() {
  claims::Registry registry;
  claims::register_catalog(registry);
  smt::attach_hypercube_smt(registry);
  smt::attach_metacube_smt(registry);
  smt::attach_itm_smt(registry);
  smt::attach_migration_smt(registry);
  smt::attach_aapc_smt(registry);
  smt::attach_aapc_claims_smt(registry);
  return registry;
}

}  // namespace topocheck
