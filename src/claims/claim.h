// Claims, readings, methods, budgets and verdicts: the vocabulary of DESIGN.md in types.
//
// A Claim (id `<family>.<where>.<what>`) has one or more Readings; each reading has the methods
// that can decide it (example, exhaustive, random, smt, oracle), each a function of a RunContext
// returning a MethodResult. The runner (claims/runner.h) combines the method results of a
// reading into one verdict and compares it with the ledger.
//
// Methods never judge paths themselves: they call the naive checkers of core/checks.h.
// Budgets select the scope of every method (sizes, case counts, solver rlimits) through
// PerBudget tables written in the claim definitions, never constants inside tests.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/checks.h"
#include "core/status.h"
#include "corpus/corpus.h"

namespace topocheck::claims {

struct Ledger;  // claims/ledger.h

enum class Budget { kQuick, kStandard, kDeep };
enum class Method { kExample, kExhaustive, kRandom, kSmt, kOracle };
// kVacuous: every method held, but the claim's premise applied to none of the inputs checked
// (MethodResult::applicable): nothing was shown. Reported apart from holds; exit code as
// inconclusive.
enum class Outcome { kHolds, kRefuted, kInconclusive, kError, kVacuous };

std::string to_string(Budget b);    // "quick", "standard", "deep"
std::string to_string(Method m);    // "example", "exhaustive", "random", "smt", "oracle"
std::string to_string(Outcome o);   // "holds", "refuted", "inconclusive", "error", "vacuous"
// The verdict as shown: to_string(o), except "reproduced" / "not reproduced" for an empirical
// finding's holds / refuted.
std::string verdict_word(Outcome o, bool empirical);
std::optional<Budget> parse_budget(std::string_view s);
std::optional<Method> parse_method(std::string_view s);
std::optional<Outcome> parse_outcome(std::string_view s);

// A value per budget, e.g. PerBudget<int>{6, 10, 14} for "n <= 6 / 10 / 14".
template <class T>
struct PerBudget {
  T quick, standard, deep;
  const T& at(Budget b) const {
    return b == Budget::kQuick ? quick : b == Budget::kStandard ? standard : deep;
  }
};

// One slice of the exhaustive sweeps (`verify --shard i/N`): shard `index` of `count`, counted
// from 1. An exhaustive method that honours it concatenates all its sweeps into one sequence of
// pairs in sweep order and checks only the shard's contiguous range of it, so the shards cover
// the sequence exactly once and, range after range, in order: the first counterexample of the
// lowest refuting shard is the first of the whole sweep. Every other method (example, random,
// smt, oracle, and an exhaustive one that cannot be split) runs whole in one shard, dealt
// round-robin (RunContext::unit).
struct Shard {
  int index = 1;
  int count = 1;
  std::string to_string() const;  // "2/64"
  // The items [first, last) of a sequence of `total` items that this shard checks: the index-th
  // of `count` contiguous ranges whose sizes differ by at most one.
  std::pair<uint64_t, uint64_t> range(uint64_t total) const;
  // The same for a sequence whose items differ in cost: `segments` are consecutive runs of
  // (items, estimated cost of one item); the cuts fall where the cumulative cost reaches
  // index/count of the total, rounded up to a whole item, so that the shards carry equal estimated
  // work rather than equal counts (a shard's share exceeds total/count by less than one item's
  // cost). Every shard computes the same cuts, so the ranges still tile the sequence in order.
  // Costs must be positive. Each sweep states its cost model where it calls this.
  std::pair<uint64_t, uint64_t> range_by_cost(const std::vector<std::pair<uint64_t, double>>& segments) const;
  friend bool operator==(const Shard&, const Shard&) = default;
};
// "i/N" with 1 <= i <= N <= 1000000; an error message naming what is wrong otherwise.
Result<Shard> parse_shard(std::string_view text);

// Progress of a long run; thread-safe. Implementations print on stderr only to a terminal.
class Progress {
 public:
  virtual ~Progress() = default;
  virtual void update(std::string_view claim, std::string_view message) = 0;
};

// What a method is handed when it runs. The runner fills it in; a method never opens a file:
// what it needs from the ledger or the corpus it asks for here.
struct RunContext {
  Budget budget = Budget::kStandard;
  uint64_t seed = 0;                 // already derived for this claim and reading
  Progress* progress = nullptr;      // may be null
  std::string claim_id;              // for progress messages
  std::optional<Shard> shard;        // verify --shard: sweep one slice (see Shard)
  const Ledger* ledger = nullptr;    // the ledger verify compares with; null: none
  // The corpus, read by the runner (claims/runner.h: attach_corpus): a stored case by its path
  // relative to the corpus folder ("aapc/examples/x.json"), and every example case of a family
  // (corpus/<family>/examples/), each validated on load; an error naming the file when one cannot
  // be read. Unset: no corpus (every call is an error).
  std::function<Result<corpus::Case>(const std::string& relative_path)> case_loader;
  std::function<Result<std::vector<corpus::Case>>(const std::string& family)> examples_loader;

  void report(std::string_view message) const {
    if (progress) progress->update(claim_id, message);
  }
  // This method's place among every (reading, method) of the run, in the run's order (the same in
  // every shard of it). Work that is not split is dealt across the shards by it, round-robin: the
  // unit-th goes to shard unit mod N + 1, so that no one shard carries all of it.
  uint64_t unit = 0;
  // The shard that runs this method's work when the work is not split (1 outside sharded runs).
  int unsplit_shard() const { return shard ? static_cast<int>(unit % static_cast<uint64_t>(shard->count)) + 1 : 1; }
  bool runs_unsplit_work() const { return !shard || shard->index == unsplit_shard(); }
  // The ledger's expected verdict for a claim reading at this budget; nullopt without a ledger or
  // an entry. (A method that rests on another claim's verdict asks here.)
  std::optional<Outcome> expected(std::string_view claim, std::string_view reading) const;
  Result<corpus::Case> load_case(const std::string& relative_path) const;
  Result<std::vector<corpus::Case>> examples(const std::string& family) const;
};

// One input on which the claim fails; everything a corpus case needs.
struct Counterexample {
  nlohmann::json params = nlohmann::json::object();  // e.g. {"n": 3}
  nlohmann::json input = nlohmann::json::object();   // text forms, e.g. {"x": "000", "y": "111"}
  std::string violation;                             // in words, from core/checks.h
  nlohmann::json witness = nlohmann::json::object(); // e.g. {"paths": [[...], ...]}
  bool minimized = false;
};

struct MethodResult {
  Method method = Method::kExhaustive;
  Outcome outcome = Outcome::kError;
  std::string scope;   // what was covered, for people: "n = 1..10, every x, y (x = y included)"
  uint64_t cases = 0;  // inputs checked
  // Of those, the inputs on which the claim's premise applied: the oracle was asked, the
  // procedure reached the branch the claim is about, the graph is an ITM and not merely a graph.
  // Unset: the premise holds on every input the method generates (applicable == cases). A method
  // whose inputs may miss the premise must set it; a reading that holds with no applicable input
  // at all is vacuous, not holds.
  std::optional<uint64_t> applicable;
  uint64_t applicable_count() const { return applicable.value_or(cases); }
  // Set when the method also found the claim's conclusion where its premise fails (for example
  // on graphs that are not ITMs): where, in words. The verdict is then marked "holds on inputs
  // outside its premise too": the premise is not what makes it true.
  std::string beyond_premise;
  std::string detail;  // the reason for inconclusive / error, the violation for refuted
  std::optional<Counterexample> counterexample;  // set iff outcome == kRefuted
  double seconds = 0;  // wall time, filled in by the runner
  // Sharded runs: the shard ("2/64") whose slice this method swept, when it swept only that
  // slice; empty when it ran whole. `skipped`: not run in this shard (see Shard); its outcome
  // then says nothing and takes no part in the verdict.
  std::string shard;
  bool skipped = false;
};

// The result of a method that does not run in this shard (shards 2..N of work that is not split).
MethodResult skipped_in_shard(Method method, const RunContext& ctx);

using MethodFn = std::function<MethodResult(const RunContext&)>;

// Re-checks one input (params + input in text forms, as stored in a corpus case). Returns an
// error for malformed input (naming the field), otherwise the violation (nullopt: the claim
// holds on this input) and the computed witness.
struct CaseCheck {
  Violation violation;
  nlohmann::json witness = nlohmann::json::object();
};
using CaseFn = std::function<Result<CaseCheck>(const nlohmann::json& params,
                                               const nlohmann::json& input)>;

// Computes a paper example's output from its stored input, in the same JSON shape as the
// printed output, so that corpus/ can diff them cell by cell.
using ExampleFn = std::function<Result<nlohmann::json>(const nlohmann::json& params,
                                                       const nlohmann::json& input)>;

// Solver limits for one `prove` call. rlimit is Z3's deterministic resource limit; timeout_ms
// (0 = none) is a wall-clock safety net whose expiry is reported as inconclusive.
struct SolverLimits {
  uint64_t rlimit = 0;
  unsigned timeout_ms = 0;
};
// Proves (or refutes, with a model turned into a Counterexample confirmed by core's checkers)
// the claim at fixed parameters, e.g. {"n": 8}. Unknown or timeout is kInconclusive.
using ProveFn = std::function<Result<MethodResult>(const nlohmann::json& params,
                                                   const SolverLimits& limits)>;

struct Reading {
  std::string name;         // "literal", "planar_drawing", ...
  std::string description;  // the reading's exact wording
  std::vector<std::pair<Method, MethodFn>> methods;
  CaseFn check_case;        // replays counterexample cases (may be empty for example claims)
  ExampleFn compute_example;  // example claims only
  ProveFn prove;            // claims with an SMT encoding only
  // A meaning the paper's text allows. False for a reading of ours that is not one: a repair of
  // the paper's construction, a negative control. The report tells an error of the paper (every
  // faithful reading refuted) from an ambiguity of its text (some refuted, some holding).
  bool faithful = true;
  // Its exhaustive method sweeps only the shard's slice in a sharded run (Shard; it sets
  // MethodResult::shard). False: the method runs whole, in the one shard RunContext::unit deals it
  // to, like every other method.
  bool exhaustive_split = false;
};

struct Claim {
  std::string id;         // "<family>.<where>.<what>"
  std::string paper;      // file under papers/, e.g. "003_870397c57c58895c.txt"
  std::string location;   // "Section 3, Algorithm 2, Table 1"
  std::string statement;  // quote or paraphrase
  std::vector<Reading> readings;
  // An empirical finding (a measured result, e.g. the routing study of paper 001): its verdicts
  // are shown as "reproduced" / "not reproduced" (holds / refuted in the ledger).
  bool empirical = false;
  // A claim the paper does not make (a negative control, a question beyond the text): Claim::make
  // sets it when the location says "beyond the paper".
  bool beyond_paper = false;

  // A claim from its parts (every family registers its claims this way).
  static Claim make(std::string paper, std::string id, std::string location, std::string statement,
                    std::vector<Reading> readings, bool empirical = false);

  std::string family() const { return id.substr(0, id.find('.')); }
  const Reading* find_reading(std::string_view name) const;
  Reading* find_reading(std::string_view name);
};

class Registry {
 public:
  void add(Claim claim);  // aborts on a duplicate id
  const Claim* find(std::string_view id) const;
  Claim* find(std::string_view id);
  const std::vector<Claim>& claims() const { return claims_; }
  // Adds a method (and optionally a prove function) to an existing claim reading; smt/ uses this
  // so that claims/ does not depend on Z3. Aborts if the claim or reading does not exist.
  void attach(std::string_view id, std::string_view reading, Method method, MethodFn fn,
              ProveFn prove = nullptr);

 private:
  std::vector<Claim> claims_;
};

}  // namespace topocheck::claims
