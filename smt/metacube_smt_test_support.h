// What the metacube SMT tests (metacube_smt_*test.cc, one binary) share: the Theorem 2 parts and
// their names, the readings the SMT method serves and the negative controls, the solver limits
// of the cross-checks, and the concrete judges they compare the encoding with (the construction
// without notes, commutation with one class-zero translation).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "claims/claim.h"
#include "catalog/metacube/scope.h"
#include "metacube/disjoint.h"
#include "metacube/metacube.h"
#include "metacube/metacube_checks.h"
#include "smt/metacube_smt.h"

namespace topocheck::smt::metacube_smt_test {

using claims::SolverLimits;
using metacube::Alg4Options;
using metacube::Metacube;
using metacube::Thm2Part;
using Engine = Alg4EncodingEvaluator::Engine;
using KM = std::pair<int, int>;

inline constexpr std::array<Thm2Part, 4> kParts = {Thm2Part::kValid, Thm2Part::kDisjoint, Thm2Part::kLength,
                                                   Thm2Part::kCaseBound};
inline constexpr std::array<const char*, 4> kPartNames = {"valid", "disjoint", "length", "case_bound"};
// The readings the SMT method serves, and the negative controls.
inline constexpr std::array<const char*, 2> kReadings = {"paper", "paper-keybit-example4"};
inline constexpr std::array<const char*, 5> kAllOptions = {"paper", "paper-keybit-example4", "corrected", "broken-no-exchange",
                                                           "broken-ignore-key"};
inline const SolverLimits kLimits{claims::metacube_scope::kSmtRlimit.deep, 0};

inline Alg4Options options(const std::string& reading) { return *metacube::options_for_reading(reading); }

// The same paths without the notes (formatting them dominates the construction's time).
inline Alg4Options quiet(Alg4Options o) {
  o.record_notes = false;
  return o;
}

inline std::string where(const Metacube& mc, const std::string& label, Node s, Node t) {
  return label + " " + mc.name() + " s = " + s.to_string() + ", t = " + t.to_string();
}

// The concrete commutation judge for one a (as metacube.symmetry.alg4_commutes checks it), given
// the paths of (s, t).
inline bool commutes_at(const Metacube& mc, const Alg4Options& o, const std::vector<Path>& base, Node s, Node t, Node a) {
  const auto moved =
      metacube::metacube_disjoint_paths(mc, metacube::translate(s, a), metacube::translate(t, a), quiet(o)).paths;
  for (size_t i = 0; i < base.size(); ++i) {
    Path expect = base[i];
    for (Node& x : expect.nodes) x = metacube::translate(x, a);
    if (!(moved[i] == expect)) return false;
  }
  return true;
}

inline bool commutes_at(const Metacube& mc, const Alg4Options& o, Node s, Node t, Node a) {
  return commutes_at(mc, o, metacube::metacube_disjoint_paths(mc, s, t, quiet(o)).paths, s, t, a);
}

inline std::vector<Node> class_zero_addresses(const Metacube& mc) {
  std::vector<Node> out;
  for (uint64_t a = 0; a < (uint64_t{1} << (mc.m() * mc.h())); ++a) out.push_back(Node{a, mc.width()});
  return out;
}

}  // namespace topocheck::smt::metacube_smt_test
