#include "claims/runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <fnmatch.h>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace topocheck::claims {

Result<std::vector<const Claim*>> select_claims(const Registry& registry,
                                                const std::vector<std::string>& globs) {
  std::vector<const Claim*> out;
  if (globs.empty()) {
    for (const Claim& c : registry.claims()) out.push_back(&c);
    return out;
  }
  for (const std::string& g : globs) {
    bool any = false;
    for (const Claim& c : registry.claims())
      if (fnmatch(g.c_str(), c.id.c_str(), 0) == 0) {
        any = true;
        if (std::find(out.begin(), out.end(), &c) == out.end()) out.push_back(&c);
      }
    if (!any) return invalid_argument(fmt::format("no claim matches '{}' (see `topocheck list`)", g));
  }
  // Keep registry order for stable output.
  std::vector<const Claim*> ordered;
  for (const Claim& c : registry.claims())
    if (std::find(out.begin(), out.end(), &c) != out.end()) ordered.push_back(&c);
  return ordered;
}

bool reading_selected(const std::vector<std::string>& globs, const std::string& name) {
  if (globs.empty()) return true;
  return std::any_of(globs.begin(), globs.end(),
                     [&](const std::string& g) { return fnmatch(g.c_str(), name.c_str(), 0) == 0; });
}

uint64_t derive_seed(uint64_t base, const std::string& claim, const std::string& reading) {
  // FNV-1a over the names, then splitmix64 with the base seed.
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : claim + "/" + reading) { h ^= c; h *= 1099511628211ULL; }
  uint64_t z = h ^ (base + 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return (z ^ (z >> 31)) & 0x7FFFFFFFFFFFFFFFULL;  // fits a JSON signed integer too
}

void combine_methods(ReadingVerdict& v, bool partial) {
  v.outcome = Outcome::kHolds;
  v.detail.clear();
  v.counterexample.reset();
  v.scope.clear();
  v.cases = 0;
  v.applicable = 0;
  v.beyond_premise.clear();
  auto first = [&](Outcome o) -> const MethodResult* {
    for (const MethodResult& r : v.methods)
      if (!r.skipped && r.outcome == o) return &r;
    return nullptr;
  };
  const MethodResult* decisive = nullptr;
  for (Outcome o : {Outcome::kRefuted, Outcome::kError, Outcome::kInconclusive})
    if ((decisive = first(o))) {
      v.outcome = o;
      break;
    }
  if (decisive) {
    v.detail = fmt::format("{}: {}", to_string(decisive->method), decisive->detail);
    v.counterexample = decisive->counterexample;
  }
  for (const MethodResult& r : v.methods) {
    if (!v.scope.empty()) v.scope += "; ";
    v.scope += fmt::format("{} {}", to_string(r.method), r.scope);
    if (!r.shard.empty()) v.scope += fmt::format(" [shard {}]", r.shard);
    v.cases += r.cases;
    if (r.skipped) continue;
    v.applicable += r.applicable_count();
    if (!r.beyond_premise.empty())
      v.beyond_premise += fmt::format("{}{}: {}", v.beyond_premise.empty() ? "" : "; ", to_string(r.method),
                                      r.beyond_premise);
  }
  if (v.methods.empty()) {
    v.outcome = Outcome::kError;
    v.detail = "no method can decide this reading";
  } else if (std::all_of(v.methods.begin(), v.methods.end(), [](const MethodResult& r) { return r.skipped; })) {
    v.detail = "no method of this reading runs in this shard";
  } else if (v.outcome == Outcome::kHolds && v.applicable == 0 && !partial) {
    v.outcome = Outcome::kVacuous;
    v.detail = fmt::format("the claim's premise applied to none of the {} inputs checked", v.cases);
  }
}

ReadingVerdict run_reading(const Claim& claim, const Reading& reading, const RunContext& ctx) {
  ReadingVerdict v;
  v.claim = claim.id;
  v.empirical = claim.empirical;
  v.faithful = reading.faithful;
  v.beyond_paper = claim.beyond_paper;
  v.reading = reading.name;
  v.seed = ctx.seed;
  const auto start = std::chrono::steady_clock::now();
  uint64_t unit = ctx.unit;
  for (const auto& [method, fn] : reading.methods) {
    MethodResult r;
    const auto method_start = std::chrono::steady_clock::now();
    RunContext method_ctx = ctx;
    method_ctx.unit = unit++;
    const bool split = method == Method::kExhaustive && reading.exhaustive_split;
    if (!split && !method_ctx.runs_unsplit_work()) {
      v.methods.push_back(skipped_in_shard(method, method_ctx));
      continue;
    }
    try {
      r = fn(method_ctx);
    } catch (const std::exception& e) {
      r.outcome = Outcome::kError;
      r.detail = fmt::format("internal error: {}", e.what());
    }
    // A method declared split that ran whole outside its own shard would be counted once per
    // shard by merge.
    if (split && ctx.shard && ctx.shard->count > 1 && r.shard.empty() && !r.skipped && !method_ctx.runs_unsplit_work()) {
      r.outcome = Outcome::kError;
      r.detail = fmt::format("internal error: the exhaustive method is declared split but ran whole in shard {}",
                             ctx.shard->to_string());
    }
    r.method = method;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - method_start).count();
    v.methods.push_back(r);
  }
  combine_methods(v, ctx.shard && ctx.shard->count > 1);
  v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return v;
}

corpus::Case to_case(const std::string& claim, const std::string& reading,
                     const Counterexample& cx, Method method, uint64_t seed, Budget budget) {
  corpus::Case c;
  c.kind = corpus::CaseKind::kCounterexample;
  c.claim = claim;
  c.reading = reading;
  c.params = cx.params;
  c.input = cx.input;
  c.violation = cx.violation;
  c.witness = cx.witness;
  c.method = to_string(method);
  c.seed = seed;
  c.budget = to_string(budget);
  c.minimized = cx.minimized;
  return c;
}

void attach_corpus(RunContext& ctx, const std::filesystem::path& corpus_dir, const Ledger* ledger) {
  ctx.ledger = ledger;
  ctx.case_loader = [corpus_dir](const std::string& relative) -> Result<corpus::Case> {
    const std::filesystem::path rel(relative);
    if (rel.is_absolute() || std::find(rel.begin(), rel.end(), "..") != rel.end())
      return invalid_argument(fmt::format("{}: a stored case is named by its path inside the corpus", relative));
    return corpus::load_case(corpus_dir / rel);
  };
  ctx.examples_loader = [corpus_dir](const std::string& family) -> Result<std::vector<corpus::Case>> {
    return corpus::load_all(corpus_dir / family / "examples");
  };
}

RunContext context_for(const Claim& claim, const Reading& reading, const Ledger* ledger,
                       const VerifyOptions& options) {
  RunContext ctx;
  ctx.budget = options.budget;
  ctx.seed = derive_seed(options.seed, claim.id, reading.name);
  ctx.progress = options.progress;
  ctx.claim_id = claim.id + " [" + reading.name + "]";
  ctx.shard = options.shard;
  attach_corpus(ctx, options.corpus_dir, ledger);
  return ctx;
}

std::vector<ReadingVerdict> verify(const std::vector<const Claim*>& claims, const Ledger& ledger,
                                   const VerifyOptions& options) {
  struct Job { const Claim* claim; const Reading* reading; };
  std::vector<Job> jobs;
  for (const Claim* c : claims)
    for (const Reading& r : c->readings)
      if (reading_selected(options.readings, r.name)) jobs.push_back({c, &r});
  std::vector<ReadingVerdict> out(jobs.size());
  // Each job's first unit (RunContext::unit): its methods follow those of the jobs before it.
  std::vector<uint64_t> first_unit(jobs.size(), 0);
  for (size_t k = 1; k < jobs.size(); ++k) first_unit[k] = first_unit[k - 1] + jobs[k - 1].reading->methods.size();
  const bool one_shard = options.shard && options.shard->count > 1;
  std::mutex announce;
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k; (k = next.fetch_add(1)) < jobs.size();) {
      RunContext ctx = context_for(*jobs[k].claim, *jobs[k].reading, &ledger, options);
      ctx.unit = first_unit[k];
      out[k] = run_reading(*jobs[k].claim, *jobs[k].reading, ctx);
      compare_with_ledger(out[k], ledger, options.budget, options.corpus_dir, one_shard, options.certify);
      if (options.on_verdict) {
        std::lock_guard<std::mutex> lock(announce);
        options.on_verdict(out[k]);
      }
    }
  };
  const int threads = std::max(1, std::min<int>(options.jobs, static_cast<int>(jobs.size())));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return out;
}

namespace {

// Thrown by DeadlineProgress out of a method once the search's time is up; not a std::exception,
// so that no method's error handling turns it into a verdict.
struct DeadlineReached {};

// The search's progress: passes updates on, and on the search's own thread (never a method's
// worker threads, whose exceptions nobody would catch) throws DeadlineReached once the deadline
// has passed. Every method reports as it goes (RunContext::report: per size, per 256 random
// cases), so a search stops within a report of its deadline, even inside a round.
class DeadlineProgress final : public Progress {
 public:
  DeadlineProgress(std::chrono::steady_clock::time_point deadline, Progress* next)
      : deadline_(deadline), next_(next), thread_(std::this_thread::get_id()) {}
  void update(std::string_view claim, std::string_view message) override {
    if (std::this_thread::get_id() == thread_ && std::chrono::steady_clock::now() > deadline_) throw DeadlineReached{};
    if (next_) next_->update(claim, message);
  }

 private:
  std::chrono::steady_clock::time_point deadline_;
  Progress* next_;
  std::thread::id thread_;
};

}  // namespace

SearchOutcome search(const Claim& claim, const Reading& reading, const Ledger& ledger, const SearchOptions& options) {
  SearchOutcome out;
  const auto start = std::chrono::steady_clock::now();
  RunContext ctx = context_for(claim, reading, &ledger, options.run);
  ctx.seed = options.run.seed;  // the search's seeds are its own: the first is the one given
  DeadlineProgress deadline(start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                        std::chrono::duration<double>(options.seconds)),
                             options.run.progress);
  ctx.progress = &deadline;
  const bool has_random = std::any_of(reading.methods.begin(), reading.methods.end(),
                                      [](const auto& m) { return m.first == Method::kRandom; });
  for (bool first = true;; first = false) {
    for (const auto& [method, fn] : reading.methods) {
      if (method == Method::kExample || (!first && method != Method::kRandom)) continue;
      MethodResult r;
      try {
        r = fn(ctx);
      } catch (const DeadlineReached&) {
        out.stopped = true;
        return out;
      }
      r.method = method;
      out.cases += r.cases;
      if (r.outcome == Outcome::kRefuted && r.counterexample) {
        corpus::Case c = to_case(claim.id, reading.name, *r.counterexample, method, ctx.seed, options.run.budget);
        auto stored = corpus::load_case(corpus::counterexample_path(options.run.corpus_dir, c));
        out.known = stored && corpus::same_input(*stored, c);
        out.found = std::move(c);
        return out;
      }
      if (r.outcome == Outcome::kError) {
        out.error = std::move(r);
        return out;
      }
    }
    ++out.rounds;
    ctx.seed = derive_seed(ctx.seed, claim.id, reading.name);
    if (!has_random || std::chrono::steady_clock::now() - start > std::chrono::duration<double>(options.seconds)) break;
  }
  return out;
}

void compare_with_ledger(std::vector<ReadingVerdict>& verdicts, const Ledger& ledger, Budget budget,
                         const std::filesystem::path& corpus_dir, bool one_shard, const CertifyFn& certify) {
  for (ReadingVerdict& v : verdicts) compare_with_ledger(v, ledger, budget, corpus_dir, one_shard, certify);
}

void compare_with_ledger(ReadingVerdict& v, const Ledger& ledger, Budget budget,
                         const std::filesystem::path& corpus_dir, bool one_shard, const CertifyFn& certify) {
  v.matches = false;
  v.mismatch.clear();
  v.corpus_case.clear();
  const Expectation* e = ledger.find(v.claim, v.reading);
  if (!e) {
    v.mismatch = "the ledger has no expectation for this claim reading";
    return;
  }
  v.expected = e->at(budget);
  if (one_shard && *v.expected == Outcome::kRefuted &&
      (v.outcome == Outcome::kHolds || v.outcome == Outcome::kRefuted)) {
    // One slice decides nothing about a refutation: the counterexample may lie in another
    // shard, and this shard's first one need not be the sweep's first. `merge` decides.
    v.matches = true;
    return;
  }
  if (v.outcome != *v.expected) {
    v.mismatch = fmt::format("expected {}, got {}", to_string(*v.expected), to_string(v.outcome));
    return;
  }
  v.matches = true;
  if (v.outcome != Outcome::kRefuted || !v.counterexample) return;
  // The refutation must be the one the ledger names: same claim, reading, parameters and input.
  const std::string save_hint = fmt::format("store it with `topocheck search {} --reading {} --save` and name it in the "
                                            "ledger's \"case\"", v.claim, v.reading);
  v.matches = false;
  const std::string& named = e->case_at(budget);
  if (named.empty()) {
    v.mismatch = fmt::format("the ledger names no case for this refutation ({})", save_hint);
    return;
  }
  auto stored = corpus::load_case(corpus_dir / named);
  if (!stored) {
    v.mismatch = fmt::format("the ledger's case cannot be read: {}", stored.error().to_string());
    return;
  }
  const corpus::Case found = to_case(v.claim, v.reading, *v.counterexample, Method::kExhaustive, 0, budget);
  if (stored->kind != corpus::CaseKind::kCounterexample || !corpus::same_input(*stored, found)) {
    v.mismatch = fmt::format("new counterexample, not the ledger's case {} ({})", named, save_hint);
    return;
  }
  v.corpus_case = named;
  if (certify) {
    if (const std::optional<std::string> why = certify(named)) {
      // Not a refutation one could publish: the suite found it, the independent checker does not
      // confirm that the witness shows this claim's violation.
      v.outcome = Outcome::kInconclusive;
      v.detail = fmt::format("refuted by the suite, but its case {} fails the independent certificate checker: {}",
                             named, *why);
      v.mismatch = fmt::format("the ledger's case {} fails certification: {}", named, *why);
      return;
    }
  }
  v.matches = true;
}

Result<MergedShards> merge_shards(const std::vector<ShardReport>& reports) {
  if (reports.empty()) return invalid_argument("merge: no report given");
  const ShardReport& first = reports.front();
  for (const ShardReport& r : reports) {
    if (!r.shard)
      return parse_error("not a shard report (it has no \"shard\"; write one with verify --shard i/N --json FILE)",
                         r.file);
    if (r.shard->count != first.shard->count)
      return parse_error(fmt::format("shard {} is of {} shards, {} is of {}", r.shard->to_string(), r.shard->count,
                                     first.file, first.shard->count),
                         r.file);
    if (r.budget != first.budget || r.seed != first.seed)
      return parse_error(fmt::format("budget {} and seed {} differ from {} (budget {}, seed {})", to_string(r.budget),
                                     r.seed, first.file, to_string(first.budget), first.seed),
                         r.file);
  }
  const int count = first.shard->count;
  std::vector<const ShardReport*> by_index(static_cast<size_t>(count) + 1, nullptr);
  for (const ShardReport& r : reports) {
    const ShardReport*& slot = by_index[static_cast<size_t>(r.shard->index)];
    if (slot) return parse_error(fmt::format("shard {} is also in {}", r.shard->to_string(), slot->file), r.file);
    slot = &r;
  }
  std::vector<std::string> missing;
  for (int i = 1; i <= count; ++i)
    if (!by_index[static_cast<size_t>(i)]) missing.push_back(Shard{i, count}.to_string());
  if (!missing.empty())
    return invalid_argument(fmt::format("merge: missing shard{} {} (have {} of {})", missing.size() == 1 ? "" : "s",
                                        fmt::join(missing, ", "), count - static_cast<int>(missing.size()), count));
  // Every shard must hold the same claim readings with the same methods, in the same order.
  const ShardReport& one = *by_index[1];
  for (int i = 2; i <= count; ++i) {
    const ShardReport& other = *by_index[static_cast<size_t>(i)];
    bool same = other.verdicts.size() == one.verdicts.size();
    for (size_t k = 0; same && k < one.verdicts.size(); ++k) {
      const ReadingVerdict &a = one.verdicts[k], &b = other.verdicts[k];
      same = a.claim == b.claim && a.reading == b.reading && a.methods.size() == b.methods.size();
      for (size_t j = 0; same && j < a.methods.size(); ++j) same = a.methods[j].method == b.methods[j].method;
    }
    if (!same)
      return parse_error(fmt::format("its claim readings or methods differ from those of shard 1 ({}): run every "
                                     "shard with the same claims",
                                     one.file),
                         other.file);
  }
  MergedShards merged;
  merged.budget = first.budget;
  merged.seed = first.seed;
  merged.count = count;
  for (const ShardReport& r : reports)
    if (!r.date.empty() && (merged.date.empty() || r.date < merged.date)) merged.date = r.date;
  for (size_t k = 0; k < one.verdicts.size(); ++k) {
    ReadingVerdict v;
    v.claim = one.verdicts[k].claim;
    v.reading = one.verdicts[k].reading;
    v.seed = one.verdicts[k].seed;
    v.empirical = one.verdicts[k].empirical;
    v.faithful = one.verdicts[k].faithful;
    v.beyond_paper = one.verdicts[k].beyond_paper;
    for (size_t j = 0; j < one.verdicts[k].methods.size(); ++j) {
      // Shards in order: ranges in sweep order, so the lowest refuting shard holds the first
      // counterexample of the whole sweep.
      MethodResult m;
      m.method = one.verdicts[k].methods[j].method;
      m.skipped = true;
      const MethodResult* refuted = nullptr;
      bool error = false, inconclusive = false, split = false, applicable_set = false;
      uint64_t applicable = 0;
      std::vector<std::string> details;
      for (int i = 1; i <= count; ++i) {
        const MethodResult& r = by_index[static_cast<size_t>(i)]->verdicts[k].methods[j];
        if (r.skipped) continue;
        if (m.skipped) m.scope = r.scope;
        m.skipped = false;
        m.cases += r.cases;
        applicable += r.applicable_count();
        applicable_set = applicable_set || r.applicable.has_value();
        if (m.beyond_premise.empty()) m.beyond_premise = r.beyond_premise;
        m.seconds += r.seconds;
        split = split || !r.shard.empty();
        if (r.outcome == Outcome::kRefuted && !refuted) refuted = &r;
        if (r.outcome == Outcome::kError) error = true;
        if (r.outcome == Outcome::kInconclusive) inconclusive = true;
        if (r.outcome == Outcome::kError || r.outcome == Outcome::kInconclusive)
          details.push_back(fmt::format("shard {}: {}", Shard{i, count}.to_string(), r.detail));
      }
      if (m.skipped) {
        m.outcome = Outcome::kError;
        m.skipped = false;
        m.detail = "no shard ran this method";
        error = true;
      } else if (refuted) {
        m.outcome = Outcome::kRefuted;
        m.detail = refuted->detail;
        m.counterexample = refuted->counterexample;
      } else if (error || inconclusive) {
        m.outcome = error ? Outcome::kError : Outcome::kInconclusive;
        m.detail = fmt::format("{}", fmt::join(details, "; "));
      } else {
        m.outcome = Outcome::kHolds;
      }
      if (applicable_set) m.applicable = applicable;
      if (split) m.shard = fmt::format("{} shards merged", count);
      v.methods.push_back(std::move(m));
    }
    for (int i = 1; i <= count; ++i) v.seconds += by_index[static_cast<size_t>(i)]->verdicts[k].seconds;
    combine_methods(v);
    merged.verdicts.push_back(std::move(v));
  }
  return merged;
}

Result<ExampleReport> check_example(const Registry& registry, const corpus::Case& c) {
  const Claim* claim = registry.find(c.claim);
  if (!claim) return parse_error(fmt::format("unknown claim '{}'", c.claim), c.file.string());
  const Reading* reading = claim->find_reading(c.reading);
  if (!reading)
    return parse_error(fmt::format("claim {} has no reading '{}'", c.claim, c.reading), c.file.string());
  if (!reading->compute_example)
    return parse_error(fmt::format("claim {} [{}] has no example computation", c.claim, c.reading),
                       c.file.string());
  auto computed = reading->compute_example(c.params, c.input);
  if (!computed) return parse_error(computed.error().message, c.file.string());
  ExampleReport report;
  report.diffs = corpus::diff_cells(c.expected, *computed);
  report.problems = corpus::explain_diffs(report.diffs, c.errata);
  return report;
}

Result<ReplayResult> replay_case(const Registry& registry, const corpus::Case& c) {
  ReplayResult r;
  r.file = c.file.string();
  r.claim = c.claim;
  r.reading = c.reading;
  const Claim* claim = registry.find(c.claim);
  if (!claim) return parse_error(fmt::format("unknown claim '{}'", c.claim), c.file.string());
  const Reading* reading = claim->find_reading(c.reading);
  if (!reading)
    return parse_error(fmt::format("claim {} has no reading '{}'", c.claim, c.reading), c.file.string());
  if (c.kind == corpus::CaseKind::kExample) {
    auto report = check_example(registry, c);
    if (!report) return report.error();
    r.ok = report->problems.empty();
    r.message = r.ok ? fmt::format("example reproduced ({} errata)", c.errata.size())
                     : fmt::format("example differs: {}", fmt::join(report->problems, "; "));
    return r;
  }
  if (!reading->check_case)
    return parse_error(fmt::format("claim {} [{}] cannot replay counterexamples", c.claim, c.reading),
                       c.file.string());
  auto check = reading->check_case(c.params, c.input);
  if (!check) return parse_error(check.error().message, c.file.string());
  if (check->violation) {
    r.ok = true;
    r.message = fmt::format("still fails: {}", *check->violation);
  } else {
    r.ok = false;
    r.message = "no longer fails: the claim holds on this input (the construction or the check changed)";
  }
  return r;
}

}  // namespace topocheck::claims
