// The migration claims (Chen and Tzeng, "On-Line Task Migration in Hypercubes Through Double
// Disjoint Paths", paper 000): the Fig. 2 example, the isomorphisms, Lemmas 1-6 over every path of
// each kind, Theorems 1 and 2 over every input of the procedure, the conclusion's promise (absence
// reported only when no path exists), HAMMING-PATH on any pair, Section 4.2's counting and
// Section 5's length premise and latency model, checked by the naive checkers of
// migration/migration_checks.h. Each part is in its own file (catalog/migration/parts.h names
// them).
#include "catalog/catalog.h"
#include "catalog/migration/parts.h"

namespace topocheck::claims {

void register_migration_claims(Registry& registry) {
  using namespace migration_parts;
  add_example_claims(registry);
  add_isomorphism_claims(registry);
  add_lemma_claims(registry);
  add_theorem_claims(registry);
  add_conclusion_claims(registry);
  add_hamming_claims(registry);
  add_counting_claims(registry);
  add_latency_claims(registry);
}

}  // namespace topocheck::claims
