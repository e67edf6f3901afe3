// The bridge from `verify` and `merge` to the independent certificate checker (certify/ at the
// repository root, Python with NetworkX, sharing no code with the suite). Before the run, every
// case the ledger names for an expected refutation of the selected readings is handed to the
// checker in one call; the runner then refuses to call a reading refuted whose case the checker
// does not certify (claims::CertifyFn).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "claims/ledger.h"
#include "claims/runner.h"
#include "core/status.h"

namespace topocheck::cli {

// certify/certify.py: $TOPOCHECK_CERTIFY if set, else the source tree's.
std::filesystem::path certifier_script();

// Runs the checker once on the given cases (paths relative to corpus_dir) and returns the
// certifying function. An error (exit 2 for the caller) when the checker cannot run or answers
// in a shape it should not: naming the script and what went wrong.
Result<claims::CertifyFn> run_certifier(const std::filesystem::path& corpus_dir,
                                        const std::vector<std::string>& cases);

// The cases the ledger names for the readings expected refuted at this budget; `selected(claim,
// reading)` says whether the run covers that reading.
std::vector<std::string> cases_to_certify(
    const claims::Ledger& ledger, claims::Budget budget,
    const std::function<bool(const std::string& claim, const std::string& reading)>& selected);

}  // namespace topocheck::cli
