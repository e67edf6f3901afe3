// The symbolic ITMs that the encodings of Theorem 2 (itm_deadlock_smt.cc) and Theorem 5
// (itm_contention_smt.cc) are written over (Liu et al., paper 002; the encodings are described
// in smt/itm_smt.h): a Formula that collects named Bools and constraints, SymbolicItm (encodings
// kSteps, kBrokenNonEdge: symbolic AddNode steps) and SymbolicPolygon (kPolygon,
// kBrokenCrossingChords: a triangulated n-gon in circular-order coordinates), each giving the
// adjacency and the final exterior marking of every pair as Bool terms; the shared checker; and
// the enumeration of every input an encoding admits (for the tests' input-by-input comparison).
// Private to smt/: the ITM encodings only. Preconditions as each function states (TC_CHECK).
// Cost: SymbolicItm has O(n^3) choice Bools, SymbolicPolygon O(n^2) chords and O(n^4) crossing
// clauses. Implemented in itm_symbolic_smt.cc.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <z3++.h>

#include "core/status.h"
#include "itm/itm.h"
#include "smt/itm_smt.h"
#include "smt/shared_limits_checker.h"

namespace topocheck::smt::itm_encoding {

inline size_t at(int i) { return static_cast<size_t>(i); }

// The index of the unordered pair {x, y} (x != y) in the order (0,1), (0,2), (1,2), (0,3), ...:
// y(y-1)/2 + x for x < y, so the pairs of nodes 0..v-1 are exactly the indices below v(v-1)/2.
inline int pair_index(int x, int y) {
  if (x > y) std::swap(x, y);
  return y * (y - 1) / 2 + x;
}

z3::expr_vector to_vector(z3::context& ctx, const std::vector<z3::expr>& v);

// Collects the constraints of one encoding; names every Bool it creates.
class Formula {
 public:
  explicit Formula(z3::context& ctx) : ctx_(ctx), all_(ctx) {}
  z3::context& ctx() const { return ctx_; }
  const z3::expr_vector& all() const { return all_; }
  void add(const z3::expr& e) { all_.push_back(e); }
  z3::expr fresh(const std::string& name) const { return ctx_.bool_const(name.c_str()); }
  // A named Bool equivalent to `value` (keeps the term DAG small and the model readable).
  z3::expr define(const std::string& name, const z3::expr& value);
  void exactly_one(const std::vector<z3::expr>& v);
  // Bools name_0 .. name_{size-1}, exactly one true.
  std::vector<z3::expr> one_hot(const std::string& name, int size);

 private:
  z3::context& ctx_;
  z3::expr_vector all_;
};

// The index of the true Bool of a one-hot vector in a model (-1 if none).
int one_hot_value(const z3::model& model, const std::vector<z3::expr>& v);

// Symbolic graphs: the adjacency and the final exterior marking of every pair as Bool terms.
class SymbolicGraph {
 public:
  virtual ~SymbolicGraph() = default;
  virtual int n() const = 0;
  virtual const z3::expr& adj(int u, int v) const = 0;       // u != v
  virtual const z3::expr& exterior(int u, int v) const = 0;  // u != v
};

// The symbolic ITM of smt/itm_smt.h (encodings kSteps, kBrokenNonEdge): Bools step<v>_<x>_<y>,
// exactly one per step; `only_edges` false drops "a step's pair is an edge" (kBrokenNonEdge).
class SymbolicItm : public SymbolicGraph {
 public:
  SymbolicItm(Formula& f, int n, itm::Rule rule, bool only_edges);

  int n() const override { return n_; }
  const z3::expr& adj(int u, int v) const override { return adj_[at(pair_index(u, v))]; }
  const z3::expr& exterior(int u, int v) const override { return exterior_[at(pair_index(u, v))]; }
  const z3::expr& choice(int step, int x, int y) const { return choice_[at(step)][at(pair_index(x, y))]; }

  // Symmetry breaking (header: kSteps, Theorem 5): the first step is (0, 1), and two consecutive
  // steps that commute (the second does not use the node the first adds) come in increasing pair
  // order, strictly under kExterior.
  void break_symmetry(itm::Rule rule);

  // "The steps are `steps`": every choice Bool set; an error if a step is not a candidate of
  // its position (v = 3 + i, x < y < v) or the count is not n - 3.
  Result<z3::expr> fix(const itm::Steps& steps) const;

  itm::Steps steps(const z3::model& model) const;

 private:
  Formula& f_;
  int n_;
  std::vector<std::vector<z3::expr>> choice_;
  std::vector<z3::expr> adj_, exterior_;
};

// A triangulated n-gon in circular-order coordinates (encodings kPolygon, kBrokenCrossingChords):
// node p is position p; the sides (p, p + 1 mod n) are the exterior edges; a Bool chord_<i>_<j>
// for every other pair, exactly n - 3 of them true, no two crossing (i < k < j < l) unless
// `non_crossing` is false (kBrokenCrossingChords).
class SymbolicPolygon : public SymbolicGraph {
 public:
  SymbolicPolygon(Formula& f, int n, bool non_crossing);
  int n() const override { return n_; }
  const z3::expr& adj(int u, int v) const override { return adj_[at(pair_index(u, v))]; }
  const z3::expr& exterior(int u, int v) const override { return exterior_[at(pair_index(u, v))]; }

  std::vector<std::pair<int, int>> edges(const z3::model& model) const;
  bool is_side(int u, int v) const { return exterior(u, v).is_true(); }
  // "The chords are `chords`"; an error for a side, a loop or a node out of range.
  Result<z3::expr> fix(const std::vector<std::pair<int, int>>& chords) const;

 private:
  int n_;
  std::vector<z3::expr> adj_, exterior_;
};

// The checks of one prove_* call share the limits (smt/shared_limits_checker.h); the ITM
// encodings use QF_FD: Z3's SAT-based solver for Booleans with cardinality constraints (3-10x
// faster here than the SMT core).
using Checker = SharedLimitsChecker<ItmSmtResult>;
inline constexpr const char* kLogic = "QF_FD";

Error z3_internal(const z3::exception& e);
ItmSmtResult z3_error(const z3::exception& e);

// The kernel's edges and each step's two, (u, v) with u < v, sorted.
std::vector<std::pair<int, int>> edges_of_steps(const itm::Steps& steps);

// Every input the encoding admits with `add_violation`'s constraints (none if empty): a model,
// its input decoded, the input blocked, until unsat. Symbolic ITMs: 3 <= n <= 9, encodings
// kSteps or kBrokenNonEdge; polygons: 3 <= n <= 10, kPolygon or kBrokenCrossingChords (TC_CHECK).
// A Z3 error or unknown is kInternal.
using Chords = std::vector<std::pair<int, int>>;
Result<std::vector<itm::Steps>> itm_inputs(int n, itm::Rule rule, ItmEncoding encoding, bool symmetry_breaking,
                                           const std::function<void(Formula&, const SymbolicItm&)>& add_violation);
Result<std::vector<Chords>> polygon_inputs(int n, ItmEncoding encoding,
                                           const std::function<void(Formula&, const SymbolicPolygon&)>& add_violation);

}  // namespace topocheck::smt::itm_encoding
