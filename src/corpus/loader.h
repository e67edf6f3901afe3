// The one loader of corpus cases every command uses: a case is judged whole on load, and a bad
// file is an error naming it ("FILE[:LINE]: error: ..."), never skipped.
//
// A case loads when, beyond the format of corpus.h (fields and their JSON types):
//  - its claim and reading are in the registry;
//  - it lives in its claim's folder: a counterexample in <family>/<claim minus family>/ (where
//    counterexample_path stores it), an example in <family>/examples/ (judged on the file's own
//    path, so a case given outside the corpus folder is judged the same way; the file name is
//    free);
//  - the claim's own checker accepts its input: a counterexample's params and input are re-run by
//    Reading::check_case (types, node widths and ranges are the claim's parsers' to check), an
//    example's by Reading::compute_example;
//  - a counterexample's stored witness agrees with the one the checker recomputes from its input:
//    every top-level field both have is equal (JSON equality; the error names the first differing
//    field). Some checkers recompute only part of the witness the finding method stored (say,
//    counts without the name of the bound), and some stored witnesses lack fields the checker
//    gives now (the migration cases predate "sequence_policy"); fields on one side only, and so an
//    emptied witness, are judged only by the certificate checker (certify/), which verify runs on
//    the ledger's cases. The checkers are deterministic (random seeds are stored in params), so a
//    difference is a tampered or stale witness. A case on which the checker no longer finds a violation loads: it is a difference
//    that `replay` and `verify` report (exit 1), not a malformed file.
// A set of cases loads when no two have the same claim, reading, params and input (the error
// names both files).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "claims/claim.h"
#include "core/status.h"
#include "corpus/corpus.h"

namespace topocheck::corpus {

// Judges one parsed case (see above; duplicates aside). nullopt: it loads.
std::optional<Error> check_case(const Case& c, const claims::Registry& registry);

// Two cases of `cases` with the same claim, reading, params and input; nullopt when none.
std::optional<Error> find_duplicates(const std::vector<Case>& cases);

// One case file, parsed and judged.
Result<Case> load_checked_case(const std::filesystem::path& file, const claims::Registry& registry);

// The claims a command uses. A case of an empirical claim (Claim::empirical: its checker re-runs
// a simulation study, seconds per case) is re-judged by check_case only when its claim is used;
// every other case always is, and every case is parsed, placed and checked for duplicates.
using JudgeFilter = std::function<bool(const Case&)>;
inline bool judge_every_case(const Case&) { return true; }

// Every case under `root` (every *.json except ledger.json, sorted by path), parsed, placed
// (known claim and reading, its claim's folder), checked for duplicates, and judged whole by
// check_case (for an empirical claim: where `uses` selects it); the first bad file is the error.
Result<std::vector<Case>> load_corpus(const std::filesystem::path& root, const claims::Registry& registry,
                                      const JudgeFilter& uses = judge_every_case);

}  // namespace topocheck::corpus
