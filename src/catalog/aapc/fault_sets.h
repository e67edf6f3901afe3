// The method kit of the Section 2 claims (catalog/aapc/property_claims.cc): a reading is a
// SetCheckFn, judged fault set by fault set with the primitives of aapc/partition.h, swept
// exhaustively, sampled at random, and replayed from a stored case. Family-local: only
// catalog/aapc/ includes it.
//
// Exhaustive sweeps: n = 1, 2, ... (fewest dimensions first), f = 1, 2, ... within the claim's
// range (f <= floor(n/2) for Properties 1 and 3 and the A_f precondition, f <= n for Property 2;
// f = 0 is left out: every property is vacuous or trivial for it), every fault set of size f in
// lexicographic order. The first violation is therefore the smallest by (n, f, fault set); for
// readings about EVERY D (or d) it names the first D (or d) in ascending mask order. Sweeps honour
// --shard (the sequence is cut into contiguous ranges; the combinations are unranked).
// Random: std::mt19937_64 seeded with ctx.seed, n above the exhaustive range up to
// aapc_scope::kPropertyRandomMaxN, half the cases with the faults crowded into a small subcube;
// a find is shrunk by dropping faults and replaced by the exhaustive sweep's first counterexample
// below its n if there is one.
// Stored cases: params {"n": 4}, input {"faults": "6,9"} (+ "D": "0,2", "d": "1" where the
// reading is about every D or d); errors name the field.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "aapc/aapc.h"
#include "aapc/partition.h"
#include "catalog/aapc/scope.h"
#include "claims/claim.h"

namespace topocheck::claims::aapc_parts {

// Every dimension of Q_n.
inline aapc::DimSet all_dims(int n) { return (aapc::DimSet{1} << n) - 1; }
// The D with |D| = k inside 0..n-1, ascending masks; cached (the sweeps ask for them per set).
const std::vector<aapc::DimSet>& dims_of_size(int n, int k);
// "6,9".
std::string faults_text(const aapc::FaultSet& faults);

// ---- One fault set under one reading --------------------------------------------------------

// What a stored case may fix: the D (and d) a reading about EVERY D (d) was refuted at.
struct Hints {
  std::optional<aapc::DimSet> dims;
  std::optional<int> d;
};

struct SetCheck {
  Violation violation;
  nlohmann::json input_extra = nlohmann::json::object();  // {"D": "0,2"} / {"d": "1"}: where the violation is
  nlohmann::json witness = nlohmann::json::object();
  // False when the reading's premise does not apply to the fault set (e.g. no D and d satisfy the
  // "if" of the statement): the set is counted as checked but not as applicable
  // (MethodResult::applicable), so a reading no fault set applies to is vacuous, not holds.
  bool applicable = true;
};
// `want_witness` false in the sweeps: the witness is only built for a violation (the sweep asks
// again) and for stored cases.
using SetCheckFn = std::function<SetCheck(const aapc::FaultSet&, const Hints&, bool want_witness)>;

enum class FRange { kHalf, kFull };  // 1 <= f <= floor(n/2), 1 <= f <= n
int max_f(FRange range, int n);
std::string range_text(FRange range);

// The D a reading about EVERY D looks at: the stored one, or all of size k.
std::vector<aapc::DimSet> dims_to_try(const Hints& hints, int n, int k);

// ---- Enumeration ------------------------------------------------------------------------------

// The k-subset of {0..size-1} of lexicographic rank `rank`.
std::vector<aapc::NodeId> unrank_subset(uint64_t size, int k, uint64_t rank);
// The next k-subset in lexicographic order; false after the last.
bool next_subset(std::vector<aapc::NodeId>& c, uint64_t size);

// ---- Stored cases -----------------------------------------------------------------------------

// params.n, an integer in 1..aapc::kMaxN.
Result<int> parse_n(const nlohmann::json& params);
// parse_faults's messages name the CLI flag; a stored case names its field instead.
std::string without_flag(std::string message);

// Which of input.D and input.d a reading's stored cases may carry, and the sizes a D may have.
struct DimRule {
  bool uses_dims = false;
  bool uses_d = false;
  std::function<bool(int n, int f, aapc::DimSet dims)> dims_ok;  // the sizes a stored D may have
  std::string dims_rule;                                        // in words, for the error
};
DimRule no_dims();    // neither
DimRule dims_of_f();  // input.D, a set of f dimensions

// ---- Readings ---------------------------------------------------------------------------------

// A reading judged fault set by fault set: exhaustive up to exhaustive_max_n, random above it,
// stored cases replayed through `check`.
struct SetReading {
  std::string name;
  std::string description;
  FRange range = FRange::kHalf;
  PerBudget<int> exhaustive_max_n = aapc_scope::kPropertyExhaustiveMaxN;
  DimRule rule;
  SetCheckFn check;
};
Reading make_reading(SetReading spec);

}  // namespace topocheck::claims::aapc_parts
