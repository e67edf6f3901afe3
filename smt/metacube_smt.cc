#include "smt/metacube_smt.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <climits>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "catalog/metacube/scope.h"
#include "core/checks.h"
#include "metacube/routing.h"

namespace topocheck::smt {
namespace {

using claims::Method;
using claims::MethodResult;
using claims::Outcome;
using claims::SolverLimits;
using metacube::Alg4Options;
using metacube::Metacube;
using metacube::Thm2Part;
using nlohmann::json;
namespace scope = claims::metacube_scope;

// Width of the small counters (slot counts, popcounts): paths have far fewer than 2^16 slots.
constexpr unsigned kCountWidth = 16;

// ---------------------------------------------------------------------------------------------
// Address arithmetic of MC(k, m) on n-bit vectors (metacube.h's layout).

struct Space {
  Space(z3::context& context, const Metacube& metacube)
      : ctx(context), mc(metacube), k(mc.k()), m(mc.m()), h(mc.h()), n(mc.width()),
        shift(m * h) {}
  z3::context& ctx;
  const Metacube& mc;
  int k, m, h, n, shift;  // shift: position of the class field

  z3::expr val(uint64_t v) const { return ctx.bv_val(v, static_cast<unsigned>(n)); }
  z3::expr one_bit() const { return ctx.bv_val(1, 1); }
  uint64_t field_mask(int f) const { return ((uint64_t{1} << m) - 1) << (f * m); }
  uint64_t class_mask() const { return ((uint64_t{1} << k) - 1) << shift; }
  // Field M[f] of an address (m bits).
  z3::expr field(const z3::expr& u, int f) const {
    return u.extract(static_cast<unsigned>(f * m + m - 1), static_cast<unsigned>(f * m));
  }
  // An m-bit value placed at field f, zeros elsewhere (n bits).
  z3::expr place(const z3::expr& value, int f) const {
    z3::expr out = value;
    if (f > 0) out = z3::concat(out, ctx.bv_val(0, static_cast<unsigned>(f * m)));
    const int high = n - m - f * m;
    if (high > 0) out = z3::concat(ctx.bv_val(0, static_cast<unsigned>(high)), out);
    return out;
  }
  // The address with class field c and M fields `low` (m*h bits).
  z3::expr address(int c, const z3::expr& low) const {
    return k == 0 ? low : z3::concat(ctx.bv_val(static_cast<uint64_t>(c), static_cast<unsigned>(k)), low);
  }
  // Metacube::is_edge on symbolic addresses: d = u XOR v has exactly one bit set, and that bit is a
  // class bit or a bit of the field M[c_u] selected by u's class (edge_dimension).
  z3::expr is_edge(const z3::expr& u, const z3::expr& v) const {
    const z3::expr d = u ^ v;
    const z3::expr zero = val(0);
    const z3::expr one_hot = d != zero && (d & (d - val(1))) == zero;
    z3::expr field_of_u = val(field_mask(h - 1));
    if (k > 0) {
      const z3::expr cls = u.extract(static_cast<unsigned>(n - 1), static_cast<unsigned>(shift));
      for (int c = h - 2; c >= 0; --c)
        field_of_u = z3::ite(cls == ctx.bv_val(static_cast<uint64_t>(c), static_cast<unsigned>(k)),
                             val(field_mask(c)), field_of_u);
    }
    z3::expr allowed = (d & field_of_u) != zero;
    if (k > 0) allowed = allowed || (d & val(class_mask())) != zero;
    return one_hot && allowed;
  }
  // popcount of an n-bit vector as a kCountWidth-bit number.
  z3::expr popcount(const z3::expr& x) const {
    z3::expr sum = ctx.bv_val(0, kCountWidth);
    for (int b = 0; b < n; ++b)
      sum = sum + z3::zext(x.extract(static_cast<unsigned>(b), static_cast<unsigned>(b)), kCountWidth - 1);
    return sum;
  }
};

// A node computed by the construction: its class is concrete in a split, its address symbolic
// (an n-bit vector whose class field is always `cls`).
struct SymNode {
  int cls;
  z3::expr bits;
};

// One position of a symbolic path. `always` records that `present` is true by construction.
struct Slot {
  z3::expr present;
  z3::expr node;
  bool always;
};
using SymPath = std::vector<Slot>;

// A sub-problem: concrete class fields and case.
struct Split {
  int cs, ct, case_number;
};

// Every split, in the order of exhaustive search's (c_s, c_t): the smallest violating pair in
// address order has the c_s of the first split (in this order) that has a violation, and lies in
// that split or a later one with the same c_s (minimize() searches them).
std::vector<Split> all_splits(const Metacube& mc) {
  std::vector<Split> out;
  for (int cs = 0; cs < mc.h(); ++cs)
    for (int ct = 0; ct < mc.h(); ++ct) {
      if (cs == ct) {
        out.push_back(Split{cs, ct, 0});
        out.push_back(Split{cs, ct, 1});
      } else {
        out.push_back(Split{cs, ct, 2});
      }
    }
  return out;
}

// The split's precondition on (s, t): s != t and the case's condition (metacube::alg4_case).
z3::expr split_precondition(const Space& sp, const Split& split, const z3::expr& s, const z3::expr& t) {
  if (split.case_number == 2) return sp.ctx.bool_val(true);  // classes differ: s != t
  z3::expr_vector others(sp.ctx);
  for (int f = 0; f < sp.h; ++f)
    if (f != split.cs) others.push_back(sp.field(s, f) == sp.field(t, f));
  const z3::expr same_cluster = z3::mk_and(others);
  return s != t && (split.case_number == 0 ? same_cluster : !same_cluster);
}

// ---------------------------------------------------------------------------------------------
// Algorithm 4, symbolically in the M fields of s and t, for one split. Mirrors
// metacube/disjoint.cc (case0, case1, case2, case2_local_segment) and metacube/routing.cc
// (p1_walk, p3_cluster, p3_class, append); every choice the options make is concrete here.

class Encoder {
 public:
  Encoder(const Space& sp, const Alg4Options& o, const Split& split, const z3::expr& s, const z3::expr& t)
      : sp_(sp), o_(o), k_(sp.k), m_(sp.m), cs_(split.cs), ct_(split.ct), case_(split.case_number),
        s_{split.cs, s}, t_{split.ct, t} {}

  // P_0 ... P_{k+m-1}.
  std::vector<SymPath> paths() const {
    // alg4_encoding_gap() rejects options.repair before any Encoder is made. A whole-path
    // post-processing of a future reading goes here, after the case's paths.
    if (case_ == 0) return case0();
    if (case_ == 1) return case1();
    return case2();
  }

 private:
  z3::context& ctx() const { return sp_.ctx; }

  // --- nodes
  SymNode N(const SymNode& u, int d) const {  // u^(d)
    if (d < k_) return SymNode{u.cls ^ (1 << d), u.bits ^ sp_.val(uint64_t{1} << (sp_.shift + d))};
    return SymNode{u.cls, u.bits ^ sp_.val(uint64_t{1} << (u.cls * m_ + d - k_))};
  }
  SymNode with_class(const SymNode& u, int c) const {
    return SymNode{c, u.bits ^ sp_.val(static_cast<uint64_t>(u.cls ^ c) << sp_.shift)};
  }
  SymNode with_field(const SymNode& u, int f, const z3::expr& value) const {
    return SymNode{u.cls, (u.bits & sp_.val(~sp_.field_mask(f) & ((uint64_t{1} << sp_.n) - 1))) | sp_.place(value, f)};
  }
  z3::expr field(const SymNode& u, int f) const { return sp_.field(u.bits, f); }

  // --- the concrete choices of disjoint.cc's Ctx
  std::vector<int> hc(int i) const { return metacube::hamiltonian_cycle(k_, cs_, i, o_.hc_order); }
  int l_global(int i) const {
    const auto c = hc(i);
    return std::countr_zero(static_cast<unsigned>(c[1] ^ c[2]));
  }
  int local_class_i() const {
    return o_.local_class_path == metacube::LocalClassPath::kAscending ? std::max(k_ - 1, 0) : 0;
  }
  int local_index() const { return k_ == 0 ? 0 : o_.local_hc % k_; }
  int l_local() const {
    const auto c = hc(local_index());
    return std::countr_zero(static_cast<unsigned>(c[0] ^ c[1]));
  }
  std::vector<int> walk_global(int i, const SymNode& from) const { return metacube::follow_cycle(hc(i), from.cls); }
  std::vector<int> walk_local(const SymNode& from) const { return metacube::follow_cycle(hc(local_index()), from.cls); }
  int other_local(int j) const {
    if (m_ < 2) return -1;
    if (o_.exchange == metacube::ExchangeChoice::kNextCyclic) return k_ + ((j - k_) + 1) % m_;
    return j == k_ ? k_ + 1 : k_;
  }
  // The mask that u -> u^(y) XORs for global path i, y = k + x the key bit, u of class c_s^(i):
  // bit x of M[c_s^(i)], x the rightmost 0 of M_s[c_s^(i)] XOR M_t[c_t^(i)] (kRule) or
  // M_t[c_s^(i)] (kExample4), default_key when there is none. ~d & (d + 1) isolates the rightmost
  // 0 of d (0 when d is all ones).
  z3::expr key_flip(int i) const {
    const int csi = cs_ ^ (1 << i);
    const int cti = ct_ ^ (1 << i);
    const z3::expr a = field(s_, csi);
    const z3::expr b = o_.key_compare == metacube::KeyCompare::kRule ? field(t_, cti) : field(t_, csi);
    const z3::expr d = a ^ b;
    const z3::expr lowest_zero = ~d & (d + ctx().bv_val(1, static_cast<unsigned>(m_)));
    const z3::expr fallback = ctx().bv_val(uint64_t{1} << o_.default_key, static_cast<unsigned>(m_));
    const z3::expr x_mask = z3::ite(lowest_zero == ctx().bv_val(0, static_cast<unsigned>(m_)), fallback, lowest_zero);
    return sp_.place(x_mask, csi);
  }

  // --- slot lists
  SymPath start(const SymNode& u) const { return SymPath{Slot{ctx().bool_val(true), u.bits, true}}; }
  void push(SymPath& p, const SymNode& u) const { p.push_back(Slot{ctx().bool_val(true), u.bits, true}); }

  // The last present node of p.
  static z3::expr last_node(const SymPath& p) {
    size_t q0 = p.size() - 1;
    while (!p[q0].always) --q0;  // slot 0 is always present
    z3::expr last = p[q0].node;
    for (size_t q = q0 + 1; q < p.size(); ++q) last = z3::ite(p[q].present, p[q].node, last);
    return last;
  }

  // routing.cc's append: the tail's first node is dropped when it equals the path's last node.
  // Every tail starts with an always-present slot (its first node), as every concrete tail does.
  // When the path's last slot is always present the equality is decided here (Z3's simplifier on
  // two node terms) and the slot is dropped or kept unconditionally; otherwise the slot is present
  // iff the tail's first node differs from the last present node (not simplified: simplifying the
  // ite chain of the last node is the expensive part of building the encoding).
  void append(SymPath& p, const SymPath& tail) const {
    TC_CHECK(!tail.empty() && tail.front().always, "append: a tail starts with its first node");
    size_t from = 0;
    if (p.back().always) {
      const z3::expr same = z3::eq(tail.front().node, p.back().node) ? ctx().bool_val(true)
                                                                      : (tail.front().node == p.back().node).simplify();
      if (same.is_true()) {
        from = 1;
      } else if (!same.is_false()) {
        p.push_back(Slot{!same, tail.front().node, false});
        from = 1;
      }
    } else {
      p.push_back(Slot{!(tail.front().node == last_node(p)), tail.front().node, false});
      from = 1;
    }
    p.insert(p.end(), tail.begin() + static_cast<long>(from), tail.end());
  }

  // ite(cond, a, b) slot by slot; the shorter list is padded with absent slots.
  SymPath merge(const z3::expr& cond, const SymPath& a, const SymPath& b) const {
    SymPath out;
    for (size_t q = 0; q < std::max(a.size(), b.size()); ++q) {
      if (q < a.size() && q < b.size()) {
        const Slot& x = a[q];
        const Slot& y = b[q];
        out.push_back(Slot{z3::eq(x.present, y.present) ? x.present : z3::ite(cond, x.present, y.present),
                           z3::eq(x.node, y.node) ? x.node : z3::ite(cond, x.node, y.node),
                           x.always && y.always});
      } else if (q < a.size()) {
        out.push_back(Slot{cond && a[q].present, a[q].node, false});
      } else {
        out.push_back(Slot{!cond && b[q].present, b[q].node, false});
      }
    }
    return out;
  }

  // --- Algorithm 1 along a concrete class walk (routing.cc's p1_walk).
  SymPath p1_walk(const SymNode& from, const SymNode& to, const std::vector<int>& walk) const {
    TC_CHECK(!walk.empty() && walk.front() == from.cls, "p1_walk: the walk must start at the source's class");
    SymPath p = start(from);
    z3::expr v = from.bits;
    z3::expr done = ctx().bool_val(false);
    std::set<int> fixed;  // classes whose field has been set to the target's
    for (size_t pos = 0; pos < walk.size(); ++pos) {
      const int u = walk[pos];
      // M_v[u] -> M_to[u], ascending: the slot of bit b holds v with bits 0..b of the field fixed.
      const z3::expr diff = (v ^ to.bits) & sp_.val(sp_.field_mask(u));
      uint64_t so_far = 0;
      for (int b = 0; b < m_; ++b) {
        const int bit = u * m_ + b;
        so_far |= uint64_t{1} << bit;
        const z3::expr differs = diff.extract(static_cast<unsigned>(bit), static_cast<unsigned>(bit)) == sp_.one_bit();
        p.push_back(Slot{!done && differs, v ^ (diff & sp_.val(so_far)), false});
      }
      // Once done, v equals the target in every field (only its class moves below, on absent
      // slots), so diff is 0 and v ^ diff needs no guard.
      v = v ^ diff;
      done = done || v == to.bits;
      fixed.insert(u);
      if (static_cast<int>(fixed.size()) == sp_.h && u == to.cls) break;  // v == target: see header
      if (pos + 1 == walk.size()) break;                                   // walk exhausted
      v = v ^ sp_.val(static_cast<uint64_t>(u ^ walk[pos + 1]) << sp_.shift);
      p.push_back(Slot{!done, v, false});
    }
    return p;
  }

  // --- Algorithm 3 in a cluster and on the class field (routing.cc).
  SymPath p3_cluster(int n, int i, const SymNode& u, const SymNode& v) const {
    SymPath p = start(u);
    if (n <= 0) return p;
    const int c = u.cls;
    const z3::expr diff = (u.bits ^ v.bits) & sp_.val(sp_.field_mask(c));
    uint64_t so_far = 0;
    for (int j = 1; j <= n; ++j) {
      const int b = (i + j) % n;
      if (b >= m_) continue;
      const int bit = c * m_ + b;
      so_far |= uint64_t{1} << bit;
      const z3::expr differs = diff.extract(static_cast<unsigned>(bit), static_cast<unsigned>(bit)) == sp_.one_bit();
      p.push_back(Slot{differs, u.bits ^ (diff & sp_.val(so_far)), false});
    }
    return p;
  }
  SymPath p3_class(int i, const SymNode& u, const SymNode& v) const {
    SymPath p = start(u);
    if (k_ == 0) return p;
    const int diff = u.cls ^ v.cls;
    SymNode w = u;
    for (int j = 1; j <= k_; ++j) {
      const int b = (i + j) % k_;
      if ((diff >> b) & 1) {
        w = N(w, b);
        push(p, w);
      }
    }
    return p;
  }

  // --- the three cases (disjoint.cc)
  std::vector<SymPath> case0() const {
    std::vector<SymPath> P;
    const int n0 = o_.case0_p3_n == 0 ? m_ : o_.case0_p3_n;
    for (int i = 0; i < k_; ++i) {
      const int hop = o_.case0_hop == metacube::Case0Hop::kTable ? k_ + i % m_ : k_;
      const SymNode a = N(s_, i), b = N(a, hop), cc = N(b, i);
      const SymNode ta = N(t_, i), tb = N(ta, hop), tc = N(tb, i);
      SymPath p = start(s_);
      push(p, a);
      push(p, b);
      append(p, p3_cluster(n0, i, cc, tc));
      push(p, tb);
      push(p, ta);
      push(p, t_);
      P.push_back(p);
    }
    for (int i = k_; i < k_ + m_; ++i) {
      SymPath p = start(s_);
      append(p, p3_cluster(m_, i - k_, N(s_, i), t_));
      P.push_back(p);
    }
    return P;
  }

  std::vector<SymPath> case1() const {
    std::vector<SymPath> P;
    for (int i = 0; i < k_; ++i) {
      const SymNode a = N(s_, i);
      const SymNode b = o_.broken_ignore_key ? a : SymNode{a.cls, a.bits ^ key_flip(i)};
      const SymNode d = N(b, l_global(i));
      const SymNode ti = N(t_, i);
      SymPath p = start(s_);
      push(p, a);
      if (!o_.broken_ignore_key) push(p, b);
      push(p, d);
      append(p, p1_walk(d, ti, walk_global(i, d)));
      push(p, t_);
      P.push_back(p);
    }
    const int l = l_local();
    for (int i = k_; i < k_ + m_; ++i) {
      const SymNode si = N(s_, i);
      const SymNode w = with_field(t_, ct_, field(si, ct_));
      const SymNode d = N(si, l);
      SymPath p = start(s_);
      push(p, si);
      push(p, d);
      append(p, p1_walk(d, w, walk_local(d)));
      append(p, p3_cluster(m_, i - k_, w, t_));
      P.push_back(p);
    }
    if (o_.broken_no_exchange) return P;
    // The j / j' exchange when M_s^(j)[c_s] = M_t[c_t]: j = k + ctz(diff) when popcount(diff) = 1,
    // i.e. diff = 2^(j-k), one condition per concrete j (mutually exclusive).
    const z3::expr diff = field(s_, cs_) ^ field(t_, ct_);
    std::vector<SymPath> out = P;
    for (int j = k_; j < k_ + m_; ++j) {
      const int jp = other_local(j);
      if (jp < 0) continue;  // m = 1: no j', the paths stay
      const z3::expr cond = diff == ctx().bv_val(uint64_t{1} << (j - k_), static_cast<unsigned>(m_));
      const SymNode sj = N(s_, j), sjj = N(sj, jp), sjjl = N(sjj, l);
      SymPath pj = start(s_);
      push(pj, sj);
      push(pj, sjj);
      push(pj, sjjl);
      append(pj, p1_walk(sjjl, N(t_, jp), walk_local(sjjl)));
      push(pj, t_);
      const SymNode sjp = N(s_, jp), sjpl = N(sjp, l);
      SymPath pjp = start(s_);
      push(pjp, sjp);
      push(pjp, sjpl);
      append(pjp, p1_walk(sjpl, N(t_, j), walk_local(sjpl)));
      push(pjp, t_);
      out[static_cast<size_t>(j)] = merge(cond, pj, out[static_cast<size_t>(j)]);
      out[static_cast<size_t>(jp)] = merge(cond, pjp, out[static_cast<size_t>(jp)]);
    }
    return out;
  }

  // Case 2, local: (s^(i) -> w) as the if / else of the algorithm prints it.
  SymPath case2_local_segment(int i, const SymNode& w) const {
    const SymNode si = N(s_, i);
    const int l = l_local();
    const SymNode d = N(si, l);
    SymPath plain = start(si);
    push(plain, d);
    append(plain, p1_walk(d, w, walk_local(d)));
    SymPath out = plain;
    const int ip = other_local(i);
    if (!o_.broken_no_exchange && ip >= 0) {
      const SymNode b = N(si, ip), bd = N(b, l);
      SymPath detour = start(si);
      push(detour, b);
      push(detour, bd);
      append(detour, p1_walk(bd, w, walk_local(bd)));
      out = merge(field(si, cs_) == field(t_, cs_), detour, plain);
    }
    if (o_.empty_when_equal) out = merge(si.bits == w.bits, start(si), out);
    return out;
  }

  std::vector<SymPath> case2() const {
    std::vector<SymPath> P;
    for (int i = 0; i < k_; ++i) {
      const SymNode si = N(s_, i);
      const int ci = si.cls;
      if (ci == ct_) {
        // P_j with c_s^(j) = c_t: (s^(j) -> t^(j)) = p1(s^(j), t^(j)), no key bit.
        SymPath p = start(s_);
        append(p, p1_walk(si, N(t_, i), walk_global(i, si)));
        if (o_.case2_pj_ends_at_t) push(p, t_);
        P.push_back(p);
        continue;
      }
      const SymNode w = with_class(t_, ci);
      z3::expr_vector equal(ctx());
      for (int f = 0; f < sp_.h; ++f)
        if (f != ci) equal.push_back(field(s_, f) == field(t_, f));
      SymPath direct = start(s_);
      append(direct, p1_walk(si, w, walk_global(i, si)));
      const SymNode b = o_.broken_ignore_key ? si : SymNode{si.cls, si.bits ^ key_flip(i)};
      const SymNode d = N(b, l_global(i));
      SymPath keyed = start(s_);
      push(keyed, si);
      if (!o_.broken_ignore_key) push(keyed, b);
      push(keyed, d);
      append(keyed, p1_walk(d, w, walk_global(i, d)));
      SymPath p = merge(z3::mk_and(equal), direct, keyed);
      append(p, p3_class(i, w, t_));
      P.push_back(p);
    }
    // Local paths: w_i = (c_s, M_t[h-1], ..., M_t^(i)[c_t], ..., M_t[0]) (indexed by i; entries
    // i < k are unused).
    std::vector<SymNode> w, ti;
    for (int i = 0; i < k_ + m_; ++i) {
      ti.push_back(N(t_, i));
      w.push_back(with_class(ti.back(), cs_));
    }
    // The exchange loop of disjoint.cc replayed in order with symbolic targets (8 bits): target j
    // is j, the marker "P_j = s : s^(j) -> t^(i) : t" is 128 + i (k + m <= 68).
    auto code = [this](int v) { return ctx().bv_val(static_cast<uint64_t>(v), 8); };
    std::vector<z3::expr> target;
    for (int i = 0; i < k_ + m_; ++i) target.push_back(code(i));
    for (int i = k_; i < k_ + m_; ++i)
      for (int j = k_; j < k_ + m_; ++j) {
        if (j == i) continue;
        const z3::expr cond = w[static_cast<size_t>(i)].bits == N(s_, j).bits;
        target[static_cast<size_t>(i)] = z3::ite(cond, code(j), target[static_cast<size_t>(i)]);
        target[static_cast<size_t>(j)] = z3::ite(cond, code(128 + i), target[static_cast<size_t>(j)]);
      }
    for (int i = k_; i < k_ + m_; ++i) {
      auto towards = [&](int tg) {
        SymPath p = start(s_);
        append(p, case2_local_segment(i, w[static_cast<size_t>(tg)]));
        append(p, p3_class(local_class_i(), w[static_cast<size_t>(tg)], ti[static_cast<size_t>(tg)]));
        push(p, t_);
        return p;
      };
      SymPath p = towards(i);
      const z3::expr& tg = target[static_cast<size_t>(i)];
      for (int j = k_; j < k_ + m_; ++j)
        if (j != i) p = merge(tg == code(j), towards(j), p);
      for (int from = k_; from < k_ + m_; ++from) {
        if (from == i) continue;
        SymPath marker = start(s_);
        append(marker, p3_class(local_class_i(), N(s_, i), ti[static_cast<size_t>(from)]));
        push(marker, t_);
        p = merge(tg == code(128 + from), marker, p);
      }
      P.push_back(p);
    }
    return P;
  }

  const Space& sp_;
  const Alg4Options& o_;
  int k_, m_, cs_, ct_, case_;
  SymNode s_, t_;
};

// ---------------------------------------------------------------------------------------------
// Violations (the negation of what the core checkers accept).

// is_last[q]: slot q is present and no later slot is.
std::vector<z3::expr> last_flags(z3::context& ctx, const SymPath& p) {
  std::vector<z3::expr> out(p.size(), ctx.bool_val(false));
  z3::expr none_later = ctx.bool_val(true);
  for (size_t q = p.size(); q-- > 0;) {
    out[q] = p[q].present && none_later;
    none_later = p[q].always ? ctx.bool_val(false) : none_later && !p[q].present;
  }
  return out;
}

// Number of present slots (kCountWidth bits).
z3::expr present_count(z3::context& ctx, const SymPath& p) {
  z3::expr sum = ctx.bv_val(0, kCountWidth);
  for (const Slot& x : p) sum = sum + z3::ite(x.present, ctx.bv_val(1, kCountWidth), ctx.bv_val(0, kCountWidth));
  return sum;
}

// check_path_valid, check_endpoints and check_simple of one path, negated.
z3::expr path_violation(const Space& sp, const SymPath& p, const z3::expr& s, const z3::expr& t) {
  z3::context& ctx = sp.ctx;
  TC_CHECK(!p.empty() && p.front().always, "path_violation: every path starts with a node");
  z3::expr_vector any(ctx);
  // Hops: each present slot is an edge from the last present node before it.
  z3::expr last = p[0].node;
  z3::expr later = ctx.bool_val(false);  // some slot after the first is present
  for (size_t q = 1; q < p.size(); ++q) {
    any.push_back(p[q].present && !sp.is_edge(last, p[q].node));
    last = p[q].always ? p[q].node : z3::ite(p[q].present, p[q].node, last);
    later = later || p[q].present;
  }
  // Endpoints.
  any.push_back(p[0].node != s);
  any.push_back(last != t);
  // Simple, with check_simple's exemption of a closed path's last node.
  const z3::expr closed = later && last == p[0].node;
  const std::vector<z3::expr> is_last = last_flags(ctx, p);
  for (size_t a = 0; a < p.size(); ++a)
    for (size_t b = a + 1; b < p.size(); ++b)
      any.push_back(p[a].present && p[b].present && p[a].node == p[b].node && !(closed && is_last[b]));
  return z3::mk_or(any);
}

// check_internally_node_disjoint for paths P and Q, negated: a node at a position of one path that
// is neither its first nor its last occurs anywhere in the other.
z3::expr pair_violation(const Space& sp, const SymPath& p, const SymPath& q) {
  z3::context& ctx = sp.ctx;
  const std::vector<z3::expr> last_p = last_flags(ctx, p), last_q = last_flags(ctx, q);
  auto internal = [&ctx](const SymPath& path, const std::vector<z3::expr>& is_last, size_t index) {
    return index == 0 ? ctx.bool_val(false) : path[index].present && !is_last[index];
  };
  z3::expr_vector any(ctx);
  for (size_t a = 0; a < p.size(); ++a)
    for (size_t b = 0; b < q.size(); ++b) {
      if (a == 0 && b == 0) continue;  // both s: neither is internal
      const z3::expr guard =
          (internal(p, last_p, a) && q[b].present) || (internal(q, last_q, b) && p[a].present);
      any.push_back(guard && p[a].node == q[b].node);
    }
  return z3::mk_or(any);
}

// check_thm2_length / check_thm2_case_bound of one path, negated.
z3::expr length_violation(const Space& sp, const SymPath& p, const z3::expr& s, const z3::expr& t,
                          const Split& split, Thm2Part part) {
  int extra = sp.h + sp.m + 5;
  if (part == Thm2Part::kCaseBound) {
    if (split.case_number == 0) {
      extra = 6;
    } else if (split.case_number == 1) {
      extra = sp.h + 4;
    } else {
      const int d = std::popcount(static_cast<unsigned>(split.cs ^ split.ct));
      extra = sp.h + 4 + (d < sp.k ? d + 1 : d - 1);
    }
  }
  const z3::expr length = present_count(sp.ctx, p) - sp.ctx.bv_val(1, kCountWidth);
  const z3::expr bound = sp.popcount(s ^ t) + sp.ctx.bv_val(static_cast<uint64_t>(extra), kCountWidth);
  return z3::ugt(length, bound);
}

// P (of (s, t)) XOR a and Q (of (s^a, t^a)) differ as node lists. Slot q of a path holds list
// index "number of present slots before q"; two slots can share an index only if their index
// ranges [always slots before, q] overlap.
z3::expr lists_differ(const Space& sp, const SymPath& p, const SymPath& q, const z3::expr& a) {
  z3::context& ctx = sp.ctx;
  auto indices = [&ctx](const SymPath& path, std::vector<z3::expr>& index, std::vector<int>& lowest) {
    z3::expr sum = ctx.bv_val(0, kCountWidth);
    int always = 0;
    for (const Slot& x : path) {
      index.push_back(sum);
      lowest.push_back(always);
      sum = sum + z3::ite(x.present, ctx.bv_val(1, kCountWidth), ctx.bv_val(0, kCountWidth));
      always += x.always;
    }
    return sum;
  };
  std::vector<z3::expr> ip, iq;
  std::vector<int> lp, lq;
  const z3::expr count_p = indices(p, ip, lp);
  const z3::expr count_q = indices(q, iq, lq);
  z3::expr_vector any(ctx);
  any.push_back(count_p != count_q);
  for (size_t x = 0; x < p.size(); ++x)
    for (size_t y = 0; y < q.size(); ++y) {
      if (static_cast<size_t>(lp[x]) > y || static_cast<size_t>(lq[y]) > x) continue;
      any.push_back(p[x].present && q[y].present && ip[x] == iq[y] && (p[x].node ^ a) != q[y].node);
    }
  return z3::mk_or(any);
}

// P XOR a and Q differ SLOT BY SLOT (a presence differs, or a node of a slot present in both).
// Not list inequality, but implied by it (equal slots give equal lists), and linear in the slots
// where lists_differ is quadratic: its unsat proves a group of the commutation problem cheaply
// (decide() checks it first and falls back to lists_differ only when it is satisfiable).
z3::expr slots_differ(const Space& sp, const SymPath& p, const SymPath& q, const z3::expr& a) {
  z3::expr_vector any(sp.ctx);
  for (size_t x = 0; x < std::max(p.size(), q.size()); ++x) {
    if (x >= p.size()) any.push_back(q[x].present);
    else if (x >= q.size()) any.push_back(p[x].present);
    else any.push_back(p[x].present != q[x].present || (p[x].present && (p[x].node ^ a) != q[x].node));
  }
  return z3::mk_or(any);
}

// ---------------------------------------------------------------------------------------------
// Problems and their groups.

enum class Kind { kThm2, kCommutes };

struct Problem {
  Kind kind;
  Thm2Part part;  // kThm2 only
  const Alg4Options& options;
  // kCommutes: translate each pair by a_s, the M part of s (the claim's per-pair check, see
  // prove_alg4_commutes), or by a free class-zero a (the evaluator's pointwise tests).
  bool translate_by_source = true;
};

// A group: path i (j < 0) or the pair (i, j).
struct Group {
  int i, j;
};

std::vector<Group> problem_groups(const Metacube& mc, const Problem& problem) {
  std::vector<Group> out;
  const int count = mc.k() + mc.m();
  for (int i = 0; i < count; ++i) out.push_back(Group{i, -1});
  if (problem.kind == Kind::kThm2 && problem.part == Thm2Part::kDisjoint)
    for (int i = 0; i < count; ++i)
      for (int j = i + 1; j < count; ++j) out.push_back(Group{i, j});
  return out;
}

// The variables of one context: the M fields of s, t and a.
struct Vars {
  explicit Vars(z3::context& ctx, const Metacube& mc)
      : sm(ctx.bv_const("sM", static_cast<unsigned>(mc.m() * mc.h()))),
        tm(ctx.bv_const("tM", static_cast<unsigned>(mc.m() * mc.h()))),
        am(ctx.bv_const("aM", static_cast<unsigned>(mc.m() * mc.h()))) {}
  z3::expr sm, tm, am;
};

// One split encoded in a context: the precondition, the paths (and for commutation the paths of
// the translated pair), ready to produce group formulas.
struct SplitEncoding {
  SplitEncoding(const Space& space, const Problem& prob, const Split& sp_, const Vars& vars)
      : sp(space), problem(prob), split(sp_),
        s(space.address(sp_.cs, vars.sm)), t(space.address(sp_.ct, vars.tm)),
        a_low(prob.translate_by_source ? vars.sm : vars.am), a(space.address(0, a_low)),
        pre(split_precondition(space, sp_, s, t)) {
    paths = Encoder(space, prob.options, sp_, s, t).paths();
    // The translated pair has the same class fields, hence the same split (and the same case:
    // XOR with one a keeps every field equality), so its precondition is implied.
    if (prob.kind == Kind::kCommutes) moved = Encoder(space, prob.options, sp_, s ^ a, t ^ a).paths();
  }
  // The group's violation (for a Theorem 2 problem, of `part`: the paths do not depend on it).
  z3::expr group(const Group& g) const { return group(g, problem.part); }
  z3::expr group(const Group& g, Thm2Part part) const {
    const auto& P = paths;
    if (problem.kind == Kind::kCommutes) return lists_differ(sp, P[static_cast<size_t>(g.i)], moved[static_cast<size_t>(g.i)], a);
    if (g.j >= 0) return pair_violation(sp, P[static_cast<size_t>(g.i)], P[static_cast<size_t>(g.j)]);
    if (part == Thm2Part::kValid || part == Thm2Part::kDisjoint) return path_violation(sp, P[static_cast<size_t>(g.i)], s, t);
    return length_violation(sp, P[static_cast<size_t>(g.i)], s, t, split, part);
  }
  // A cheaper formula whose unsat implies the group's (commutation only; nullopt otherwise).
  std::optional<z3::expr> sufficient(const Group& g) const {
    if (problem.kind != Kind::kCommutes) return std::nullopt;
    return slots_differ(sp, paths[static_cast<size_t>(g.i)], moved[static_cast<size_t>(g.i)], a);
  }
  // pre AND (the disjunction of every group).
  z3::expr whole() const { return whole(problem.part); }
  z3::expr whole(Thm2Part part) const {
    z3::expr_vector any(sp.ctx);
    for (const Group& g : problem_groups(sp.mc, Problem{problem.kind, part, problem.options})) any.push_back(group(g, part));
    return pre && z3::mk_or(any);
  }
  const Space& sp;
  const Problem problem;
  Split split;
  z3::expr s, t;
  z3::expr a_low, a;  // commutation: the translation's M fields, and the translation
  z3::expr pre;
  std::vector<SymPath> paths, moved;
};

// ---------------------------------------------------------------------------------------------
// The shared budget of one call.

class Meter {
 public:
  explicit Meter(const SolverLimits& limits)
      : limits_(limits), budget_(std::min<uint64_t>(limits.rlimit, UINT_MAX)),
        deadline_(std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeout_ms)) {}
  // Why no further check may run, if so.
  std::optional<std::string> exhausted() const {
    if (limits_.rlimit != 0 && used >= budget_) return "max. resource limit exceeded";
    if (limits_.timeout_ms != 0 && left_ms() <= 0) return "timeout";
    return std::nullopt;
  }
  // Sets the solver's limits for its next check (what is left of the budget).
  void configure(z3::solver& solver) const {
    z3::params p(solver.ctx());
    if (limits_.rlimit != 0) p.set("rlimit", static_cast<unsigned>(budget_ - std::min(used, budget_)));
    if (limits_.timeout_ms != 0) p.set("timeout", static_cast<unsigned>(std::max<int64_t>(left_ms(), 1)));
    solver.set(p);
  }
  // Runs one check within the budget.
  z3::check_result check(z3::solver& solver, uint64_t& counted) {
    configure(solver);
    const z3::check_result answer = solver.check();
    ++checks;
    // The statistic is the context's running count: add only this check's part.
    const uint64_t count = rlimit_count(solver);
    used += count - std::min(count, counted);
    counted = count;
    return answer;
  }
  uint64_t used = 0, checks = 0;

 private:
  int64_t left_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now()).count();
  }
  SolverLimits limits_;
  uint64_t budget_;
  std::chrono::steady_clock::time_point deadline_;
};

uint64_t model_value(const z3::model& model, const z3::expr& x) {
  return model.eval(x, true).get_numeral_uint64();
}

Node node_of(const Metacube& mc, int cls, uint64_t low) {
  return Node{(static_cast<uint64_t>(cls) << (mc.m() * mc.h())) | low, mc.width()};
}

// A Z3 context with its variables and the rlimit count already accounted for.
struct Context {
  explicit Context(const Metacube& mc) : vars(ctx, mc) {}
  z3::context ctx;
  Vars vars;
  uint64_t counted = 0;
};

// Bitwise minimization of `x` (most significant bit first) under the solver's assertions, which
// must be satisfiable. Returns false if a check was not decided (budget).
bool minimize_bits(z3::solver& solver, const z3::expr& x, unsigned width, Meter& meter, uint64_t& counted) {
  for (unsigned b = width; b-- > 0;) {
    if (meter.exhausted()) return false;
    const z3::expr bit = x.extract(b, b);
    solver.push();
    solver.add(bit == solver.ctx().bv_val(0, 1));
    const z3::check_result r = meter.check(solver, counted);
    solver.pop();
    if (r == z3::unknown) return false;
    solver.add(bit == solver.ctx().bv_val(r == z3::sat ? 0 : 1, 1));
  }
  return true;
}

// After the first violation was found in splits[first]: the smallest violating (s, t) in address
// order. Every split before `first` was proved free of violations, so the smallest pair has
// c_s = splits[first].cs and lies in a split from `first` on with that c_s. Order: M_s, then c_t,
// then M_t (the address of s, then of t). Sets result.s/t/a on success.
void minimize(const Metacube& mc, const Problem& problem, const std::vector<Split>& splits, size_t first,
              Meter& meter, MetacubeSmtResult& result) {
  const int cs = splits[first].cs;
  Context c(mc);
  const Space sp(c.ctx, mc);
  std::vector<std::unique_ptr<SplitEncoding>> encodings;
  std::map<int, z3::expr_vector> by_ct;  // c_t -> the splits' formulas
  std::vector<int> cts;
  for (size_t x = first; x < splits.size() && splits[x].cs == cs; ++x) {
    encodings.push_back(std::make_unique<SplitEncoding>(sp, problem, splits[x], c.vars));
    auto [it, inserted] = by_ct.try_emplace(splits[x].ct, c.ctx);
    if (inserted) cts.push_back(splits[x].ct);
    it->second.push_back(encodings.back()->whole());
  }
  const unsigned width = static_cast<unsigned>(mc.m() * mc.h());
  // M_s.
  z3::expr_vector any(c.ctx);
  for (int ct : cts) any.push_back(z3::mk_or(by_ct.at(ct)));
  z3::solver first_solver(c.ctx, "QF_BV");
  first_solver.add(z3::mk_or(any));
  if (!minimize_bits(first_solver, c.vars.sm, width, meter, c.counted)) return;
  if (meter.exhausted() || meter.check(first_solver, c.counted) != z3::sat) return;
  const uint64_t sm = model_value(first_solver.get_model(), c.vars.sm);
  // c_t, then M_t.
  for (int ct : cts) {
    if (meter.exhausted()) return;
    z3::solver solver(c.ctx, "QF_BV");
    solver.add(c.vars.sm == c.ctx.bv_val(sm, width));
    solver.add(z3::mk_or(by_ct.at(ct)));
    const z3::check_result r = meter.check(solver, c.counted);
    if (r == z3::unknown) return;
    if (r == z3::unsat) continue;
    if (!minimize_bits(solver, c.vars.tm, width, meter, c.counted)) return;
    if (meter.exhausted() || meter.check(solver, c.counted) != z3::sat) return;
    const z3::model model = solver.get_model();
    result.s = node_of(mc, cs, sm);
    result.t = node_of(mc, ct, model_value(model, c.vars.tm));
    if (problem.kind == Kind::kCommutes) result.a = node_of(mc, 0, model_value(model, encodings.front()->a_low));
    result.minimized = true;
    return;
  }
}

// Decides a problem over every split.
MetacubeSmtResult decide(const Metacube& mc, const Problem& problem, const SolverLimits& limits, bool minimize_model) {
  MetacubeSmtResult result;
  Meter meter(limits);
  auto finish = [&](SmtStatus status, std::string reason = {}) {
    result.status = status;
    result.reason = std::move(reason);
    result.rlimit_used = meter.used;
    result.checks = meter.checks;
    return result;
  };
  try {
    const std::vector<Split> splits = all_splits(mc);
    const std::vector<Group> groups = problem_groups(mc, problem);
    for (size_t x = 0; x < splits.size(); ++x) {
      // One context per split: Z3's set-up cost of a check grows with the terms in its context.
      Context c(mc);
      const Space sp(c.ctx, mc);
      const SplitEncoding enc(sp, problem, splits[x], c.vars);
      for (const Group& g : groups) {
        if (auto why = meter.exhausted()) return finish(SmtStatus::kUnknown, *why);
        if (const auto cheap = enc.sufficient(g)) {
          z3::solver first(c.ctx, "QF_BV");
          first.add(enc.pre);
          first.add(*cheap);
          const z3::check_result answer = meter.check(first, c.counted);
          if (answer == z3::unsat) continue;  // the group's violation implies this one
          if (auto why = meter.exhausted()) return finish(SmtStatus::kUnknown, *why);
        }
        z3::solver solver(c.ctx, "QF_BV");
        solver.add(enc.pre);
        solver.add(enc.group(g));
        const z3::check_result answer = meter.check(solver, c.counted);
        if (answer == z3::unsat) continue;
        if (answer == z3::unknown) return finish(SmtStatus::kUnknown, solver.reason_unknown());
        const z3::model model = solver.get_model();
        result.s = node_of(mc, splits[x].cs, model_value(model, c.vars.sm));
        result.t = node_of(mc, splits[x].ct, model_value(model, c.vars.tm));
        if (problem.kind == Kind::kCommutes) result.a = node_of(mc, 0, model_value(model, enc.a_low));
        if (minimize_model) minimize(mc, problem, splits, x, meter, result);
        return finish(SmtStatus::kCounterexample);
      }
    }
    return finish(SmtStatus::kProved);
  } catch (const z3::exception& e) {
    result.s.reset();
    result.t.reset();
    result.a.reset();
    result.minimized = false;
    return finish(SmtStatus::kError, fmt::format("Z3 error: {}", e.msg()));
  }
}

Metacube make_mc(int k, int m, const char* who) {
  auto mc = Metacube::make(k, m);
  TC_CHECK(mc.ok(), std::string(who) + ": MC(k, m) out of range");
  return *mc;
}

// ---------------------------------------------------------------------------------------------
// Method results.

std::string mc_name(int k, int m) { return fmt::format("MC({},{})", k, m); }

json alg4_witness(const Alg4Options& o, const Metacube& mc, Node s, Node t) {
  const auto r = metacube::metacube_disjoint_paths(mc, s, t, o);
  return {{"case", r.case_number}, {"paths", paths_to_json(r.paths)}, {"notes", r.notes}};
}

// The common part of the three method results: proved, unknown, error. Returns nullopt for a
// counterexample (the caller confirms it).
std::optional<MethodResult> settled(const MetacubeSmtResult& smt, int k, int m, std::string scope) {
  MethodResult result;
  result.method = Method::kSmt;
  result.scope = std::move(scope);
  if (settle(smt.status, mc_name(k, m), smt.reason, result)) return result;
  return std::nullopt;
}

MethodResult refuted(MethodResult result, const Metacube& mc, Node s, Node t, const std::string& violation,
                     json witness, bool minimized) {
  result.outcome = Outcome::kRefuted;
  result.detail = fmt::format("{}: s = {}, t = {}: {}", mc.name(), s, t, violation);
  claims::Counterexample cx;
  cx.params = {{"k", mc.k()}, {"m", mc.m()}};
  cx.input = {{"s", s.to_string()}, {"t", t.to_string()}};
  cx.violation = violation;
  cx.witness = std::move(witness);
  cx.minimized = minimized;
  result.counterexample = std::move(cx);
  return result;
}

MethodResult disagreement(MethodResult result, const std::string& what) {
  result.outcome = Outcome::kError;
  result.detail = fmt::format("SMT model disagrees with the checker ({})", what);
  return result;
}

MethodResult unknown_reading(MethodResult result, const std::string& reading) {
  result.outcome = Outcome::kError;
  result.detail = fmt::format("reading '{}' is not known to metacube::options_for_reading", reading);
  return result;
}

// The concrete judge of commutation for one a: the claim's words, or nullopt.
Violation commutation_judge(const Metacube& mc, const Alg4Options& o, Node s, Node t, Node a) {
  const auto base = metacube::metacube_disjoint_paths(mc, s, t, o).paths;
  const auto moved =
      metacube::metacube_disjoint_paths(mc, metacube::translate(s, a), metacube::translate(t, a), o).paths;
  for (size_t i = 0; i < base.size(); ++i) {
    Path expect = base[i];
    for (Node& x : expect.nodes) x = metacube::translate(x, a);
    if (!(moved[i] == expect))
      return fmt::format("a = {} (the M part of s): P_{} of (s^a, t^a) is {}, not P_{} of (s, t) translated ({})", a, i,
                         moved[i], i, expect);
  }
  return std::nullopt;
}

std::string part_name(Thm2Part part) {
  switch (part) {
    case Thm2Part::kValid: return "valid";
    case Thm2Part::kDisjoint: return "disjoint";
    case Thm2Part::kLength: return "length";
    case Thm2Part::kCaseBound: return "case_bound";
    case Thm2Part::kFaultTolerance: return "fault_tolerance";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// Registration.

using OneMetacube = std::function<MethodResult(int k, int m, const SolverLimits& limits)>;

// `what`: the inputs each metacube's decision covers, e.g. "every s != t".
MethodResult over_scope(const claims::RunContext& ctx, const std::string& what, const OneMetacube& one) {
  const auto& list = scope::kSmt.at(ctx.budget);
  const SolverLimits limits{scope::kSmtRlimit.at(ctx.budget), 0};
  std::vector<std::string> names;
  for (auto [k, m] : list) names.push_back(mc_name(k, m));
  auto scope_of = [&](size_t upto) {
    std::string joined;
    for (size_t x = 0; x < upto; ++x) joined += (x ? ", " : "") + names[x];
    return fmt::format("{}: {} (bit-vector proof, rlimit {} each)", joined, what, limits.rlimit);
  };
  MethodResult total;
  total.method = Method::kSmt;
  total.scope = scope_of(list.size());
  for (size_t x = 0; x < list.size(); ++x) {
    const auto [k, m] = list[x];
    ctx.report(fmt::format("smt {} ({} of {}, rlimit {})", names[x], x + 1, list.size(), limits.rlimit));
    MethodResult r = one(k, m, limits);
    if (r.outcome != Outcome::kHolds) {
      r.scope = scope_of(x + 1);
      r.cases = total.cases;  // the metacubes before this one were proved
      return r;
    }
    ++total.cases;
  }
  total.outcome = Outcome::kHolds;
  return total;
}

Result<std::pair<int, int>> parse_km(const json& params) {
  if (!params.is_object()) return invalid_argument("params must be an object with integers k and m");
  auto integer = [&](const char* key, int64_t lo, int64_t hi) -> Result<int> {
    const std::string bad = fmt::format("params.{} must be an integer {}..{}", key, lo, hi);
    if (!params.contains(key)) return invalid_argument(bad);
    const json& j = params.at(key);
    if (!j.is_number_integer()) return invalid_argument(bad);
    const int64_t v = j.is_number_unsigned() ? static_cast<int64_t>(std::min<uint64_t>(j.get<uint64_t>(), 1000))
                                             : j.get<int64_t>();
    if (v < lo || v > hi) return invalid_argument(bad);
    return static_cast<int>(v);
  };
  auto k = integer("k", 0, 5);
  if (!k) return k.error();
  auto m = integer("m", 1, 63);
  if (!m) return m.error();
  auto mc = Metacube::make(*k, *m);
  if (!mc) return invalid_argument(fmt::format("params.m: {}", mc.error().message));
  return std::pair{*k, *m};
}

claims::ProveFn prove_fn(OneMetacube one) {
  return [one](const json& params, const SolverLimits& limits) -> Result<MethodResult> {
    auto km = parse_km(params);
    if (!km) return km.error();
    const SolverLimits effective{limits.rlimit == 0 ? scope::kSmtRlimit.standard : limits.rlimit, limits.timeout_ms};
    return one(km->first, km->second, effective);
  };
}

void attach(claims::Registry& registry, const std::string& id, const std::string& reading, const std::string& what,
            const OneMetacube& one) {
  registry.attach(
      id, reading, Method::kSmt, [what, one](const claims::RunContext& ctx) { return over_scope(ctx, what, one); },
      prove_fn(one));
}

// ---------------------------------------------------------------------------------------------
// Evaluating the encoding at concrete inputs (Alg4EncodingEvaluator).

// A compiled ground evaluator of the terms this file builds: the DAG below some roots in
// topological order, each operator applied to uint64 values (every bit-vector here is at most 64
// bits wide; Booleans are 0 / 1). It evaluates the very terms the solver is given, about 100 times
// faster than Z3's evaluator (which is what makes every pair of MC(2,2) affordable); tests check
// it against Z3's model evaluation. An operator it does not know is an error at compile time.
class Compiled {
 public:
  Compiled(const std::vector<z3::expr>& roots, const std::vector<z3::expr>& vars) {
    for (size_t x = 0; x < vars.size(); ++x) var_index_[vars[x].id()] = x;
    for (const z3::expr& r : roots) roots_.push_back(compile(r.ctx(), r));
  }
  const std::optional<std::string>& error() const { return error_; }
  // The roots' values for the variables' values (in the order given to the constructor).
  std::vector<uint64_t> run(const std::vector<uint64_t>& var_values) {
    for (size_t x = 0; x < code_.size(); ++x) values_[x] = step(code_[x], var_values);
    std::vector<uint64_t> out;
    out.reserve(roots_.size());
    for (uint32_t r : roots_) out.push_back(values_[r]);
    return out;
  }

 private:
  struct Instr {
    Z3_decl_kind op;
    unsigned width;      // result width (1 for Booleans)
    uint32_t first, count;  // arguments: args_[first .. first + count)
    uint64_t imm = 0;    // numeral / variable index / extract's low bit
    unsigned imm2 = 0;   // extract's width
  };
  static uint64_t mask(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

  // Iterative post-order over the DAG, on the C API (borrowed references: the roots keep every
  // sub-term alive, and no reference counting per visit).
  uint32_t compile(z3::context& ctx, const z3::expr& root) {
    Z3_context c = ctx;
    std::vector<std::pair<Z3_ast, bool>> stack{{root, false}};
    while (!stack.empty()) {
      auto [e, expanded] = stack.back();
      stack.pop_back();
      const unsigned id = Z3_get_ast_id(c, e);
      if (index_.count(id)) continue;
      const bool app = Z3_get_ast_kind(c, e) == Z3_APP_AST || Z3_get_ast_kind(c, e) == Z3_NUMERAL_AST;
      const Z3_app a = app ? Z3_to_app(c, e) : nullptr;
      const unsigned n_args = app ? Z3_get_app_num_args(c, a) : 0;
      if (!expanded && n_args > 0) {
        stack.push_back({e, true});
        for (unsigned x = 0; x < n_args; ++x) stack.push_back({Z3_get_app_arg(c, a, x), false});
        continue;
      }
      Instr in{Z3_OP_TRUE, 1, static_cast<uint32_t>(args_.size()), n_args, 0, 0};
      const Z3_sort sort = Z3_get_sort(c, e);
      const Z3_sort_kind kind = Z3_get_sort_kind(c, sort);
      if (!app || (kind != Z3_BOOL_SORT && kind != Z3_BV_SORT)) {
        fail(ctx, e);
      } else {
        const Z3_func_decl decl = Z3_get_app_decl(c, a);
        in.op = Z3_get_decl_kind(c, decl);
        in.width = kind == Z3_BV_SORT ? Z3_get_bv_sort_size(c, sort) : 1;
        for (unsigned x = 0; x < n_args; ++x) args_.push_back(index_.at(Z3_get_ast_id(c, Z3_get_app_arg(c, a, x))));
        switch (in.op) {
          case Z3_OP_BNUM: {
            uint64_t v = 0;
            if (!Z3_get_numeral_uint64(c, e, &v)) fail(ctx, e);
            in.imm = v;
            break;
          }
          case Z3_OP_UNINTERPRETED: {
            auto it = var_index_.find(id);
            if (it == var_index_.end() || n_args != 0) fail(ctx, e);
            else in.imm = it->second;
            break;
          }
          case Z3_OP_EXTRACT:
            in.imm = static_cast<uint64_t>(Z3_get_decl_int_parameter(c, decl, 1));
            in.imm2 = in.width;
            break;
          case Z3_OP_TRUE: case Z3_OP_FALSE: case Z3_OP_EQ: case Z3_OP_DISTINCT: case Z3_OP_ITE:
          case Z3_OP_AND: case Z3_OP_OR: case Z3_OP_NOT: case Z3_OP_XOR: case Z3_OP_IMPLIES:
          case Z3_OP_BNOT: case Z3_OP_BAND: case Z3_OP_BOR: case Z3_OP_BXOR: case Z3_OP_BADD:
          case Z3_OP_BSUB: case Z3_OP_BNEG: case Z3_OP_BMUL: case Z3_OP_CONCAT: case Z3_OP_ZERO_EXT:
          case Z3_OP_ULEQ: case Z3_OP_ULT: case Z3_OP_UGEQ: case Z3_OP_UGT:
            break;
          default: fail(ctx, e);
        }
        if (in.width > 64) fail(ctx, e);
      }
      index_[id] = static_cast<uint32_t>(code_.size());
      code_.push_back(in);
      values_.push_back(0);
    }
    return index_.at(Z3_get_ast_id(c, root));
  }
  void fail(z3::context& ctx, Z3_ast e) {
    if (!error_)
      error_ = fmt::format("the compiled evaluator does not know the term {}",
                           z3::expr(ctx, e).to_string().substr(0, 200));
  }

  uint64_t step(const Instr& in, const std::vector<uint64_t>& vars) const {
    const uint32_t* args = args_.data() + in.first;
    auto arg = [&](uint32_t x) { return values_[args[x]]; };
    const uint64_t w = mask(in.width);
    uint64_t r = 0;
    switch (in.op) {
      case Z3_OP_BNUM: return in.imm;
      case Z3_OP_UNINTERPRETED: return vars[in.imm] & w;
      case Z3_OP_TRUE: return 1;
      case Z3_OP_FALSE: return 0;
      case Z3_OP_EQ: return arg(0) == arg(1);
      case Z3_OP_DISTINCT:
        for (uint32_t a = 0; a < in.count; ++a)
          for (uint32_t b = a + 1; b < in.count; ++b)
            if (arg(a) == arg(b)) return 0;
        return 1;
      case Z3_OP_ITE: return arg(0) ? arg(1) : arg(2);
      case Z3_OP_AND:
        for (uint32_t a = 0; a < in.count; ++a)
          if (!arg(a)) return 0;
        return 1;
      case Z3_OP_OR:
        for (uint32_t a = 0; a < in.count; ++a)
          if (arg(a)) return 1;
        return 0;
      case Z3_OP_NOT: return !arg(0);
      case Z3_OP_XOR:
        for (uint32_t a = 0; a < in.count; ++a) r ^= arg(a);
        return r;
      case Z3_OP_IMPLIES: return !arg(0) || arg(1);
      case Z3_OP_BNOT: return ~arg(0) & w;
      case Z3_OP_BAND:
        r = w;
        for (uint32_t a = 0; a < in.count; ++a) r &= arg(a);
        return r;
      case Z3_OP_BOR:
        for (uint32_t a = 0; a < in.count; ++a) r |= arg(a);
        return r;
      case Z3_OP_BXOR:
        for (uint32_t a = 0; a < in.count; ++a) r ^= arg(a);
        return r;
      case Z3_OP_BADD:
        for (uint32_t a = 0; a < in.count; ++a) r += arg(a);
        return r & w;
      case Z3_OP_BSUB: return (arg(0) - arg(1)) & w;
      case Z3_OP_BNEG: return (~arg(0) + 1) & w;
      case Z3_OP_BMUL:
        r = 1;
        for (uint32_t a = 0; a < in.count; ++a) r *= arg(a);
        return r & w;
      case Z3_OP_CONCAT:
        for (uint32_t a = 0; a < in.count; ++a) {
          const unsigned aw = code_[args[a]].width;
          r = (aw >= 64 ? 0 : r << aw) | arg(a);
        }
        return r & w;
      case Z3_OP_EXTRACT: return (arg(0) >> in.imm) & mask(in.imm2);
      case Z3_OP_ZERO_EXT: return arg(0);
      case Z3_OP_ULEQ: return arg(0) <= arg(1);
      case Z3_OP_ULT: return arg(0) < arg(1);
      case Z3_OP_UGEQ: return arg(0) >= arg(1);
      case Z3_OP_UGT: return arg(0) > arg(1);
      default: return 0;  // unreachable: compile() rejects other operators
    }
  }

  std::unordered_map<unsigned, size_t> var_index_;
  std::unordered_map<unsigned, uint32_t> index_;
  std::vector<Instr> code_;
  std::vector<uint32_t> args_;
  std::vector<uint64_t> values_;
  std::vector<uint32_t> roots_;
  std::optional<std::string> error_;
};


// The formulas of one split as a list of roots: [precondition, violation of each part (or the
// commutation violation)], then per path, per slot: present, node.
struct EvalSplit {
  std::vector<z3::expr> roots;
  std::vector<unsigned> widths;    // 1 for Booleans
  std::vector<size_t> slot_count;  // per path
  z3::expr packed;                 // every root as a bit-vector, concatenated (for Z3's evaluator)
  std::unique_ptr<Compiled> compiled, compiled_pre;  // all roots; the precondition alone
};

}  // namespace

// ---------------------------------------------------------------------------------------------

std::optional<std::string> alg4_encoding_gap(const Alg4Options& options) {
  if (options.repair)
    return "the `repair` option (reading `repaired`: loop erasure and completion by augmenting paths) is not encoded";
  // Every field the Encoder reads (or that does not change paths) reset to its default: what is
  // left differs from the defaults only in a field added after this encoding, which it would
  // silently ignore.
  Alg4Options known = options;
  const Alg4Options defaults;
  known.hc_order = defaults.hc_order;
  known.local_hc = defaults.local_hc;
  known.exchange = defaults.exchange;
  known.default_key = defaults.default_key;
  known.key_compare = defaults.key_compare;
  known.case0_p3_n = defaults.case0_p3_n;
  known.case0_hop = defaults.case0_hop;
  known.local_class_path = defaults.local_class_path;
  known.empty_when_equal = defaults.empty_when_equal;
  known.case2_pj_ends_at_t = defaults.case2_pj_ends_at_t;
  known.record_notes = defaults.record_notes;  // notes only, not paths
  known.broken_no_exchange = defaults.broken_no_exchange;
  known.broken_ignore_key = defaults.broken_ignore_key;
  if (!(known == defaults)) return "an Alg4Options field this encoding does not know is set";
  return std::nullopt;
}

MetacubeSmtResult prove_alg4(int k, int m, const Alg4Options& options, Thm2Part part, const SolverLimits& limits) {
  const Metacube mc = make_mc(k, m, "prove_alg4");
  if (auto gap = alg4_encoding_gap(options)) return MetacubeSmtResult{SmtStatus::kError, {}, {}, {}, false, *gap, 0, 0};
  if (part == Thm2Part::kFaultTolerance)
    return MetacubeSmtResult{SmtStatus::kError, {}, {}, {}, false, "the fault-tolerance part is not encoded", 0, 0};
  return decide(mc, Problem{Kind::kThm2, part, options}, limits, true);
}

MetacubeSmtResult prove_alg4_commutes(int k, int m, const Alg4Options& options, const SolverLimits& limits) {
  const Metacube mc = make_mc(k, m, "prove_alg4_commutes");
  if (auto gap = alg4_encoding_gap(options)) return MetacubeSmtResult{SmtStatus::kError, {}, {}, {}, false, *gap, 0, 0};
  return decide(mc, Problem{Kind::kCommutes, Thm2Part::kValid, options}, limits, true);
}

MetacubeSmtResult prove_automorphism(int k, int m, const SolverLimits& limits) {
  const Metacube mc = make_mc(k, m, "prove_automorphism");
  MetacubeSmtResult result;
  Meter meter(limits);
  try {
    z3::context ctx;
    const Space sp(ctx, mc);
    const unsigned n = static_cast<unsigned>(mc.width());
    const z3::expr u = ctx.bv_const("u", n), v = ctx.bv_const("v", n);
    const z3::expr am = ctx.bv_const("aM", static_cast<unsigned>(mc.m() * mc.h()));
    const z3::expr a = sp.address(0, am);
    z3::solver solver(ctx, "QF_BV");
    solver.add(sp.is_edge(u, v) != sp.is_edge(u ^ a, v ^ a));
    uint64_t counted = 0;
    z3::check_result answer = z3::unknown;
    if (auto why = meter.exhausted()) {
      result.status = SmtStatus::kUnknown;
      result.reason = *why;
    } else {
      answer = meter.check(solver, counted);
      if (answer == z3::unsat) {
        result.status = SmtStatus::kProved;
      } else if (answer == z3::sat) {
        const z3::model model = solver.get_model();
        result.status = SmtStatus::kCounterexample;
        result.s = Node{model_value(model, u), mc.width()};
        result.t = Node{model_value(model, v), mc.width()};
        result.a = node_of(mc, 0, model_value(model, am));
      } else {
        result.status = SmtStatus::kUnknown;
        result.reason = solver.reason_unknown();
      }
    }
  } catch (const z3::exception& e) {
    result = MetacubeSmtResult{};
    result.status = SmtStatus::kError;
    result.reason = fmt::format("Z3 error: {}", e.msg());
  }
  result.rlimit_used = meter.used;
  result.checks = meter.checks;
  return result;
}

MethodResult alg4_smt_method_result(int k, int m, const std::string& reading, Thm2Part part,
                                    const SolverLimits& limits) {
  const std::string scope_text = fmt::format("{}, every s != t, part {} (bit-vector proof per class split, rlimit {}{})",
                                             mc_name(k, m), part_name(part), limits.rlimit,
                                             reading == "paper" ? "" : ", reading " + reading);
  MethodResult base;
  base.method = Method::kSmt;
  base.scope = scope_text;
  const auto options = metacube::options_for_reading(reading);
  if (!options) return unknown_reading(base, reading);
  const MetacubeSmtResult smt = prove_alg4(k, m, *options, part, limits);
  if (auto done = settled(smt, k, m, scope_text)) return *done;
  const Metacube mc = make_mc(k, m, "alg4_smt_method_result");
  const Node s = *smt.s, t = *smt.t;
  if (s == t) return disagreement(base, fmt::format("the model has s = t = {}", s));
  const Violation v = metacube::check_alg4(mc, s, t, *options, part);
  if (!v) return disagreement(base, fmt::format("{}: s = {}, t = {} satisfies the claim", mc.name(), s, t));
  return refuted(base, mc, s, t, *v, alg4_witness(*options, mc, s, t), smt.minimized);
}

MethodResult alg4_commutes_smt_method_result(int k, int m, const std::string& reading, const SolverLimits& limits) {
  const std::string scope_text = fmt::format(
      "{}, every s != t and class-zero a (bit-vector proof per class split, rlimit {}{})", mc_name(k, m),
      limits.rlimit, reading == "paper" ? "" : ", reading " + reading);
  MethodResult base;
  base.method = Method::kSmt;
  base.scope = scope_text;
  const auto options = metacube::options_for_reading(reading);
  if (!options) return unknown_reading(base, reading);
  const MetacubeSmtResult smt = prove_alg4_commutes(k, m, *options, limits);
  if (auto done = settled(smt, k, m, scope_text)) return *done;
  const Metacube mc = make_mc(k, m, "alg4_commutes_smt_method_result");
  const Node s = *smt.s, t = *smt.t, a = *smt.a;
  if (s == t) return disagreement(base, fmt::format("the model has s = t = {}", s));
  const Node a_s{s.bits & ((uint64_t{1} << (mc.m() * mc.h())) - 1), mc.width()};
  if (a != a_s) return disagreement(base, fmt::format("the model's a = {} is not the M part of s = {}", a, s));
  const Violation v = commutation_judge(mc, *options, s, t, a);
  if (!v)
    return disagreement(base, fmt::format("{}: s = {}, t = {}, a = {}: the paths commute", mc.name(), s, t, a));
  json witness = alg4_witness(*options, mc, s, t);
  witness["a"] = a.to_string();
  return refuted(base, mc, s, t, *v, std::move(witness), smt.minimized);
}

MethodResult automorphism_smt_method_result(int k, int m, const SolverLimits& limits) {
  const std::string scope_text =
      fmt::format("{}, every u, v and class-zero a (bit-vector proof, rlimit {})", mc_name(k, m), limits.rlimit);
  MethodResult base;
  base.method = Method::kSmt;
  base.scope = scope_text;
  const MetacubeSmtResult smt = prove_automorphism(k, m, limits);
  if (auto done = settled(smt, k, m, scope_text)) return *done;
  const Metacube mc = make_mc(k, m, "automorphism_smt_method_result");
  const Node u = *smt.s, v = *smt.t, a = *smt.a;
  const bool before = mc.is_edge(u, v);
  const bool after = mc.is_edge(metacube::translate(u, a), metacube::translate(v, a));
  if (before == after)
    return disagreement(base, fmt::format("{}: u = {}, v = {}, a = {} keep the edge relation", mc.name(), u, v, a));
  const std::string violation =
      fmt::format("a = {}: is_edge(u,v) = {} but is_edge(u^a, v^a) = {}", a, before, after);
  return refuted(base, mc, u, v, violation, json{{"a", a.to_string()}}, false);
}

// ---------------------------------------------------------------------------------------------

struct Alg4EncodingEvaluator::Impl {
  Impl(int k, int m, const Alg4Options& o, Engine e)
      : mc(make_mc(k, m, "Alg4EncodingEvaluator")), options(o), engine(e), vars(ctx, mc), sp(ctx, mc),
        splits(all_splits(mc)) {
    TC_CHECK(!alg4_encoding_gap(o), "Alg4EncodingEvaluator: options not encoded");
  }
  Metacube mc;
  Alg4Options options;
  Engine engine;
  z3::context ctx;
  Vars vars;
  Space sp;
  std::vector<Split> splits;
  std::map<std::pair<size_t, bool>, EvalSplit> cache;  // (split, commutation) -> formulas
  std::unique_ptr<EvalSplit> edge;
  std::vector<z3::expr> edge_vars;

  EvalSplit& eval_split(size_t x, bool commutation) {
    auto it = cache.find({x, commutation});
    if (it != cache.end()) return it->second;
    EvalSplit e{{}, {}, {}, ctx.bool_val(false), nullptr, nullptr};
    auto add_root = [&](const z3::expr& r) {
      e.roots.push_back(r);
      e.widths.push_back(r.is_bool() ? 1 : r.get_sort().bv_size());
    };
    if (commutation) {
      const Problem problem{Kind::kCommutes, Thm2Part::kValid, options, false};  // a free
      const SplitEncoding enc(sp, problem, splits[x], vars);
      add_root(enc.pre);
      add_root(enc.whole());
    } else {
      const SplitEncoding enc(sp, Problem{Kind::kThm2, Thm2Part::kValid, options}, splits[x], vars);
      add_root(enc.pre);
      // Each part's violation as the solver sees it: the groups' disjunction under the precondition.
      for (Thm2Part part : {Thm2Part::kValid, Thm2Part::kDisjoint, Thm2Part::kLength, Thm2Part::kCaseBound})
        add_root(enc.whole(part));
      for (const SymPath& p : enc.paths) {
        e.slot_count.push_back(p.size());
        for (const Slot& slot : p) {
          add_root(slot.present);
          add_root(slot.node);
        }
      }
    }
    z3::expr_vector bits(ctx);
    for (const z3::expr& r : e.roots) bits.push_back(r.is_bool() ? z3::ite(r, sp.one_bit(), ctx.bv_val(0, 1)) : r);
    e.packed = bits.size() == 1 ? bits[0] : z3::concat(bits);
    if (engine == Engine::kCompiled) {
      const std::vector<z3::expr> variables{vars.sm, vars.tm, vars.am};
      e.compiled = std::make_unique<Compiled>(e.roots, variables);
      e.compiled_pre = std::make_unique<Compiled>(std::vector<z3::expr>{e.roots[0]}, variables);
    }
    return cache.emplace(std::pair{x, commutation}, std::move(e)).first->second;
  }

  // Every root's value at sM, tM, aM.
  Result<std::vector<uint64_t>> run(EvalSplit& e, uint64_t sm, uint64_t tm, uint64_t am) {
    if (engine == Engine::kCompiled) {
      if (e.compiled->error()) return Error{ErrorCode::kInternal, *e.compiled->error(), {}, 0};
      return e.compiled->run({sm, tm, am});
    }
    const unsigned w = static_cast<unsigned>(mc.m() * mc.h());
    z3::model model(ctx);
    for (auto [var, value] : {std::pair{vars.sm, sm}, {vars.tm, tm}, {vars.am, am}}) {
      z3::func_decl decl = var.decl();
      z3::expr v = ctx.bv_val(value, w);
      model.add_const_interp(decl, v);
    }
    std::string bits;
    if (!model.eval(e.packed, true).as_binary(bits))
      return Error{ErrorCode::kInternal, "the encoding does not evaluate to a constant", {}, 0};
    size_t total = 0;
    for (unsigned x : e.widths) total += x;
    if (bits.size() < total) bits.insert(0, total - bits.size(), '0');
    if (bits.size() != total) return Error{ErrorCode::kInternal, "the encoding evaluates to a wrong width", {}, 0};
    std::vector<uint64_t> out;
    size_t pos = 0;
    for (unsigned x : e.widths) {
      uint64_t v = 0;
      for (unsigned q = 0; q < x; ++q) v = (v << 1) | (bits[pos++] == '1' ? 1 : 0);
      out.push_back(v);
    }
    return out;
  }

  uint64_t low(Node u) const { return u.bits & ((uint64_t{1} << (mc.m() * mc.h())) - 1); }

  // The split of (s, t) whose precondition holds (exactly one must), and its root values.
  Result<std::pair<size_t, std::vector<uint64_t>>> values(Node s, Node t, uint64_t am, bool commutation) {
    std::optional<size_t> chosen;
    for (size_t x = 0; x < splits.size(); ++x) {
      if (splits[x].cs != mc.class_of(s) || splits[x].ct != mc.class_of(t)) continue;
      EvalSplit& e = eval_split(x, commutation);
      bool holds = false;
      if (engine == Engine::kCompiled) {
        if (e.compiled_pre->error()) return Error{ErrorCode::kInternal, *e.compiled_pre->error(), {}, 0};
        holds = e.compiled_pre->run({low(s), low(t), am})[0] != 0;
      } else {
        auto v = run(e, low(s), low(t), am);
        if (!v) return v.error();
        holds = (*v)[0] != 0;
      }
      if (!holds) continue;
      if (chosen) return Error{ErrorCode::kInternal, "two split preconditions hold", {}, 0};
      chosen = x;
    }
    if (!chosen) return Error{ErrorCode::kInternal, "no split precondition holds", {}, 0};
    auto v = run(eval_split(*chosen, commutation), low(s), low(t), am);
    if (!v) return v.error();
    return std::pair{*chosen, std::move(*v)};
  }
};

Alg4EncodingEvaluator::Alg4EncodingEvaluator(int k, int m, const Alg4Options& options, Engine engine)
    : impl_(std::make_unique<Impl>(k, m, options, engine)) {}
Alg4EncodingEvaluator::~Alg4EncodingEvaluator() = default;

Result<Alg4EncodingEvaluator::Value> Alg4EncodingEvaluator::at(Node s, Node t) {
  Impl& x = *impl_;
  TC_CHECK(x.mc.contains(s) && x.mc.contains(t) && s != t, "Alg4EncodingEvaluator::at: bad s, t");
  try {
    auto found = x.values(s, t, 0, false);
    if (!found) return found.error();
    const auto& [split, v] = *found;
    const EvalSplit& e = x.eval_split(split, false);
    Value value;
    value.case_number = x.splits[split].case_number;
    for (size_t p = 0; p < 4; ++p) value.violation[p] = v[1 + p] != 0;
    size_t pos = 5;
    for (size_t count : e.slot_count) {
      Path path;
      for (size_t q = 0; q < count; ++q, pos += 2)
        if (v[pos]) path.nodes.push_back(Node{v[pos + 1], x.mc.width()});
      value.paths.push_back(std::move(path));
    }
    return value;
  } catch (const z3::exception& e) {
    return Error{ErrorCode::kInternal, fmt::format("Z3 error: {}", e.msg()), {}, 0};
  }
}

Result<bool> Alg4EncodingEvaluator::commutation_violation(Node s, Node t, Node a) {
  Impl& x = *impl_;
  TC_CHECK(x.mc.contains(s) && x.mc.contains(t) && s != t && x.mc.contains(a) && x.mc.class_of(a) == 0,
           "commutation_violation: bad s, t, a");
  try {
    auto found = x.values(s, t, a.bits, true);
    if (!found) return found.error();
    return found->second[1] != 0;
  } catch (const z3::exception& e) {
    return Error{ErrorCode::kInternal, fmt::format("Z3 error: {}", e.msg()), {}, 0};
  }
}

Result<bool> Alg4EncodingEvaluator::is_edge(Node u, Node v) {
  Impl& x = *impl_;
  TC_CHECK(x.mc.contains(u) && x.mc.contains(v), "is_edge: bad u, v");
  try {
    const unsigned n = static_cast<unsigned>(x.mc.width());
    // The edge predicate over two full addresses: u is sM's slot, v tM's (widened to n bits).
    if (!x.edge) {
      x.edge = std::make_unique<EvalSplit>(EvalSplit{{}, {}, {}, x.ctx.bool_val(false), nullptr, nullptr});
      const z3::expr eu = x.ctx.bv_const("u", n), ev = x.ctx.bv_const("v", n);
      x.edge->roots.push_back(x.sp.is_edge(eu, ev));
      x.edge->widths.push_back(1);
      x.edge->packed = z3::ite(x.edge->roots[0], x.sp.one_bit(), x.ctx.bv_val(0, 1));
      x.edge->compiled = std::make_unique<Compiled>(x.edge->roots, std::vector<z3::expr>{eu, ev});
      x.edge_vars = {eu, ev};
    }
    if (x.engine == Engine::kCompiled) {
      if (x.edge->compiled->error()) return Error{ErrorCode::kInternal, *x.edge->compiled->error(), {}, 0};
      return x.edge->compiled->run({u.bits, v.bits})[0] != 0;
    }
    z3::model model(x.ctx);
    for (auto [var, value] : {std::pair{x.edge_vars[0], u.bits}, {x.edge_vars[1], v.bits}}) {
      z3::func_decl decl = var.decl();
      z3::expr val = x.ctx.bv_val(value, n);
      model.add_const_interp(decl, val);
    }
    const z3::expr r = model.eval(x.edge->roots[0], true);
    if (!r.is_true() && !r.is_false()) return Error{ErrorCode::kInternal, "is_edge is not constant", {}, 0};
    return r.is_true();
  } catch (const z3::exception& e) {
    return Error{ErrorCode::kInternal, fmt::format("Z3 error: {}", e.msg()), {}, 0};
  }
}


void attach_metacube_smt(claims::Registry& registry) {
  const std::pair<const char*, Thm2Part> parts[] = {{"metacube.thm2.valid", Thm2Part::kValid},
                                                     {"metacube.thm2.disjoint", Thm2Part::kDisjoint},
                                                     {"metacube.thm2.length", Thm2Part::kLength},
                                                     {"metacube.thm2.case_bound", Thm2Part::kCaseBound}};
  for (const std::string reading : {"paper", "paper-keybit-example4"}) {
    for (const auto& [id, part] : parts)
      attach(registry, id, reading, "every s != t", [reading, part](int k, int m, const SolverLimits& limits) {
        return alg4_smt_method_result(k, m, reading, part, limits);
      });
    attach(registry, "metacube.symmetry.alg4_commutes", reading, "every s != t and class-zero a",
           [reading](int k, int m, const SolverLimits& limits) {
             return alg4_commutes_smt_method_result(k, m, reading, limits);
           });
  }
  attach(registry, "metacube.symmetry.automorphism", "literal", "every u, v and class-zero a",
         [](int k, int m, const SolverLimits& limits) { return automorphism_smt_method_result(k, m, limits); });
}

}  // namespace topocheck::smt
