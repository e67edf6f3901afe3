// The subcube algebra of Section 2.2 (Chen and Tzeng, paper 000; notation in migration.h): the
// instance (S, T) and its dimension sets I, C, D(S)-D(T), D(T)-D(S), the bijection alpha, the
// isomorphisms f, g, h under each reading of the lost bars (Bars), the sets D_f(.|u) and D_g(.|u),
// and the nodes and dimension masks of a subcube. Errors of the parsers name the flag. Cost: O(n)
// per node map; nodes_of O(2^dim(cube)); all_alphas beta! bijections.
#include "migration/migration.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "migration/flag_text.h"

namespace topocheck::migration {
namespace {

uint64_t bit(int i) { return uint64_t{1} << i; }

}  // namespace

int Instance::zeta() const { return std::popcount(C); }
int Instance::beta() const { return std::popcount(DSmT); }
int Instance::gamma() const { return std::popcount(DS & DT); }
bool Instance::overlap() const { return C == 0; }

Result<Instance> make_instance(const Subcube& S, const Subcube& T) {
  if (S.width != T.width)
    return invalid_argument(fmt::format("S and T have different lengths ({} and {})", S.width, T.width));
  if (S.width < 1 || S.width > kMaxN)
    return invalid_argument(fmt::format("n = {} is outside 1..{}", S.width, kMaxN));
  if (S.dimension() != T.dimension())
    return invalid_argument(
        fmt::format("S = {} and T = {} have different dimensions ({} and {})", S, T, S.dimension(), T.dimension()));
  Instance inst;
  inst.S = S;
  inst.T = T;
  inst.n = S.width;
  const uint64_t all = S.width == 64 ? ~uint64_t{0} : bit(S.width) - 1;
  inst.DS = S.free_mask;
  inst.DT = T.free_mask;
  inst.DSmT = inst.DS & ~inst.DT;
  inst.DTmS = inst.DT & ~inst.DS;
  const uint64_t both_fixed = all & ~inst.DS & ~inst.DT;
  inst.C = both_fixed & (S.values ^ T.values);
  inst.I = (both_fixed & ~inst.C) | (inst.DS & inst.DT);
  TC_CHECK((inst.I | inst.C | inst.DSmT | inst.DTmS) == all, "the four sets do not cover N");
  return inst;
}

Result<Instance> parse_instance(std::string_view S, std::string_view T) {
  auto s = parse_subcube(S);
  if (!s) return invalid_argument("--S: " + s.error().message);
  auto t = parse_subcube(T);
  if (!t) return invalid_argument("--T: " + t.error().message);
  return make_instance(*s, *t);
}

int Alpha::at(int j) const {
  for (const auto& [a, b] : map)
    if (a == j) return b;
  TC_CHECK(false, fmt::format("alpha is not defined at {}", j));
  return -1;
}

int Alpha::inverse(int i) const {
  for (const auto& [a, b] : map)
    if (b == i) return a;
  TC_CHECK(false, fmt::format("alpha^-1 is not defined at {}", i));
  return -1;
}

std::string Alpha::to_string() const {
  std::string out;
  for (const auto& [a, b] : map) out += fmt::format("{}{}:{}", out.empty() ? "" : ",", a, b);
  return out;
}

Result<Alpha> parse_alpha(const Instance& inst, std::string_view text) {
  Alpha alpha;
  text = trim(text);
  uint64_t domain = 0, range = 0;
  if (!text.empty()) {
    for (std::string_view item : split(text, ',')) {
      const auto parts = split(item, ':');
      if (parts.size() != 2)
        return invalid_argument(fmt::format("--alpha: '{}' is not j:alpha(j)", trim(item)));
      const auto j = parse_int(parts[0]);
      const auto i = parse_int(parts[1]);
      if (!j || !i || *j < 0 || *i < 0 || *j >= inst.n || *i >= inst.n)
        return invalid_argument(fmt::format("--alpha: '{}' is not two dimensions 0..{}", trim(item), inst.n - 1));
      if (!(inst.DSmT & bit(*j)))
        return invalid_argument(fmt::format("--alpha: {} is not in D(S)-D(T) = {}", *j, dims_to_string(inst.DSmT)));
      if (!(inst.DTmS & bit(*i)))
        return invalid_argument(fmt::format("--alpha: {} is not in D(T)-D(S) = {}", *i, dims_to_string(inst.DTmS)));
      if (domain & bit(*j)) return invalid_argument(fmt::format("--alpha: {} is mapped twice", *j));
      if (range & bit(*i)) return invalid_argument(fmt::format("--alpha: {} is an image twice", *i));
      domain |= bit(*j);
      range |= bit(*i);
      alpha.map.emplace_back(*j, *i);
    }
  }
  if (domain != inst.DSmT)
    return invalid_argument(fmt::format("--alpha: must map every dimension of D(S)-D(T) = {} (missing {})",
                                        dims_to_string(inst.DSmT), dims_to_string(inst.DSmT & ~domain)));
  std::sort(alpha.map.begin(), alpha.map.end());
  return alpha;
}

Alpha identity_alpha(const Instance& inst) {
  Alpha alpha;
  const auto from = dims_of(inst.DSmT), to = dims_of(inst.DTmS);
  for (size_t k = 0; k < from.size(); ++k) alpha.map.emplace_back(from[k], to[k]);
  return alpha;
}

std::vector<Alpha> all_alphas(const Instance& inst) {
  std::vector<Alpha> out;
  const auto from = dims_of(inst.DSmT);
  auto to = dims_of(inst.DTmS);
  do {
    Alpha alpha;
    for (size_t k = 0; k < from.size(); ++k) alpha.map.emplace_back(from[k], to[k]);
    out.push_back(std::move(alpha));
  } while (std::next_permutation(to.begin(), to.end()));
  return out;
}

std::string Bars::to_string() const {
  return fmt::format("f:{},g:{}", f_complements_on_equal ? "=" : "!=", g_complements_on_equal ? "=" : "!=");
}

std::string Bars::reading_name() const {
  if (*this == paper()) return "bars-fig2";
  return fmt::format("bars-f{}-g{}", f_complements_on_equal ? "eq" : "ne", g_complements_on_equal ? "eq" : "ne");
}

std::vector<Bars> all_bars() { return {Bars::paper(), {true, true}, {false, false}, {false, true}}; }
namespace {
// The shared shape of f and g: T on C u (D(S)-D(T)), u on I, and on D(T)-D(S) u[i] complemented
// when [u[a^-1(i)] = T[a^-1(i)]] equals `complement_on_equal`.
Node image(const Instance& inst, const Alpha& alpha, Node u, bool complement_on_equal) {
  uint64_t out = (u.bits & inst.I) | (inst.T.values & (inst.C | inst.DSmT)) | (u.bits & inst.DTmS);
  for (const auto& [j, i] : alpha.map) {
    const bool equal = ((u.bits >> j) & 1) == ((inst.T.values >> j) & 1);
    if (equal == complement_on_equal) out ^= bit(i);
  }
  return Node{out, u.width};
}
}  // namespace

Node f(const Instance& inst, const Alpha& alpha, Node u, Bars bars) {
  return image(inst, alpha, u, bars.f_complements_on_equal);
}
Node g(const Instance& inst, const Alpha& alpha, Node u, Bars bars) {
  return image(inst, alpha, u, bars.g_complements_on_equal);
}
Node h(const Instance& inst, Node v) { return Node{v.bits ^ inst.DTmS, v.width}; }

DSets d_sets(const Instance& inst, const Alpha& alpha, Node u, Bars bars) {
  const uint64_t df = u.bits ^ f(inst, alpha, u, bars).bits;
  const uint64_t dg = u.bits ^ g(inst, alpha, u, bars).bits;
  return {df & inst.DS, df & inst.DT, dg & inst.DS, dg & inst.DT};
}

std::vector<Node> nodes_of(const Subcube& cube) {
  std::vector<Node> out;
  const auto free = dims_of(cube.free_mask);
  out.reserve(size_t{1} << free.size());
  for (uint64_t k = 0; k < (uint64_t{1} << free.size()); ++k) {
    uint64_t bits = cube.values;
    for (size_t d = 0; d < free.size(); ++d)
      if ((k >> d) & 1) bits |= bit(free[d]);
    out.push_back(Node{bits, cube.width});
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> dims_of(uint64_t mask) {
  std::vector<int> out;
  out.reserve(static_cast<size_t>(std::popcount(mask)));
  for (int i = 0; i < 64; ++i)
    if ((mask >> i) & 1) out.push_back(i);
  return out;
}

uint64_t mask_of(const std::vector<int>& dims) {
  uint64_t m = 0;
  for (int d : dims) m |= bit(d);
  return m;
}

std::string dims_to_string(uint64_t mask) {
  auto dims = dims_of(mask);
  std::reverse(dims.begin(), dims.end());
  return fmt::format("{{{}}}", fmt::join(dims, ", "));
}

}  // namespace topocheck::migration
