// Running claims: verify (every selected claim reading, all its methods, compared with the
// ledger), replay (every corpus case), and the glob selection both use.
//
// Verdict of a reading: refuted if any method refuted it (the first, in method order);
// otherwise error if any method erred; otherwise inconclusive if any method was inconclusive;
// otherwise holds. Inconclusive is never reported as holds.
// A refuted verdict matches the ledger only if its counterexample has the input of the case the
// ledger entry names (`case`); a new counterexample is a difference (store it with
// `topocheck search CLAIM --save` and name it in the ledger).
// Methods get what they need through their RunContext (the ledger, stored cases by name): the
// runner opens the files, no method does.
// Seeds: each reading gets seed = mix(base seed, claim id, reading), so verdicts do not depend on
// which claims run or in what order, and --jobs changes nothing but the time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
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
  bool empirical = false;  // Claim::empirical: shown as reproduced / not reproduced
  bool faithful = true;       // Reading::faithful
  bool beyond_paper = false;  // Claim::beyond_paper
  Outcome outcome = Outcome::kError;
  std::vector<MethodResult> methods;
  std::string scope;   // the methods' scopes joined
  uint64_t cases = 0;
  uint64_t applicable = 0;     // the methods' applicable inputs (MethodResult::applicable) added
  std::string beyond_premise;  // the methods' beyond_premise notes joined; empty: none
  std::string detail;  // violation / reason
  std::optional<Counterexample> counterexample;
  std::string corpus_case;  // stored case with the same input, relative to the corpus folder
  std::optional<Outcome> expected;
  bool matches = false;
  std::string mismatch;  // why it does not match, in words
  uint64_t seed = 0;
  double seconds = 0;
};

// The independent certificate checker (certify/ at the repository root) on a stored case, by its
// path relative to the corpus folder: nullopt when it certifies that the case's witness shows the
// violation its claim and reading name, otherwise why not. verify refuses to call a reading
// refuted when the case the ledger names fails certification.
using CertifyFn = std::function<std::optional<std::string>(const std::string& case_relative_path)>;

struct VerifyOptions {
  Budget budget = Budget::kStandard;
  uint64_t seed = 1;
  int jobs = 1;
  std::filesystem::path corpus_dir;
  Progress* progress = nullptr;
  std::optional<Shard> shard;  // --shard i/N (see Shard in claim.h)
  // --reading: only the readings whose name matches one of these globs (fnmatch); empty: all.
  std::vector<std::string> readings;
  // Called once per reading as soon as it has finished and been compared with the ledger, from
  // the worker thread that ran it, one call at a time (the runner serialises them).
  std::function<void(const ReadingVerdict&)> on_verdict;
  // Certifies the ledger case of each refutation (see CertifyFn); unset: no certification.
  CertifyFn certify;
};

// Whether reading `name` is selected by the --reading globs (all readings when there are none).
bool reading_selected(const std::vector<std::string>& globs, const std::string& name);

// Runs every reading of every claim in `claims`, in parallel over readings with `jobs` threads,
// and compares each verdict with the ledger as it finishes (compare_with_ledger; one shard of
// several is compared as one shard). The verdicts come back in claim and reading order.
std::vector<ReadingVerdict> verify(const std::vector<const Claim*>& claims, const Ledger& ledger,
                                   const VerifyOptions& options);

// Lets a context's methods read the corpus under `corpus_dir` (RunContext::load_case, ::examples)
// and see `ledger` (may be null).
void attach_corpus(RunContext& ctx, const std::filesystem::path& corpus_dir, const Ledger* ledger);

// The context verify hands one reading's methods: its seed, the ledger, the corpus's cases by name.
RunContext context_for(const Claim& claim, const Reading& reading, const Ledger* ledger,
                       const VerifyOptions& options);

// `topocheck search`: runs a reading's methods (not its examples) with the verify context, then
// its random methods again with fresh seeds (derive_seed of the last) until `seconds` are spent
// or a counterexample is found. The time limit holds within a round too: the methods' progress
// reports (RunContext::report) end a method once `seconds` have passed, which ends the search
// (`stopped`), that method's cases uncounted. `known`: the counterexample is already stored, at the path
// corpus::counterexample_path gives its input (the same input always lands in the same file).
struct SearchOptions {
  VerifyOptions run;     // budget, first seed, progress, corpus folder
  double seconds = 10;
};
struct SearchOutcome {
  std::optional<corpus::Case> found;  // the counterexample as a corpus case
  bool known = false;
  uint64_t cases = 0;                 // inputs tried
  int rounds = 0;
  bool stopped = false;               // the time limit interrupted a method
  std::optional<MethodResult> error;  // a method that erred (the search stops there)
};
SearchOutcome search(const Claim& claim, const Reading& reading, const Ledger& ledger, const SearchOptions& options);

// Sets expected / matches / mismatch / corpus_case of every verdict. A verdict matches when it
// equals the ledger's expectation at `budget` and, if refuted, its counterexample has the input
// of the case the entry names (loaded from `corpus_dir`; an entry without one, or a case that
// cannot be read, is a mismatch saying so). `one_shard` (one shard of several): a slice cannot
// decide a refutation, so an expected refutation matches both holds (no counterexample in this
// slice) and refuted (whose counterexample need not be the first of the sweep); `merge` compares
// the whole.
void compare_with_ledger(std::vector<ReadingVerdict>& verdicts, const Ledger& ledger, Budget budget,
                         const std::filesystem::path& corpus_dir, bool one_shard = false,
                         const CertifyFn& certify = nullptr);
void compare_with_ledger(ReadingVerdict& verdict, const Ledger& ledger, Budget budget,
                         const std::filesystem::path& corpus_dir, bool one_shard = false,
                         const CertifyFn& certify = nullptr);

// Runs one reading (all its methods) without comparing to the ledger. With ctx.shard, a method
// other than exhaustive runs only in the shard RunContext::unsplit_shard names for it (its unit is
// ctx.unit plus its place among the reading's methods; skipped_in_shard elsewhere).
ReadingVerdict run_reading(const Claim& claim, const Reading& reading, const RunContext& ctx);

// Sets a verdict's outcome, detail, counterexample, scope and cases from its methods: refuted if
// a method refuted (the first, in method order), else error, else inconclusive, else holds;
// holds with no applicable input (MethodResult::applicable) is vacuous, except in a partial run
// (one shard of several: a slice may hold no applicable input; the merged verdict decides).
// Skipped methods take no part.
void combine_methods(ReadingVerdict& v, bool partial = false);

// One `verify --shard i/N --json FILE` report, read back (report.h: shard_report_from_json).
struct ShardReport {
  std::string file;
  Budget budget = Budget::kStandard;
  uint64_t seed = 0;
  std::optional<Shard> shard;
  std::string date;  // when the run started (UTC, ISO 8601); "" when the report does not say
  std::vector<ReadingVerdict> verdicts;  // methods with their results, as run in that shard
};

struct MergedShards {
  Budget budget = Budget::kStandard;
  uint64_t seed = 0;
  int count = 0;
  std::string date;  // the earliest shard's date ("" when no shard report has one)
  std::vector<ReadingVerdict> verdicts;  // not yet compared with the ledger
};

// Combines the reports of shards 1..N of one sharded run into one verdict per claim reading,
// method by method: refuted if any shard refuted (the counterexample of the lowest such shard,
// which is the first of the whole sweep), else error, else inconclusive, else holds; cases add
// up. Errors (exit 2), naming the file: a report that is not a shard report, shards of different
// N, budget or seed, a shard given twice, different claim readings or methods; and, naming them,
// missing shards.
Result<MergedShards> merge_shards(const std::vector<ShardReport>& reports);

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
