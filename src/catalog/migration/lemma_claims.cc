// The isomorphisms (Sections 2.2 and 3.1) and Lemmas 1-6 (Section 3.2) of the migration paper
// (000), each over every (S, T, alpha) of the budget's n (lemma_sweep, catalog/migration/inputs.h):
// the lemmas over every path of each kind (no blocks), the isomorphisms under every reading of the
// bars the scan lost (Bars), judged by the naive checkers of migration/migration_checks.h.
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/migration/inputs.h"
#include "catalog/migration/parts.h"
#include "catalog/migration/scope.h"
#include "claims/claim.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"
#include "migration/plan_classes.h"

namespace topocheck::claims::migration_parts {
namespace {

namespace scope = migration_scope;
using migration::all_sequences;
using migration::Disjointness;
using migration::Instance;
using nlohmann::json;

// ---- Lemmas: every path of each kind, no blocks ------------------------------------------

// A node with g(u) = u has none: Section 4.1, "then v = g(v) and there is no migration path needed
// for v" (the zero-hop path is not an aggressive path a lemma could be about).
std::vector<Path> aggressive_paths(const LemmaCtx& c, Node u) {
  std::vector<Path> out;
  const Node gu = migration::g(c.inst, c.alpha, u);
  if (gu == u) return out;
  for (Path& p : migration::hamming_paths(u, gu))
    if (migration::is_aggressive(c.inst, c.alpha, migration::Bars::paper(), p, u)) out.push_back(std::move(p));
  return out;
}

std::vector<Path> regular_paths(const LemmaCtx& c, Node u, migration::RegularReading r) {
  std::vector<Path> out;
  for (Path& p : migration::hamming_paths(u, migration::f(c.inst, c.alpha, u)))
    if (migration::is_regular(c.inst, c.alpha, migration::Bars::paper(), r, p, u)) out.push_back(std::move(p));
  return out;
}

Violation first_shared(const std::vector<Path>& as, const std::vector<Path>& bs, Disjointness d) {
  for (const Path& a : as)
    for (const Path& b : bs)
      if (auto v = migration::check_disjoint({a, b}, d)) return fmt::format("{} and {}: {}", a, b, *v);
  return std::nullopt;
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

// Lemma 1: the aggressive paths of every two nodes u != v of S.
Violation aggressive_paths_disjoint(const LemmaCtx& c, Disjointness d) {
  const auto S = migration::nodes_of(c.inst.S);
  for (Node u : S)
    for (Node v : S)
      if (u < v)
        if (auto w = first_shared(aggressive_paths(c, u), aggressive_paths(c, v), d))
          return fmt::format("S = {}, T = {}, alpha {}: {}", c.inst.S, c.inst.T, c.alpha.to_string(), *w);
  return std::nullopt;
}

// Lemma 3: for every sequence of D(T)-D(S), the paths along it from every two nodes u != v of T.
Violation h_paths_disjoint(const LemmaCtx& c, Disjointness d) {
  const auto T = migration::nodes_of(c.inst.T);
  for (const auto& seq : all_sequences(c.inst.DTmS))
    for (Node u : T)
      for (Node v : T)
        if (u < v)
          if (auto w = first_shared({migration::path_along(u, seq)}, {migration::path_along(v, seq)}, d))
            return fmt::format("S = {}, T = {}, sequence {}: {}", c.inst.S, c.inst.T, fmt::join(seq, ","), *w);
  return std::nullopt;
}

// Lemmas 4 and 5: the first hop of `p` (a `kind` path) that joins two nodes of T.
Violation t_link_of(const LemmaCtx& c, const Path& p, const char* kind) {
  for (size_t k = 0; k + 1 < p.nodes.size(); ++k)
    if (c.inst.T.contains(p.nodes[k]) && c.inst.T.contains(p.nodes[k + 1]))
      return fmt::format("S = {}, T = {}, alpha {}: {} path {} uses link {}-{} of T", c.inst.S, c.inst.T,
                         c.alpha.to_string(), kind, p, p.nodes[k], p.nodes[k + 1]);
  return std::nullopt;
}

// Lemma 4: the regular paths of every u with D_f(S|u) nonempty.
Violation regular_avoids_t(const LemmaCtx& c, migration::RegularReading reg) {
  for (Node u : migration::nodes_of(c.inst.S)) {
    if (migration::d_sets(c.inst, c.alpha, u).f_S == 0) continue;
    for (const Path& p : regular_paths(c, u, reg))
      if (auto v = t_link_of(c, p, "regular")) return v;
  }
  return std::nullopt;
}

// Lemma 5: the aggressive paths of every u.
Violation aggressive_avoids_t(const LemmaCtx& c) {
  for (Node u : migration::nodes_of(c.inst.S))
    for (const Path& p : aggressive_paths(c, u))
      if (auto v = t_link_of(c, p, "aggressive")) return v;
  return std::nullopt;
}

// g(u) = h(f(u)) for every u in S.
Violation g_is_h_of_f(const Instance& inst, const migration::Alpha& a, migration::Bars b) {
  for (Node u : migration::nodes_of(inst.S))
    if (migration::g(inst, a, u, b) != migration::h(inst, migration::f(inst, a, u, b)))
      return fmt::format("u = {}: g(u) = {} but h(f(u)) = {}", u, migration::g(inst, a, u, b),
                         migration::h(inst, migration::f(inst, a, u, b)));
  return std::nullopt;
}

// H(u, f(u)) = zeta + beta for every u in S.
Violation distance_is_zeta_plus_beta(const Instance& inst, const migration::Alpha& a, migration::Bars b) {
  for (Node u : migration::nodes_of(inst.S))
    if (hamming(u, migration::f(inst, a, u, b)) != inst.zeta() + inst.beta())
      return fmt::format("u = {}: H(u, f(u)) = {}, zeta + beta = {}", u, hamming(u, migration::f(inst, a, u, b)),
                         inst.zeta() + inst.beta());
  return std::nullopt;
}

// ---- Isomorphisms (Bars readings) --------------------------------------------------------------

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
      return iso_sweep(ctx, check, bars, scope::kIsoMaxN.at(ctx.budget));
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

}  // namespace

void add_isomorphism_claims(Registry& registry) {
  registry.add(Claim::make(kPaper, "migration.iso.f", "Section 2.2 (Chen-Lai's f)", "f is an isomorphism from S to T.",
      bars_readings("f maps S into T, injectively, preserving adjacency both ways",
                    [](const Instance& i, const migration::Alpha& a, migration::Bars b) {
                      return iso_maps_onto(i, a, b, false);
                    })));
  registry.add(Claim::make(kPaper, "migration.iso.g", "Section 3.1, equation (1)", "g is an isomorphism from S to T.",
      bars_readings("g maps S into T, injectively, preserving adjacency both ways",
                    [](const Instance& i, const migration::Alpha& a, migration::Bars b) {
                      return iso_maps_onto(i, a, b, true);
                    })));
  registry.add(Claim::make(kPaper, "migration.iso.g_is_h_of_f", "Section 3.1, after equation (2)",
      "For any node u in S, g(u) = h(f(u)).",
      bars_readings("g(u) = h(f(u)) for every u in S, h complementing D(T)-D(S)", g_is_h_of_f)));
  registry.add(Claim::make(kPaper, "migration.iso.distance", "Section 2.2",
      "The Hamming distance between u in S and f(u) is exactly |C(S,T)| + |D(S)-D(T)|.",
      bars_readings("H(u, f(u)) = zeta + beta for every u in S (Section 5's single-path length P = zeta + beta)",
                    distance_is_zeta_plus_beta)));
}

void add_lemma_claims(Registry& registry) {
  {
    std::vector<Reading> rs;
    for (Disjointness d : migration::kAllDisjointness)
      rs.push_back(lemma_reading(migration::to_string(d), "u != v; every aggressive path of u and of v; " + d_words(d),
                                 [d](const LemmaCtx& c) { return aggressive_paths_disjoint(c, d); }));
    registry.add(Claim::make(kPaper, "migration.lemma1.aggressive_disjoint", "Section 3.2, Lemma 1",
        "Let u and v be any two nodes in S. An aggressive path from u to g(u) and any aggressive path from v to g(v) "
        "are totally disjoint.",
        std::move(rs)));
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
    registry.add(Claim::make(kPaper, "migration.lemma2.regular_aggressive_disjoint", "Section 3.2, Lemma 2",
        "Let u and v be any two nodes in S and D_f(S|u) nonempty. A regular path from u to f(u) and an aggressive path "
        "from v to g(v) are totally disjoint.",
        std::move(rs)));
  }
  {
    std::vector<Reading> rs;
    for (Disjointness d : migration::kAllDisjointness)
      rs.push_back(lemma_reading(migration::to_string(d),
                                 "u != v in T; both paths follow the same sequence of D(T)-D(S) (every sequence); " + d_words(d),
                                 [d](const LemmaCtx& c) { return h_paths_disjoint(c, d); }));
    registry.add(Claim::make(kPaper, "migration.lemma3.h_paths_disjoint", "Section 3.2, Lemma 3",
        "Let u and v be any two nodes in T. Any pair of paths which traverse links along the dimensions in D(T)-D(S) "
        "following the same sequence, one from u to h(u) and the other from v to h(v), are totally disjoint.",
        std::move(rs)));
  }
  {
    std::vector<Reading> rs;
    for (auto reg : {migration::RegularReading::kF, migration::RegularReading::kAsPrintedG})
      rs.push_back(lemma_reading(reg == migration::RegularReading::kF ? "Df" : "Dg",
                                 "regular read with " + migration::to_string(reg) + "; D_f(S|u) nonempty; no hop of any "
                                 "regular path joins two nodes of T",
                                 [reg](const LemmaCtx& c) { return regular_avoids_t(c, reg); }));
    registry.add(Claim::make(kPaper, "migration.lemma4.regular_avoids_t", "Section 3.2, Lemma 4",
        "Let u be any node in S and D_f(S|u) nonempty. No regular path from u to f(u) traverses any link in T.",
        std::move(rs)));
  }
  registry.add(Claim::make(kPaper, "migration.lemma5.aggressive_avoids_t", "Section 3.2, Lemma 5",
      "Let u be any node in S. No aggressive path from u to g(u) traverses any link in T.",
      {lemma_reading("as-printed", "no hop of any aggressive path joins two nodes of T", aggressive_avoids_t)}));
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
    registry.add(Claim::make(kPaper, "migration.lemma6.hamming_aggressive_disjoint", "Section 3.2, Lemma 6",
        "Let u and v be any two nodes in S and D_f(S|u) nonempty. If the addresses of nodes u and u' differ in exactly "
        "D(T)-D(S), then a Hamming path from u to u' and any aggressive path from v to g(v) are totally disjoint.",
        std::move(rs)));
  }
}

}  // namespace topocheck::claims::migration_parts
