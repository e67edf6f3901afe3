// ITM Theorem 5 (Liu et al., paper 002: no two messages w -> x, y -> z with w < x < y < z
// cyclically share a directed edge on their shortest paths) for ALL exterior ITMs with a FIXED
// number of nodes n, under each contention reading: distances in the order encoding, the
// circular order symbolic (kSteps) or fixed by the triangulated polygon (kPolygon), and the
// shared edge; smt/itm_smt.h gives the encoding and Lemma 4's induction it rests on. A kPolygon
// model is turned back into AddNode steps by peeling ears (itm_of_polygon). Preconditions:
// 3 <= n <= kItmSmtMaxNodes (TC_CHECK). Cost: one QF_FD check; kPolygon n = 16 about a minute,
// kSteps n = 9 about 40 s (measured table in smt/itm_smt.h).
#include "smt/itm_smt.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "smt/itm_symbolic.h"

namespace topocheck::smt {

using claims::SolverLimits;
using itm::Contention;
using itm::Rule;
using namespace itm_encoding;

namespace {

// A small non-negative integer in the order encoding: le[k] <=> value <= k, k = 0..max, le[max]
// true.
struct Unary {
  std::vector<z3::expr> le;
  int max() const { return static_cast<int>(le.size()) - 1; }
  z3::expr at_least(z3::context& ctx, int k) const {  // value >= k
    if (k <= 0) return ctx.bool_val(true);
    if (k > max()) return ctx.bool_val(false);
    return !le[at(k - 1)];
  }
};

using OneHot = std::vector<z3::expr>;

// The negation of check_contention_free (one reading) over a symbolic graph whose exterior edges
// contain a Hamiltonian cycle, as described in the header.
class ContentionViolation {
 public:
  // symbolic_order: a permutation with w anywhere (kSteps, kBrokenNonEdge); otherwise position p
  // is node p and w is node 0 (kPolygon, kBrokenCrossingChords).
  ContentionViolation(Formula& f, const SymbolicGraph& g, Contention contention, bool symbolic_order)
      : f_(f), ctx_(f.ctx()), g_(g), n_(g.n()), max_distance_(g.n() / 2) {
    if (symbolic_order) {
      encode_order();
    } else {
      for (int k = 0; k < n_; ++k) {
        position_.emplace_back();
        for (int v = 0; v < n_; ++v) position_.back().push_back(ctx_.bool_val(k == v));
      }
    }
    encode_distances();
    encode_violation(contention);
  }

  // The model's circular order (position 0 first).
  std::vector<int> order(const z3::model& model) const {
    std::vector<int> out;
    for (int k = 0; k < n_; ++k) out.push_back(one_hot_value(model, position_[at(k)]));
    return out;
  }
  ContentionModel messages(const z3::model& model) const {
    return ContentionModel{one_hot_value(model, w_), one_hot_value(model, x_), one_hot_value(model, y_),
                           one_hot_value(model, z_), one_hot_value(model, a_), one_hot_value(model, b_)};
  }

 private:
  // position_[k][v]: node v is at position k. The order starts at w (the first message's source,
  // any node) and walks exterior edges, in circular_order's direction: node 0's successor is
  // smaller than its predecessor.
  void encode_order() {
    for (int k = 0; k < n_; ++k) position_.push_back(f_.one_hot(fmt::format("pos{}", k), n_));
    for (int v = 0; v < n_; ++v) {
      std::vector<z3::expr> column;
      for (int k = 0; k < n_; ++k) column.push_back(position_[at(k)][at(v)]);
      f_.exactly_one(column);
    }
    for (int k = 0; k < n_; ++k)
      for (int u = 0; u < n_; ++u)
        for (int v = 0; v < n_; ++v)
          if (u != v)
            f_.add(z3::implies(position_[at(k)][at(u)] && position_[at((k + 1) % n_)][at(v)], g_.exterior(u, v)));
    std::vector<z3::expr> after0, before0;  // u follows / precedes node 0
    for (int u = 0; u < n_; ++u) {
      z3::expr_vector after(ctx_), before(ctx_);
      for (int k = 0; k < n_; ++k) {
        after.push_back(position_[at(k)][0] && position_[at((k + 1) % n_)][at(u)]);
        before.push_back(position_[at(k)][0] && position_[at((k + n_ - 1) % n_)][at(u)]);
      }
      after0.push_back(f_.define(fmt::format("after0_{}", u), z3::mk_or(after)));
      before0.push_back(f_.define(fmt::format("before0_{}", u), z3::mk_or(before)));
    }
    for (int u = 0; u < n_; ++u)
      for (int v = 0; v < u; ++v) f_.add(!(after0[at(u)] && before0[at(v)]));
  }

  // within(u, v, k) <=> d(u, v) <= k: u = v, or k >= 1 and a neighbour w of u has d(w, v) <= k-1
  // (BFS layers: exact). A Hamiltonian cycle of edges puts every pair within n / 2, so k stops
  // there and within(u, v, n / 2) is asserted (it removes no model).
  void encode_distances() {
    distance_.resize(at(n_ * (n_ - 1) / 2));
    for (int k = 1; k <= max_distance_; ++k)
      for (int v = 1; v < n_; ++v)
        for (int u = 0; u < v; ++u) {
          z3::expr_vector reach(ctx_);
          reach.push_back(within(u, v, k - 1));
          for (int w = 0; w < n_; ++w)
            if (w != u) reach.push_back(g_.adj(u, w) && within(w, v, k - 1));
          distance_[at(pair_index(u, v))].push_back(f_.define(fmt::format("d_{}_{}_le{}", u, v, k), z3::mk_or(reach)));
        }
    for (int v = 1; v < n_; ++v)
      for (int u = 0; u < v; ++u) f_.add(within(u, v, max_distance_));
  }
  z3::expr within(int u, int v, int k) const {
    if (u == v) return ctx_.bool_val(true);
    if (k == 0) return ctx_.bool_val(false);
    return distance_[at(pair_index(u, v))][at(k - 1)];
  }

  // d(s, t) of one-hot s, t.
  Unary distance(const OneHot& s, const OneHot& t, const std::string& name) {
    Unary d;
    for (int k = 0; k < max_distance_; ++k) {
      z3::expr_vector cases(ctx_);
      for (int u = 0; u < n_; ++u)
        for (int v = 0; v < n_; ++v)
          if (u == v || k > 0) cases.push_back(s[at(u)] && t[at(v)] && within(u, v, k));
      d.le.push_back(f_.define(fmt::format("{}_le{}", name, k), z3::mk_or(cases)));
    }
    d.le.push_back(ctx_.bool_val(true));
    return d;
  }

  // The directed edge a -> b (asserted to be an edge) lies on a shortest s -> t path:
  // d(s, a) + 1 + d(b, t) <= d(s, t) (equality, by the triangle inequality), in the order
  // encoding: d(s, a) >= i and d(b, t) >= j imply d(s, t) >= i + j + 1, for all i, j.
  z3::expr on_shortest_path(const OneHot& s, const OneHot& t, const OneHot& a, const OneHot& b,
                            const std::string& name) {
    const Unary sa = distance(s, a, name + "_sa"), bt = distance(b, t, name + "_bt"),
                st = distance(s, t, name + "_st");
    z3::expr_vector all(ctx_);
    for (int i = 0; i <= max_distance_; ++i)
      for (int j = 0; j <= max_distance_; ++j)
        all.push_back(z3::implies(sa.at_least(ctx_, i) && bt.at_least(ctx_, j), st.at_least(ctx_, i + j + 1)));
    return z3::mk_and(all);
  }

  // The node at a one-hot position 0..n (n: position 0 again, the cyclic wrap).
  OneHot node_at(const OneHot& pos, const std::string& name) {
    OneHot node;
    for (int v = 0; v < n_; ++v) {
      z3::expr_vector cases(ctx_);
      for (size_t k = 0; k < pos.size(); ++k) cases.push_back(pos[k] && position_[k % at(n_)][at(v)]);
      node.push_back(f_.define(fmt::format("{}_{}", name, v), z3::mk_or(cases)));
    }
    return node;
  }

  // w at position 0; x, y, z at positions 0 < x < y < z < n, or for kSharedEndpoint
  // 0 < x <= y < z <= n (z = n is w again) but not both x = y and z = n (check_contention_free's
  // loops with w's position as the origin).
  void encode_violation(Contention contention) {
    const bool touching = contention == Contention::kSharedEndpoint;
    const OneHot px = f_.one_hot("px", n_ + 1), py = f_.one_hot("py", n_ + 1), pz = f_.one_hot("pz", n_ + 1);
    f_.add(!px[0] && !py[0] && !pz[0] && !px[at(n_)] && !py[at(n_)]);
    if (!touching) f_.add(!pz[at(n_)]);
    for (int i = 0; i <= n_; ++i)
      for (int j = 0; j <= i; ++j) {
        if (j < i || !touching) f_.add(!(px[at(i)] && py[at(j)]));  // x < y, or x <= y
        f_.add(!(py[at(i)] && pz[at(j)]));                          // y < z
      }
    if (touching)
      for (int i = 1; i < n_; ++i) f_.add(!(px[at(i)] && py[at(i)] && pz[at(n_)]));
    w_ = position_[0];
    x_ = node_at(px, "x");
    y_ = node_at(py, "y");
    z_ = node_at(pz, "z");
    a_ = f_.one_hot("a", n_);
    b_ = f_.one_hot("b", n_);
    z3::expr_vector edge(ctx_);
    for (int u = 0; u < n_; ++u)
      for (int v = 0; v < n_; ++v)
        if (u != v) edge.push_back(a_[at(u)] && b_[at(v)] && g_.adj(u, v));
    f_.add(z3::mk_or(edge));
    f_.add(on_shortest_path(w_, x_, a_, b_, "m1"));
    switch (contention) {
      case Contention::kPaper:
      case Contention::kSharedEndpoint: f_.add(on_shortest_path(y_, z_, a_, b_, "m2")); break;
      case Contention::kReversed: f_.add(on_shortest_path(z_, y_, a_, b_, "m2")); break;
      case Contention::kUndirected:
        f_.add(on_shortest_path(y_, z_, a_, b_, "m2") || on_shortest_path(y_, z_, b_, a_, "m2r"));
        break;
    }
  }

  Formula& f_;
  z3::context& ctx_;
  const SymbolicGraph& g_;
  int n_;
  int max_distance_;
  std::vector<OneHot> position_;
  std::vector<std::vector<z3::expr>> distance_;
  OneHot w_, x_, y_, z_, a_, b_;
};

// A labelled ITM (exterior rule) whose graph is the triangulated polygon `edges` (nodes =
// positions), by peeling ears outwards from the triangle on side (0, 1): label[p] is position p's
// node. nullopt if `edges` is not a triangulated n-gon.
std::optional<std::pair<itm::Steps, std::vector<int>>> itm_of_polygon(int n,
                                                                  const std::vector<std::pair<int, int>>& edges) {
  std::vector<char> adjacent(at(n * n), 0);
  for (const auto& [u, v] : edges) adjacent[at(u * n + v)] = adjacent[at(v * n + u)] = 1;
  auto adj = [&](int u, int v) { return adjacent[at(u * n + v)] != 0; };
  std::vector<int> label(at(n), -1);
  itm::Steps steps;
  int apex = -1;
  for (int p = 2; p < n; ++p)
    if (adj(0, p) && adj(1, p)) apex = p;
  if (apex < 0) return std::nullopt;
  label[0] = 0;
  label[1] = 1;
  label[at(apex)] = 2;
  std::vector<std::pair<int, int>> boundary{{0, 1}, {1, apex}, {apex, 0}};  // positions
  for (size_t next = 0; next < boundary.size(); ++next) {
    const auto [p, q] = boundary[next];
    for (int r = 0; r < n; ++r)
      if (label[at(r)] < 0 && adj(p, r) && adj(q, r)) {
        label[at(r)] = 3 + static_cast<int>(steps.size());
        const int x = label[at(p)], y = label[at(q)];
        steps.push_back(itm::Step{label[at(r)], std::min(x, y), std::max(x, y)});
        boundary.emplace_back(p, r);
        boundary.emplace_back(r, q);
        break;
      }
  }
  if (static_cast<int>(steps.size()) != n - 3) return std::nullopt;
  return std::pair{steps, label};
}

}  // namespace

ItmSmtResult prove_contention_free(int n, Contention contention, const SolverLimits& limits, ItmEncoding encoding) {
  TC_CHECK(n >= 3 && n <= kItmSmtMaxNodes, "prove_contention_free: n out of range");
  ItmSmtResult result;
  try {
    z3::context ctx;
    Formula f(ctx);
    Checker checker(ctx, limits, result);
    if (encoding == ItmEncoding::kSteps || encoding == ItmEncoding::kBrokenNonEdge) {
      SymbolicItm g(f, n, Rule::kExterior, encoding == ItmEncoding::kSteps);
      g.break_symmetry(Rule::kExterior);
      const ContentionViolation violation(f, g, contention, true);
      if (const auto model = checker.check(f.all(), ctx.bool_val(true), kLogic)) {
        result.steps = g.steps(*model);
        result.edges = edges_of_steps(result.steps);
        result.order = violation.order(*model);
        std::rotate(result.order.begin(), std::find(result.order.begin(), result.order.end(), 0), result.order.end());
        result.messages = violation.messages(*model);
      }
    } else {
      const SymbolicPolygon g(f, n, encoding == ItmEncoding::kPolygon);
      const ContentionViolation violation(f, g, contention, false);
      if (const auto model = checker.check(f.all(), ctx.bool_val(true), kLogic)) {
        // Report in the labels of an ITM built from the triangulation (positions as they are
        // when the model is not one: the broken control).
        result.edges = g.edges(*model);
        result.order = violation.order(*model);
        result.messages = violation.messages(*model);
        if (const auto built = itm_of_polygon(n, result.edges)) {
          const auto& [steps, label] = *built;
          auto relabel = [&label = label](int p) { return p < 0 ? p : label[at(p)]; };
          result.steps = steps;
          for (auto& [u, v] : result.edges) {
            const int a = relabel(u), b = relabel(v);
            u = std::min(a, b);
            v = std::max(a, b);
          }
          std::sort(result.edges.begin(), result.edges.end());
          for (int& v : result.order) v = relabel(v);
          ContentionModel& m = result.messages;
          m = ContentionModel{relabel(m.w), relabel(m.x), relabel(m.y), relabel(m.z), relabel(m.a), relabel(m.b)};
        }
      }
    }
  } catch (const z3::exception& e) {
    return z3_error(e);
  }
  return result;
}

Result<std::vector<itm::Steps>> contention_violating_models(int n, Contention contention, ItmEncoding encoding) {
  return itm_inputs(n, Rule::kExterior, encoding, false, [contention](Formula& f, const SymbolicItm& g) {
    const ContentionViolation violation(f, g, contention, true);
  });
}

Result<std::vector<Chords>> polygon_violating_models(int n, Contention contention, ItmEncoding encoding) {
  return polygon_inputs(n, encoding, [contention](Formula& f, const SymbolicPolygon& g) {
    const ContentionViolation violation(f, g, contention, false);
  });
}

}  // namespace topocheck::smt
