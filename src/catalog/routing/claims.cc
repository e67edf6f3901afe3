// The claims of papers/001 (Raghupathy, Leuze, Schach, "Message routing schemes in a hypercube
// machine"): the simulator's contract (Sections 1-3) as properties judged by the naive trace
// checker (routing/trace_check.h) on random cubes, workloads and seeds, and the four findings of
// Section 4 as empirical claims computed from the 44-case study (routing/study.h).
//
// Findings protocol (fixed, so that the ledger can pin it): Q_8, the built-in workload with
// default parameters and workload seeds 1..5 (the paper: "A number of different input graphs
// were considered [...] the results were very similar in all instances"), 44 cases x 10
// repetitions with simulator seeds 1..10, scheme reading `list`. Each finding names its figures
// (routing/study.h: the numbers its conditions compare with thresholds); a figure is judged by
// the two-sided 95% Student t interval of its per-seed values over the workload instances: the
// finding is `reproduced` when every interval lies in its region, `not reproduced` when one lies
// entirely outside (the counterexample is the whole set of instances, replayable: check_case
// re-runs the studies), and inconclusive when an interval straddles its threshold.
#include <compare>
#include <cstdint>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck.h>

#include "catalog/catalog.h"
#include "claims/claim.h"
#include "claims/random_method.h"
#include "catalog/routing/inputs.h"
#include "catalog/routing/scope.h"
#include "core/graph.h"
#include "hypercube/hypercube.h"
#include "routing/deadlock.h"
#include "network/network.h"
#include "routing/simulator.h"
#include "routing/study.h"
#include "routing/trace_check.h"
#include "routing/workload.h"

namespace topocheck::claims {
namespace {

using nlohmann::json;
namespace rt = topocheck::routing;
namespace scope = routing_scope;

constexpr const char* kPaper = "001_2708c2cd1c088815.txt";

void add_claim(Registry& registry, std::string id, std::string location, std::string statement,
               std::vector<Reading> readings, bool empirical) {
  registry.add(Claim::make(kPaper, std::move(id), std::move(location), std::move(statement), std::move(readings), empirical));
}

// ---- the study, computed once per process for each parameter set -------------------------

struct StudyKey {
  std::string workload;
  uint64_t workload_seed = 1;
  int dim = scope::kStudyDim;
  int reps = scope::kStudyReps;
  uint64_t seed = scope::kStudySeed;
  std::string reading = "list";
  auto operator<=>(const StudyKey&) const = default;
  json to_json() const {
    return {{"dim", dim}, {"workload", workload}, {"workload_seed", workload_seed}, {"reps", reps}, {"seed", seed},
            {"scheme_reading", reading}};
  }
};

Result<rt::StudyResult> compute_study(const StudyKey& key) {
  auto net = rt::Network::hypercube(key.dim);
  if (!net) return net.error();
  auto w = rt::builtin_workload(key.workload, net->num_nodes(), key.workload_seed);
  if (!w) return w.error();
  rt::StudyConfig sc;
  sc.reps = key.reps;
  sc.seed = key.seed;
  sc.reading = *rt::parse_scheme_reading(key.reading);
  return rt::run_study(*net, *w, sc);
}

// Readings run in parallel (verify --jobs): the first asker computes, the others wait.
Result<rt::StudyResult> cached_study(const StudyKey& key) {
  static std::mutex mu;
  static std::map<StudyKey, std::shared_future<Result<rt::StudyResult>>> cache;
  std::promise<Result<rt::StudyResult>> promise;
  std::shared_future<Result<rt::StudyResult>> future;
  bool mine = false;
  {
    std::lock_guard lock(mu);
    auto it = cache.find(key);
    if (it == cache.end()) {
      future = promise.get_future().share();
      cache.emplace(key, future);
      mine = true;
    } else {
      future = it->second;
    }
  }
  if (mine) promise.set_value(compute_study(key));
  return future.get();
}

Result<StudyKey> study_key_from(const json& params) {
  if (!params.is_object()) return invalid_argument("params must be an object");
  StudyKey k;
  try {
    k.dim = params.at("dim").get<int>();
    k.workload = params.at("workload").get<std::string>();
    k.workload_seed = params.at("workload_seed").get<uint64_t>();
    k.reps = params.at("reps").get<int>();
    k.seed = params.at("seed").get<uint64_t>();
    k.reading = params.at("scheme_reading").get<std::string>();
  } catch (const json::exception& e) {
    return invalid_argument(fmt::format("params: {}", e.what()));
  }
  if (k.dim < 1 || k.dim > 12) return invalid_argument("params.dim: outside 1..12");
  if (k.reps < 2 || k.reps > 1000) return invalid_argument("params.reps: outside 2..1000");
  if (!rt::parse_scheme_reading(k.reading)) return invalid_argument("params.scheme_reading: not list or text");
  bool known = false;
  for (const std::string& n : rt::builtin_workload_names()) known = known || n == k.workload;
  if (!known) return invalid_argument(fmt::format("params.workload: '{}' is not a built-in workload", k.workload));
  return k;
}

// ---- Section 4's findings -----------------------------------------------------------------

// The finding on workload instances 1..seeds, judged by the 95% Student t interval of each of its
// figures over the instances (routing/study.h: decide_over_studies).
struct OverSeeds {
  rt::FindingOverStudies decision;
  std::vector<rt::Finding> per_seed;
};

Result<OverSeeds> finding_over_seeds(const std::string& finding, StudyKey key, uint64_t seeds, const RunContext* ctx) {
  OverSeeds out;
  for (uint64_t ws = 1; ws <= seeds; ++ws) {
    if (ctx) ctx->report(fmt::format("{} workload seed {}/{}", key.workload, ws, seeds));
    key.workload_seed = ws;
    auto study = cached_study(key);
    if (!study) return study.error();
    out.per_seed.push_back(rt::evaluate_finding(finding, *study));
  }
  out.decision = rt::decide_over_studies(out.per_seed);
  return out;
}

json over_seeds_params(const StudyKey& key, uint64_t seeds) {
  json p = key.to_json();
  p.erase("workload_seed");
  p["workload_seeds"] = seeds;
  return p;
}

MethodResult finding_method(const RunContext& ctx, const std::string& finding, const std::string& workload) {
  MethodResult r;
  r.method = Method::kRandom;
  StudyKey key;
  key.workload = workload;
  auto over = finding_over_seeds(finding, key, scope::kWorkloadSeeds, &ctx);
  if (!over) {
    r.outcome = Outcome::kError;
    r.detail = over.error().message;
    return r;
  }
  r.cases = scope::kWorkloadSeeds;
  std::vector<uint64_t> reproduced, not_reproduced;
  for (uint64_t ws = 1; ws <= scope::kWorkloadSeeds; ++ws)
    (over->per_seed[ws - 1].reproduced ? reproduced : not_reproduced).push_back(ws);
  const rt::FindingOverStudies& d = over->decision;
  // The effect sizes (every figure's mean and interval) are in the scope, so the report shows
  // them whatever the verdict.
  r.scope = fmt::format("Q_{}, {} seeds 1..{} (default parameters), 44 cases x {} repetitions (simulator seeds {}..{}); "
                        "test: two-sided 95% Student t interval over the {} per-seed figures (holds: every interval in "
                        "its region; refuted: one entirely outside; else inconclusive): {}; per seed, as a point "
                        "verdict: reproduced on [{}], not on [{}]",
                        scope::kStudyDim, workload, scope::kWorkloadSeeds, scope::kStudyReps, scope::kStudySeed,
                        scope::kStudySeed + scope::kStudyReps - 1, scope::kWorkloadSeeds, d.detail,
                        fmt::join(reproduced, ","), fmt::join(not_reproduced, ","));
  r.detail = d.detail;
  switch (d.verdict) {
    case rt::StudiesVerdict::kReproduced: r.outcome = Outcome::kHolds; break;
    case rt::StudiesVerdict::kInconclusive:
      r.outcome = Outcome::kInconclusive;
      r.detail = "a 95% interval straddles its threshold: " + d.detail;
      break;
    case rt::StudiesVerdict::kNotReproduced: {
      r.outcome = Outcome::kRefuted;
      Counterexample cx;
      cx.params = over_seeds_params(key, scope::kWorkloadSeeds);
      cx.input = {{"finding", finding}};
      cx.violation = fmt::format("over workload seeds 1..{}: {}", scope::kWorkloadSeeds, d.detail);
      cx.witness = d.to_json();
      cx.minimized = true;  // the protocol's seeds; nothing to shrink
      r.counterexample = cx;
      r.detail = cx.violation;
      break;
    }
  }
  return r;
}

Result<CaseCheck> finding_case(const std::string& finding, const json& params) {
  if (!params.is_object() || !params.contains("workload_seeds") || !params.at("workload_seeds").is_number_unsigned())
    return invalid_argument("params.workload_seeds: missing (the number of workload instances 1..k the interval is over)");
  const uint64_t seeds = params.at("workload_seeds").get<uint64_t>();
  if (seeds < 2 || seeds > 100) return invalid_argument("params.workload_seeds: outside 2..100");
  json one = params;
  one.erase("workload_seeds");
  one["workload_seed"] = 1;
  auto key = study_key_from(one);
  if (!key) return key.error();
  auto over = finding_over_seeds(finding, *key, seeds, nullptr);
  if (!over) return over.error();
  CaseCheck cc;
  if (over->decision.verdict == rt::StudiesVerdict::kNotReproduced)
    cc.violation = fmt::format("over workload seeds 1..{}: {}", seeds, over->decision.detail);
  cc.witness = over->decision.to_json();
  return cc;
}

void add_finding_claims(Registry& registry) {
  struct Spec {
    const char* name;
    const char* location;
    const char* statement;
  };
  const Spec specs[] = {
      {"dynamic_faster", "Section 4, Figures 3-4 (lost); Abstract",
       "'Not surprisingly, dynamic routing performs better than static routing' (for every scheme and link kind)"},
      {"factor_two", "Section 4; Abstract; Section 5",
       "'At best, the improvement is by a factor of two' (dynamic over static; 'up to twice as efficient')"},
      {"scheme_e_best", "Section 4",
       "'the best results occur when priority is given to messages with the lowest sequence number (Scheme E). Results "
       "almost as good are obtained when priority is given to messages with the fewer number of hops, either in the "
       "original message (Scheme A) or remaining to be traversed (Scheme C)'"},
      {"uni_gain", "Section 4, Figure 5 (lost); Section 5",
       "'two unidirectional links [...] improve throughput over one bidirectional link [...] the improvement is rarely "
       "of the order of more than fifteen per cent, and is usually much smaller'"},
  };
  for (const Spec& s : specs) {
    std::vector<Reading> readings;
    for (const std::string& workload : rt::builtin_workload_names()) {
      Reading r;
      r.name = workload;
      // The tolerance is the finding's, stated once in study.h and in each verdict.
      r.description = fmt::format("on the {} workload: the finding's figures (routing/study.h's tolerance), each judged "
                                  "by a 95% Student t interval over the workload instances", workload);
      const std::string name = s.name;
      r.methods.emplace_back(Method::kRandom, [name, workload](const RunContext& ctx) {
        return finding_method(ctx, name, workload);
      });
      r.check_case = [name](const json& params, const json&) { return finding_case(name, params); };
      readings.push_back(std::move(r));
    }
    add_claim(registry, fmt::format("routing.sec4.{}", s.name), s.location, s.statement, std::move(readings),
              /*empirical=*/true);
  }
}

// ---- the simulator's contract as properties -----------------------------------------------

// Runs one input with its trace; the violation of one of `rules` (or, honestly reported, of an
// earlier rule that masks them), or nullopt. `deterministic` instead compares two runs.
struct SimVerdict {
  std::optional<std::string> violation;
  json witness = json::object();
};

Result<SimVerdict> judge(const SimInput& in, const std::vector<rt::TraceRule>& rules, bool deterministic) {
  auto run = run_input(in);
  if (!run) return SimVerdict{fmt::format("the run fails: {}", run.error().message), {}};
  const rt::SimResult& r = run->result;
  SimVerdict v;
  v.witness = {{"running_time", r.running_time}, {"messages", r.messages}, {"hops", r.hops}};
  if (deterministic) {
    auto again = run_input(in);
    if (!again) return SimVerdict{fmt::format("the second run fails: {}", again.error().message), {}};
    if (rt::to_json(again->result) != rt::to_json(r) || rt::trace_to_json(*again->result.trace) != rt::trace_to_json(*r.trace))
      v.violation = fmt::format("two runs with seed {} differ (running times {} and {})", in.seed, r.running_time,
                                again->result.running_time);
    return v;
  }
  auto bad = rt::check_trace_rules(run->net, run->workload, run->config, r);
  if (!bad) return v;
  const bool mine = std::find(rules.begin(), rules.end(), bad->rule) != rules.end();
  v.violation = mine ? bad->message
                     : fmt::format("undecided: rule '{}' is broken first: {}", rt::to_string(bad->rule), bad->message);
  return v;
}

MethodResult invariant_method(const RunContext& ctx, std::vector<rt::TraceRule> rules, std::optional<rt::Routing> only,
                              bool deterministic) {
  RandomSpec<SimInput> spec{sim_input_gen(scope::kRandomMaxDim.at(ctx.budget), only)};
  spec.cases = scope::kRandomCases.at(ctx.budget);
  spec.scope = fmt::format("Q_1..Q_{}, the three built-in workloads with random seeds, {} routing, both link kinds, "
                           "schemes A-K, both scheme readings, random simulator seeds; judged by routing/trace_check.h",
                           scope::kRandomMaxDim.at(ctx.budget), only ? rt::to_string(*only) : std::string("static and dynamic"));
  spec.check = [rules, deterministic](const SimInput& in) -> std::optional<Counterexample> {
    auto v = judge(in, rules, deterministic);
    if (v && !v->violation) return std::nullopt;
    Counterexample cx;
    cx.params = {{"dim", in.dim}};
    cx.input = input_json(in);
    cx.violation = v ? *v->violation : v.error().message;
    if (v) cx.witness = v->witness;
    return cx;
  };
  return run_random(ctx, spec);
}

void add_invariant_claims(Registry& registry) {
  struct Spec {
    const char* id;
    const char* location;
    const char* statement;
    std::vector<rt::TraceRule> rules;
    std::optional<rt::Routing> only;
    bool deterministic;
  };
  using R = rt::TraceRule;
  const std::vector<Spec> specs = {
      {"routing.sim.delivered_once", "Section 3 (the simulator)",
       "every generated message is delivered exactly once, at its destination, and never moves afterwards",
       {R::kMessages, R::kWalk, R::kDelivery}, std::nullopt, false},
      {"routing.sim.processes_complete", "Section 1 (DAGs of processes); Section 3 (generation phase)",
       "every process fires exactly once, in the cycle after its last message arrives (sources in cycle 1)",
       {R::kFiring}, std::nullopt, false},
      {"routing.sec1.static_ecube", "Section 1",
       "static routing sends every message along the e-cube path: each hop flips the rightmost differing bit",
       {R::kEcube}, rt::Routing::kStatic, false},
      {"routing.sec2.dynamic_minimal", "Section 2",
       "dynamic routing only uses dimensions in which the message must still travel: every hop reduces the distance "
       "to the destination by one",
       {R::kMinimal}, rt::Routing::kDynamic, false},
      {"routing.sec2.blocked_only_when_busy", "Section 2; Section 3",
       "'Only if the links in all j of the dimensions in which the message must still travel are in use can the message "
       "be considered to be blocked' (static: its one link)",
       {R::kWorkConservation}, std::nullopt, false},
      {"routing.sec2.link_capacity", "Section 2 (third aspect)",
       "a bidirectional link carries one message per cycle; each of two unidirectional links carries one per cycle",
       {R::kCapacity}, std::nullopt, false},
      {"routing.sec3.one_hop_per_cycle", "Section 3",
       "store-and-forward, one hop per message per cycle at most",
       {R::kOneHop}, std::nullopt, false},
      {"routing.sec3.priority_order", "Section 3; Figure 2 (the scheme list)",
       "'after shuffling the contents of a buffer the first message of highest priority is transmitted next': no message "
       "loses a link it may take to a message of strictly lower priority at its node",
       {R::kPriority}, std::nullopt, false},
      {"routing.sec3.deterministic", "Section 3 (seeded shuffling)",
       "the same seed gives the same run (every firing and hop)", {}, std::nullopt, true},
  };
  for (const Spec& s : specs) {
    Reading r;
    r.name = "literal";
    r.description = s.statement;
    const auto rules = s.rules;
    const auto only = s.only;
    const bool det = s.deterministic;
    r.methods.emplace_back(Method::kRandom, [rules, only, det](const RunContext& ctx) {
      return invariant_method(ctx, rules, only, det);
    });
    r.check_case = [rules, det](const json& params, const json& input) -> Result<CaseCheck> {
      auto in = input_from(params, input);
      if (!in) return in.error();
      auto v = judge(*in, rules, det);
      if (!v) return v.error();
      CaseCheck cc;
      cc.violation = v->violation;
      cc.witness = v->witness;
      return cc;
    };
    std::vector<Reading> readings;
    readings.push_back(std::move(r));
    add_claim(registry, s.id, s.location, s.statement, std::move(readings), /*empirical=*/false);
  }
}

// ---- finite buffers: deadlock (which the paper sets aside) -------------------------------

// The cubes, buffer sizes and search limits per budget: catalog/routing/scope.h.
MethodResult deadlock_method(const RunContext& ctx, rt::Routing routing, rt::BufferModel buffers) {
  MethodResult r;
  r.method = Method::kExhaustive;
  const rt::DeadlockSearchLimits limits = scope::deadlock_limits().at(ctx.budget);
  std::vector<std::string> scopes;
  bool inconclusive = false;
  // Smallest first: n, then B; the first deadlock found is the counterexample.
  for (int n = 2; n <= scope::kDeadlockMaxN.at(ctx.budget); ++n)
    for (int b = 1; b <= scope::kDeadlockMaxB.at(ctx.budget); ++b) {
      ctx.report(fmt::format("Q_{} B = {}", n, b));
      auto net = rt::Network::hypercube(n);
      rt::DeadlockModel model;
      model.routing = routing;
      model.buffers = buffers;
      model.capacity = b;
      const rt::DeadlockSearchResult res = rt::search_deadlock(*net, model, limits);
      ++r.cases;
      scopes.push_back(fmt::format("Q_{} B={}: {}", n, b, res.scope));
      if (res.verdict == rt::DeadlockVerdict::kInconclusive) inconclusive = true;
      if (res.verdict == rt::DeadlockVerdict::kFound) {
        // Judged again here by the naive checker: a search is never its own judge.
        if (auto bad = rt::check_deadlock_witness(*net, *res.witness)) {
          r.outcome = Outcome::kError;
          r.detail = "the search's witness is rejected by the checker: " + *bad;
          return r;
        }
        Counterexample cx;
        cx.params = {{"n", n}, {"capacity", b}, {"routing", rt::to_string(routing)}, {"buffers", rt::to_string(buffers)}};
        cx.input = {{"witness", rt::to_json(*res.witness)}};
        cx.violation = fmt::format("a reachable deadlock of {} messages: {}", res.witness->messages.size(),
                                   rt::to_string(*res.witness));
        cx.witness = {{"text", rt::to_string(*res.witness)}};
        cx.minimized = true;  // fewest messages, then fewest moves, at the smallest n and B
        r.counterexample = cx;
        r.outcome = Outcome::kRefuted;
        r.detail = fmt::format("Q_{}, B = {}: {} messages deadlock after {} moves", n, b, res.witness->messages.size(),
                               res.witness->moves.size());
        r.scope = fmt::format("{}", fmt::join(scopes, "; "));
        return r;
      }
    }
  r.scope = fmt::format("{}", fmt::join(scopes, "; "));
  r.outcome = inconclusive ? Outcome::kInconclusive : Outcome::kHolds;
  if (inconclusive) r.detail = "the state limit was reached before the search completed";
  return r;
}

// Dally and Seitz: per-link (channel) buffers and an acyclic channel dependency graph give
// deadlock freedom for every number of messages. The e-cube graph is built by core/graph.h from
// hypercube::ecube_route and tested with Boost's strong components.
MethodResult ecube_cdg_oracle(const RunContext& ctx) {
  MethodResult r;
  r.method = Method::kOracle;
  const int max_n = scope::kEcubeDependencyMaxN.at(ctx.budget);
  r.scope = fmt::format("Q_1..Q_{}: the channel dependency graph of e-cube routing is acyclic (Boost strong components), "
                        "so per-link buffers cannot deadlock (Dally-Seitz)", max_n);
  for (int n = 1; n <= max_n; ++n) {
    ++r.cases;
    auto q = hypercube::Hypercube::make(n);
    const ChannelIndex channels(*q);
    const auto deps = route_dependencies(*q, channels, [](Node a, Node b) { return hypercube::ecube_route(a, b).nodes; });
    if (auto cycle = find_dependency_cycle(channels.size(), deps)) {
      r.outcome = Outcome::kRefuted;
      r.detail = fmt::format("Q_{}: the e-cube channel dependency graph has a cycle of {} channels", n, cycle->size());
      Counterexample cx;
      cx.params = {{"n", n}, {"capacity", 1}, {"routing", "static"}, {"buffers", "per_link"}};
      cx.input = {{"cycle_length", cycle->size()}};
      cx.violation = r.detail;
      r.counterexample = cx;
      return r;
    }
  }
  r.outcome = Outcome::kHolds;
  return r;
}

void add_deadlock_claim(Registry& registry) {
  std::vector<Reading> readings;
  for (rt::Routing routing : {rt::Routing::kStatic, rt::Routing::kDynamic})
    for (rt::BufferModel buffers : {rt::BufferModel::kPerNode, rt::BufferModel::kPerLink}) {
      Reading r;
      r.name = fmt::format("{}_{}", rt::to_string(routing), rt::to_string(buffers));
      r.description = fmt::format(
          "{} routing with {} buffers of B messages (store-and-forward, moves interleaved one at a time, injection "
          "queues unbounded, delivery always possible): no reachable state is deadlocked",
          rt::to_string(routing), buffers == rt::BufferModel::kPerNode ? "one pool per node" : "one pool per directed link");
      r.methods.emplace_back(Method::kExhaustive, [routing, buffers](const RunContext& ctx) {
        return deadlock_method(ctx, routing, buffers);
      });
      if (routing == rt::Routing::kStatic && buffers == rt::BufferModel::kPerLink)
        r.methods.emplace_back(Method::kOracle, ecube_cdg_oracle);
      r.check_case = [](const json& params, const json& input) -> Result<CaseCheck> {
        if (!input.is_object() || !input.contains("witness")) return invalid_argument("input.witness: missing");
        auto w = rt::witness_from_json(input.at("witness"), "input.witness");
        if (!w) return w.error();
        auto net = rt::Network::hypercube(w->n);
        if (!net) return net.error();
        if (params.value("n", 0) != w->n || params.value("capacity", 0) != w->model.capacity)
          return invalid_argument("params n / capacity disagree with the witness");
        CaseCheck cc;
        // The claim (deadlock freedom) fails on this input iff the witness is a real deadlock.
        if (auto bad = rt::check_deadlock_witness(*net, *w)) {
          cc.witness = {{"not_a_deadlock", *bad}};
        } else {
          cc.violation = fmt::format("a reachable deadlock of {} messages: {}", w->messages.size(), rt::to_string(*w));
        }
        return cc;
      };
      readings.push_back(std::move(r));
    }
  add_claim(registry, "routing.sec1.finite_buffers_deadlock_free", "Section 1 ('we ignore the problem of deadlock caused "
            "by full message buffers [3]')",
            "with finite buffers, static and dynamic routing cannot deadlock (the paper sets the question aside; checked "
            "on Q_2..Q_4 with B = 1, 2)",
            std::move(readings), /*empirical=*/false);
}

}  // namespace

void register_routing_claims(Registry& registry) {
  add_invariant_claims(registry);
  add_finding_claims(registry);
  add_deadlock_claim(registry);
}

}  // namespace topocheck::claims
