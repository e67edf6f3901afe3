// Running claims: verify (every selected claim reading, all its methods, compared with the
// ledger), replay (every corpus case), and the glob selection both use.
//
// Verdict of a reading: refuted if any method refuted it (the first, in method order);
// otherwise error if any method erred; otherwise inconclusive if any method was inconclusive;
// otherwise holds. Inconclusive is never reported as holds.
// A refuted verdict matches the ledger only if its counterexample is stored in the corpus (a new
// counterexample is a difference: store it with `topocheck search CLAIM --save`).
// Seeds: each reading gets seed = mix(base seed, claim id, reading), so verdicts do not depend on
// which claims run or in what order, and --jobs changes nothing but the time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "claims/claim.h"
#include "claims/ledger.h"
#include "corpus/corpus.h"

namespace topocheck::claims {

// Claim ids matching any of the globs ('*' and '?' as in the shell; no globs: every claim).
// A glob that matches nothing is an error naming it.
Result<std::vector<const Claim*>> select_claims(const Registry& registry,
                                                const std::vector<std::string>& globs);

uint64_t derive_seed(uint64_t base, const std::string& claim, const std::string& reading);

struct ReadingVerdict {
  std::string claim;
  std::string reading;
  Outcome outcome = Outcome::kError;
  std::vector<MethodResult> methods;
  std::string scope;   // the methods' scopes joined
  uint64_t cases = 0;
  std::string detail;  // violation / reason
  std::optional<Counterexample> counterexample;
  std::string corpus_case;  // stored case with the same input, relative to the corpus folder
  std::optional<Outcome> expected;
  bool matches = false;
  std::string mismatch;  // why it does not match, in words
  uint64_t seed = 0;
  double seconds = 0;
};

struct VerifyOptions {
  Budget budget = Budget::kStandard;
  uint64_t seed = 1;
  int jobs = 1;
  std::filesystem::path corpus_dir;
  Progress* progress = nullptr;
};

// Runs every reading of every claim in `claims`, in parallel over readings with `jobs` threads.
std::vector<ReadingVerdict> verify(const std::vector<const Claim*>& claims, const Ledger& ledger,
                                   const std::vector<corpus::Case>& corpus,
                                   const VerifyOptions& options);

// Runs one reading (all its methods) without comparing to the ledger.
ReadingVerdict run_reading(const Claim& claim, const Reading& reading, const RunContext& ctx);

// Turns a counterexample into a corpus case (kind counterexample).
corpus::Case to_case(const std::string& claim, const std::string& reading,
                     const Counterexample& cx, Method method, uint64_t seed, Budget budget);

struct ReplayResult {
  std::string file;
  std::string claim, reading;
  bool ok = false;
  std::string message;  // what was checked, or what went wrong
};

// Replays one case: an example is recomputed and diffed cell by cell (diffs must be exactly its
// errata); a counterexample is re-checked and must still fail. Errors (unknown claim, bad
// input) are returned as errors naming the file.
Result<ReplayResult> replay_case(const Registry& registry, const corpus::Case& c);

// Computes a paper example and its cell diffs against the printed output.
struct ExampleReport {
  std::vector<corpus::CellDiff> diffs;
  std::vector<std::string> problems;  // unexplained diffs and stale errata
};
Result<ExampleReport> check_example(const Registry& registry, const corpus::Case& c);

}  // namespace topocheck::claims
