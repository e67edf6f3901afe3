#include "migration/plan_classes.h"

#include <algorithm>
#include <bit>
#include <bitset>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>
#include <utility>

#include "migration/packings.h"

namespace topocheck::migration {
namespace {

// Link sets: link {a, a XOR 2^i} is bit lo * n + i, lo = min(a, a XOR 2^i) (< 64 * 6 for n <= 6).
using LinkSet = std::bitset<64 * kPlanClassesMaxN>;

int link_id(uint64_t a, uint64_t b, int n) {
  return static_cast<int>(std::min(a, b)) * n + std::countr_zero(a ^ b);
}

LinkSet links_of(const Path& path, int n) {
  LinkSet out;
  for (size_t k = 0; k + 1 < path.nodes.size(); ++k) out.set(link_id(path.nodes[k].bits, path.nodes[k + 1].bits, n));
  return out;
}

// A candidate block: a subcube of dimension >= 1 outside S and T, its nodes and its links.
struct Cube {
  Subcube cube;
  uint64_t nodes = 0;
  LinkSet links;
};

// Every node of a subcube: the submasks of its free dimensions over its fixed values.
template <typename F>
void for_each_node_bits(const Subcube& c, F&& f) {
  uint64_t sub = 0;
  do {
    f(c.values | sub);
    sub = (sub - c.free_mask) & c.free_mask;
  } while (sub != 0);
}

std::vector<Cube> cubes_outside(const Instance& inst) {
  const int n = inst.n;
  uint64_t taken = 0;
  for (const Subcube& c : {inst.S, inst.T}) for_each_node_bits(c, [&](uint64_t u) { taken |= uint64_t{1} << u; });
  std::vector<Cube> out;
  for (int d = 1; d <= n; ++d)
    for (const Subcube& c : subcubes(n, d)) {
      Cube x{c, 0, {}};
      for_each_node_bits(c, [&](uint64_t u) {
        x.nodes |= uint64_t{1} << u;
        for (int i = 0; i < n; ++i)
          if (((c.free_mask >> i) & 1) && !((u >> i) & 1)) x.links.set(link_id(u, u ^ (uint64_t{1} << i), n));
      });
      if ((x.nodes & taken) == 0) out.push_back(std::move(x));
    }
  return out;
}

// The constraints of a script prefix: links no block may contain, and paths each of which some
// block must meet.
struct Constraints {
  LinkSet free;
  std::vector<LinkSet> hit;
};

void add_outcome(Constraints& c, const std::vector<Path>& paths, int outcome, int n) {
  if (outcome < static_cast<int>(paths.size())) c.free |= links_of(paths[outcome], n);
  for (int j = 0; j < outcome && j < static_cast<int>(paths.size()); ++j) c.hit.push_back(links_of(paths[j], n));
}

bool meets(const std::vector<Cube>& all, const Blocks& blocks, const Constraints& c, int n) {
  LinkSet blocked;
  for (const Subcube& b : blocks)
    for (const Cube& x : all)
      if (x.cube == b) blocked |= x.links;
  (void)n;
  if ((blocked & c.free).any()) return false;
  for (const LinkSet& h : c.hit)
    if ((blocked & h).none()) return false;
  return true;
}

// The witness search of the header comment.
class Search {
 public:
  Search(const std::vector<Cube>& all, const Constraints& c) {
    for (const Cube& x : all)
      if ((x.links & c.free).none()) allowed_.push_back(&x);
    LinkSet reachable;
    for (const Cube* x : allowed_) reachable |= x->links;
    for (const LinkSet& h : c.hit) {
      if ((h & reachable).none()) impossible_ = true;
      reqs_.push_back(h & reachable);
    }
  }

  // First packing found, or nullopt.
  std::optional<Blocks> find() {
    if (impossible_) return std::nullopt;
    chosen_.clear();
    stop_at_first_ = true;
    found_.reset();
    rec(0, LinkSet{});
    return found_;
  }

  // Every packing the branching reaches (deduplicated), visit returns true to stop.
  bool all(const std::function<bool(const Blocks&)>& visit) {
    if (impossible_) return false;
    chosen_.clear();
    stop_at_first_ = false;
    visit_ = &visit;
    seen_.clear();
    return rec(0, LinkSet{});
  }

 private:
  struct State {
    uint64_t used;
    LinkSet blocked;
    bool operator==(const State&) const = default;
  };
  struct StateHash {
    size_t operator()(const State& s) const { return std::hash<LinkSet>()(s.blocked) * 31 + std::hash<uint64_t>()(s.used); }
  };

  // Returns true to stop (a witness found in find mode, or the visitor asked to stop).
  bool rec(uint64_t used, const LinkSet& blocked) {
    // The unmet path with the fewest blocks that could still meet it.
    int best = -1;
    size_t best_options = SIZE_MAX;
    for (size_t r = 0; r < reqs_.size(); ++r) {
      if ((reqs_[r] & blocked).any()) continue;
      size_t options = 0;
      for (const Cube* x : allowed_)
        if ((x->nodes & used) == 0 && (x->links & reqs_[r]).any()) ++options;
      if (options < best_options) best_options = options, best = static_cast<int>(r);
      if (options == 0) break;
    }
    if (best < 0) {  // every constraint met
      ++solutions_;
      Blocks blocks;
      for (const Cube* x : chosen_) blocks.push_back(x->cube);
      if (stop_at_first_) {
        found_ = blocks;
        return true;
      }
      std::sort(blocks.begin(), blocks.end(), [](const Subcube& a, const Subcube& b) {
        return std::pair(a.free_mask, a.values) < std::pair(b.free_mask, b.values);
      });
      if (!seen_.insert(blocks_to_string(blocks)).second) return false;
      return (*visit_)(blocks);
    }
    if (best_options == 0 || failed_.count(State{used, blocked})) return false;
    bool any = false;
    for (const Cube* x : allowed_) {
      if ((x->nodes & used) != 0 || (x->links & reqs_[best]).none()) continue;
      chosen_.push_back(x);
      const size_t before = solutions_;
      if (rec(used | x->nodes, blocked | x->links)) return true;
      any = any || solutions_ != before;
      chosen_.pop_back();
    }
    // In find mode reaching here means no witness below this state. In enumeration mode a
    // state is remembered as failed only when nothing below it met every constraint.
    if (stop_at_first_ || !any) failed_.insert(State{used, blocked});
    return false;
  }

  std::vector<const Cube*> allowed_;
  std::vector<LinkSet> reqs_;
  bool impossible_ = false;
  std::vector<const Cube*> chosen_;
  bool stop_at_first_ = true;
  std::optional<Blocks> found_;
  const std::function<bool(const Blocks&)>* visit_ = nullptr;
  std::set<std::string> seen_;
  size_t solutions_ = 0;
  std::unordered_set<State, StateHash> failed_;
};

// The Hamming paths of each call, cached by (a, b).
class PathCache {
 public:
  explicit PathCache(TieBreak tie) : tie_(tie) {}
  const std::vector<Path>& of(Node a, Node b) {
    auto [it, fresh] = cache_.try_emplace({a.bits, b.bits});
    if (fresh) it->second = hamming_paths_in_order(a, b, tie_);
    return it->second;
  }

 private:
  TieBreak tie_;
  std::map<std::pair<uint64_t, uint64_t>, std::vector<Path>> cache_;
};

// Runs the procedure on `script`; returns the call after it (nullopt: the script is complete),
// and adds each scripted call's constraints to `cons` when given.
std::optional<std::pair<Node, Node>> next_call(const Instance& inst, const Params& params, PathCache& paths,
                                               const std::vector<int>& script, Constraints* cons) {
  size_t index = 0;
  std::optional<std::pair<Node, Node>> pending;
  migrate_with(inst, params, [&](Node a, Node b) -> std::optional<Path> {
    if (index < script.size()) {
      const auto& ps = paths.of(a, b);
      const int o = script[index++];
      if (cons) add_outcome(*cons, ps, o, inst.n);
      if (o < static_cast<int>(ps.size())) return ps[o];
      return std::nullopt;
    }
    if (!pending) pending = std::pair(a, b);
    ++index;
    return std::nullopt;
  });
  return pending;
}

}  // namespace

std::vector<Path> hamming_paths_in_order(Node a, Node b, TieBreak tie) {
  auto order = dims_of(a.bits ^ b.bits);
  if (tie == TieBreak::kDescending) std::reverse(order.begin(), order.end());
  std::vector<int> index(order.size());
  for (size_t k = 0; k < index.size(); ++k) index[k] = static_cast<int>(k);
  std::vector<Path> out;
  // Lexicographic order of index sequences = the tie-break's order of dimension sequences.
  do {
    std::vector<int> dims;
    for (int k : index) dims.push_back(order[k]);
    out.push_back(path_along(a, dims));
  } while (std::next_permutation(index.begin(), index.end()));
  return out;
}

std::vector<int> script_of(const Instance& inst, const Params& params, const Blocks& blocks) {
  PathCache paths(params.tie);
  std::vector<int> script;
  migrate_with(inst, params, [&](Node a, Node b) -> std::optional<Path> {
    auto found = hamming_path(a, b, blocks, params.tie);
    const auto& ps = paths.of(a, b);
    int o = static_cast<int>(ps.size());
    if (found) o = static_cast<int>(std::find(ps.begin(), ps.end(), *found) - ps.begin());
    TC_CHECK(o <= static_cast<int>(ps.size()), "HAMMING-PATH returned a path that is not a Hamming path");
    script.push_back(o);
    return found;
  });
  return script;
}

bool for_each_plan_class(const Instance& inst, const Params& params,
                         const std::function<bool(const PlanClass&)>& visit) {
  TC_CHECK(inst.n <= kPlanClassesMaxN, "plan classes are enumerated for n <= 6");
  const std::vector<Cube> all = cubes_outside(inst);
  PathCache paths(params.tie);
  PlanClass current;
  auto rec = [&](auto&& self, const Constraints& cons) -> bool {
    const auto call = next_call(inst, params, paths, current.script, nullptr);
    if (!call) return visit(current);
    const auto& ps = paths.of(call->first, call->second);
    const Blocks parent = current.witness;
    for (int o = 0; o <= static_cast<int>(ps.size()); ++o) {
      Constraints next = cons;
      add_outcome(next, ps, o, inst.n);
      std::optional<Blocks> witness;
      if (meets(all, parent, next, inst.n)) witness = parent;
      else witness = Search(all, next).find();
      if (!witness) continue;
      current.script.push_back(o);
      current.witness = *witness;
      if (self(self, next)) return true;
      current.script.pop_back();
    }
    current.witness = parent;
    return false;
  };
  return rec(rec, Constraints{});
}

std::vector<Params> parameter_grid(const Instance& inst) {
  std::vector<int> ks = {-1};
  if (inst.zeta() >= 2) ks = dims_of(inst.C);
  const bool section_42 = inst.zeta() == 1;
  std::vector<Params> out;
  for (const Alpha& alpha : all_alphas(inst))
    for (TieBreak tie : {TieBreak::kAscending, TieBreak::kDescending})
      for (int k : ks)
        for (XReading x : {XReading::kDg, XReading::kDf})
          for (PickP pick : {PickP::kFirst, PickP::kLast}) {
            if (!section_42 && (x != XReading::kDg || pick != PickP::kFirst)) continue;
            Params p = default_params(inst);
            p.alpha = alpha;
            p.tie = tie;
            p.k = k;
            p.x_reading = x;
            p.pick_p = pick;
            p.ext_sequence.clear();
            out.push_back(std::move(p));
          }
  return out;
}

std::vector<std::vector<int>> all_sequences(uint64_t mask) {
  std::vector<std::vector<int>> out;
  auto dims = dims_of(mask);
  do out.push_back(dims);
  while (std::next_permutation(dims.begin(), dims.end()));
  return out;
}

bool for_each_minimal_packing(const Instance& inst, const Params& params, const std::vector<int>& script,
                              const std::function<bool(const Blocks&)>& visit) {
  TC_CHECK(inst.n <= kPlanClassesMaxN, "plan classes are enumerated for n <= 6");
  const std::vector<Cube> all = cubes_outside(inst);
  PathCache paths(params.tie);
  Constraints cons;
  TC_CHECK(!next_call(inst, params, paths, script, &cons), "the script is not complete");
  return Search(all, cons).all(visit);
}

}  // namespace topocheck::migration
