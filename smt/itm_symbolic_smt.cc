// The symbolic ITMs of the ITM encodings (smt/itm_symbolic.h): the formula, the symbolic AddNode
// steps and the triangulated polygon, and the enumeration of the inputs an encoding admits.
// Paper 002 (Liu et al.), Section 2's AddNode rule and Lemma 4's induction (smt/itm_smt.h).
// Preconditions and cost: smt/itm_symbolic.h.
#include "smt/itm_symbolic.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace topocheck::smt {

namespace itm_encoding {

using itm::Rule;

z3::expr_vector to_vector(z3::context& ctx, const std::vector<z3::expr>& v) {
  z3::expr_vector out(ctx);
  for (const z3::expr& e : v) out.push_back(e);
  return out;
}

z3::expr Formula::define(const std::string& name, const z3::expr& value) {
  z3::expr b = fresh(name);
  add(b == value);
  return b;
}

void Formula::exactly_one(const std::vector<z3::expr>& v) {
  const z3::expr_vector all = to_vector(ctx_, v);
  add(z3::mk_or(all));
  add(z3::atmost(all, 1));
}

std::vector<z3::expr> Formula::one_hot(const std::string& name, int size) {
  std::vector<z3::expr> v;
  for (int i = 0; i < size; ++i) v.push_back(fresh(fmt::format("{}_{}", name, i)));
  exactly_one(v);
  return v;
}

int one_hot_value(const z3::model& model, const std::vector<z3::expr>& v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (model.eval(v[i], true).is_true()) return static_cast<int>(i);
  return -1;
}

// ---------------------------------------------------------------------------------------------
// The symbolic ITM (encodings kSteps, kBrokenNonEdge).

SymbolicItm::SymbolicItm(Formula& f, int n, Rule rule, bool only_edges) : f_(f), n_(n) {
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

void SymbolicItm::break_symmetry(Rule rule) {
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

Result<z3::expr> SymbolicItm::fix(const itm::Steps& steps) const {
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

itm::Steps SymbolicItm::steps(const z3::model& model) const {
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

// ---------------------------------------------------------------------------------------------
// The triangulated polygon (encodings kPolygon, kBrokenCrossingChords).

SymbolicPolygon::SymbolicPolygon(Formula& f, int n, bool non_crossing) : n_(n) {
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

std::vector<std::pair<int, int>> SymbolicPolygon::edges(const z3::model& model) const {
  std::vector<std::pair<int, int>> out;
  for (int v = 1; v < n_; ++v)
    for (int u = 0; u < v; ++u)
      if (model.eval(adj(u, v), true).is_true()) out.emplace_back(u, v);
  return out;
}

Result<z3::expr> SymbolicPolygon::fix(const std::vector<std::pair<int, int>>& chords) const {
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

// ---------------------------------------------------------------------------------------------
// Solving and enumerating.

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

}  // namespace

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

}  // namespace itm_encoding

Result<std::vector<itm::Steps>> symbolic_itm_models(int n, itm::Rule rule, ItmEncoding encoding,
                                                    bool symmetry_breaking) {
  return itm_encoding::itm_inputs(n, rule, encoding, symmetry_breaking, nullptr);
}

Result<std::vector<itm_encoding::Chords>> polygon_models(int n, ItmEncoding encoding) {
  return itm_encoding::polygon_inputs(n, encoding, nullptr);
}

}  // namespace topocheck::smt
