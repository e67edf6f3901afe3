// The AAPC claims (paper 004, all-to-all personalized communication in faulty hypercubes): the
// Section 3 schedules A_1, A_2, A_f judged by the naive schedule checker (aapc/aapc.h), their
// time-unit counts as algebra, the Q_3 example and Example 2, the stated optimum against lower
// bounds; then Section 2's Properties 1-3, the A_f precondition and Example 1, judged fault set by
// fault set. Each part is in its own file (catalog/aapc/parts.h names them).
#include "catalog/aapc/parts.h"
#include "catalog/catalog.h"

namespace topocheck::claims {

void register_aapc_claims(Registry& registry) {
  using namespace aapc_parts;
  add_count_claims(registry);
  add_schedule_claims(registry);
  add_example_claims(registry);
  add_optimum_claims(registry);
  add_property1_claims(registry);
  add_property2_claims(registry);
  add_property3_claims(registry);
  add_af_precondition_claims(registry);
  add_example1_claims(registry);
}

}  // namespace topocheck::claims
