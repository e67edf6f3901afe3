// Reports of a verify run: a table for people, JSON and JUnit XML for machines.
//
// JSON (`verify --json FILE`):
//   {"budget": "standard", "seed": 1, "jobs": 2, "shard": null | "2/64", "merged_shards": N (merge only),
//    "date": "2026-11-29T16:40:00Z" (UTC, when the run started; merge: the earliest shard's; written
//    by the verify and merge commands; when read, optional, a string if present),
//    "claims": [{"id", "reading", "methods": [{"method", "verdict", "scope", "cases", "applicable",
//                                              "beyond_premise", "detail", "seconds", "shard",
//                                              "skipped", "counterexample"}],
//                "verdict" (holds, refuted, vacuous, inconclusive, error), "shown_as" (reproduced /
//                not reproduced for empirical findings), "scope", "cases", "applicable" (inputs on
//                which the premise applied), "beyond_premise" (where the conclusion also held
//                without its premise; "" none), "detail", "expected", "matches", "mismatch",
//                "corpus_case", "counterexample", "seed", "seconds", "faithful" (Reading::faithful),
//                "beyond_paper" (Claim::beyond_paper)}, ...],
//    "summary": {"total", "matching", "differing", "holds", "refuted", "vacuous", "inconclusive", "error"},
//    "refuted_claims": [{"claim", "kind", "refuted", "holds", "other"}] (summarize_claims)}
// A method's "shard" is the slice it swept ("2/64, pairs [a, b) of T"; "" when it ran whole);
// "skipped" marks a method that does not run in this shard. `merge` reads shard reports back.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "claims/runner.h"

namespace topocheck::claims {

// A claim with a refuted reading of the text (Reading::faithful), classified: "error of the paper"
// (every faithful reading refuted), "ambiguous" (some faithful reading holds: the text is true
// under it), "undecided" (the others are vacuous or inconclusive), "not reproduced" (an empirical
// claim refuted under every faithful reading), "beyond the paper" (Claim::beyond_paper). In verdict order; claims without a refuted faithful reading are left out.
struct ClaimSummary {
  std::string claim;
  std::string kind;
  std::vector<std::string> refuted, holding;  // faithful readings
  std::vector<std::string> other;             // "reading (verdict[, not a reading of the text])"
};
std::vector<ClaimSummary> summarize_claims(const std::vector<ReadingVerdict>& verdicts);
std::string render_claim_summaries(const std::vector<ReadingVerdict>& verdicts);

std::string render_table(const std::vector<ReadingVerdict>& verdicts, bool color);
// One reading's verdict as one line, for the stream verify prints while it runs ("[12/275]"
// counts finished readings): verdict, claim [reading], seconds, and "as in the ledger" or
// "DIFFERS: why".
std::string render_verdict_line(const ReadingVerdict& v, size_t done, size_t total, bool color);
nlohmann::json verdicts_to_json(const std::vector<ReadingVerdict>& verdicts, Budget budget,
                                uint64_t seed, int jobs, std::optional<Shard> shard = std::nullopt,
                                int merged_shards = 0);
// Reads a `verify --shard i/N --json FILE` report back (untrusted: every field is checked;
// errors name the field, with `file`). The schema is the JSON above: every field of a claim
// reading and of its methods is required with its type ("faithful" and "beyond_paper", and a
// method's "applicable" and "beyond_premise", may be absent from older reports); each verdict
// and "expected" is one of the outcomes; a refuted reading or method carries its counterexample.
// An error names the file and the claim reading.
Result<ShardReport> shard_report_from_json(const nlohmann::json& j, const std::string& file);
std::string verdicts_to_junit(const std::vector<ReadingVerdict>& verdicts, Budget budget);
nlohmann::json counterexample_to_json(const Counterexample& cx);

}  // namespace topocheck::claims
