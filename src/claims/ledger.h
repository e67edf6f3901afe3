// The ledger (corpus/ledger.json): the expected verdict of every claim and reading, the contract
// CI gates on. Format version 1:
//   {"format": 1,
//    "expectations": [
//      {"claim": "hypercube.alg2.disjoint", "reading": "literal", "verdict": "holds",
//       "budgets": {"deep": "inconclusive"},          // optional per-budget override
//       "case": "hypercube/.../x.json",               // refuted only: the stored counterexample
//       "cases": {"quick": "hypercube/.../y.json"},   // optional per-budget witness (a smaller
//                                                     // budget may find another first one)
//       "reason": "why this is the expectation"}, ...]}
// Every entry needs a reason: changing an expectation is a reviewed change.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "claims/claim.h"
#include "core/status.h"

namespace topocheck::claims {

struct Expectation {
  std::string claim;
  std::string reading;
  Outcome verdict = Outcome::kHolds;
  std::map<Budget, Outcome> per_budget;
  std::string corpus_case;  // relative to the corpus folder; refuted only
  std::map<Budget, std::string> case_per_budget;  // "cases": overrides corpus_case per budget
  std::string reason;
  int line = 0;  // the line of the entry in the ledger file (0: unknown)

  Outcome at(Budget b) const {
    auto it = per_budget.find(b);
    return it == per_budget.end() ? verdict : it->second;
  }
  // The stored counterexample that witnesses the refutation at budget b ("" if none is named).
  const std::string& case_at(Budget b) const {
    auto it = case_per_budget.find(b);
    return it == case_per_budget.end() ? corpus_case : it->second;
  }
};

struct Ledger {
  std::vector<Expectation> expectations;
  const Expectation* find(const std::string& claim, const std::string& reading) const;
};

// Validates every entry (fields, known verdicts and budgets, duplicates); errors name the file
// and, where it can be found, the line of the offending entry.
Result<Ledger> load_ledger(const std::filesystem::path& file);

// load_ledger, then every reference checked against the registry and the corpus folder (the
// ledger file's folder): each entry names a claim and a reading the registry has, and each case it
// names ("case", "cases") is a path inside the corpus folder to a readable counterexample case of
// that claim and reading. Errors are "LEDGER:LINE: error: ..." with the line of the entry (a case
// file that is not a valid case is reported by its own name). Every command that reads the ledger
// uses this one.
Result<Ledger> load_ledger(const std::filesystem::path& file, const Registry& registry);

// Entries naming claims or readings the registry does not have (stale expectations), in words.
std::vector<std::string> stale_expectations(const Ledger& ledger, const Registry& registry);

}  // namespace topocheck::claims
