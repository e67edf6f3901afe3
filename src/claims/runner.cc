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

uint64_t derive_seed(uint64_t base, const std::string& claim, const std::string& reading) {
  // FNV-1a over the names, then splitmix64 with the base seed.
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : claim + "/" + reading) { h ^= c; h *= 1099511628211ULL; }
  uint64_t z = h ^ (base + 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return (z ^ (z >> 31)) & 0x7FFFFFFFFFFFFFFFULL;  // fits a JSON signed integer too
}

ReadingVerdict run_reading(const Claim& claim, const Reading& reading, const RunContext& ctx) {
  ReadingVerdict v;
  v.claim = claim.id;
  v.reading = reading.name;
  v.seed = ctx.seed;
  const auto start = std::chrono::steady_clock::now();
  if (reading.methods.empty()) {
    v.outcome = Outcome::kError;
    v.detail = "no method can decide this reading";
  }
  for (const auto& [method, fn] : reading.methods) {
    MethodResult r;
    const auto method_start = std::chrono::steady_clock::now();
    try {
      r = fn(ctx);
    } catch (const std::exception& e) {
      r.outcome = Outcome::kError;
      r.detail = fmt::format("internal error: {}", e.what());
    }
    r.method = method;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - method_start).count();
    v.methods.push_back(r);
  }
  auto first = [&](Outcome o) -> const MethodResult* {
    for (const MethodResult& r : v.methods)
      if (r.outcome == o) return &r;
    return nullptr;
  };
  if (!v.methods.empty()) {
    const MethodResult* decisive = nullptr;
    for (Outcome o : {Outcome::kRefuted, Outcome::kError, Outcome::kInconclusive})
      if ((decisive = first(o))) { v.outcome = o; break; }
    if (!decisive) v.outcome = Outcome::kHolds;
    else {
      v.detail = fmt::format("{}: {}", to_string(decisive->method), decisive->detail);
      v.counterexample = decisive->counterexample;
    }
  }
  for (const MethodResult& r : v.methods) {
    if (!v.scope.empty()) v.scope += "; ";
    v.scope += fmt::format("{} {}", to_string(r.method), r.scope);
    v.cases += r.cases;
  }
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

std::vector<ReadingVerdict> verify(const std::vector<const Claim*>& claims, const Ledger& ledger,
                                   const std::vector<corpus::Case>& corpus,
                                   const VerifyOptions& options) {
  struct Job { const Claim* claim; const Reading* reading; };
  std::vector<Job> jobs;
  for (const Claim* c : claims)
    for (const Reading& r : c->readings) jobs.push_back({c, &r});
  std::vector<ReadingVerdict> out(jobs.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k; (k = next.fetch_add(1)) < jobs.size();) {
      RunContext ctx;
      ctx.budget = options.budget;
      ctx.seed = derive_seed(options.seed, jobs[k].claim->id, jobs[k].reading->name);
      ctx.progress = options.progress;
      ctx.corpus_dir = options.corpus_dir;
      ctx.claim_id = jobs[k].claim->id + " [" + jobs[k].reading->name + "]";
      out[k] = run_reading(*jobs[k].claim, *jobs[k].reading, ctx);
    }
  };
  const int threads = std::max(1, std::min<int>(options.jobs, static_cast<int>(jobs.size())));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();

  for (ReadingVerdict& v : out) {
    const Expectation* e = ledger.find(v.claim, v.reading);
    if (!e) {
      v.matches = false;
      v.mismatch = "the ledger has no expectation for this claim reading";
      continue;
    }
    v.expected = e->at(options.budget);
    if (v.outcome != *v.expected) {
      v.matches = false;
      v.mismatch = fmt::format("expected {}, got {}", to_string(*v.expected), to_string(v.outcome));
      continue;
    }
    v.matches = true;
    if (v.outcome == Outcome::kRefuted && v.counterexample) {
      corpus::Case found = to_case(v.claim, v.reading, *v.counterexample, Method::kExhaustive, 0,
                                   options.budget);
      auto stored = std::find_if(corpus.begin(), corpus.end(), [&](const corpus::Case& c) {
        return c.kind == corpus::CaseKind::kCounterexample && corpus::same_input(c, found);
      });
      if (stored == corpus.end()) {
        v.matches = false;
        v.mismatch = fmt::format("new counterexample, not in the corpus (store it with "
                                 "`topocheck search {} --reading {} --save`)", v.claim, v.reading);
      } else {
        v.corpus_case = std::filesystem::relative(stored->file, options.corpus_dir).string();
      }
    }
  }
  return out;
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
