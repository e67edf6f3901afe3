// The migration procedure of Section 4 (Chen and Tzeng, paper 000; notation in migration.h), one
// named step per part of the paper: Section 4.1 Case a (an aggressive path u -> w -> g(u) and a
// regular path u -> x -> f(u)), Case b (|C(S,T)| >= 2: HAMMING-PATH with link k last or first),
// Section 4.2's single link (|C(S,T)| = 1), each B's specific node's second path, and last the
// h-extensions f(u) -> h(f(u)) of the regular paths. HAMMING-PATH is the caller's (migrate_with);
// its calls come in a fixed order given the earlier outcomes (node by node, ascending; then the
// specific nodes). Also the plan's text and JSON forms and Section 5's latency model.
// Preconditions as in migration.h (violations abort). Cost: O(2^dim(S)) HAMMING-PATH calls.
#include "migration/migration.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace topocheck::migration {
namespace {

uint64_t bit(int i) { return uint64_t{1} << i; }

// Appends `tail` reversed (it runs from its own start to the shared end node) to `head`, which
// ends at that shared node.
Path join_reversed(const Path& head, const Path& tail) {
  TC_CHECK(!head.empty() && !tail.empty() && head.back() == tail.back(), "join_reversed: ends differ");
  Path out = head;
  for (size_t k = tail.nodes.size() - 1; k-- > 0;) out.nodes.push_back(tail.nodes[k]);
  return out;
}

std::string hamming_failure(Node a, Node b) {
  return fmt::format("HAMMING-PATH {} -> {}: every Hamming path has a block link", a, b);
}

// What every step of the procedure reads: the instance, the choices, the link k of Case b and
// Section 4.2 (the smallest dimension of C(S,T) unless params.k names one; -1 when C is empty),
// and HAMMING-PATH.
struct Migration {
  const Instance& inst;
  const Params& params;
  const HammingPathFn& hamming_path_of;
  int k = -1;
};

// The preconditions of migrate_with (TC_CHECK): alpha is a bijection of the instance, every given
// sequence lists D(T)-D(S) once, k is in C(S,T).
void check_preconditions(const Instance& inst, const Params& params, int k) {
  TC_CHECK(params.alpha.map.size() == static_cast<size_t>(inst.beta()), "alpha is not a bijection of the instance");
  for (const auto& seq : params.per_b_sequence)
    TC_CHECK(mask_of(seq) == inst.DTmS && seq.size() == static_cast<size_t>(inst.beta()), "bad per-B sequence");
  TC_CHECK(params.ext_sequence.empty() || (mask_of(params.ext_sequence) == inst.DTmS &&
                                           params.ext_sequence.size() == static_cast<size_t>(inst.beta())),
           "bad extension sequence");
  TC_CHECK(inst.C == 0 || (inst.C & bit(k)), "k is not in C(S,T)");
}

// Records that HAMMING-PATH a -> b found none (the first such call names the missing path).
void note_hamming_failure(NodePlan& np, Node a, Node b) {
  np.hamming_failed = true;
  if (np.missing.empty()) np.missing = hamming_failure(a, b);
}

// The path a -> w -> b: HAMMING-PATH a -> w, then HAMMING-PATH b -> w reversed (in that order of
// calls); nullopt when either call finds none.
std::optional<Path> via(const Migration& m, NodePlan& np, Node a, Node w, Node b) {
  auto first = m.hamming_path_of(a, w);
  if (!first) note_hamming_failure(np, a, w);
  auto second = m.hamming_path_of(b, w);
  if (!second) note_hamming_failure(np, b, w);
  if (first && second) return join_reversed(*first, *second);
  return std::nullopt;
}

// Section 4.1 Case a (D_f(S|u) not empty): the aggressive path u -> w -> g(u), w = u ^ D_g(T|u);
// returns the regular path u -> x -> f(u), x = u ^ (D_f(T|u) u C) (or D_g under params.x_set),
// which extend_regular_paths extends once the sequences are known.
std::optional<Path> case_a(const Migration& m, NodePlan& np, const DSets& ds) {
  const Node u = np.u;
  np.node_case = NodeCase::kCaseA;
  const Node w{u.bits ^ ds.g_T, u.width};
  if (auto aggressive = via(m, np, u, w, np.target)) np.paths.push_back({PathKind::kAggressive, *aggressive, -1});
  const uint64_t xset = (m.params.x_set == RegularReading::kF ? ds.f_T : ds.g_T) | m.inst.C;
  const Node x{u.bits ^ xset, u.width};
  return via(m, np, u, x, f(m.inst, m.params.alpha, u, m.params.bars));
}

// Section 4.1 Case b (|C(S,T)| >= 2): HAMMING-PATH u -> g(u)^(k) then link k, and link k
// u -> u^(k) then HAMMING-PATH to g(u).
void case_b(const Migration& m, NodePlan& np) {
  const Node u = np.u;
  np.node_case = NodeCase::kCaseB;
  const Node w = np.target.flip(m.k);
  if (auto p = m.hamming_path_of(u, w)) {
    Path path = *p;
    path.nodes.push_back(np.target);
    np.paths.push_back({PathKind::kCaseBLast, std::move(path), -1});
  } else {
    note_hamming_failure(np, u, w);
  }
  const Node x = u.flip(m.k);
  if (auto p = m.hamming_path_of(np.target, x)) {
    Path head;
    head.nodes = {u, x};
    np.paths.push_back({PathKind::kCaseBFirst, join_reversed(head, *p), -1});
  } else {
    note_hamming_failure(np, np.target, x);
  }
}

// Section 4.2 (|C(S,T)| = 1): u is a specific node of its B; its first path is the single link
// u -> g(u) (the second is specific_second_paths').
void single_link(NodePlan& np) {
  const Node u = np.u;
  np.node_case = NodeCase::kSpecific;
  if (hamming(u, np.target) == 1) {
    Path path;
    path.nodes = {u, np.target};
    np.paths.push_back({PathKind::kSingleLink, std::move(path), -1});
  } else {
    np.missing = fmt::format("{} and g = {} are not adjacent: Section 4.2's single link does not exist", u,
                             np.target);
  }
}

// The case of u and its paths; the regular path still to extend (Case a) in *regular.
NodePlan plan_node(const Migration& m, Node u, std::optional<Path>& regular) {
  NodePlan np;
  np.u = u;
  np.target = g(m.inst, m.params.alpha, u, m.params.bars);
  const DSets ds = d_sets(m.inst, m.params.alpha, u, m.params.bars);
  if (ds.f_S != 0) {
    regular = case_a(m, np, ds);
  } else if (np.target == u) {
    np.node_case = NodeCase::kSame;
  } else if (m.inst.zeta() >= 2) {
    case_b(m, np);
  } else if (m.inst.zeta() == 1) {
    single_link(np);
  } else {
    np.node_case = NodeCase::kSame;
    np.missing = fmt::format("no rule of the procedure applies: D_f(S|u) is empty, |C| = 0, yet g(u) = {} != u",
                             np.target);
  }
  return np;
}

// The index of node u of S in plan.nodes (ascending by address).
size_t index_of(const Plan& plan, Node u) {
  const auto it = std::lower_bound(plan.nodes.begin(), plan.nodes.end(), u,
                                   [](const NodePlan& a, Node b) { return a.u < b; });
  TC_CHECK(it != plan.nodes.end() && it->u == u, "node not in S");
  return static_cast<size_t>(it - plan.nodes.begin());
}

// Section 4.2: the nodes p of q's B (p != q, ascending) whose aggressive path's last link is not k.
std::vector<Node> eligible_ps(const Migration& m, const Plan& plan, const Plan::BInfo& info) {
  std::vector<Node> eligible;
  for (const Node p : nodes_of(info.cube)) {
    if (p == info.q) continue;
    const NodePlan& pp = plan.nodes[index_of(plan, p)];
    for (const MigrationPath& mp : pp.paths) {
      if (mp.kind != PathKind::kAggressive) continue;
      const auto dims = hop_dimensions(mp.path);
      if (!dims.empty() && dims.back() != m.k) eligible.push_back(p);
    }
  }
  return eligible;
}

// Section 4.2: q's second path q -> q^X -> (k) -> g(p) -> g(q), copying the node p it picked
// (X = D_g(T|p), or D_f(T|p) under params.x_reading); the part after link k follows q's sequence.
void specific_second_path(const Migration& m, NodePlan& qp, Plan::BInfo& info, Node p) {
  const Node q = info.q;
  info.p = p;
  const DSets ds = d_sets(m.inst, m.params.alpha, p, m.params.bars);
  const uint64_t X = m.params.x_reading == XReading::kDg ? ds.g_T : ds.f_T;
  // q chooses the order of its last subpath now that X is known ("(in any sequence)").
  info.sequence = apply_sequence_policy(m.params.seq_policy, info.sequence, X);
  const Node qx{q.bits ^ X, q.width};
  if (auto first = m.hamming_path_of(q, qx)) {
    Path path = *first;
    path.nodes.push_back(qx.flip(m.k));
    const int ext_begin = static_cast<int>(path.nodes.size()) - 1;
    for (int d : info.sequence)
      if (X & bit(d)) path.nodes.push_back(path.nodes.back().flip(d));
    qp.paths.push_back({PathKind::kSpecificSecond, std::move(path), ext_begin});
  } else {
    note_hamming_failure(qp, q, qx);
  }
}

// Section 4.2: each B's specific node q decides its second path and the sequence it broadcasts.
void specific_second_paths(const Migration& m, Plan& plan) {
  std::vector<Node> qs;
  for (const NodePlan& np : plan.nodes)
    if (np.node_case == NodeCase::kSpecific) qs.push_back(np.u);
  for (const Node q : qs) {
    Plan::BInfo info;
    info.cube = Subcube{m.inst.DSmT, q.bits & ~m.inst.DSmT, m.inst.n};
    info.q = q;
    info.sequence = sequence_for(m.inst, m.params, q);
    const std::vector<Node> eligible = eligible_ps(m, plan, info);
    NodePlan& qp = plan.nodes[index_of(plan, q)];
    if (eligible.empty()) {
      qp.second_absent = true;
      if (qp.missing.empty())
        qp.missing = m.inst.beta() == 0 ? "Section 4.2: beta = 0, the second path is absent"
                                        : "Section 4.2: every aggressive path from B traverses link k last, the "
                                          "second path is absent";
    } else {
      specific_second_path(m, qp, info, m.params.pick_p == PickP::kFirst ? eligible.front() : eligible.back());
    }
    plan.bs.push_back(std::move(info));
  }
}

// The h-extensions f(u) -> h(f(u)) of Case a's regular paths, along each node's sequence (in
// Section 4.2, the one its B's specific node broadcast).
void extend_regular_paths(const Migration& m, Plan& plan, const std::vector<std::optional<Path>>& regular) {
  const auto sequence_of = [&](Node u) {
    for (const Plan::BInfo& b : plan.bs)
      if (b.cube.contains(u)) return b.sequence;
    return sequence_for(m.inst, m.params, u);
  };
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    if (!regular[i]) continue;
    Path path = *regular[i];
    const int ext_begin = static_cast<int>(path.nodes.size()) - 1;
    for (int d : sequence_of(plan.nodes[i].u)) path.nodes.push_back(path.nodes.back().flip(d));
    plan.nodes[i].paths.push_back({PathKind::kRegularExtended, std::move(path), ext_begin});
  }
}

}  // namespace

std::string to_string(PathKind k) {
  switch (k) {
    case PathKind::kAggressive: return "aggressive";
    case PathKind::kRegularExtended: return "regular+extension";
    case PathKind::kCaseBLast: return "case-b-k-last";
    case PathKind::kCaseBFirst: return "case-b-k-first";
    case PathKind::kSingleLink: return "single-link";
    case PathKind::kSpecificSecond: return "specific-second";
  }
  return "?";
}

std::string to_string(NodeCase c) {
  switch (c) {
    case NodeCase::kSame: return "same";
    case NodeCase::kCaseA: return "case-a";
    case NodeCase::kCaseB: return "case-b";
    case NodeCase::kSpecific: return "specific";
  }
  return "?";
}

Plan migrate(const Instance& inst, const Blocks& blocks, const Params& params) {
  Plan plan = migrate_with(inst, params, [&](Node a, Node b) { return hamming_path(a, b, blocks, params.tie); });
  plan.blocks = blocks;
  return plan;
}

Plan migrate_with(const Instance& inst, const Params& params, const HammingPathFn& hamming_path_of) {
  const int k = params.k >= 0 ? params.k : (inst.C ? std::countr_zero(inst.C) : -1);
  check_preconditions(inst, params, k);
  const Migration m{inst, params, hamming_path_of, k};
  Plan plan;
  plan.inst = inst;
  plan.params = params;
  plan.section_42 = inst.zeta() == 1;
  std::vector<std::optional<Path>> regular;  // per node: Case a's regular path, not yet extended
  for (const Node u : nodes_of(inst.S)) {
    std::optional<Path> reg;
    plan.nodes.push_back(plan_node(m, u, reg));
    regular.push_back(std::move(reg));
  }
  if (plan.section_42) specific_second_paths(m, plan);
  extend_regular_paths(m, plan, regular);
  return plan;
}

nlohmann::json Plan::to_json() const {
  using nlohmann::json;
  json out = {{"n", inst.n},
              {"S", inst.S.to_string()},
              {"T", inst.T.to_string()},
              {"C", dims_of(inst.C)},
              {"DS_minus_DT", dims_of(inst.DSmT)},
              {"DT_minus_DS", dims_of(inst.DTmS)},
              {"situation", section_42 ? "4.2" : "4.1"},
              {"alpha", params.alpha.to_string()},
              {"bars", params.bars.to_string()},
              {"tie_break", to_string(params.tie)},
              // The sequence in effect: an empty ext_sequence means the ascending D(T)-D(S)
              // (sequence_for), written out so that both spellings of it give one JSON.
              {"sequence", params.ext_sequence.empty() ? dims_of(inst.DTmS) : params.ext_sequence},
              {"sequence_policy", to_string(params.seq_policy)},
              {"k", params.k >= 0 ? params.k : (inst.C ? std::countr_zero(inst.C) : -1)},
              {"blocks", blocks_to_string(blocks)},
              {"nodes", json::array()}};
  for (const NodePlan& np : nodes) {
    json node = {{"u", np.u.to_string()},
                 {"g", np.target.to_string()},
                 {"f", f(inst, params.alpha, np.u, params.bars).to_string()},
                 {"case", to_string(np.node_case)},
                 {"paths", json::array()}};
    for (const MigrationPath& mp : np.paths) {
      json p = {{"kind", to_string(mp.kind)}, {"path", path_to_json(mp.path)}, {"length", mp.path.length()}};
      if (mp.ext_begin >= 0) p["extension_from"] = mp.ext_begin;
      node["paths"].push_back(std::move(p));
    }
    if (!np.missing.empty()) node["missing"] = np.missing;
    out["nodes"].push_back(std::move(node));
  }
  if (section_42) {
    out["bs"] = json::array();
    for (const BInfo& b : bs) {
      json j = {{"B", b.cube.to_string()}, {"q", b.q.to_string()}, {"sequence", b.sequence}};
      if (b.p) j["p"] = b.p->to_string();
      out["bs"].push_back(std::move(j));
    }
  }
  return out;
}

std::string Plan::to_text() const {
  std::string out = fmt::format(
      "S = {}  T = {}  C = {}  D(S)-D(T) = {}  D(T)-D(S) = {}  (Section {})\nalpha {}  bars {}  tie-break {}  blocks {}\n",
      inst.S, inst.T, dims_to_string(inst.C), dims_to_string(inst.DSmT), dims_to_string(inst.DTmS),
      section_42 ? "4.2" : "4.1", params.alpha.to_string().empty() ? "-" : params.alpha.to_string(),
      params.bars.to_string(), to_string(params.tie), blocks.empty() ? "none" : blocks_to_string(blocks));
  for (const NodePlan& np : nodes) {
    out += fmt::format("{} -> {}  ({})\n", np.u, np.target, to_string(np.node_case));
    for (const MigrationPath& mp : np.paths)
      out += fmt::format("  {:<18} {} (length {})\n", to_string(mp.kind), mp.path, mp.path.length());
    if (!np.missing.empty()) out += fmt::format("  missing: {}\n", np.missing);
  }
  return out;
}

Latency latency(double M, double B, double X, int zeta, int beta, double startup) {
  Latency l;
  l.single = startup + (X / B) * (zeta + beta) + M / B;
  l.dual = startup + (X / B) * (zeta + 2 * beta) + M / (2 * B);
  return l;
}

}  // namespace topocheck::migration
