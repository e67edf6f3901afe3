#include "migration/packings.h"

#include <algorithm>
#include <bit>

namespace topocheck::migration {
namespace {

uint64_t bit(int i) { return uint64_t{1} << i; }

}  // namespace

std::vector<Subcube> subcubes(int n, int d) {
  std::vector<Subcube> out;
  for (uint64_t free = 0; free < bit(n); ++free) {
    if (std::popcount(free) != d) continue;
    for (uint64_t values = 0; values < bit(n); ++values)
      if ((values & free) == 0) out.push_back(Subcube{free, values, n});
  }
  return out;
}

static uint64_t node_mask(const Subcube& c) {
  uint64_t m = 0;
  for (const Node& u : nodes_of(c)) m |= bit(static_cast<int>(u.bits));
  return m;
}

// The links a HAMMING-PATH call of the procedure can use, for some alpha, k, p and reading of X:
// every link inside the subcube spanned by the two ends of a call (a Hamming path from a to b
// stays in it). A packing's other block links change no HAMMING-PATH result, hence no plan.
std::vector<std::pair<uint64_t, uint64_t>> hamming_spans(const Instance& inst) {
  std::vector<std::pair<uint64_t, uint64_t>> spans;  // (fixed values, free mask) of each span
  auto add = [&](Node a, Node b) { spans.emplace_back(a.bits & ~(a.bits ^ b.bits), a.bits ^ b.bits); };
  for (const auto& alpha : all_alphas(inst))
    for (const Node u : nodes_of(inst.S)) {
      const auto ds = d_sets(inst, alpha, u);
      const Node gu = g(inst, alpha, u), fu = f(inst, alpha, u);
      if (ds.f_S != 0) {
        const Node w{u.bits ^ ds.g_T, u.width}, x{u.bits ^ (ds.f_T | inst.C), u.width};
        add(u, w), add(gu, w), add(u, x), add(fu, x);
      } else {
        for (int k : dims_of(inst.C)) add(u, gu.flip(k)), add(gu, u.flip(k));
        // Section 4.2: q -> q XOR X for X = D_g(T|p) or D_f(T|p), p in q's B.
        const Subcube B{inst.DSmT, u.bits & ~inst.DSmT, inst.n};
        for (const Node p : nodes_of(B)) {
          const auto dp = d_sets(inst, alpha, p);
          add(u, Node{u.bits ^ dp.g_T, u.width}), add(u, Node{u.bits ^ dp.f_T, u.width});
        }
      }
    }
  std::sort(spans.begin(), spans.end());
  spans.erase(std::unique(spans.begin(), spans.end()), spans.end());
  return spans;
}

// A subcube contains a link of some span: a dimension free in both, and the two agree on the
// bits fixed in both.
bool meets_a_span(const Subcube& c, const std::vector<std::pair<uint64_t, uint64_t>>& spans) {
  for (const auto& [values, free] : spans) {
    if ((c.free_mask & free) == 0) continue;
    const uint64_t fixed = ~c.free_mask & ~free;
    if (((c.values ^ values) & fixed) == 0) return true;
  }
  return false;
}

bool for_each_packing(const Instance& inst, const std::function<bool(const Blocks&)>& visit,
                      bool only_hamming_relevant) {
  TC_CHECK(inst.n <= 6, "packings are enumerated for n <= 6");
  const uint64_t taken = node_mask(inst.S) | node_mask(inst.T);
  const auto spans = only_hamming_relevant ? hamming_spans(inst) : std::vector<std::pair<uint64_t, uint64_t>>{};
  std::vector<std::pair<Subcube, uint64_t>> cands;
  for (int d = 1; d <= inst.n; ++d)
    for (const Subcube& c : subcubes(inst.n, d)) {
      const uint64_t m = node_mask(c);
      if ((m & taken) == 0 && (!only_hamming_relevant || meets_a_span(c, spans))) cands.emplace_back(c, m);
    }
  Blocks current;
  // Choose candidates in index order (each set once).
  auto rec = [&](auto&& self, size_t from, uint64_t used) -> bool {
    if (visit(current)) return true;
    for (size_t k = from; k < cands.size(); ++k) {
      if (cands[k].second & used) continue;
      current.push_back(cands[k].first);
      if (self(self, k + 1, used | cands[k].second)) return true;
      current.pop_back();
    }
    return false;
  };
  return rec(rec, 0, 0);
}


}  // namespace topocheck::migration
