// The Metacube claims (Li, Peng, Chu, "Disjoint Paths in Metacube": Section 2 examples and
// Theorem 1; Section 3 Algorithm 4, Examples 2-5, Theorem 2 and its corollary). Every method
// judges with metacube/metacube_checks.h, which calls core's naive checkers. Each part is in its
// own file (catalog/metacube/parts.h names them).
#include "catalog/catalog.h"
#include "catalog/metacube/parts.h"

namespace topocheck::claims {

void register_metacube_claims(Registry& registry) {
  using namespace metacube_parts;
  add_example_claims(registry);
  add_thm1_claims(registry);
  add_alg1_claims(registry);
  add_thm2_claims(registry);
  add_thm2_proof_claims(registry);
  add_symmetry_claims(registry);
  add_connectivity_claims(registry);
  add_optimality_claims(registry);
}

}  // namespace topocheck::claims
