// Theorems 1 and 2, judged plan by plan (see catalog/migration/theorem_sweep.h).
#include "catalog/migration/theorem_sweep.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
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

// Every input of the procedure for one instance, one per plan class and sequence (see the header
// comment): the witness packing of the class is the input's blocks. `visit` returns true to stop.
bool for_each_input(const Instance& inst, const std::function<bool(const Input&, const migration::PlanClass&)>& visit) {
  const auto sequences = all_sequences(inst.DTmS);
  for (const Params& base : migration::parameter_grid(inst))
    if (migration::for_each_plan_class(inst, base, [&](const migration::PlanClass& cls) {
          for (const auto& seq : sequences) {
            Input in{inst, base, cls.witness};
            in.params.ext_sequence = seq;
            if (visit(in, cls)) return true;
          }
          return false;
        }))
      return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Theorem checks, judged on one plan.

using PlanCheck = std::function<Violation(const Plan&)>;

struct TheoremCheck {
  std::string name;
  PlanCheck check;
  bool x_dependent = false;  // Section 4.2: judged separately per reading of X
  // The verdict depends on block links the plan does not (the oracle); it is monotone (more
  // block links, fewer block-free paths) and only asked where the plan leaves a node short, so
  // the sweep asks it on every locally minimal packing of such a class.
  bool needs_packings = false;
};

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
  out.push_back({"valid", migration::check_plan_paths_valid, x});
  out.push_back({"complete", migration::check_plan_complete, x});
  if (s == Situation::k42)
    out.push_back({"complete-under-proviso",
                   [](const Plan& p) -> Violation {
                     return migration::proviso_holds(p) ? migration::check_plan_complete(p) : std::nullopt;
                   },
                   x});
  out.push_back({"hamming-succeeds",
                 [](const Plan& p) -> Violation {
                   for (const auto& np : p.nodes)
                     if (np.hamming_failed) return fmt::format("node {}: {}", np.u, np.missing);
                   return std::nullopt;
                 },
                 x});
  for (Disjointness d : migration::kAllDisjointness) {
    out.push_back({"pairs-" + migration::to_string(d), [d](const Plan& p) { return migration::check_plan_pairs_disjoint(p, d); }, x});
    out.push_back({"all-" + migration::to_string(d), [d](const Plan& p) { return migration::check_plan_all_disjoint(p, d); }, x});
    out.push_back({"absence-" + migration::to_string(d), [d](const Plan& p) { return absence_is_real(p, d); }, x, true});
  }
  out.push_back({"no-block-link", migration::check_plan_no_block_link, x});
  out.push_back({"t-links", migration::check_plan_t_links, x});
  out.push_back({"length", migration::check_plan_length, x});
  return out;
}

struct SweepOutcome {
  uint64_t cases = 0;
  std::optional<Counterexample> counterexample;
};

// One sweep per (situation, budget): every theorem check on every input, until each check has
// its first counterexample. Keys: check name, plus "@D_g"/"@D_f" for X-dependent checks.
struct SweepResults {
  std::map<std::string, SweepOutcome> by_check;
  std::string scope;
};

std::string x_name(migration::XReading x) { return x == migration::XReading::kDg ? "D_g" : "D_f"; }

std::vector<std::string> sweep_keys(const std::vector<TheoremCheck>& checks) {
  std::vector<std::string> keys;
  for (const auto& c : checks) {
    if (c.x_dependent) {
      keys.push_back(c.name + "@D_g");
      keys.push_back(c.name + "@D_f");
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
  SharedSweep(Situation s, int max_n) : s_(s), max_n_(max_n), checks_(theorem_checks(s)), keys_(sweep_keys(checks_)) {
    for (int n = 1; n <= max_n; ++n)
      for_each_instance(n, [&](const Instance& inst) {
        if (in_situation(inst, s)) instances_.push_back(inst);
        return false;
      });
    per_instance_.resize(instances_.size());
    for (size_t k = 0; k < keys_.size(); ++k) earliest_.emplace_back(SIZE_MAX);
  }

  // Works until the queue is empty.
  void work(const RunContext& ctx) {
    for (size_t i; (i = next_.fetch_add(1)) < instances_.size();) {
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
    for (const InstanceResult& r : per_instance_) {
      inputs += r.inputs;
      for (size_t k = 0; k < keys_.size(); ++k) {
        SweepOutcome& o = res.by_check[keys_[k]];
        if (o.counterexample) continue;
        o.cases += r.cases[k];
        if (r.counterexample[k]) o.counterexample = r.counterexample[k];
      }
    }
    res.scope = fmt::format(
        "n = 1..{}, every (S, T) of equal dimension with {}, every alpha, tie-break, k{}, every block packing and "
        "sequence; packings by plan class (the outcomes of the procedure's HAMMING-PATH calls, each run on a witness "
        "packing; the BFS oracle on every locally minimal packing of a class that leaves a node short) ({} inputs)",
        max_n_, s_ == Situation::k41 ? "|C| = 0 or >= 2" : "|C| = 1", s_ == Situation::k42 ? ", pick of p, X" : "",
        inputs);
    return res;
  }

 private:
  struct InstanceResult {
    uint64_t inputs = 0;
    std::vector<uint64_t> cases;
    std::vector<std::optional<Counterexample>> counterexample;
  };

  InstanceResult judge(size_t index) {
    InstanceResult res;
    res.cases.assign(keys_.size(), 0);
    res.counterexample.resize(keys_.size());
    std::vector<size_t> key_of_check(checks_.size() * 2);
    auto key_index = [&](const TheoremCheck& c, migration::XReading x) {
      const std::string key = c.x_dependent ? c.name + "@" + x_name(x) : c.name;
      return static_cast<size_t>(std::find(keys_.begin(), keys_.end(), key) - keys_.begin());
    };
    for (size_t c = 0; c < checks_.size(); ++c) {
      key_of_check[2 * c] = key_index(checks_[c], migration::XReading::kDg);
      key_of_check[2 * c + 1] = key_index(checks_[c], migration::XReading::kDf);
    }
    for_each_input(instances_[index], [&](const Input& in, const migration::PlanClass& cls) {
      ++res.inputs;
      const Plan plan = migration::migrate(in.inst, in.blocks, in.params);
      const bool short_of_paths = migration::check_plan_complete(plan).has_value();
      for (size_t ci = 0; ci < checks_.size(); ++ci) {
        const TheoremCheck& c = checks_[ci];
        const size_t k = key_of_check[2 * ci + (in.params.x_reading == migration::XReading::kDf ? 1 : 0)];
        if (res.counterexample[k] || earliest_[k].load() < index) continue;
        ++res.cases[k];
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
        if (v) {
          Counterexample cx;
          cx.params = {{"n", in.inst.n}};
          cx.input = input_json(shown);
          cx.violation = *v;
          cx.witness = shown_plan.to_json();
          cx.minimized = true;
          res.counterexample[k] = std::move(cx);
          for (size_t seen = earliest_[k].load(); index < seen && !earliest_[k].compare_exchange_weak(seen, index);) {
          }
        }
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
  static std::map<std::pair<int, int>, Slot> cache;  // map nodes do not move
  const int max_n = scope::kTheoremMaxN.at(ctx.budget);
  std::unique_lock<std::mutex> lock(mutex);
  Slot& slot = cache[{static_cast<int>(s), max_n}];
  if (!slot.done) {
    if (!slot.sweep) slot.sweep = std::make_unique<SharedSweep>(s, max_n);
    ++slot.workers;
    lock.unlock();
    slot.sweep->work(ctx);
    lock.lock();
    // The last worker out merges: the queue is empty, so every instance has been judged.
    if (--slot.workers == 0 && !slot.done) {
      slot.results = slot.sweep->merge();
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
  r.cases = it->second.cases;
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
MethodResult random_theorem(const RunContext& ctx, Situation s, const std::string& check,
                            std::optional<migration::XReading> x) {
  PlanCheck fn;
  for (const auto& c : theorem_checks(s))
    if (c.name == check) fn = c.check;
  TC_CHECK(fn != nullptr, "unknown theorem check " + check);
  RandomSpec<migration::MigrationInput> spec{migration::gen::migration_input(scope::kRandomMaxN, scope::kRandomMaxDim)};
  spec.cases = scope::kRandomCases.at(ctx.budget);
  spec.scope = fmt::format("random inputs with n = 1..{}, dim(S) <= {}, random blocks and choices ({} only)",
                           scope::kRandomMaxN, scope::kRandomMaxDim,
                           s == Situation::k41 ? "|C| = 0 or >= 2" : "|C| = 1");
  spec.check = [&](const migration::MigrationInput& gen_in) -> std::optional<Counterexample> {
    Input in{gen_in.instance(), gen_in.params(), gen_in.blocks};
    if (!in_situation(in.inst, s)) return std::nullopt;
    if (x) in.params.x_reading = *x;
    const Plan plan = migration::migrate(in.inst, in.blocks, in.params);
    auto v = fn(plan);
    if (!v) return std::nullopt;
    Counterexample cx;
    cx.params = {{"n", in.inst.n}};
    cx.input = input_json(in);
    cx.violation = *v;
    cx.witness = plan.to_json();
    return cx;
  };
  return run_random(ctx, spec);
}

CaseFn plan_case_fn(Situation s, const std::string& name) {
  return [s, name](const json& params, const json& input) -> Result<CaseCheck> {
    (void)params;
    auto in = input_from_json(input);
    if (!in) return in.error();
    if (!in_situation(in->inst, s)) return invalid_argument("input.S/T: not in this claim's situation");
    for (const auto& c : theorem_checks(s))
      if (c.name == name) {
        const Plan plan = migration::migrate(in->inst, in->blocks, in->params);
        return CaseCheck{c.check(plan), plan.to_json()};
      }
    return invalid_argument("unknown check " + name);
  };
}

Reading theorem_reading(Situation s, const std::string& check, std::optional<migration::XReading> x,
                        const std::string& name, const std::string& description, Method method = Method::kExhaustive) {
  Reading r;
  r.name = name;
  r.description = description;
  const std::string key = x ? check + "@" + x_name(*x) : check;
  r.methods.emplace_back(method, [s, key, method](const RunContext& ctx) { return from_sweep(ctx, s, key, method); });
  if (method == Method::kExhaustive)
    r.methods.emplace_back(Method::kRandom,
                           [s, check, x](const RunContext& ctx) { return random_theorem(ctx, s, check, x); });
  r.check_case = plan_case_fn(s, check);
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
    out.push_back(theorem_reading(s, check, std::nullopt, name_prefix.empty() ? "as-printed" : name_prefix, words, method));
  } else {
    for (auto x : {migration::XReading::kDg, migration::XReading::kDf}) {
      const std::string xw = x == migration::XReading::kDg
                                 ? "; q's second path crosses X = D_g(T|p), link k, then X (ends at g(p)^(k) -> g(p))"
                                 : "; q's second path crosses X = D_f(T|p), link k, then X";
      out.push_back(theorem_reading(s, check, x, (name_prefix.empty() ? "" : name_prefix + "-") + "X" + x_name(x),
                                    words + xw, method));
    }
  }
  return out;
}

}  // namespace topocheck::claims::migration_parts
