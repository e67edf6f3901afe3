// Reports of a verify run: a table for people, JSON and JUnit XML for machines.
//
// JSON (`verify --json FILE`):
//   {"budget": "standard", "seed": 1, "jobs": 2,
//    "claims": [{"id", "reading", "methods": [{"method", "verdict", "scope", "cases", "detail"}],
//                "verdict", "scope", "cases", "detail", "expected", "matches", "mismatch",
//                "corpus_case", "counterexample", "seed", "seconds"}, ...],
//    "summary": {"total", "matching", "differing", "holds", "refuted", "inconclusive", "error"}}
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "claims/runner.h"

namespace topocheck::claims {

std::string render_table(const std::vector<ReadingVerdict>& verdicts, bool color);
nlohmann::json verdicts_to_json(const std::vector<ReadingVerdict>& verdicts, Budget budget,
                                uint64_t seed, int jobs);
std::string verdicts_to_junit(const std::vector<ReadingVerdict>& verdicts, Budget budget);
nlohmann::json counterexample_to_json(const Counterexample& cx);

}  // namespace topocheck::claims
