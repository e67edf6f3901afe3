#include "aapc/symmetry.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace topocheck::aapc {
namespace {

NodeId permute_bits(NodeId x, const std::array<int, kMaxN>& sigma, int n) {
  NodeId y = 0;
  for (int i = 0; i < n; ++i)
    if ((x >> i) & 1u) y |= NodeId{1} << sigma[i];
  return y;
}

// One candidate of the canonical form: pivot p, the rows (F xor p without 0) in a given order.
struct Candidate {
  std::vector<NodeId> set;  // ascending
  Automorphism g;
};

// The column of dimension i: its bits in the rows, the first row most significant.
uint32_t column_key(const std::vector<NodeId>& rows, int i) {
  uint32_t key = 0;
  for (NodeId r : rows) key = (key << 1) | ((r >> i) & 1u);
  return key;
}

Candidate candidate(int n, NodeId pivot, const std::vector<NodeId>& rows) {
  std::array<int, kMaxN> order{};
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.begin() + n,
                   [&](int a, int b) { return column_key(rows, a) > column_key(rows, b); });
  Candidate c;
  c.g.n = n;
  c.g.t = pivot;
  for (int k = 0; k < n; ++k) c.g.sigma[order[k]] = k;
  c.set.push_back(0);
  for (NodeId r : rows) c.set.push_back(permute_bits(r, c.g.sigma, n));
  std::sort(c.set.begin(), c.set.end());
  return c;
}

// Calls f(p, rows) for every pivot p of `set` (in the set's order) and every order of its rows
// (the other elements XOR p), lexicographically from ascending: the translation part of an
// automorphism taking p to 0, and each order of what becomes the nonzero rows.
template <class F>
void for_each_pivot_and_row_order(const std::vector<NodeId>& set, F&& f) {
  for (NodeId p : set) {
    std::vector<NodeId> rows;
    for (NodeId x : set)
      if (x != p) rows.push_back(x ^ p);
    std::sort(rows.begin(), rows.end());
    do f(p, rows);
    while (std::next_permutation(rows.begin(), rows.end()));
  }
}

// The least candidate (first found among equals): pivots ascending, row orders lexicographic.
Candidate least_candidate(const FaultSet& faults) {
  const int n = faults.n();
  Candidate best;
  bool have = false;
  for_each_pivot_and_row_order(faults.faulty(), [&](NodeId p, const std::vector<NodeId>& rows) {
    Candidate c = candidate(n, p, rows);
    if (!have || c.set < best.set) {
      best = std::move(c);
      have = true;
    }
  });
  return best;
}

uint64_t factorial(int k) {
  uint64_t r = 1;
  for (int i = 2; i <= k; ++i) r *= static_cast<uint64_t>(i);
  return r;
}

}  // namespace

Automorphism Automorphism::identity(int n) {
  Automorphism g;
  g.n = n;
  for (int i = 0; i < n; ++i) g.sigma[i] = i;
  return g;
}

bool Automorphism::is_identity() const {
  if (t != 0) return false;
  for (int i = 0; i < n; ++i)
    if (sigma[i] != i) return false;
  return true;
}

NodeId Automorphism::apply(NodeId x) const { return permute_bits(x ^ t, sigma, n); }

NodeId Automorphism::unapply(NodeId y) const { return inverse().apply(y); }

uint32_t Automorphism::dims(uint32_t mask) const { return permute_bits(mask, sigma, n); }

Automorphism Automorphism::inverse() const {
  // sigma^-1(y) xor t = sigma^-1(y xor sigma(t)): translation by sigma(t), then sigma^-1.
  Automorphism h;
  h.n = n;
  for (int i = 0; i < n; ++i) h.sigma[sigma[i]] = i;
  h.t = permute_bits(t, sigma, n);
  return h;
}

std::vector<NodeId> canonical_form(const FaultSet& faults) {
  if (faults.faulty().empty()) return {};
  return least_candidate(faults).set;
}

bool is_canonical(const FaultSet& faults) { return canonical_form(faults) == faults.faulty(); }

Automorphism canonical_frame(const FaultSet& faults) {
  if (faults.faulty().empty()) return Automorphism::identity(faults.n());
  Candidate c = least_candidate(faults);
  if (c.set == faults.faulty()) return Automorphism::identity(faults.n());
  return c.g;
}

Schedule transform(const Schedule& schedule, const Automorphism& g) {
  Schedule out;
  out.n = schedule.n;
  out.steps = schedule.steps;
  out.units.reserve(schedule.units.size());
  for (const std::vector<Move>& unit : schedule.units) {
    std::vector<Move> moved;
    moved.reserve(unit.size());
    for (const Move& m : unit)
      moved.push_back(Move{Datum{g.apply(m.datum.source), g.apply(m.datum.dest)}, g.apply(m.from), g.apply(m.to)});
    out.units.push_back(std::move(moved));
  }
  return out;
}

void for_each_canonical_fault_set(int n, int f, const std::function<bool(const std::vector<NodeId>&)>& visit) {
  if (n < 1 || n > kMaxN || f < 0) std::abort();
  if (f == 0) {
    visit({});
    return;
  }
  const NodeId N = NodeId{1} << n;
  if (static_cast<NodeId>(f) > N) return;
  std::vector<NodeId> set(f, 0);
  // set[0] = 0; set[1..f-1] every ascending choice from 1..N-1.
  std::function<bool(int, NodeId)> rec = [&](int k, NodeId from) -> bool {
    if (k == f) {
      if (is_canonical(FaultSet(n, set))) return visit(set);
      return true;
    }
    for (NodeId x = from; x < N; ++x) {
      set[k] = x;
      if (!rec(k + 1, x + 1)) return false;
    }
    return true;
  };
  rec(1, 1);
}

uint64_t orbit_size(const FaultSet& faults) {
  const int n = faults.n();
  const uint64_t group = (uint64_t{1} << n) * factorial(n);
  const std::vector<NodeId> K = canonical_form(faults);
  if (K.empty()) return 1;
  std::vector<NodeId> target(K.begin() + 1, K.end());  // K's nonzero rows, ascending
  uint64_t stabilizer = 0;
  for_each_pivot_and_row_order(K, [&](NodeId, const std::vector<NodeId>& rows) {
    // sigma maps rows[j] to target[j] for every j: dimension i must go to a dimension with
    // the same column; count the bijections between equal columns.
    std::map<uint32_t, int> from, to;
    for (int i = 0; i < n; ++i) {
      ++from[column_key(rows, i)];
      ++to[column_key(target, i)];
    }
    if (from != to) return;
    uint64_t ways = 1;
    for (const auto& [key, count] : from) ways *= factorial(count);
    stabilizer += ways;
  });
  return group / stabilizer;
}

}  // namespace topocheck::aapc
