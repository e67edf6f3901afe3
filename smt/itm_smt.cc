#include "smt/itm_smt.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <z3++.h>

#include "core/checks.h"

namespace topocheck::smt {
namespace {

using claims::Method;
using claims::MethodResult;
using claims::Outcome;
using claims::SolverLimits;
using itm::Contention;
using itm::Rule;
using nlohmann::json;
namespace scope = itm_smt_scope;

size_t at(int i) { return static_cast<size_t>(i); }

// The index of the unordered pair {x, y} (x != y) in the order (0,1), (0,2), (1,2), (0,3), ...:
// y(y-1)/2 + x for x < y, so the pairs of nodes 0..v-1 are exactly the indices below v(v-1)/2.
int pair_index(int x, int y) {
  if (x > y) std::swap(x, y);
  return y * (y - 1) / 2 + x;
}

z3::expr_vector to_vector(z3::context& ctx, const std::vector<z3::expr>& v) {
  z3::expr_vector out(ctx);
  for (const z3::expr& e : v) out.push_back(e);
  return out;
}

// Collects the constraints of one encoding; names every Bool it creates.
class Formula {
 public:
  explicit Formula(z3::context& ctx) : ctx_(ctx), all_(ctx) {}
  z3::context& ctx() const { return ctx_; }
  const z3::expr_vector& all() const { return all_; }
  void add(const z3::expr& e) { all_.push_back(e); }
  z3::expr fresh(const std::string& name) const { return ctx_.bool_const(name.c_str()); }
  // A named Bool equivalent to `value` (keeps the term DAG small and the model readable).
  z3::expr define(const std::string& name, const z3::expr& value) {
    z3::expr b = fresh(name);
    add(b == value);
    return b;
  }
  void exactly_one(const std::vector<z3::expr>& v) {
    const z3::expr_vector all = to_vector(ctx_, v);
    add(z3::mk_or(all));
    add(z3::atmost(all, 1));
  }
  // Bools name_0 .. name_{size-1}, exactly one true.
  std::vector<z3::expr> one_hot(const std::string& name, int size) {
    std::vector<z3::expr> v;
    for (int i = 0; i < size; ++i) v.push_back(fresh(fmt::format("{}_{}", name, i)));
    exactly_one(v);
    return v;
  }

 private:
  z3::context& ctx_;
  z3::expr_vector all_;
};

// The index of the true Bool of a one-hot vector in a model (-1 if none).
int one_hot_value(const z3::model& model, const std::vector<z3::expr>& v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (model.eval(v[i], true).is_true()) return static_cast<int>(i);
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Symbolic graphs: the adjacency and the final exterior marking of every pair as Bool terms.

class SymbolicGraph {
 public:
  virtual ~SymbolicGraph() = default;
  virtual int n() const = 0;
  virtual const z3::expr& adj(int u, int v) const = 0;       // u != v
  virtual const z3::expr& exterior(int u, int v) const = 0;  // u != v
};

// The symbolic ITM of the header (encodings kSteps, kBrokenNonEdge).
class SymbolicItm : public SymbolicGraph {
 public:
  SymbolicItm(Formula& f, int n, Rule rule, bool only_edges) : f_(f), n_(n) {
    z3::context& ctx = f.ctx();
    // choice_[i][p]: step i (node v = 3 + i) has the pair of index p (p < v(v-1)/2).
    for (int i = 0; i + 3 < n; ++i) {
      const int v = 3 + i;
      std::vector<z3::expr> row;
      for (int y = 1; y < v; ++y)
        for (int x = 0; x < y; ++x) row.push_back(f.fresh(fmt::format("step{}_{}_{}", v, x, y)));
      f.exactly_one(row);
      choice_.push_back(std::move(row));
    }
    for (int y = 1; y < n; ++y)
      for (int x = 0; x < y; ++x) {
        // Kernel pairs are edges; node y >= 3 is adjacent to x < y iff y's step chose a pair
        // containing x. (Pairs are pushed in pair_index order.)
        z3::expr_vector chose_x(ctx);
        for (int w = 0; w < y && y >= 3; ++w)
          if (w != x) chose_x.push_back(choice(y - 3, x, w));
        adj_.push_back(y < 3 ? ctx.bool_val(true) : f.define(fmt::format("adj_{}_{}", x, y), z3::mk_or(chose_x)));
        // used: a step (node > y) chose the pair; exterior: an edge no step used.
        z3::expr_vector used(ctx);
        for (int i = std::max(0, y - 2); i + 3 < n; ++i) used.push_back(choice(i, x, y));
        exterior_.push_back(f.define(fmt::format("ext_{}_{}", x, y), adj_.back() && !z3::mk_or(used)));
      }
    for (int i = 0; i + 3 < n; ++i)
      for (int y = 1; y < 3 + i; ++y)
        for (int x = 0; x < y; ++x) {
          const z3::expr& c = choice(i, x, y);
          // The pair is an edge of the graph so far: adjacency among existing nodes never changes.
          if (only_edges) f.add(z3::implies(c, adj(x, y)));
          // kExterior: still exterior, i.e. no earlier step used it.
          if (rule == Rule::kExterior)
            for (int j = std::max(0, y - 2); j < i; ++j) f.add(!(c && choice(j, x, y)));
        }
  }

  int n() const override { return n_; }
  const z3::expr& adj(int u, int v) const override { return adj_[at(pair_index(u, v))]; }
  const z3::expr& exterior(int u, int v) const override { return exterior_[at(pair_index(u, v))]; }
  const z3::expr& choice(int step, int x, int y) const { return choice_[at(step)][at(pair_index(x, y))]; }

  // Symmetry breaking (header: kSteps, Theorem 5): the first step is (0, 1), and two consecutive
  // steps that commute (the second does not use the node the first adds) come in increasing pair
  // order, strictly under kExterior.
  void break_symmetry(Rule rule) {
    if (n_ < 4) return;
    f_.add(choice(0, 0, 1));
    for (int i = 0; i + 4 < n_; ++i) {
      const int v = 3 + i;
      z3::expr_vector uses_v(f_.ctx());
      for (int x = 0; x < v; ++x) uses_v.push_back(choice(i + 1, x, v));
      const z3::expr commute = !z3::mk_or(uses_v);
      const int pairs = v * (v - 1) / 2;
      for (int p = 0; p < pairs; ++p)
        for (int q = 0; q < p || (q == p && rule == Rule::kExterior); ++q)
          f_.add(!(choice_[at(i)][at(p)] && choice_[at(i + 1)][at(q)] && commute));
    }
  }

  // "The steps are `steps`": every choice Bool set; an error if a step is not a candidate of
  // its position (v = 3 + i, x < y < v) or the count is not n - 3.
  Result<z3::expr> fix(const itm::Steps& steps) const {
    if (static_cast<int>(steps.size()) != n_ - 3)
      return invalid_argument(fmt::format("{} steps for n = {}", steps.size(), n_));
    z3::expr_vector all(f_.ctx());
    for (int i = 0; i + 3 < n_; ++i) {
      const itm::Step& s = steps[at(i)];
      if (s.v != 3 + i || s.x < 0 || s.x >= s.y || s.y >= s.v)
        return invalid_argument(fmt::format("step {} `{}` is not v:(x,y) with v = {}, x < y < v", i + 1,
                                            itm::to_string(itm::Steps{s}), 3 + i));
      for (int y = 1; y < 3 + i; ++y)
        for (int x = 0; x < y; ++x) all.push_back(x == s.x && y == s.y ? choice(i, x, y) : !choice(i, x, y));
    }
    return z3::mk_and(all);
  }

  itm::Steps steps(const z3::model& model) const {
    itm::Steps out;
    for (int i = 0; i + 3 < n_; ++i) {
      itm::Step step{3 + i, -1, -1};
      for (int y = 1; y < 3 + i; ++y)
        for (int x = 0; x < y; ++x)
          if (model.eval(choice(i, x, y), true).is_true()) step = itm::Step{3 + i, x, y};
      out.push_back(step);
    }
    return out;
  }

 private:
  Formula& f_;
  int n_;
  std::vector<std::vector<z3::expr>> choice_;
  std::vector<z3::expr> adj_, exterior_;
};

// A triangulated n-gon in circular-order coordinates (encodings kPolygon, kBrokenCrossingChords):
// node p is position p; the sides (p, p + 1 mod n) are the exterior edges; a Bool chord_<i>_<j>
// for every other pair, exactly n - 3 of them true, no two crossing (i < k < j < l).
class SymbolicPolygon : public SymbolicGraph {
 public:
  SymbolicPolygon(Formula& f, int n, bool non_crossing) : n_(n) {
    std::vector<z3::expr> chords;
    for (int j = 1; j < n; ++j)
      for (int i = 0; i < j; ++i) {
        const bool side = j == i + 1 || (i == 0 && j == n - 1);
        exterior_.push_back(f.ctx().bool_val(side));
        adj_.push_back(side ? f.ctx().bool_val(true) : f.fresh(fmt::format("chord_{}_{}", i, j)));
        if (!side) chords.push_back(adj_.back());
      }
    if (!chords.empty()) {
      const z3::expr_vector all = to_vector(f.ctx(), chords);
      f.add(z3::atleast(all, static_cast<unsigned>(n - 3)));
      f.add(z3::atmost(all, static_cast<unsigned>(n - 3)));
    }
    if (non_crossing)
      for (int i = 0; i < n; ++i)
        for (int k = i + 1; k < n; ++k)
          for (int j = k + 1; j < n; ++j)
            for (int l = j + 1; l < n; ++l) f.add(!(adj(i, j) && adj(k, l)));
  }
  int n() const override { return n_; }
  const z3::expr& adj(int u, int v) const override { return adj_[at(pair_index(u, v))]; }
  const z3::expr& exterior(int u, int v) const override { return exterior_[at(pair_index(u, v))]; }

  std::vector<std::pair<int, int>> edges(const z3::model& model) const {
    std::vector<std::pair<int, int>> out;
    for (int v = 1; v < n_; ++v)
      for (int u = 0; u < v; ++u)
        if (model.eval(adj(u, v), true).is_true()) out.emplace_back(u, v);
    return out;
  }
  bool is_side(int u, int v) const { return exterior(u, v).is_true(); }
  // "The chords are `chords`"; an error for a side, a loop or a node out of range.
  Result<z3::expr> fix(const std::vector<std::pair<int, int>>& chords) const {
    std::vector<char> chosen(at(n_ * (n_ - 1) / 2), 0);
    for (const auto& [u, v] : chords) {
      if (u < 0 || v < 0 || u >= n_ || v >= n_ || u == v || is_side(u, v))
        return invalid_argument(fmt::format("({},{}) is not a chord of the {}-gon", u, v, n_));
      chosen[at(pair_index(u, v))] = 1;
    }
    z3::expr_vector all(adj_.front().ctx());
    for (int v = 1; v < n_; ++v)
      for (int u = 0; u < v; ++u)
        if (!is_side(u, v)) all.push_back(chosen[at(pair_index(u, v))] ? adj(u, v) : !adj(u, v));
    return z3::mk_and(all);
  }

 private:
  int n_;
  std::vector<z3::expr> adj_, exterior_;
};

// ---------------------------------------------------------------------------------------------
// Theorem 2

// S: a set of channels (a -> b), each with a dependency successor and predecessor in S.
struct DependencyCycle {
  DependencyCycle(Formula& f, const SymbolicItm& g) : n(g.n()) {
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) in_set.push_back(f.fresh(fmt::format("cycle_{}_{}", a, b)));
    for (int a = 0; a < n; ++a) f.add(!member(a, a));
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        if (a == b) continue;
        // (a -> b, b -> c) is a dependency iff both are channels, a != c and d(a, c) = 2; a and c
        // share the neighbour b, so d(a, c) = 2 iff they are not adjacent.
        z3::expr_vector successors(f.ctx()), predecessors(f.ctx());
        for (int c = 0; c < n; ++c) {
          if (c == a || c == b) continue;
          successors.push_back(member(b, c) && !g.adj(a, c));
          predecessors.push_back(member(c, a) && !g.adj(c, b));
        }
        f.add(z3::implies(member(a, b), g.adj(a, b) && z3::mk_or(successors) && z3::mk_or(predecessors)));
      }
  }
  const z3::expr& member(int a, int b) const { return in_set[at(a * n + b)]; }
  // S is nonempty (without the split: the pointwise evaluation).
  z3::expr nonempty(z3::context& ctx) const { return z3::mk_or(to_vector(ctx, in_set)); }
  // The restriction of check `top`: S touches node top and no larger node.
  z3::expr top_is(z3::context& ctx, int top) const {
    z3::expr_vector parts(ctx), touches(ctx);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        if (a == b) continue;
        if (a > top || b > top) parts.push_back(!member(a, b));
        if (a == top || b == top) touches.push_back(member(a, b));
      }
    parts.push_back(z3::mk_or(touches));
    return z3::mk_and(parts);
  }
  std::vector<std::pair<int, int>> channels(const z3::model& model) const {
    std::vector<std::pair<int, int>> out;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (model.eval(member(a, b), true).is_true()) out.emplace_back(a, b);
    return out;
  }
  int n;
  std::vector<z3::expr> in_set;
};

// ---------------------------------------------------------------------------------------------
// Theorem 5

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

// ---------------------------------------------------------------------------------------------
// Solving

// The checks of one prove_* call share the limits: each gets the rlimit and the time the earlier
// ones left.
class Checker {
 public:
  Checker(z3::context& ctx, const SolverLimits& limits, ItmSmtResult& result)
      : ctx_(ctx), limits_(limits), result_(result),
        deadline_(std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeout_ms)) {}

  // Checks `formula` plus `extra`. Returns the model when satisfiable; otherwise nullopt, with
  // result.status kProved (unsat) or kUnknown (and the reason).
  std::optional<z3::model> check(const z3::expr_vector& formula, const z3::expr& extra) {
    const uint64_t budget = std::min<uint64_t>(limits_.rlimit, UINT_MAX);  // Z3 takes an unsigned
    if (limits_.rlimit != 0 && result_.rlimit_used >= budget) return unknown("max. resource limit exceeded");
    const auto left_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now()).count();
    if (limits_.timeout_ms != 0 && left_ms <= 0) return unknown("timeout");
    // QF_FD: Z3's SAT-based solver for Booleans with cardinality constraints (3-10x faster here
    // than the SMT core). A check's rlimit counts from the context's count when it starts.
    z3::solver solver(ctx_, "QF_FD");
    z3::params p(ctx_);
    if (limits_.rlimit != 0) p.set("rlimit", static_cast<unsigned>(budget - result_.rlimit_used));
    if (limits_.timeout_ms != 0) p.set("timeout", static_cast<unsigned>(left_ms));
    solver.set(p);
    solver.add(formula);
    solver.add(extra);
    const z3::check_result answer = solver.check();
    // The statistic is the context's running count: add only this check's part.
    const uint64_t count = rlimit_count(solver);
    result_.rlimit_used += count - std::min(count, counted_);
    counted_ = count;
    ++result_.checks;
    if (answer == z3::unsat) {
      result_.status = SmtStatus::kProved;
      return std::nullopt;
    }
    if (answer == z3::unknown) return unknown(solver.reason_unknown());
    result_.status = SmtStatus::kCounterexample;
    return solver.get_model();
  }

 private:
  std::optional<z3::model> unknown(const std::string& reason) {
    result_.status = SmtStatus::kUnknown;
    result_.reason = reason;
    return std::nullopt;
  }
  z3::context& ctx_;
  SolverLimits limits_;
  ItmSmtResult& result_;
  std::chrono::steady_clock::time_point deadline_;
  uint64_t counted_ = 0;  // the context's rlimit count already added to result_.rlimit_used
};

Error z3_internal(const z3::exception& e) {
  return Error{ErrorCode::kInternal, fmt::format("Z3 error: {}", e.msg()), {}, 0};
}

ItmSmtResult z3_error(const z3::exception& e) {
  ItmSmtResult result;
  result.status = SmtStatus::kError;
  result.reason = fmt::format("Z3 error: {}", e.msg());
  return result;
}

std::vector<std::pair<int, int>> edges_of_steps(const itm::Steps& steps) {
  std::vector<std::pair<int, int>> out{{0, 1}, {0, 2}, {1, 2}};
  for (const itm::Step& s : steps) {
    out.emplace_back(s.x, s.v);
    out.emplace_back(s.y, s.v);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ---------------------------------------------------------------------------------------------
// Method results: the model confirmed by the naive checkers

json pairs_json(const std::vector<std::pair<int, int>>& pairs) {
  json out = json::array();
  for (const auto& [u, v] : pairs) out.push_back({u, v});
  return out;
}

// The witness the claims' exhaustive method stores for an ITM case (edges, exterior edges, the
// circular order when it exists), so replay and show treat SMT cases alike.
json itm_witness(const itm::Itm& g) {
  json w = {{"edges", pairs_json(g.graph().edges())}, {"exterior", pairs_json(g.exterior_edges())}};
  if (auto order = itm::circular_order(g)) w["order"] = *order;
  return w;
}

// a and b are the same cyclic sequence, up to rotation and (if allowed) reflection.
bool same_cycle(std::vector<int> a, const std::vector<int>& b, bool reflection) {
  if (a.size() != b.size()) return false;
  for (int pass = 0; pass < (reflection ? 2 : 1); ++pass) {
    for (size_t r = 0; r < a.size(); ++r) {
      if (a == b) return true;
      std::rotate(a.begin(), a.begin() + 1, a.end());
    }
    std::reverse(a.begin(), a.end());
  }
  return false;
}

MethodResult base_result(std::string scope) {
  MethodResult r;
  r.method = Method::kSmt;
  r.scope = std::move(scope);
  return r;
}

MethodResult model_error(MethodResult result, int n, const std::string& why) {
  result.outcome = Outcome::kError;
  result.detail = fmt::format("n = {}: SMT model disagrees with the checker: {}", n, why);
  return result;
}

MethodResult refuted(MethodResult result, const itm::Itm& g, const std::string& violation, json witness) {
  result.outcome = Outcome::kRefuted;
  result.detail = violation;
  claims::Counterexample cx;
  cx.params = {{"n", g.n()}, {"rule", itm::to_string(g.rule())}};
  cx.input = {{"steps", itm::to_string(g.steps())}};
  cx.violation = violation;
  cx.witness = std::move(witness);
  cx.minimized = false;  // one n: the method knows whether smaller n were proved
  result.counterexample = std::move(cx);
  return result;
}

std::string encoding_words(ItmEncoding encoding) {
  return encoding == ItmEncoding::kPolygon ? "as a triangulated n-gon in circular-order coordinates"
                                           : "as symbolic AddNode steps and circular order";
}

// ---------------------------------------------------------------------------------------------
// Registry glue

Result<int> parse_n(const json& params) {
  const std::string bad = fmt::format("params.n must be an integer 3..{}", kItmSmtMaxNodes);
  if (!params.is_object() || !params.contains("n")) return invalid_argument(bad);
  const json& jn = params.at("n");
  if (!jn.is_number_integer()) return invalid_argument(bad);
  const int64_t value = jn.is_number_unsigned()
                            ? static_cast<int64_t>(std::min<uint64_t>(jn.get<uint64_t>(), 1000))
                            : jn.get<int64_t>();
  if (value < 3 || value > kItmSmtMaxNodes) return invalid_argument(bad);
  return static_cast<int>(value);
}

// For n = 3..max_n, the first result that is not kHolds (a refutation is then minimal in n).
MethodResult sweep(const claims::RunContext& ctx, int max_n, uint64_t rlimit, const std::string& what,
                   const std::function<MethodResult(int, const SolverLimits&)>& one) {
  auto scope_up_to = [&](int last) {
    return fmt::format("n = 3..{}, {} (Z3 proof per n, rlimit {})", last, what, rlimit);
  };
  MethodResult total = base_result(scope_up_to(max_n));
  for (int n = 3; n <= max_n; ++n) {
    ctx.report(fmt::format("smt n = {} of {} (rlimit {})", n, max_n, rlimit));
    MethodResult r = one(n, SolverLimits{rlimit, 0});
    if (r.outcome != Outcome::kHolds) {
      if (r.counterexample) r.counterexample->minimized = true;
      r.scope = scope_up_to(n);
      r.cases = total.cases;  // the n proved before this one
      return r;
    }
    ++total.cases;
  }
  total.outcome = Outcome::kHolds;
  return total;
}

}  // namespace

std::string to_string(ItmEncoding encoding) {
  switch (encoding) {
    case ItmEncoding::kSteps: return "steps";
    case ItmEncoding::kPolygon: return "polygon";
    case ItmEncoding::kBrokenNonEdge: return "broken-non-edge";
    case ItmEncoding::kBrokenCrossingChords: return "broken-crossing-chords";
  }
  return "?";
}

ItmSmtResult prove_deadlock_free(int n, Rule rule, const SolverLimits& limits, ItmEncoding encoding) {
  TC_CHECK(n >= 3 && n <= kItmSmtMaxNodes, "prove_deadlock_free: n out of range");
  TC_CHECK(encoding == ItmEncoding::kSteps || encoding == ItmEncoding::kBrokenNonEdge,
           "prove_deadlock_free: Theorem 2 has the encodings steps and broken-non-edge");
  ItmSmtResult result;
  try {
    z3::context ctx;
    Formula f(ctx);
    const SymbolicItm g(f, n, rule, encoding == ItmEncoding::kSteps);
    const DependencyCycle cycle(f, g);
    Checker checker(ctx, limits, result);
    // Check `top`: the largest node S touches is top (see the header).
    for (int top = 2; top < n; ++top) {
      const auto model = checker.check(f.all(), cycle.top_is(ctx, top));
      if (model) {
        result.steps = g.steps(*model);
        result.edges = edges_of_steps(result.steps);
        result.channels = cycle.channels(*model);
      }
      if (result.status != SmtStatus::kProved) return result;
    }
  } catch (const z3::exception& e) {
    return z3_error(e);
  }
  return result;
}

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
      if (const auto model = checker.check(f.all(), ctx.bool_val(true))) {
        result.steps = g.steps(*model);
        result.edges = edges_of_steps(result.steps);
        result.order = violation.order(*model);
        std::rotate(result.order.begin(), std::find(result.order.begin(), result.order.end(), 0), result.order.end());
        result.messages = violation.messages(*model);
      }
    } else {
      const SymbolicPolygon g(f, n, encoding == ItmEncoding::kPolygon);
      const ContentionViolation violation(f, g, contention, false);
      if (const auto model = checker.check(f.all(), ctx.bool_val(true))) {
        // Report in the labels of an ITM built from the triangulation (positions as they are
        // when the model is not one: the broken control).
        result.edges = g.edges(*model);
        result.order = violation.order(*model);
        result.messages = violation.messages(*model);
        if (const auto built = itm_of_polygon(n, result.edges)) {
          const auto& [steps, label] = *built;
          auto relabel = [&label](int p) { return p < 0 ? p : label[at(p)]; };
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

MethodResult deadlock_free_smt_method_result(int n, Rule rule, const SolverLimits& limits) {
  MethodResult result = base_result(
      fmt::format("n = {}, every AddNode sequence ({}) (Z3 proof, rlimit {})", n, itm::to_string(rule), limits.rlimit));
  const ItmSmtResult smt = prove_deadlock_free(n, rule, limits, ItmEncoding::kSteps);
  if (settle(smt.status, fmt::format("n = {}", n), smt.reason, result)) return result;
  auto g = itm::Itm::build(smt.steps, rule);
  if (!g) return model_error(std::move(result), n, "its steps are not an ITM: " + g.error().message);
  const Violation v = itm::check_deadlock_free(g->graph());
  if (!v) return model_error(std::move(result), n, fmt::format("`{}` is deadlock-free", itm::to_string(smt.steps)));
  return refuted(std::move(result), *g, *v, itm_witness(*g));
}

MethodResult contention_free_smt_method_result(int n, Contention contention, ItmEncoding encoding,
                                               const SolverLimits& limits) {
  TC_CHECK(encoding == ItmEncoding::kSteps || encoding == ItmEncoding::kPolygon,
           "contention_free_smt_method_result: the faithful encodings only");
  MethodResult result =
      base_result(fmt::format("n = {}, every ITM (exterior) {}, contention {} (Z3 proof, rlimit {})", n,
                              encoding_words(encoding), itm::to_string(contention), limits.rlimit));
  const ItmSmtResult smt = prove_contention_free(n, contention, limits, encoding);
  if (settle(smt.status, fmt::format("n = {}", n), smt.reason, result)) return result;
  if (static_cast<int>(smt.steps.size()) != n - 3)
    return model_error(std::move(result), n, "the model is not a triangulated polygon");
  auto g = itm::Itm::build(smt.steps, Rule::kExterior);
  if (!g) return model_error(std::move(result), n, "its steps are not an ITM: " + g.error().message);
  auto order = itm::circular_order(*g);
  if (!order) return model_error(std::move(result), n, "the ITM has no circular order: " + order.error().message);
  // kSteps fixes circular_order's direction; kPolygon is the order up to reflection.
  if (!same_cycle(smt.order, *order, encoding == ItmEncoding::kPolygon))
    return model_error(std::move(result), n,
                       fmt::format("the model's order ({}) is not the circular order ({}) of `{}`",
                                   fmt::join(smt.order, " "), fmt::join(*order, " "), itm::to_string(smt.steps)));
  itm::ContentionWitness paths;
  const Violation v = itm::check_contention_free(g->graph(), *order, contention, &paths);
  if (!v)
    return model_error(std::move(result), n,
                       fmt::format("`{}` is contention-free ({})", itm::to_string(smt.steps),
                                   itm::to_string(contention)));
  json witness = itm_witness(*g);
  witness["paths"] = {paths.first, paths.second};
  return refuted(std::move(result), *g, *v, std::move(witness));
}

namespace {

// Every input the formula admits: a model, its input decoded, the input blocked, until unsat.
template <class Input>
Result<std::vector<Input>> enumerate_inputs(z3::context& ctx, const Formula& f,
                                            const std::function<Input(const z3::model&)>& decode,
                                            const std::function<z3::expr(const Input&)>& fix) {
  z3::solver solver(ctx, "QF_FD");
  solver.add(f.all());
  std::vector<Input> out;
  while (true) {
    const z3::check_result answer = solver.check();
    if (answer == z3::unsat) return out;
    if (answer == z3::unknown)
      return Error{ErrorCode::kInternal, "Z3 returned unknown: " + solver.reason_unknown(), {}, 0};
    out.push_back(decode(solver.get_model()));
    solver.add(!fix(out.back()));
  }
}

Result<std::vector<itm::Steps>> itm_inputs(int n, Rule rule, ItmEncoding encoding, bool symmetry_breaking,
                                           const std::function<void(Formula&, const SymbolicItm&)>& add_violation) {
  TC_CHECK(n >= 3 && n <= 9, "symbolic ITM enumeration: n out of range 3..9");
  TC_CHECK(encoding == ItmEncoding::kSteps || encoding == ItmEncoding::kBrokenNonEdge,
           "symbolic ITM enumeration: kSteps or kBrokenNonEdge");
  try {
    z3::context ctx;
    Formula f(ctx);
    SymbolicItm g(f, n, rule, encoding == ItmEncoding::kSteps);
    if (symmetry_breaking) g.break_symmetry(rule);
    if (add_violation) add_violation(f, g);
    return enumerate_inputs<itm::Steps>(
        ctx, f, [&](const z3::model& m) { return g.steps(m); }, [&](const itm::Steps& s) { return g.fix(s).value(); });
  } catch (const z3::exception& e) {
    return z3_internal(e);
  }
}

using Chords = std::vector<std::pair<int, int>>;

Result<std::vector<Chords>> polygon_inputs(int n, ItmEncoding encoding,
                                           const std::function<void(Formula&, const SymbolicPolygon&)>& add_violation) {
  TC_CHECK(n >= 3 && n <= 10, "polygon enumeration: n out of range 3..10");
  TC_CHECK(encoding == ItmEncoding::kPolygon || encoding == ItmEncoding::kBrokenCrossingChords,
           "polygon enumeration: kPolygon or kBrokenCrossingChords");
  try {
    z3::context ctx;
    Formula f(ctx);
    const SymbolicPolygon g(f, n, encoding == ItmEncoding::kPolygon);
    if (add_violation) add_violation(f, g);
    auto decode = [&](const z3::model& m) {
      Chords chords;
      for (const auto& [u, v] : g.edges(m))
        if (!g.is_side(u, v)) chords.emplace_back(u, v);
      return chords;
    };
    return enumerate_inputs<Chords>(ctx, f, decode, [&](const Chords& c) { return g.fix(c).value(); });
  } catch (const z3::exception& e) {
    return z3_internal(e);
  }
}

}  // namespace

Result<std::vector<itm::Steps>> symbolic_itm_models(int n, Rule rule, ItmEncoding encoding, bool symmetry_breaking) {
  return itm_inputs(n, rule, encoding, symmetry_breaking, nullptr);
}

Result<std::vector<Chords>> polygon_models(int n, ItmEncoding encoding) { return polygon_inputs(n, encoding, nullptr); }

Result<std::vector<itm::Steps>> deadlock_violating_models(int n, Rule rule, ItmEncoding encoding) {
  return itm_inputs(n, rule, encoding, false, [](Formula& f, const SymbolicItm& g) {
    // Kept alive by the formula's terms: the set's Bools are named constants.
    const DependencyCycle cycle(f, g);
    f.add(cycle.nonempty(f.ctx()));
  });
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

void attach_itm_smt(claims::Registry& registry) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    const std::string what = fmt::format("every AddNode sequence ({})", itm::to_string(rule));
    auto method = [rule, what](const claims::RunContext& ctx) {
      return sweep(ctx, scope::deadlock_max_n(rule).at(ctx.budget), scope::kDeadlockRlimit.at(ctx.budget), what,
                   [rule](int n, const SolverLimits& l) { return deadlock_free_smt_method_result(n, rule, l); });
    };
    auto prove = [rule](const json& params, const SolverLimits& limits) -> Result<MethodResult> {
      auto n = parse_n(params);
      if (!n) return n.error();
      return deadlock_free_smt_method_result(
          *n, rule,
          SolverLimits{limits.rlimit == 0 ? scope::kDeadlockRlimit.standard : limits.rlimit, limits.timeout_ms});
    };
    registry.attach("itm.thm2.deadlock_free", itm::to_string(rule), Method::kSmt, method, prove);
  }
  for (Contention c :
       {Contention::kPaper, Contention::kReversed, Contention::kUndirected, Contention::kSharedEndpoint}) {
    const std::string reading = c == Contention::kPaper ? "exterior" : "exterior-" + itm::to_string(c);
    const std::string what = fmt::format("every ITM (exterior) {}", encoding_words(ItmEncoding::kPolygon));
    auto method = [c, what](const claims::RunContext& ctx) {
      return sweep(ctx, scope::kContentionMaxN.at(ctx.budget), scope::kContentionRlimit.at(ctx.budget), what,
                   [c](int n, const SolverLimits& l) {
                     return contention_free_smt_method_result(n, c, ItmEncoding::kPolygon, l);
                   });
    };
    auto prove = [c](const json& params, const SolverLimits& limits) -> Result<MethodResult> {
      auto n = parse_n(params);
      if (!n) return n.error();
      return contention_free_smt_method_result(
          *n, c, ItmEncoding::kPolygon,
          SolverLimits{limits.rlimit == 0 ? scope::kContentionRlimit.standard : limits.rlimit, limits.timeout_ms});
    };
    registry.attach("itm.thm5.contention_free", reading, Method::kSmt, method, prove);
  }
}

}  // namespace topocheck::smt
