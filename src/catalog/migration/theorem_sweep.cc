// Theorems 1 and 2, judged plan by plan (see catalog/migration/theorem_sweep.h).
#include "catalog/migration/theorem_sweep.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "catalog/migration/inputs.h"
#include "catalog/migration/scope.h"
#include "claims/random_method.h"
#include "migration/migration_checks.h"
#include "migration/migration_gen.h"
#include "migration/migration_oracle.h"
#include "migration/packings.h"
#include "migration/plan_classes.h"

namespace topocheck::claims::migration_parts {

using migration::Disjointness;
using migration::Instance;
using migration::Params;
using migration::Plan;
using nlohmann::json;

namespace {

namespace scope = migration_scope;
using migration::all_sequences;

bool in_situation(const Instance& inst, Situation s) { return (inst.zeta() == 1) == (s == Situation::k42); }

// Every input of the procedure for one instance but the sequence, one per plan class (see the
// header comment): the witness packing of the class is the input's blocks, ext_sequence is left
// empty for the caller to set. `visit` returns true to stop.
bool for_each_base_input(const Instance& inst,
                         const std::function<bool(const Input&, const migration::PlanClass&)>& visit) {
  for (const Params& base : migration::parameter_grid(inst))
    if (migration::for_each_plan_class(inst, base, [&](const migration::PlanClass& cls) {
          return visit(Input{inst, base, cls.witness}, cls);
        }))
      return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Theorem checks, judged on one plan.

using PlanCheck = std::function<Violation(const Plan&)>;

// Whether a plan gives a check anything to judge (MethodResult::applicable counts such inputs).
using PlanPremise = std::function<bool(const Plan&)>;

struct TheoremCheck {
  std::string name;
  PlanCheck check;
  bool x_dependent = false;  // Section 4.2: judged separately per reading of X
  // The verdict depends on block links the plan does not (the oracle); it is monotone (more
  // block links, fewer block-free paths) and only asked where the plan leaves a node short, so
  // the sweep asks it on every locally minimal packing of such a class.
  bool needs_packings = false;
  PlanPremise applies;  // null: every plan
  // Section 4.2's broadcast sequence ("(in any sequence)") is judged both ways: for every allowed
  // sequence (key "<name>@X") and for some (key "<name>~some@X": per input, some assignment of
  // a sequence to each B avoids the violation).
  bool sequence_quantified = false;
};

uint64_t path_count(const Plan& p) {
  uint64_t n = 0;
  for (const auto& np : p.nodes) n += np.paths.size();
  return n;
}
bool has_paths(const Plan& p) { return path_count(p) > 0; }
bool has_pair(const Plan& p) {
  return std::any_of(p.nodes.begin(), p.nodes.end(), [](const auto& np) { return np.paths.size() >= 2; });
}
bool has_paths_of_two_nodes(const Plan& p) {
  return std::count_if(p.nodes.begin(), p.nodes.end(), [](const auto& np) { return !np.paths.empty(); }) >= 2;
}
bool leaves_node_short(const Plan& p) { return migration::check_plan_complete(p).has_value(); }

// For a node with fewer than two paths: is a further block-free path disjoint from all the
// chosen ones findable (Boost BFS)? The procedure's promise says no.
Violation absence_is_real(const Plan& plan, Disjointness d) {
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const auto& np = plan.nodes[i];
    if (np.u == np.target || np.paths.size() >= 2) continue;
    if (auto path = migration::second_path_with_others_fixed(plan, i, d))
      return fmt::format("node {}: the procedure reports \"{}\", yet {} is block-free and {}-disjoint from every chosen path",
                         np.u, np.missing, *path, migration::to_string(d));
  }
  return std::nullopt;
}

std::vector<TheoremCheck> theorem_checks(Situation s) {
  std::vector<TheoremCheck> out;
  const bool x = s == Situation::k42;
  out.push_back({"valid", migration::check_plan_paths_valid, x, false, has_paths});
  out.push_back({"complete", migration::check_plan_complete, x, false, nullptr});
  if (s == Situation::k42)
    out.push_back({"complete-under-proviso",
                   [](const Plan& p) -> Violation {
                     return migration::proviso_holds(p) ? migration::check_plan_complete(p) : std::nullopt;
                   },
                   x, false, [](const Plan& p) { return migration::proviso_holds(p); }});
  out.push_back({"hamming-succeeds",
                 [](const Plan& p) -> Violation {
                   for (const auto& np : p.nodes)
                     if (np.hamming_failed) return fmt::format("node {}: {}", np.u, np.missing);
                   return std::nullopt;
                 },
                 x, false, nullptr});
  for (Disjointness d : migration::kAllDisjointness) {
    out.push_back({"pairs-" + migration::to_string(d), [d](const Plan& p) { return migration::check_plan_pairs_disjoint(p, d); },
                   x, false, has_pair, x});
    out.push_back({"all-" + migration::to_string(d), [d](const Plan& p) { return migration::check_plan_all_disjoint(p, d); },
                   x, false, has_paths_of_two_nodes, x});
    out.push_back({"absence-" + migration::to_string(d), [d](const Plan& p) { return absence_is_real(p, d); }, x, true,
                   leaves_node_short});
  }
  out.push_back({"no-block-link", migration::check_plan_no_block_link, x, false, has_paths});
  out.push_back({"t-links", migration::check_plan_t_links, x, false, has_paths});
  out.push_back({"length", migration::check_plan_length, x, false, has_paths});
  return out;
}

// Section 4.2, "for some allowed sequence": is there an assignment of a broadcast sequence to
// each B (q's choice, made after p; "(in any sequence)") under which a check finds nothing? The
// policies x-last and x-first (over the ascending sequence) are tried first and reported; then
// every assignment of the beta! orders to the 2^gamma B's, up to `max_assignments` of them. The
// plans are computed once per base input and shared by every check (SequencePlans).
class SequencePlans {
 public:
  SequencePlans(const Input& base, uint64_t max_assignments)
      : base_(base), sequences_(all_sequences(base.inst.DTmS)), bs_(size_t{1} << base.inst.gamma()) {
    total_ = 1;
    for (size_t b = 0; b < bs_ && total_ <= max_assignments; ++b) total_ *= sequences_.size();
    too_many_ = total_ > max_assignments;
  }
  const Plan& policy(migration::SequencePolicy pol) {
    auto& slot = pol == migration::SequencePolicy::kXLast ? x_last_ : x_first_;
    if (!slot) {
      Params p = base_.params;
      p.per_b_sequence.clear();
      p.ext_sequence = migration::dims_of(base_.inst.DTmS);
      p.seq_policy = pol;
      slot = migration::migrate(base_.inst, base_.blocks, p);
    }
    return *slot;
  }
  bool too_many() const { return too_many_; }
  uint64_t total() const { return total_; }
  // Assignment i (mixed radix over the B's, B 0 fastest).
  const Plan& assignment(uint64_t i) {
    if (plans_.size() <= i) plans_.resize(i + 1);
    if (!plans_[i]) plans_[i] = migration::migrate(base_.inst, base_.blocks, params_of(i));
    return *plans_[i];
  }
  Params params_of(uint64_t i) const {
    Params p = base_.params;
    p.seq_policy = migration::SequencePolicy::kAsGiven;
    p.per_b_sequence.clear();
    for (size_t b = 0; b < bs_; ++b, i /= sequences_.size()) p.per_b_sequence.push_back(sequences_[i % sequences_.size()]);
    return p;
  }

 private:
  const Input& base_;
  std::vector<std::vector<int>> sequences_;
  size_t bs_;
  uint64_t total_ = 1;
  bool too_many_ = false;
  std::optional<Plan> x_last_, x_first_;
  std::vector<std::optional<Plan>> plans_;
};

struct SomeSequence {
  bool decided = true;   // false: too many assignments to try, and neither policy worked
  Violation violation;   // set when every assignment fails
  bool x_last_ok = false, x_first_ok = false;
  uint64_t assignments = 0;  // tried
  Plan shown_plan;           // the first failing plan (assignment 0) when violated
  // When violated: shown_plan's JSON with "every_assignment", the failing plan of every allowed
  // assignment, so that an independent checker can confirm that no allowed sequence works.
  json witness;
};

SomeSequence some_sequence(SequencePlans& plans, const PlanCheck& check) {
  SomeSequence out;
  // x-first is tried only where x-last fails (x_first_ok false otherwise: not needed, not tried).
  out.x_last_ok = !check(plans.policy(migration::SequencePolicy::kXLast));
  if (out.x_last_ok) return out;
  out.x_first_ok = !check(plans.policy(migration::SequencePolicy::kXFirst));
  if (out.x_first_ok) return out;
  if (plans.too_many()) {
    out.decided = false;
    return out;
  }
  std::vector<std::string> shown;
  json every = json::array();
  for (uint64_t i = 0; i < plans.total(); ++i) {
    ++out.assignments;
    const Plan& plan = plans.assignment(i);
    const Violation v = check(plan);
    if (!v) return out;
    if (i == 0) out.shown_plan = plan;
    every.push_back(plan.to_json());
    if (shown.size() < 4) {
      std::vector<std::string> per_b;
      for (const auto& seq : plans.params_of(i).per_b_sequence) per_b.push_back(fmt::format("{}", fmt::join(seq, ",")));
      shown.push_back(fmt::format("sequence per B [{}]: {}", fmt::join(per_b, " | "), *v));
    }
  }
  out.violation = fmt::format(
      "under every one of the {} allowed choices of the broadcast sequences (one per B; x-last and x-first "
      "included) the violation remains; {}{}",
      out.assignments, fmt::join(shown, "; "), out.assignments > shown.size() ? "; ..." : "");
  out.witness = out.shown_plan.to_json();
  out.witness["every_assignment"] = std::move(every);
  return out;
}

struct SweepOutcome {
  uint64_t cases = 0;
  uint64_t applicable = 0;
  uint64_t x_last_fails = 0, x_first_fails = 0;  // "~some" keys: inputs where the policy alone fails
  std::optional<Counterexample> counterexample;
};

// One sweep per (situation, budget): every theorem check on every input, until each check has
// its first counterexample. Keys: check name, plus "@D_g"/"@D_f" for X-dependent checks.
struct SweepResults {
  std::map<std::string, SweepOutcome> by_check;
  std::string scope;
  std::string shard;  // MethodResult::shard: the slice swept, in a shard
};

std::string x_name(migration::XReading x) { return x == migration::XReading::kDg ? "D_g" : "D_f"; }

constexpr const char* kSome = "~some";

std::vector<std::string> sweep_keys(const std::vector<TheoremCheck>& checks) {
  std::vector<std::string> keys;
  for (const auto& c : checks) {
    if (c.x_dependent) {
      for (const char* x : {"@D_g", "@D_f"}) {
        keys.push_back(c.name + x);
        if (c.sequence_quantified) keys.push_back(c.name + kSome + x);
      }
    } else {
      keys.push_back(c.name);
    }
  }
  return keys;
}

// One (situation, budget) sweep, shared by the runner threads that ask for it: each takes the
// next (S, T) from the queue (every n, in sweep order) and judges all its inputs. A check is
// judged on an instance until its first violation there, and skipped on instances after the
// earliest violating one found so far; merging in instance order then gives the same verdicts,
// case counts and first counterexamples as one thread sweeping in order.
class SharedSweep {
 public:
  // With a shard, only its range of the instances (every n, in sweep order) is judged.
  SharedSweep(Situation s, int max_n, std::optional<Shard> shard)
      : s_(s), max_n_(max_n), checks_(theorem_checks(s)), keys_(sweep_keys(checks_)) {
    std::vector<std::pair<uint64_t, double>> segments;
    for (int n = 1; n <= max_n; ++n)
      for_each_instance(n, [&](const Instance& inst) {
        if (in_situation(inst, s)) {
          instances_.push_back(inst);
          segments.emplace_back(1, instance_cost(inst));
        }
        return false;
      });
    per_instance_.resize(instances_.size());
    for (size_t k = 0; k < keys_.size(); ++k) earliest_.emplace_back(SIZE_MAX);
    last_ = instances_.size();
    if (shard) {
      std::tie(first_, last_) = shard->range_by_cost(segments);
      shard_ = fmt::format("{}, (S, T) [{}, {}) of {}", shard->to_string(), first_, last_, instances_.size());
    }
    next_ = first_;
  }

  // The estimated cost of judging one (S, T), for Shard::range_by_cost: (parameter choices) x
  // (sequences) x d! for the Hamming paths of a HAMMING-PATH call, d = |C| + |D(S)-D(T)|, divided
  // by 16 per dimension fixed and equal in S and T (which shrinks the room for blocks outside
  // them, and with it the plan classes). Fitted to the measured time of every (S, T) up to n = 5
  // (bench/README.md, "Shards cut by cost"); more nodes in S do not cost more, as S's nodes also
  // take room from the blocks.
  static double instance_cost(const Instance& inst) {
    const double grid = static_cast<double>(migration::parameter_grid(inst).size());
    const double sequences = static_cast<double>(migration::all_sequences(inst.DTmS).size());
    const int d = inst.zeta() + inst.beta();
    double paths = 1;
    for (int i = 2; i <= d; ++i) paths *= i;
    const int fixed_equal = std::popcount(inst.I & ~(inst.DS & inst.DT));
    return grid * sequences * paths / std::pow(16.0, fixed_equal);
  }

  const std::string& shard() const { return shard_; }

  // Works until the queue is empty.
  void work(const RunContext& ctx) {
    for (size_t i; (i = next_.fetch_add(1)) < last_;) {
      // Every instance (the progress line throttles itself): at n = 5 one instance is under a
      // second, one n is minutes.
      ctx.report(fmt::format("migration sweep (Section {}) n = {}/{}: (S, T) {} of {} ({:.0f}%)",
                             s_ == Situation::k41 ? "4.1" : "4.2", instances_[i].n, max_n_, i + 1, instances_.size(),
                             100.0 * static_cast<double>(i + 1) / static_cast<double>(instances_.size())));
      per_instance_[i] = judge(i);
    }
  }

  SweepResults merge() const {
    SweepResults res;
    uint64_t inputs = 0;
    for (const auto& k : keys_) res.by_check[k];
    for (size_t i = first_; i < last_; ++i) {
      const InstanceResult& r = per_instance_[i];
      inputs += r.inputs;
      for (size_t k = 0; k < keys_.size(); ++k) {
        SweepOutcome& o = res.by_check[keys_[k]];
        if (o.counterexample) continue;
        o.cases += r.outcome[k].cases;
        o.applicable += r.outcome[k].applicable;
        o.x_last_fails += r.outcome[k].x_last_fails;
        o.x_first_fails += r.outcome[k].x_first_fails;
        if (r.outcome[k].counterexample) o.counterexample = r.outcome[k].counterexample;
      }
    }
    res.scope = fmt::format(
        "n = 1..{}, every (S, T) of equal dimension with {}, every alpha, tie-break, k{}, every block packing and "
        "sequence (for '-some-seq' readings: some assignment of a sequence to each B, per input); packings by plan class (the outcomes of the procedure's HAMMING-PATH calls, each run on a witness "
        "packing; the BFS oracle on every locally minimal packing of a class that leaves a node short) ({} inputs)",
        max_n_, s_ == Situation::k41 ? "|C| = 0 or >= 2" : "|C| = 1", s_ == Situation::k42 ? ", pick of p, X" : "",
        inputs);
    return res;
  }

 private:
  struct InstanceResult {
    uint64_t inputs = 0;
    std::vector<SweepOutcome> outcome;  // per key
  };

  InstanceResult judge(size_t index) {
    InstanceResult res;
    res.outcome.resize(keys_.size());
    const auto key_index = [&](const std::string& key) {
      return static_cast<size_t>(std::find(keys_.begin(), keys_.end(), key) - keys_.begin());
    };
    // Per check and reading of X: the key of "every sequence" and (if quantified) of "some".
    std::vector<size_t> every_key(checks_.size() * 2), some_key(checks_.size() * 2, SIZE_MAX);
    for (size_t c = 0; c < checks_.size(); ++c)
      for (int xi = 0; xi < 2; ++xi) {
        const TheoremCheck& tc = checks_[c];
        const std::string x = tc.x_dependent ? std::string("@") + (xi == 0 ? "D_g" : "D_f") : "";
        every_key[2 * c + xi] = key_index(tc.name + x);
        if (tc.sequence_quantified) some_key[2 * c + xi] = key_index(tc.name + kSome + x);
      }
    auto record = [&](size_t k, const Input& shown, json witness, const std::string& violation) {
      Counterexample cx;
      cx.params = {{"n", shown.inst.n}};
      cx.input = input_json(shown);
      cx.violation = violation;
      cx.witness = std::move(witness);
      cx.minimized = true;
      res.outcome[k].counterexample = std::move(cx);
      for (size_t seen = earliest_[k].load(); index < seen && !earliest_[k].compare_exchange_weak(seen, index);) {
      }
    };
    auto open = [&](size_t k) { return !res.outcome[k].counterexample && earliest_[k].load() >= index; };
    const auto sequences = all_sequences(instances_[index].DTmS);
    for_each_base_input(instances_[index], [&](const Input& base, const migration::PlanClass& cls) {
      const int xi = base.params.x_reading == migration::XReading::kDf ? 1 : 0;
      // For every sequence (shared by every B): the plain checks.
      for (const auto& seq : sequences) {
        Input in = base;
        in.params.ext_sequence = seq;
        ++res.inputs;
        const Plan plan = migration::migrate(in.inst, in.blocks, in.params);
        const bool short_of_paths = leaves_node_short(plan);
        for (size_t ci = 0; ci < checks_.size(); ++ci) {
          const TheoremCheck& c = checks_[ci];
          const size_t k = every_key[2 * ci + xi];
          if (!open(k)) continue;
          ++res.outcome[k].cases;
          if (!c.applies || c.applies(plan)) ++res.outcome[k].applicable;
          Input shown = in;
          Plan shown_plan;
          Violation v;
          if (c.needs_packings && short_of_paths) {
            migration::for_each_minimal_packing(in.inst, in.params, cls.script, [&](const migration::Blocks& blocks) {
              Plan p = migration::migrate(in.inst, blocks, in.params);
              if ((v = c.check(p))) {
                shown.blocks = blocks;
                shown_plan = std::move(p);
                return true;
              }
              return false;
            });
          } else if ((v = c.check(plan))) {
            shown_plan = plan;
          }
          if (v) record(k, shown, shown_plan.to_json(), *v);
        }
      }
      // For some sequence: per base input, over every assignment of sequences to the B's.
      SequencePlans plans(base, scope::kSomeSequenceMaxAssignments);
      for (size_t ci = 0; ci < checks_.size(); ++ci) {
        const size_t k = some_key[2 * ci + xi];
        if (k == SIZE_MAX || !open(k)) continue;
        const TheoremCheck& c = checks_[ci];
        ++res.outcome[k].cases;
        const SomeSequence some = some_sequence(plans, c.check);
        TC_CHECK(some.decided, "some-sequence sweep: too many sequence assignments for the exhaustive sweep");
        if (!c.applies || c.applies(plans.policy(migration::SequencePolicy::kXLast))) ++res.outcome[k].applicable;
        res.outcome[k].x_last_fails += !some.x_last_ok;
        res.outcome[k].x_first_fails += !some.x_last_ok && !some.x_first_ok;
        if (some.violation) record(k, base, some.witness, *some.violation);
      }
      return false;
    });
    return res;
  }

  Situation s_;
  int max_n_;
  std::vector<TheoremCheck> checks_;
  std::vector<std::string> keys_;
  std::vector<Instance> instances_;
  size_t first_ = 0, last_ = 0;  // the instances this sweep judges (a shard's range, or all)
  std::string shard_;             // "2/8, (S, T) [a, b) of c" in a shard
  std::vector<InstanceResult> per_instance_;
  std::deque<std::atomic<size_t>> earliest_;  // per key: the first instance known to violate it
  std::atomic<size_t> next_{0};
};

// Each (situation, budget) sweep runs once per process. A runner thread asking for a sweep
// that is running joins it (SharedSweep) instead of waiting idle: the runner hands out the
// Theorem 1 readings first, so with two jobs both work on Section 4.1, then both on 4.2.
const SweepResults& sweep_results(const RunContext& ctx, Situation s) {
  struct Slot {
    std::unique_ptr<SharedSweep> sweep;
    int workers = 0;
    bool done = false;
    SweepResults results;
  };
  static std::mutex mutex;
  static std::condition_variable finished;
  static std::map<std::tuple<int, int, int, int>, Slot> cache;  // map nodes do not move
  const int max_n = scope::kTheoremMaxN.at(ctx.budget);
  std::unique_lock<std::mutex> lock(mutex);
  const Shard shard = ctx.shard.value_or(Shard{});
  Slot& slot = cache[{static_cast<int>(s), max_n, shard.index, shard.count}];
  if (!slot.done) {
    if (!slot.sweep) slot.sweep = std::make_unique<SharedSweep>(s, max_n, ctx.shard);
    ++slot.workers;
    lock.unlock();
    slot.sweep->work(ctx);
    lock.lock();
    // The last worker out merges: the queue is empty, so every instance has been judged.
    if (--slot.workers == 0 && !slot.done) {
      slot.results = slot.sweep->merge();
      slot.results.shard = slot.sweep->shard();
      slot.sweep.reset();
      slot.done = true;
      finished.notify_all();
    }
  }
  finished.wait(lock, [&] { return slot.done; });
  return slot.results;
}

MethodResult from_sweep(const RunContext& ctx, Situation s, const std::string& key, Method method) {
  const SweepResults& res = sweep_results(ctx, s);
  const auto it = res.by_check.find(key);
  TC_CHECK(it != res.by_check.end(), "unknown sweep check " + key);
  MethodResult r;
  r.method = method;
  r.scope = res.scope;
  r.shard = res.shard;
  r.cases = it->second.cases;
  r.applicable = it->second.applicable;
  if (key.find(kSome) != std::string::npos)
    r.scope += fmt::format("; the policy x-last (q lists X's dimensions last) alone avoids the violation on {} of {} "
                           "inputs; of the {} where it does not, x-first does on {}",
                           it->second.cases - it->second.x_last_fails, it->second.cases, it->second.x_last_fails,
                           it->second.x_last_fails - it->second.x_first_fails);
  if (it->second.counterexample) {
    r.outcome = Outcome::kRefuted;
    r.counterexample = it->second.counterexample;
    r.detail = it->second.counterexample->violation;
  } else {
    r.outcome = Outcome::kHolds;
  }
  return r;
}

// Random inputs (migration/migration_gen.h: n <= 16, dim(S) <= 8, random blocks, every choice
// random) judged by one theorem check; inputs outside the situation are skipped. For Section
// 4.2 the reading fixes X.
// The check named `name`, judged on one input: for every sequence (the input's own) or, with
// `some`, for some assignment of sequences to the B's. nullopt: nothing found; `applicable` is set
// to whether the check's premise applied; `undecided` when `some` had too many assignments.
struct Judged {
  Violation violation;
  Plan plan;
  bool applicable = true;
  bool undecided = false;
  json witness;  // the plan's JSON (for `some`, violated: with every assignment's plan)
};
Judged judge_input(const TheoremCheck& c, const Input& in, bool some) {
  Judged out;
  if (!some) {
    out.plan = migration::migrate(in.inst, in.blocks, in.params);
    out.applicable = !c.applies || c.applies(out.plan);
    out.violation = c.check(out.plan);
    out.witness = out.plan.to_json();
    return out;
  }
  SequencePlans plans(in, scope::kSomeSequenceMaxAssignments);
  SomeSequence r = some_sequence(plans, c.check);
  out.undecided = !r.decided;
  out.applicable = !c.applies || c.applies(plans.policy(migration::SequencePolicy::kXLast));
  out.violation = r.violation;
  out.plan = r.violation ? std::move(r.shown_plan) : plans.policy(migration::SequencePolicy::kXLast);
  out.witness = r.violation ? std::move(r.witness) : out.plan.to_json();
  return out;
}

const TheoremCheck& theorem_check(Situation s, const std::string& name) {
  static const std::vector<TheoremCheck> k41 = theorem_checks(Situation::k41), k42 = theorem_checks(Situation::k42);
  for (const auto& c : s == Situation::k41 ? k41 : k42)
    if (c.name == name) return c;
  TC_CHECK(false, "unknown theorem check " + name);
  std::abort();
}

// Random inputs (migration/migration_gen.h: n <= 16, dim(S) <= 8, random blocks, every choice
// random) judged by one theorem check; inputs outside the situation are skipped (not
// applicable), as are, for `some`, inputs with more sequence assignments than the scope allows
// on which neither policy works. For Section 4.2 the reading fixes X.
MethodResult random_theorem(const RunContext& ctx, Situation s, const std::string& check,
                            std::optional<migration::XReading> x, bool some) {
  const TheoremCheck& c = theorem_check(s, check);
  RandomSpec<migration::MigrationInput> spec{migration::gen::migration_input(scope::kRandomMaxN, scope::kRandomMaxDim)};
  spec.cases = scope::kRandomCases.at(ctx.budget);
  spec.scope = fmt::format("random inputs with n = 1..{}, dim(S) <= {}, random blocks and choices ({} only{})",
                           scope::kRandomMaxN, scope::kRandomMaxDim,
                           s == Situation::k41 ? "|C| = 0 or >= 2" : "|C| = 1",
                           some ? fmt::format("; some sequence per B, at most {} assignments tried",
                                              scope::kSomeSequenceMaxAssignments)
                                : "");
  uint64_t applicable = 0, undecided = 0;
  spec.check = [&](const migration::MigrationInput& gen_in) -> std::optional<Counterexample> {
    Input in{gen_in.instance(), gen_in.params(), gen_in.blocks};
    if (!in_situation(in.inst, s)) return std::nullopt;
    if (x) in.params.x_reading = *x;
    Judged j = judge_input(c, in, some);
    if (j.undecided) ++undecided;
    if (j.undecided || !j.applicable) return std::nullopt;
    ++applicable;
    if (!j.violation) return std::nullopt;
    Counterexample cx;
    cx.params = {{"n", in.inst.n}};
    if (some) {
      in.params.ext_sequence.clear();
      in.params.per_b_sequence.clear();
    }
    cx.input = input_json(in);
    cx.violation = *j.violation;
    cx.witness = std::move(j.witness);
    return cx;
  };
  MethodResult r = run_random(ctx, spec);
  r.applicable = applicable;
  if (undecided) r.scope += fmt::format(" ({} inputs undecided: too many sequence assignments)", undecided);
  return r;
}

CaseFn plan_case_fn(Situation s, const std::string& name, bool some) {
  return [s, name, some](const json& params, const json& input) -> Result<CaseCheck> {
    (void)params;
    auto in = input_from_json(input);
    if (!in) return in.error();
    if (!in_situation(in->inst, s)) return invalid_argument("input.S/T: not in this claim's situation");
    Judged j = judge_input(theorem_check(s, name), *in, some);
    if (j.undecided) return invalid_argument("input: too many sequence assignments to decide");
    return CaseCheck{j.violation, std::move(j.witness)};
  };
}

Reading theorem_reading(Situation s, const std::string& check, std::optional<migration::XReading> x, bool some,
                        const std::string& name, const std::string& description, Method method = Method::kExhaustive) {
  Reading r;
  r.name = name;
  r.description = description;
  std::string key = check;
  if (some) key += kSome;
  if (x) {
    key += '@';
    key += x_name(*x);
  }
  r.methods.emplace_back(method, [s, key, method](const RunContext& ctx) { return from_sweep(ctx, s, key, method); });
  r.exhaustive_split = method == Method::kExhaustive;
  if (method == Method::kExhaustive)
    r.methods.emplace_back(Method::kRandom,
                           [s, check, x, some](const RunContext& ctx) { return random_theorem(ctx, s, check, x, some); });
  r.check_case = plan_case_fn(s, check, some);
  return r;
}

}  // namespace

CaseFn joint_case_fn(Situation s, Disjointness d) {
  return [s, d](const json&, const json& input) -> Result<CaseCheck> {
    auto in = input_from_json(input);
    if (!in) return in.error();
    if (!in_situation(in->inst, s)) return invalid_argument("input.S/T: not in this reading's situation");
    if (!input.contains("paths")) return invalid_argument("input.paths: the certificate paths are missing");
    auto paths = paths_from_json(input.at("paths"), in->inst.n);
    if (!paths) return invalid_argument("input.paths: " + paths.error().message);
    const Plan plan = migration::migrate(in->inst, in->blocks, in->params);
    const Violation missing = migration::check_plan_complete(plan);
    if (!missing) return CaseCheck{std::nullopt, json{{"note", "the procedure gives every node two paths here"}}};
    // The certificate as a plan of its own, judged like any plan.
    Plan cert = plan;
    size_t next = 0;
    for (auto& np : cert.nodes) {
      np.paths.clear();
      if (np.u == np.target) continue;
      for (int k = 0; k < 2; ++k) {
        if (next >= paths->size()) return CaseCheck{std::nullopt, json{{"note", "the certificate has too few paths"}}};
        np.paths.push_back({migration::PathKind::kAggressive, (*paths)[next++], -1});
      }
    }
    for (const Violation& v : {migration::check_plan_paths_valid(cert), migration::check_plan_complete(cert),
                               migration::check_plan_no_block_link(cert), migration::check_plan_pairs_disjoint(cert, d),
                               migration::check_plan_all_disjoint(cert, d)})
      if (v) return CaseCheck{std::nullopt, json{{"note", "the certificate fails: " + *v}}};
    return CaseCheck{fmt::format("the procedure leaves a node with fewer than two paths ({}), yet the stored paths give "
                                 "every node two, block-free and pairwise {}-disjoint",
                                 *missing, migration::to_string(d)),
                     json{{"plan", plan.to_json()}}};
  };
}

std::vector<Reading> theorem_readings(Situation s, const std::string& check, const std::string& words,
                                      const std::string& name_prefix, Method method) {
  std::vector<Reading> out;
  if (s == Situation::k41) {
    out.push_back(theorem_reading(s, check, std::nullopt, false, name_prefix.empty() ? "as-printed" : name_prefix,
                                  words, method));
    return out;
  }
  const bool quantified = theorem_check(s, check).sequence_quantified;
  for (auto x : {migration::XReading::kDg, migration::XReading::kDf}) {
    const std::string xw = x == migration::XReading::kDg
                               ? "; q's second path crosses X = D_g(T|p), link k, then X (ends at g(p)^(k) -> g(p))"
                               : "; q's second path crosses X = D_f(T|p), link k, then X";
    const std::string name = (name_prefix.empty() ? "" : name_prefix + "-") + "X" + x_name(x);
    if (!quantified) {
      out.push_back(theorem_reading(s, check, x, false, name, words + xw, method));
      continue;
    }
    out.push_back(theorem_reading(
        s, check, x, false, name + "-every-seq",
        words + xw + "; for every sequence q may broadcast (\"(in any sequence)\"): refuted by one sequence", method));
    out.push_back(theorem_reading(
        s, check, x, true, name + "-some-seq",
        words + xw + "; for some sequence per B (q chooses it after p, \"(in any sequence)\"): refuted only by an "
                     "input on which every assignment of sequences to the B's fails",
        method));
  }
  return out;
}

}  // namespace topocheck::claims::migration_parts
