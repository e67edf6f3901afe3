// The migration claims (Chen and Tzeng, "On-Line Task Migration in Hypercubes Through Double
// Disjoint Paths", paper 000): the isomorphisms, Lemmas 1-6 over every path of each kind,
// Theorems 1 and 2 over every input of the procedure, Section 5's length premise and latency
// model, Section 4.2's counting, and the conclusion's promise (absence reported only when no
// path exists), checked by the naive checkers of migration/migration_checks.h.
//
// Exhaustive sweeps: n = 1, 2, ... (fewest dimensions first, so the first violation is among the
// smallest), every pair (S, T) of subcubes of equal dimension (S != T), every alpha, both
// tie-breaks of HAMMING-PATH, every k in C (Case b), both picks of p and (Section 4.2) both
// readings of X, every packing of blocks (sets of pairwise disjoint subcubes of dimension >= 1
// outside S and T; 0-dimensional blocks have no links and change nothing) and every h-extension
// sequence. Packings are swept by plan class (migration/plan_classes.h): the procedure sees the
// blocks only through the outcomes of its HAMMING-PATH calls, so every achievable outcome script
// is run once, on a witness packing that produces it, and judged like any input; the plan
// checkers judge the plan only (and no-block-link the links the plan uses, all inside HAMMING-PATH
// spans or touching S or T, so decided by the script too). The completeness oracle (absence-*)
// also depends on the other block links: it is asked, for a class whose plan leaves a node
// short, on every locally minimal packing of the class (for_each_minimal_packing: a block-free
// path under some packing of the class is block-free under one of them). Order: n, (S, T),
// alpha, tie-break, k, X, p, script (lexicographic), sequence. src/migration/plan_classes_test.cc
// checks every part of this against the sweep over every packing up to n = 4. One sweep per
// situation and budget judges every theorem reading at once (cached).
#include <algorithm>
#include <atomic>
#include <bit>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "catalog/catalog.h"
#include "claims/claim.h"
#include "claims/example_method.h"
#include "catalog/migration/scope.h"
#include "claims/random_method.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"
#include "migration/migration_gen.h"
#include "migration/migration_oracle.h"
#include "migration/packings.h"
#include "migration/plan_classes.h"

namespace topocheck::claims {
namespace {

using migration::Disjointness;
using migration::Instance;
using migration::Params;
using migration::Plan;
using nlohmann::json;

constexpr const char* kPaper = "000_545b7be81ce3b031.txt";

// Largest n of each sweep per budget.
// Theorem sweeps: n <= 3 quick, 5 standard and deep (every packing, by plan class). At n = 5 the
// sweep over every packing would be 4.5e13 inputs for Section 4.1 and 2.8e13 for 4.2 (2.2e12 and
// 2.2e10 over the packings of blocks that meet a HAMMING-PATH span alone; counted, not swept),
// against 4.2 M and 12.3 M inputs by plan class (about 5 and 7 CPU minutes); n = 6 is out of
// reach. The random method covers n <= 16 in every budget.
const PerBudget<int> kTheoremMaxN{3, 5, 5};
const PerBudget<int> kLemmaMaxN{4, 4, 5};
const PerBudget<int> kIsoMaxN{4, 6, 8};

uint64_t bit(int i) { return uint64_t{1} << i; }

// ---------------------------------------------------------------------------------------------
// Inputs of the procedure and their text forms.

struct Input {
  Instance inst;
  Params params;
  migration::Blocks blocks;
};

json input_json(const Input& in) {
  json j = {{"S", in.inst.S.to_string()},
            {"T", in.inst.T.to_string()},
            {"alpha", in.params.alpha.to_string()},
            {"sequence", fmt::format("{}", fmt::join(in.params.ext_sequence, ","))},
            {"tie_break", migration::to_string(in.params.tie)},
            {"k", in.params.k},
            {"pick_p", migration::to_string(in.params.pick_p)},
            {"x", in.params.x_reading == migration::XReading::kDg ? "D_g" : "D_f"},
            {"blocks", migration::blocks_to_string(in.blocks)}};
  return j;
}

Result<std::string> get_string(const json& input, const char* key) {
  if (!input.is_object() || !input.contains(key) || !input.at(key).is_string())
    return invalid_argument(fmt::format("input.{} must be a string", key));
  return input.at(key).get<std::string>();
}

Result<Input> input_from_json(const json& input) {
  Input in;
  auto S = get_string(input, "S");
  if (!S) return S.error();
  auto T = get_string(input, "T");
  if (!T) return T.error();
  auto inst = migration::parse_instance(*S, *T);
  if (!inst) return invalid_argument("input.S/T: " + inst.error().message);
  in.inst = *inst;
  migration::ParamsText text;
  for (auto [key, field] : {std::pair<const char*, std::string*>{"alpha", &text.alpha},
                            {"sequence", &text.sequence}, {"tie_break", &text.tie_break},
                            {"pick_p", &text.pick_p}, {"x", &text.x}, {"bars", &text.bars}})
    if (input.contains(key)) {
      auto value = get_string(input, key);
      if (!value) return value.error();
      *field = *value;
    }
  if (input.contains("k")) {
    if (!input.at("k").is_number_integer()) return invalid_argument("input.k must be an integer");
    text.k = std::to_string(input.at("k").get<int>());
  }
  auto params = migration::parse_params(in.inst, text);
  if (!params) return invalid_argument("input: " + params.error().message);
  in.params = *params;
  if (input.contains("blocks")) {
    auto text = get_string(input, "blocks");
    if (!text) return text.error();
    auto b = migration::parse_blocks(in.inst, *text);
    if (!b) return invalid_argument("input.blocks: " + b.error().message);
    in.blocks = *b;
  }
  return in;
}

using migration::all_sequences;

// Every pair (S, T) of subcubes of Q_n with equal dimension, S != T.
bool for_each_instance(int n, const std::function<bool(const Instance&)>& visit) {
  for (int d = 0; d <= n; ++d) {
    const auto cubes = migration::subcubes(n, d);
    for (const Subcube& S : cubes)
      for (const Subcube& T : cubes) {
        if (S == T) continue;
        auto inst = migration::make_instance(S, T);
        TC_CHECK(inst.ok(), "make_instance rejected a pair of equal dimension");
        if (visit(*inst)) return true;
      }
  }
  return false;
}

enum class Situation { k41, k42 };  // |C| = 0 or >= 2; |C| = 1

bool in_situation(const Instance& inst, Situation s) { return (inst.zeta() == 1) == (s == Situation::k42); }

// Every input of the procedure for one instance, one per plan class and sequence (see the file
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
  const int max_n = kTheoremMaxN.at(ctx.budget);
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
  namespace scope = migration_scope;
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

// Replays a joint counterexample without a solver: the stored paths (two per node u != g(u) of
// S, in the order of nodes_of(S)) are the certificate, judged by the naive checkers.
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

// The readings of one theorem property: per situation (Theorem 1: 4.1; Theorem 2: 4.2 with both
// readings of X).
std::vector<Reading> theorem_readings(Situation s, const std::string& check, const std::string& words,
                                      const std::string& name_prefix = "", Method method = Method::kExhaustive) {
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

// ---------------------------------------------------------------------------------------------
// Lemmas: every path of each kind, no blocks.

struct LemmaCtx {
  Instance inst;
  migration::Alpha alpha;
};

std::vector<Path> aggressive_paths(const LemmaCtx& c, Node u) {
  std::vector<Path> out;
  for (Path& p : migration::hamming_paths(u, migration::g(c.inst, c.alpha, u)))
    if (migration::is_aggressive(c.inst, c.alpha, migration::Bars::paper(), p, u)) out.push_back(std::move(p));
  return out;
}

std::vector<Path> regular_paths(const LemmaCtx& c, Node u, migration::RegularReading r) {
  std::vector<Path> out;
  for (Path& p : migration::hamming_paths(u, migration::f(c.inst, c.alpha, u)))
    if (migration::is_regular(c.inst, c.alpha, migration::Bars::paper(), r, p, u)) out.push_back(std::move(p));
  return out;
}

// A lemma check on one (S, T, alpha): the first violation over all its nodes and paths.
using LemmaCheck = std::function<Violation(const LemmaCtx&)>;

Violation first_shared(const std::vector<Path>& as, const std::vector<Path>& bs, Disjointness d) {
  for (const Path& a : as)
    for (const Path& b : bs)
      if (auto v = migration::check_disjoint({a, b}, d)) return fmt::format("{} and {}: {}", a, b, *v);
  return std::nullopt;
}

// Every (S, T, alpha) of n = 1..max_n, smallest n first; `what` ends the scope ("every path of
// each kind"), `params` is added to each counterexample's params.
MethodResult lemma_sweep(const RunContext& ctx, const LemmaCheck& check, int max_n,
                         const std::string& what = "every path of each kind", const json& params = json::object()) {
  MethodResult r;
  r.method = Method::kExhaustive;
  r.outcome = Outcome::kHolds;
  r.scope = fmt::format("n = 1..{}, every (S, T) of equal dimension (S != T), every alpha, {}", max_n, what);
  for (int n = 1; n <= max_n && r.outcome == Outcome::kHolds; ++n) {
    ctx.report(fmt::format("sweep n = {}", n));
    for_each_instance(n, [&](const Instance& inst) {
      for (const auto& alpha : migration::all_alphas(inst)) {
        ++r.cases;
        if (auto v = check(LemmaCtx{inst, alpha})) {
          r.outcome = Outcome::kRefuted;
          r.detail = *v;
          Counterexample cx;
          cx.params = {{"n", n}};
          cx.params.update(params);
          cx.input = {{"S", inst.S.to_string()}, {"T", inst.T.to_string()}, {"alpha", alpha.to_string()}};
          cx.violation = *v;
          cx.minimized = true;
          r.counterexample = std::move(cx);
          return true;
        }
      }
      return false;
    });
  }
  return r;
}

// {"S", "T", "alpha"} of a stored case.
Result<LemmaCtx> lemma_ctx_of(const json& input) {
  auto S = get_string(input, "S");
  if (!S) return S.error();
  auto T = get_string(input, "T");
  if (!T) return T.error();
  auto inst = migration::parse_instance(*S, *T);
  if (!inst) return invalid_argument("input.S/T: " + inst.error().message);
  auto a = get_string(input, "alpha");
  if (!a) return a.error();
  auto alpha = migration::parse_alpha(*inst, *a);
  if (!alpha) return invalid_argument("input.alpha: " + alpha.error().message);
  return LemmaCtx{*inst, *alpha};
}

// Lemmas 2 and 6: for every u of S with D_f(S|u) nonempty, every path of `paths_of(u)` against
// every aggressive path of every v (v != u unless `same`).
Violation against_aggressive(const LemmaCtx& c, bool same, Disjointness d,
                             const std::function<std::vector<Path>(Node)>& paths_of) {
  const auto S = migration::nodes_of(c.inst.S);
  for (Node u : S) {
    if (migration::d_sets(c.inst, c.alpha, u).f_S == 0) continue;
    const auto mine = paths_of(u);
    for (Node v : S) {
      if (u == v && !same) continue;
      if (auto w = first_shared(mine, aggressive_paths(c, v), d))
        return fmt::format("S = {}, T = {}, alpha {}, u = {}, v = {}: {}", c.inst.S, c.inst.T, c.alpha.to_string(), u,
                           v, *w);
    }
  }
  return std::nullopt;
}

CaseFn lemma_case_fn(LemmaCheck check) {
  return [check](const json&, const json& input) -> Result<CaseCheck> {
    auto c = lemma_ctx_of(input);
    if (!c) return c.error();
    return CaseCheck{check(*c), json::object()};
  };
}

Reading lemma_reading(std::string name, std::string description, LemmaCheck check) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(description);
  r.methods.emplace_back(Method::kExhaustive,
                         [check](const RunContext& ctx) { return lemma_sweep(ctx, check, kLemmaMaxN.at(ctx.budget)); });
  r.check_case = lemma_case_fn(check);
  return r;
}

std::string d_words(Disjointness d) {
  switch (d) {
    case Disjointness::kNode: return "no internal node of one path occurs anywhere in the other";
    case Disjointness::kLink: return "no link is used by both paths";
    case Disjointness::kDirectedLink: return "no link is used by both paths in the same direction";
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Isomorphisms (Bars readings).

using IsoCheck = std::function<Violation(const Instance&, const migration::Alpha&, migration::Bars)>;

Violation iso_maps_onto(const Instance& inst, const migration::Alpha& alpha, migration::Bars bars, bool use_g) {
  std::vector<Node> images;
  const auto S = migration::nodes_of(inst.S);
  for (Node u : S) {
    const Node x = use_g ? migration::g(inst, alpha, u, bars) : migration::f(inst, alpha, u, bars);
    if (!inst.T.contains(x)) return fmt::format("{}({}) = {} is not in T = {}", use_g ? "g" : "f", u, x, inst.T);
    images.push_back(x);
  }
  std::sort(images.begin(), images.end());
  if (std::adjacent_find(images.begin(), images.end()) != images.end())
    return fmt::format("{} is not injective on S = {}", use_g ? "g" : "f", inst.S);
  for (Node u : S)
    for (Node v : S) {
      const Node a = use_g ? migration::g(inst, alpha, u, bars) : migration::f(inst, alpha, u, bars);
      const Node b = use_g ? migration::g(inst, alpha, v, bars) : migration::f(inst, alpha, v, bars);
      if ((hamming(u, v) == 1) != (hamming(a, b) == 1))
        return fmt::format("{} does not preserve adjacency: {}, {} -> {}, {}", use_g ? "g" : "f", u, v, a, b);
    }
  return std::nullopt;
}

MethodResult iso_sweep(const RunContext& ctx, const IsoCheck& check, migration::Bars bars, int max_n) {
  return lemma_sweep(
      ctx, [&](const LemmaCtx& c) { return check(c.inst, c.alpha, bars); }, max_n, "every node",
      json{{"bars", bars.to_string()}});
}

std::vector<Reading> bars_readings(const std::string& what, IsoCheck check) {
  std::vector<Reading> out;
  for (migration::Bars bars : migration::all_bars()) {
    Reading r;
    r.name = bars.reading_name();
    r.description = fmt::format(
        "{}; lost bars read as: f complements u[i] when u[a^-1(i)] {} T[a^-1(i)], g when {}{}", what,
        bars.f_complements_on_equal ? "=" : "!=", bars.g_complements_on_equal ? "=" : "!=",
        bars == migration::Bars::paper() ? " (the assignment Fig. 2 pins)" : "");
    r.methods.emplace_back(Method::kExhaustive, [check, bars](const RunContext& ctx) {
      return iso_sweep(ctx, check, bars, kIsoMaxN.at(ctx.budget));
    });
    r.check_case = [check, bars](const json&, const json& input) -> Result<CaseCheck> {
      auto c = lemma_ctx_of(input);
      if (!c) return c.error();
      return CaseCheck{check(c->inst, c->alpha, bars), json::object()};
    };
    out.push_back(std::move(r));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Section 5's latency model over a parameter grid.

struct LatencyGrid {
  // Message sizes M in units of X (M_c or L_f): M / X from 1000 to 10^6; start-up up to 1% of
  // M / B; n <= 16 and every zeta + beta <= n with beta >= 1.
  static constexpr double kRatios[] = {1e3, 1e4, 1e5, 1e6};
  static constexpr double kStartups[] = {0.0, 0.001, 0.01};
};

MethodResult latency_sweep(double min_speedup, bool reduction) {
  MethodResult r;
  r.method = Method::kExhaustive;
  r.outcome = Outcome::kHolds;
  r.scope = "n = 1..16, zeta + beta <= n, beta >= 1, M/X in {1e3, 1e4, 1e5, 1e6}, start-up in {0, 0.1%, 1%} of M/B";
  for (int n = 1; n <= 16; ++n)
    for (int beta = 1; beta <= n; ++beta)
      for (int zeta = 0; zeta + beta <= n; ++zeta)
        for (double ratio : LatencyGrid::kRatios)
          for (double st : LatencyGrid::kStartups) {
            ++r.cases;
            const double M = ratio, B = 1, X = 1;
            const auto l = migration::latency(M, B, X, zeta, beta, st * M / B);
            const double value = reduction ? l.reduction() : l.speedup();
            if (value < min_speedup) {
              r.outcome = Outcome::kRefuted;
              r.detail = fmt::format("n = {}, zeta = {}, beta = {}, M/X = {}, start-up {}: {} = {:.3f} < {}", n, zeta,
                                     beta, ratio, st, reduction ? "reduction" : "speedup", value, min_speedup);
              Counterexample cx;
              cx.params = {{"n", n}};
              cx.input = {{"zeta", zeta}, {"beta", beta}, {"M_over_X", ratio}, {"startup_fraction", st}};
              cx.violation = r.detail;
              cx.minimized = true;
              r.counterexample = cx;
              return r;
            }
          }
  return r;
}

// ---------------------------------------------------------------------------------------------
// The Fig. 2 example: every printed value and path, computed from the stored input (S, T, alpha,
// the sequence, the two nodes u and v, the block layout found by smt/migration_fig2.cc) in the
// printed shape. params: bars, tie, k.
Result<json> compute_fig2(const json& params, const json& input) {
  json in = input;
  if (input.contains("ext_sequence")) {
    if (!input.at("ext_sequence").is_array()) return invalid_argument("input.ext_sequence must be an array of dimensions");
    in["sequence"] = fmt::format("{}", fmt::join(input.at("ext_sequence").get<std::vector<int>>(), ","));
  }
  if (params.contains("tie")) in["tie_break"] = params.at("tie");
  if (params.contains("k")) in["k"] = params.at("k");
  if (params.contains("bars")) in["bars"] = params.at("bars");
  auto parsed = input_from_json(in);
  if (!parsed) return parsed.error();
  Input x = *parsed;
  const Instance& inst = x.inst;
  const auto& alpha = x.params.alpha;
  const auto bars = x.params.bars;
  const Plan plan = migration::migrate(inst, x.blocks, x.params);
  auto node_of = [&](const char* key) -> Result<Node> {
    auto text = get_string(input, key);
    if (!text) return text.error();
    auto u = parse_node(*text, inst.n);
    if (!u) return invalid_argument(fmt::format("input.{}: {}", key, u.error().message));
    if (!inst.S.contains(*u)) return invalid_argument(fmt::format("input.{}: {} is not in S", key, *u));
    return *u;
  };
  auto plan_of = [&](Node u) -> const migration::NodePlan& {
    for (const auto& np : plan.nodes)
      if (np.u == u) return np;
    TC_CHECK(false, "node not in the plan");
    return plan.nodes.front();
  };
  auto path_of = [&](const migration::NodePlan& np, migration::PathKind kind) -> json {
    for (const auto& mp : np.paths)
      if (mp.kind == kind) return path_to_json(mp.path);
    return nullptr;
  };
  auto hp = [&](Node a, Node b) -> json {
    auto p = migration::hamming_path(a, b, x.blocks, x.params.tie);
    return p ? path_to_json(*p) : json(nullptr);
  };
  json out = {{"C(S,T)", migration::dims_to_string(inst.C)},
              {"D(S)-D(T)", migration::dims_to_string(inst.DSmT)},
              {"D(T)-D(S)", migration::dims_to_string(inst.DTmS)}};
  auto u = node_of("u");
  if (!u) return u.error();
  auto v = node_of("v");
  if (!v) return v.error();
  for (auto [key, node] : {std::pair<const char*, Node>{"u", *u}, {"v", *v}}) {
    const auto ds = migration::d_sets(inst, alpha, node, bars);
    const auto& np = plan_of(node);
    json j = {{"node", node.to_string()},
              {"case", np.node_case == migration::NodeCase::kCaseA   ? "a"
                       : np.node_case == migration::NodeCase::kCaseB ? "b"
                                                                      : migration::to_string(np.node_case)},
              {std::string("f(") + key + ")", migration::f(inst, alpha, node, bars).to_string()},
              {std::string("D_f(S|") + key + ")", migration::dims_to_string(ds.f_S)},
              {std::string("g(") + key + ")", migration::g(inst, alpha, node, bars).to_string()},
              {std::string("D_f(T|") + key + ")", migration::dims_to_string(ds.f_T)},
              {std::string("D_g(S|") + key + ")", migration::dims_to_string(ds.g_S)},
              {std::string("D_g(T|") + key + ")", migration::dims_to_string(ds.g_T)}};
    if (np.node_case == migration::NodeCase::kCaseA) {
      const Node w{node.bits ^ ds.g_T, node.width};
      const Node x_node{node.bits ^ (ds.f_T | inst.C), node.width};
      j["w"] = w.to_string();
      j["HAMMING-PATH(u, w)"] = hp(node, w);
      j["HAMMING-PATH(g(u), w)"] = hp(np.target, w);
      j["x"] = x_node.to_string();
      j["regular_extended"] = path_of(np, migration::PathKind::kRegularExtended);
    } else if (np.node_case == migration::NodeCase::kCaseB) {
      j["L^1"] = path_of(np, migration::PathKind::kCaseBLast);
      j["L^2"] = path_of(np, migration::PathKind::kCaseBFirst);
    }
    out[key] = std::move(j);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// HAMMING-PATH on pairs the procedure never asks for: when can it fail at all? Blocks: every
// packing outside the two nodes S = 0...0 and T = 1...1 (the smallest instance of each n).

Violation hamming_any_pair(const migration::Blocks& blocks, int n, bool endpoints_outside_blocks) {
  auto in_block = [&](Node x) {
    return std::any_of(blocks.begin(), blocks.end(), [&](const Subcube& b) { return b.contains(x); });
  };
  for (uint64_t a = 0; a < bit(n); ++a)
    for (uint64_t b = a + 1; b < bit(n); ++b) {
      const Node na{a, n}, nb{b, n};
      if (endpoints_outside_blocks && (in_block(na) || in_block(nb))) continue;
      if (!migration::hamming_path(na, nb, blocks, migration::TieBreak::kAscending))
        return fmt::format("blocks {}: every Hamming path from {} to {} has a block link", migration::blocks_to_string(blocks),
                           na, nb);
    }
  return std::nullopt;
}

Reading hamming_any_pair_reading(bool outside) {
  Reading r;
  r.name = outside ? "endpoints-outside-blocks" : "any-endpoints";
  r.description = outside ? "every pair of nodes, neither in a block, has a block-free Hamming path (every packing)"
                          : "every pair of nodes has a block-free Hamming path (every packing)";
  r.methods.emplace_back(Method::kExhaustive, [outside](const RunContext& ctx) {
    MethodResult res;
    res.method = Method::kExhaustive;
    res.outcome = Outcome::kHolds;
    // n = 5 has about 1e9 packings of the 30 nodes outside S and T: every budget stops at 4.
    const int max_n = PerBudget<int>{3, 4, 4}.at(ctx.budget);
    res.scope = fmt::format("n = 2..{}, every packing outside S = 0...0 and T = 1...1, every pair of nodes", max_n);
    for (int n = 2; n <= max_n && res.outcome == Outcome::kHolds; ++n) {
      const Instance inst = *migration::make_instance(Subcube{0, 0, n}, Subcube{0, bit(n) - 1, n});
      migration::for_each_packing(inst, [&](const migration::Blocks& blocks) {
        ++res.cases;
        if (auto v = hamming_any_pair(blocks, n, outside)) {
          res.outcome = Outcome::kRefuted;
          res.detail = *v;
          Counterexample cx;
          cx.params = {{"n", n}};
          cx.input = {{"blocks", migration::blocks_to_string(blocks)}};
          cx.violation = *v;
          cx.minimized = true;
          res.counterexample = std::move(cx);
          return true;
        }
        return false;
      });
    }
    return res;
  });
  r.check_case = [outside](const json& params, const json& input) -> Result<CaseCheck> {
    if (!params.is_object() || !params.contains("n") || !params.at("n").is_number_integer())
      return invalid_argument("params.n must be an integer");
    const int n = params.at("n").get<int>();
    if (n < 2 || n > migration::kMaxN) return invalid_argument("params.n out of range");
    auto text = get_string(input, "blocks");
    if (!text) return text.error();
    const Instance inst = *migration::make_instance(Subcube{0, 0, n}, Subcube{0, bit(n) - 1, n});
    auto blocks = migration::parse_blocks(inst, *text);
    if (!blocks) return invalid_argument("input.blocks: " + blocks.error().message);
    return CaseCheck{hamming_any_pair(*blocks, n, outside), json::object()};
  };
  return r;
}

}  // namespace

void register_migration_claims(Registry& registry) {
  auto add = [&](std::string id, std::string location, std::string statement, std::vector<Reading> readings) {
    registry.add(Claim::make(kPaper, std::move(id), std::move(location), std::move(statement), std::move(readings)));
  };

  {
    Reading r;
    r.name = "paper";
    r.description =
        "every value and path printed for Fig. 2 (f, g, the D-sets, w, x, the HAMMING-PATH results, both paths of u = "
        "001011 and v = 001000), recomputed under the block layout found by the Fig. 2 search (the figure is lost)";
    r.compute_example = compute_fig2;
    r.methods.emplace_back(Method::kExample, example_method("migration.fig2.paths", r.name, compute_fig2));
    add("migration.fig2.paths", "Section 4.1, the example of Fig. 2",
        "S = 0010**, T = 1*0*00, alpha(0) = 2, alpha(1) = 4, sequence 2, 4: the printed values and migration paths of "
        "u = 001011 (Case a) and v = 001000 (Case b).",
        {std::move(r)});
  }

  // Isomorphisms.
  add("migration.iso.f", "Section 2.2 (Chen-Lai's f)", "f is an isomorphism from S to T.",
      bars_readings("f maps S into T, injectively, preserving adjacency both ways",
                    [](const Instance& i, const migration::Alpha& a, migration::Bars b) { return iso_maps_onto(i, a, b, false); }));
  add("migration.iso.g", "Section 3.1, equation (1)", "g is an isomorphism from S to T.",
      bars_readings("g maps S into T, injectively, preserving adjacency both ways",
                    [](const Instance& i, const migration::Alpha& a, migration::Bars b) { return iso_maps_onto(i, a, b, true); }));
  add("migration.iso.g_is_h_of_f", "Section 3.1, after equation (2)", "For any node u in S, g(u) = h(f(u)).",
      bars_readings("g(u) = h(f(u)) for every u in S, h complementing D(T)-D(S)",
                    [](const Instance& inst, const migration::Alpha& a, migration::Bars b) -> Violation {
                      for (Node u : migration::nodes_of(inst.S))
                        if (migration::g(inst, a, u, b) != migration::h(inst, migration::f(inst, a, u, b)))
                          return fmt::format("u = {}: g(u) = {} but h(f(u)) = {}", u, migration::g(inst, a, u, b),
                                             migration::h(inst, migration::f(inst, a, u, b)));
                      return std::nullopt;
                    }));
  add("migration.iso.distance", "Section 2.2", "The Hamming distance between u in S and f(u) is exactly |C(S,T)| + |D(S)-D(T)|.",
      bars_readings("H(u, f(u)) = zeta + beta for every u in S (Section 5's single-path length P = zeta + beta)",
                    [](const Instance& inst, const migration::Alpha& a, migration::Bars b) -> Violation {
                      for (Node u : migration::nodes_of(inst.S))
                        if (hamming(u, migration::f(inst, a, u, b)) != inst.zeta() + inst.beta())
                          return fmt::format("u = {}: H(u, f(u)) = {}, zeta + beta = {}", u,
                                             hamming(u, migration::f(inst, a, u, b)), inst.zeta() + inst.beta());
                      return std::nullopt;
                    }));

  // Lemmas.
  {
    std::vector<Reading> rs;
    for (Disjointness d : migration::kAllDisjointness)
      rs.push_back(lemma_reading(migration::to_string(d), "u != v; every aggressive path of u and of v; " + d_words(d),
                                 [d](const LemmaCtx& c) -> Violation {
                                   const auto S = migration::nodes_of(c.inst.S);
                                   for (Node u : S)
                                     for (Node v : S)
                                       if (u < v)
                                         if (auto w = first_shared(aggressive_paths(c, u), aggressive_paths(c, v), d))
                                           return fmt::format("S = {}, T = {}, alpha {}: {}", c.inst.S, c.inst.T,
                                                              c.alpha.to_string(), *w);
                                   return std::nullopt;
                                 }));
    add("migration.lemma1.aggressive_disjoint", "Section 3.2, Lemma 1",
        "Let u and v be any two nodes in S. An aggressive path from u to g(u) and any aggressive path from v to g(v) "
        "are totally disjoint.",
        std::move(rs));
  }
  {
    std::vector<Reading> rs;
    for (auto reg : {migration::RegularReading::kF, migration::RegularReading::kAsPrintedG})
      for (bool same : {false, true})
        for (Disjointness d : migration::kAllDisjointness)
          rs.push_back(lemma_reading(
              fmt::format("{}-{}-{}", reg == migration::RegularReading::kF ? "Df" : "Dg", same ? "any" : "distinct",
                          migration::to_string(d)),
              fmt::format("regular read with {} (Definition 1); {}; D_f(S|u) nonempty; every regular path of u, every "
                          "aggressive path of v; {}",
                          migration::to_string(reg), same ? "u = v allowed (as Case a uses it)" : "u != v", d_words(d)),
              [reg, same, d](const LemmaCtx& c) {
                return against_aggressive(c, same, d, [&](Node u) { return regular_paths(c, u, reg); });
              }));
    add("migration.lemma2.regular_aggressive_disjoint", "Section 3.2, Lemma 2",
        "Let u and v be any two nodes in S and D_f(S|u) nonempty. A regular path from u to f(u) and an aggressive path "
        "from v to g(v) are totally disjoint.",
        std::move(rs));
  }
  {
    std::vector<Reading> rs;
    for (Disjointness d : migration::kAllDisjointness)
      rs.push_back(lemma_reading(migration::to_string(d),
                                 "u != v in T; both paths follow the same sequence of D(T)-D(S) (every sequence); " + d_words(d),
                                 [d](const LemmaCtx& c) -> Violation {
                                   const auto T = migration::nodes_of(c.inst.T);
                                   for (const auto& seq : all_sequences(c.inst.DTmS))
                                     for (Node u : T)
                                       for (Node v : T)
                                         if (u < v)
                                           if (auto w = first_shared({migration::path_along(u, seq)},
                                                                     {migration::path_along(v, seq)}, d))
                                             return fmt::format("S = {}, T = {}, sequence {}: {}", c.inst.S, c.inst.T,
                                                                fmt::join(seq, ","), *w);
                                   return std::nullopt;
                                 }));
    add("migration.lemma3.h_paths_disjoint", "Section 3.2, Lemma 3",
        "Let u and v be any two nodes in T. Any pair of paths which traverse links along the dimensions in D(T)-D(S) "
        "following the same sequence, one from u to h(u) and the other from v to h(v), are totally disjoint.",
        std::move(rs));
  }
  {
    std::vector<Reading> rs;
    for (auto reg : {migration::RegularReading::kF, migration::RegularReading::kAsPrintedG})
      rs.push_back(lemma_reading(reg == migration::RegularReading::kF ? "Df" : "Dg",
                                 "regular read with " + migration::to_string(reg) + "; D_f(S|u) nonempty; no hop of any "
                                 "regular path joins two nodes of T",
                                 [reg](const LemmaCtx& c) -> Violation {
                                   for (Node u : migration::nodes_of(c.inst.S)) {
                                     if (migration::d_sets(c.inst, c.alpha, u).f_S == 0) continue;
                                     for (const Path& p : regular_paths(c, u, reg))
                                       for (size_t k = 0; k + 1 < p.nodes.size(); ++k)
                                         if (c.inst.T.contains(p.nodes[k]) && c.inst.T.contains(p.nodes[k + 1]))
                                           return fmt::format("S = {}, T = {}, alpha {}: regular path {} uses link {}-{} of T",
                                                              c.inst.S, c.inst.T, c.alpha.to_string(), p, p.nodes[k],
                                                              p.nodes[k + 1]);
                                   }
                                   return std::nullopt;
                                 }));
    add("migration.lemma4.regular_avoids_t", "Section 3.2, Lemma 4",
        "Let u be any node in S and D_f(S|u) nonempty. No regular path from u to f(u) traverses any link in T.",
        std::move(rs));
  }
  add("migration.lemma5.aggressive_avoids_t", "Section 3.2, Lemma 5",
      "Let u be any node in S. No aggressive path from u to g(u) traverses any link in T.",
      {lemma_reading("as-printed", "no hop of any aggressive path joins two nodes of T", [](const LemmaCtx& c) -> Violation {
        for (Node u : migration::nodes_of(c.inst.S))
          for (const Path& p : aggressive_paths(c, u))
            for (size_t k = 0; k + 1 < p.nodes.size(); ++k)
              if (c.inst.T.contains(p.nodes[k]) && c.inst.T.contains(p.nodes[k + 1]))
                return fmt::format("S = {}, T = {}, alpha {}: aggressive path {} uses link {}-{} of T", c.inst.S,
                                   c.inst.T, c.alpha.to_string(), p, p.nodes[k], p.nodes[k + 1]);
        return std::nullopt;
      })});
  {
    std::vector<Reading> rs;
    for (bool same : {false, true})
      for (Disjointness d : migration::kAllDisjointness)
        rs.push_back(lemma_reading(
            fmt::format("{}-{}", same ? "any" : "distinct", migration::to_string(d)),
            fmt::format("{}; D_f(S|u) nonempty; u' = u XOR (D(T)-D(S)); every Hamming path u -> u', every aggressive "
                        "path of v; {}",
                        same ? "u = v allowed" : "u != v", d_words(d)),
            [same, d](const LemmaCtx& c) {
              return against_aggressive(c, same, d, [&](Node u) {
                return migration::hamming_paths(u, Node{u.bits ^ c.inst.DTmS, u.width});
              });
            }));
    add("migration.lemma6.hamming_aggressive_disjoint", "Section 3.2, Lemma 6",
        "Let u and v be any two nodes in S and D_f(S|u) nonempty. If the addresses of nodes u and u' differ in exactly "
        "D(T)-D(S), then a Hamming path from u to u' and any aggressive path from v to g(v) are totally disjoint.",
        std::move(rs));
  }

  // Theorems 1 and 2.
  struct Prop {
    std::string what, location, statement, check, words;
  };
  const std::vector<Prop> props = {
      {"valid", "Section 4", "Both paths of every node run from u to g(u).", "valid",
       "every path is a valid simple path of Q_n from u to g(u)"},
      {"two_paths", "Theorem {}", "Two totally disjoint paths exist between every node in S and its corresponding node in T.",
       "complete", "every node u != g(u) of S gets two paths (HAMMING-PATH may fail; Section 4.2 may report absence)"},
      {"hamming_succeeds", "Section 4 (HAMMING-PATH where the procedure calls it)",
       "HAMMING-PATH determines the Hamming paths the procedure asks for, avoiding all blocks.", "hamming-succeeds",
       "no HAMMING-PATH call of the procedure returns none"},
      {"no_block_link", "Theorem {}", "The paths contain no block link.", "no-block-link", "no hop of any path is a block link"},
      {"t_links", "Sections 4.1-4.2 (Lemmas 4, 5: only the h-extensions run inside T)",
       "No path uses a link of T except along its h-extension.", "t-links",
       "no hop joins two nodes of T before the path's extension"},
      {"length", "Section 5", "Every migration path is at most zeta + 2 beta long.", "length",
       "every path has at most |C(S,T)| + 2|D(S)-D(T)| links"},
  };
  for (int thm : {1, 2}) {
    const Situation s = thm == 1 ? Situation::k41 : Situation::k42;
    const std::string where = thm == 1 ? "|C(S,T)| = 0 or >= 2" : "|C(S,T)| = 1";
    for (const Prop& p : props) {
      if (p.what == "length" && thm == 2) continue;
      add(fmt::format("migration.thm{}.{}", thm, p.what), fmt::format(fmt::runtime(p.location), thm),
          p.statement + " (" + where + ")", theorem_readings(s, p.check, p.words));
    }
    {
      std::vector<Reading> rs;
      for (Disjointness d : migration::kAllDisjointness)
        for (Reading& r : theorem_readings(s, "pairs-" + migration::to_string(d), d_words(d), migration::to_string(d)))
          rs.push_back(std::move(r));
      add(fmt::format("migration.thm{}.pair_disjoint", thm), fmt::format("Theorem {}", thm),
          "The two paths between every node in S and its corresponding node in T are totally disjoint (" + where + ").",
          std::move(rs));
    }
    {
      std::vector<Reading> rs;
      for (Disjointness d : migration::kAllDisjointness)
        for (Reading& r : theorem_readings(s, "all-" + migration::to_string(d), "paths of different nodes: " + d_words(d),
                                           migration::to_string(d)))
          rs.push_back(std::move(r));
      add(fmt::format("migration.thm{}.all_disjoint", thm), fmt::format("Theorem {}", thm),
          "All the paths between S and T are pairwise disjoint (" + where + ").", std::move(rs));
    }
  }
  add("migration.thm2.two_paths_under_proviso", "Theorem 2",
      "Under |C(S,T)| = 1, two totally disjoint paths exist between every node in S and its corresponding node in T, "
      "provided that not every aggressive path from B traverses link k last, for all B's.",
      theorem_readings(Situation::k42, "complete-under-proviso",
                       "whenever every B has beta > 0 and an aggressive path whose last link is not k, every node gets "
                       "two paths"));
  add("migration.thm2.length", "Section 5", "Every migration path is at most zeta + 2 beta long (|C(S,T)| = 1).",
      theorem_readings(Situation::k42, "length", "every path has at most 1 + 2|D(S)-D(T)| links"));
  {
    std::vector<Reading> rs;
    for (Situation s : {Situation::k41, Situation::k42})
      for (Disjointness d : migration::kAllDisjointness)
        for (Reading& r : theorem_readings(
                 s, "absence-" + migration::to_string(d),
                 "whenever a node gets fewer than two paths, Boost BFS finds no block-free path from u to g(u) "
                 "disjoint (" + migration::to_string(d) + ") from every path chosen (the others fixed)",
                 fmt::format("{}-{}", s == Situation::k41 ? "4.1" : "4.2", migration::to_string(d)), Method::kOracle))
          rs.push_back(std::move(r));
    add("migration.conclusion.tells_absence", "Section 6 (Concluding Remarks)",
        "The procedure identifies two migration paths from each participating node, if they exist, or otherwise tells "
        "the absence of the second migration path.",
        std::move(rs));
  }

  {
    // Decided by Z3 only: smt/migration_smt.cc attaches the method (attach_migration_smt).
    std::vector<Reading> rs;
    for (Situation s : {Situation::k41, Situation::k42})
      for (Disjointness d : migration::kAllDisjointness) {
        Reading r;
        r.name = fmt::format("{}-{}", s == Situation::k41 ? "4.1" : "4.2", migration::to_string(d));
        r.check_case = joint_case_fn(s, d);
        r.description = fmt::format(
            "whenever the procedure leaves a node with fewer than two paths ({}), no set of two block-free paths "
            "per node, all pairwise {}-disjoint, exists at all (every path re-chosen)",
            s == Situation::k41 ? "|C| = 0 or >= 2" : "|C| = 1", migration::to_string(d));
        rs.push_back(std::move(r));
      }
    add("migration.conclusion.tells_absence_jointly", "Section 6 (Concluding Remarks)",
        "The procedure identifies two migration paths from each participating node, if they exist, or otherwise tells "
        "the absence (jointly: if the procedure reports a path absent, no choice of all the paths gives every node "
        "two).",
        std::move(rs));
  }

  add("migration.hamming.any_pair", "Section 4 (HAMMING-PATH, cited from Chen-Lai): when it can fail at all",
      "HAMMING-PATH finds a Hamming path avoiding all block links (asked for any pair of nodes, not only the "
      "procedure's calls).",
      {hamming_any_pair_reading(true), hamming_any_pair_reading(false)});

  // Section 4.2's counting.
  {
    auto count_check = [](bool as_printed) {
      return [as_printed](const LemmaCtx& c) -> Violation {
        if (c.inst.zeta() != 1) return std::nullopt;
        const Plan plan = migration::migrate(c.inst, {}, [&] {
          Params p = migration::default_params(c.inst);
          p.alpha = c.alpha;
          return p;
        }());
        const uint64_t expected = uint64_t{1} << (as_printed ? c.inst.beta() : c.inst.gamma());
        if (plan.bs.size() != expected)
          return fmt::format("S = {}, T = {}: S splits into {} subcubes B along D(S) n D(T) (one specific node each), "
                             "not 2^{} = {}",
                             c.inst.S, c.inst.T, plan.bs.size(), as_printed ? "beta" : "gamma", expected);
        for (const auto& b : plan.bs) {
          int specific = 0;
          for (Node u : migration::nodes_of(b.cube)) specific += migration::d_sets(c.inst, c.alpha, u).f_S == 0;
          if (specific != 1) return fmt::format("B = {} has {} nodes q with D_f(S|q) empty", b.cube, specific);
        }
        return std::nullopt;
      };
    };
    add("migration.sec42.specific_nodes", "Section 4.2",
        "S can be partitioned into 2^beta beta-dimensional subcubes along those dimensions in D(S) n D(T); each B has "
        "exactly one node q with D_f(S|q) empty; there are 2^beta specific nodes totally in S.",
        {lemma_reading("as-printed", "2^beta subcubes B and specific nodes, one per B", count_check(true)),
         lemma_reading("2^gamma", "2^gamma subcubes B (gamma = |D(S) n D(T)|), one specific node per B", count_check(false))});
  }

  // Section 5's latency model.
  {
    auto reading = [](std::string name, std::string words, double bound, bool reduction) {
      Reading r;
      r.name = std::move(name);
      r.description = std::move(words);
      r.methods.emplace_back(Method::kExhaustive,
                             [bound, reduction](const RunContext&) { return latency_sweep(bound, reduction); });
      r.check_case = [bound, reduction](const json&, const json& input) -> Result<CaseCheck> {
        for (const char* key : {"zeta", "beta", "M_over_X", "startup_fraction"})
          if (!input.is_object() || !input.contains(key) || !input.at(key).is_number())
            return invalid_argument(fmt::format("input.{} must be a number", key));
        const int zeta = input.at("zeta").get<int>(), beta = input.at("beta").get<int>();
        const double ratio = input.at("M_over_X").get<double>(), st = input.at("startup_fraction").get<double>();
        if (zeta < 0 || beta < 1 || ratio <= 0 || st < 0)
          return invalid_argument("input: zeta >= 0, beta >= 1, M_over_X > 0, startup_fraction >= 0");
        const auto l = migration::latency(ratio, 1, 1, zeta, beta, st * ratio);
        const double value = reduction ? l.reduction() : l.speedup();
        Violation v;
        if (value < bound) v = fmt::format("{} = {:.3f} < {}", reduction ? "reduction" : "speedup", value, bound);
        return CaseCheck{v, json{{"single", l.single}, {"dual", l.dual}, {"value", value}}};
      };
      return r;
    };
    add("migration.sec5.speedup", "Section 5.2",
        "The proposed speedy task migration leads to a speedup factor of roughly 2 (network latency (X/B)P + M/B "
        "with P = zeta + beta against (X/B)P + M/(2B) with P = zeta + 2 beta, X = L_f).",
        {reading("within-10pct", "speedup >= 1.8 over the grid (M >= 1000 X, start-up <= 1% of M/B)", 1.8, false),
         reading("within-5pct", "speedup >= 1.9 over the grid (M >= 1000 X, start-up <= 1% of M/B)", 1.9, false)});
    add("migration.sec5.reduction", "Section 5.1",
        "Speedy task migration yields a reduction in the communication latency by almost 50% (X = M_c).",
        {reading("at-least-45pct", "latency reduction >= 45% over the grid (M >= 1000 X, start-up <= 1% of M/B)", 0.45,
                 true)});
  }
}

}  // namespace topocheck::claims
