// Algorithm 4 of the Metacube paper (Li, Peng, Chu, "Disjoint Paths in Metacube", Section 3),
// with Algorithm 1 (p1_walk) and Algorithm 3 (p3_cluster, p3_class) inside it, encoded for one
// split on the class fields: the k + m paths as slot lists over the symbolic M fields of s and t.
// Mirrors metacube/disjoint.cc and metacube/routing.cc line by line; smt/metacube_smt.h describes
// the slots, the sound truncation of Algorithm 1's walk and the data-dependent choices.
// Preconditions: alg4_encoding_gap(options) is nullopt; s and t of the split's classes. Cost:
// terms only, O((k + m) * h * m) slots per path before the case's ite merges.
#include "smt/metacube_symbolic.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <set>
#include <vector>

#include "core/status.h"
#include "metacube/lamplighter.h"
#include "metacube/routing.h"

namespace topocheck::smt::metacube_encoding {

using metacube::Alg4Options;


std::vector<Split> all_splits(const Metacube& mc) {
  std::vector<Split> out;
  for (int cs = 0; cs < mc.h(); ++cs)
    for (int ct = 0; ct < mc.h(); ++ct) {
      if (cs == ct) {
        out.push_back(Split{cs, ct, 0});
        // Case 1 needs t outside s's cluster, in a field other than M[c_s]: with k = 0 (one
        // field) there is none, its precondition is false, and its paths (HC_l of a 0-cube, which
        // has no step) are not defined.
        if (mc.h() > 1) out.push_back(Split{cs, ct, 1});
      } else {
        out.push_back(Split{cs, ct, 2});
      }
    }
  return out;
}

std::vector<Split> all_splits(const Metacube& mc, const Alg4Options& o) {
  if (!(o.lamplighter && mc.m() == 1 && mc.k() >= 1)) return all_splits(mc);
  std::vector<Split> out;
  const int64_t values = int64_t{1} << mc.h();
  for (int cs = 0; cs < mc.h(); ++cs)
    for (int ct = 0; ct < mc.h(); ++ct)
      for (int64_t D = 0; D < values; ++D) {
        if (cs == ct && D == 0) continue;  // s = t
        // One class: case 0 when s and t differ only in M[c_s] (D = {0} in the frame of s).
        out.push_back(Split{cs, ct, cs != ct ? 2 : D == 1 ? 0 : 1, D});
      }
  return out;
}

std::vector<Split> decision_splits(const Metacube& mc, const Alg4Options& o) {
  std::vector<Split> out = all_splits(mc, o);
  if (o.lamplighter && mc.m() == 1 && mc.k() >= 1)
    std::erase_if(out, [](const Split& x) { return x.cs != 0; });
  return out;
}

// The split's precondition on (s, t): s != t and the case's condition (metacube::alg4_case); for
// a split on D, also the value of D.
z3::expr split_precondition(const Space& sp, const Split& split, const z3::expr& s, const z3::expr& t) {
  if (split.lamps >= 0) {
    z3::expr_vector is(sp.ctx);
    for (int y = 0; y < sp.h; ++y)
      is.push_back((sp.field(s, y ^ split.cs) ^ sp.field(t, y ^ split.cs)) ==
                   sp.ctx.bv_val((static_cast<uint64_t>(split.lamps) >> y) & 1u, 1));
    Split plain = split;
    plain.lamps = -1;
    return split_precondition(sp, plain, s, t) && z3::mk_and(is);
  }
  if (split.case_number == 2) return sp.ctx.bool_val(true);  // classes differ: s != t
  z3::expr_vector others(sp.ctx);
  for (int f = 0; f < sp.h; ++f)
    if (f != split.cs) others.push_back(sp.field(s, f) == sp.field(t, f));
  const z3::expr same_cluster = z3::mk_and(others);
  return s != t && (split.case_number == 0 ? same_cluster : !same_cluster);
}
namespace {

// ---------------------------------------------------------------------------------------------
// Algorithm 4, symbolically in the M fields of s and t, for one split. Mirrors
// metacube/disjoint.cc (case0, case1, case2, case2_local_segment) and metacube/routing.cc
// (p1_walk, p3_cluster, p3_class, append); every choice the options make is concrete here.

class Encoder {
 public:
  Encoder(const Space& sp, const Alg4Options& o, const Split& split, const z3::expr& s, const z3::expr& t)
      : sp_(sp), o_(o), k_(sp.k), m_(sp.m), cs_(split.cs), ct_(split.ct), case_(split.case_number),
        lamps_(split.lamps), s_{split.cs, s}, t_{split.ct, t} {}

  // P_0 ... P_{k+m-1}.
  std::vector<SymPath> paths() const {
    // alg4_encoding_gap() rejects options.repair before any Encoder is made. A whole-path
    // post-processing of a future reading goes here, after the case's paths.
    if (o_.lamplighter && m_ == 1 && k_ >= 1) return lamplighter_paths();
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

  // Every field but M[f] of u and v equal.
  z3::expr others_equal(const SymNode& u, const SymNode& v, int f) const {
    z3::expr_vector equal(ctx());
    for (int g = 0; g < sp_.h; ++g)
      if (g != f) equal.push_back(field(u, g) == field(v, g));
    return equal.empty() ? ctx().bool_val(true) : z3::mk_and(equal);
  }
  // Path and dimension codes (8 bits): a local dimension k + b, or kNoCode.
  static constexpr int kNoCode = 255;
  z3::expr code(int v) const { return ctx().bv_val(static_cast<uint64_t>(v), 8); }
  // k + the highest set bit of the m-bit x (kNoCode when x = 0).
  z3::expr highest_dimension(const z3::expr& x) const {
    z3::expr out = code(kNoCode);
    for (int b = 0; b < m_; ++b)
      out = z3::ite(x.extract(static_cast<unsigned>(b), static_cast<unsigned>(b)) == sp_.one_bit(), code(k_ + b), out);
    return out;
  }
  // k + the lowest set bit of the m-bit x (kNoCode when x = 0).
  z3::expr lowest_dimension(const z3::expr& x) const {
    z3::expr out = code(kNoCode);
    for (int b = m_ - 1; b >= 0; --b)
      out = z3::ite(x.extract(static_cast<unsigned>(b), static_cast<unsigned>(b)) == sp_.one_bit(), code(k_ + b), out);
    return out;
  }
  // The node among `nodes` (all of one class) whose index is the code `index`.
  SymNode select(const std::vector<SymNode>& nodes, const z3::expr& index, const SymNode& otherwise) const {
    z3::expr bits = otherwise.bits;
    for (int i = k_; i < k_ + m_; ++i) bits = z3::ite(index == code(i), nodes[static_cast<size_t>(i)].bits, bits);
    return SymNode{otherwise.cls, bits};
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
      if (o_.case1_cluster) {
        // s and t differ only in M[c_s^(i)] (s^(i) and t^(i) in one cluster): the cluster route.
        SymPath cluster = start(s_);
        push(cluster, a);
        append(cluster, p3_cluster(m_, m_ - 1, a, ti));
        push(cluster, t_);
        p = merge(others_equal(s_, t_, a.cls), cluster, p);
      }
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
    if (o_.fix_pj) return case2_corrected();
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
      P.push_back(global_path(i));
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


  // Case 2 of the reading `corrected` (disjoint.cc's case2 with fix_pj, local_in_cluster and w_is_s,
  // which alg4_encoding_gap accepts only together).
  std::vector<SymPath> case2_corrected() const {
    std::vector<SymPath> P;
    // w_is_s (H_k >= 2): the local path P_{k+b} whose w is s, when t differs from s (outside the
    // class field) only in bit b of M[c_t]; d0 the class tail's first dimension.
    const bool two_or_more = std::popcount(static_cast<unsigned>(cs_ ^ ct_)) >= 2;
    const int d0 = std::countr_zero(static_cast<unsigned>(cs_ ^ ct_));
    std::vector<z3::expr> w_is_s;  // by local dimension i: w_i = s
    z3::expr any_w_is_s = ctx().bool_val(false);
    for (int i = 0; i < k_ + m_; ++i) {
      const z3::expr cond = i >= k_ && two_or_more ? with_class(N(t_, i), cs_).bits == s_.bits : ctx().bool_val(false);
      w_is_s.push_back(cond);
      any_w_is_s = any_w_is_s || cond;
    }
    z3::expr pj_local = code(kNoCode);  // the local path whose cube edge into t P_j takes
    for (int i = 0; i < k_; ++i) {
      const SymNode si = N(s_, i);
      const int ci = si.cls;
      if (two_or_more && i == d0) {
        SymPath tail = start(s_);
        append(tail, p3_class(local_class_i(), s_, with_class(s_, ct_)));
        append(tail, start(t_));
        P.push_back(merge(any_w_is_s, tail, global_path(i)));
        continue;
      }
      if (ci == ct_) {
        // P_j like the other global paths with w_j = t.
        SymPath edge = start(s_);
        push(edge, t_);
        SymPath cluster = start(s_);
        push(cluster, si);
        append(cluster, p3_cluster(m_, m_ - 1, si, t_));
        const SymNode b{si.cls, si.bits ^ key_flip(i)};
        const SymNode d = N(b, l_global(i));
        SymPath keyed = start(s_);
        push(keyed, si);
        push(keyed, b);
        push(keyed, d);
        append(keyed, p1_walk(d, t_, walk_global(i, d)));
        const z3::expr adjacent = si.bits == t_.bits;
        const z3::expr in_cluster = others_equal(si, t_, ct_);
        P.push_back(merge(adjacent, edge, merge(in_cluster, cluster, keyed)));
        // Its last hop into t: the cluster route fixes M[c_t] lowest bit first, so it ends with the
        // highest differing bit; the keyed walk reaches class c_t last, with M[c_t] = M_s[c_t] XOR
        // the key bit, and ends with that field's highest differing bit (a cross edge if none).
        const z3::expr plain = field(s_, ct_) ^ field(t_, ct_);
        const z3::expr keyed_diff = field(b, ct_) ^ field(t_, ct_);
        pj_local = z3::ite(adjacent, code(kNoCode),
                           z3::ite(in_cluster, highest_dimension(plain), highest_dimension(keyed_diff)));
        continue;
      }
      P.push_back(global_path(i));
    }
    // Local targets T_i: w_i, or (c_s, M_t) for the path that gave its cube edge into t to P_j.
    std::vector<SymNode> w, T;
    const SymNode ctm = with_class(t_, cs_);
    for (int i = 0; i < k_ + m_; ++i) {
      w.push_back(with_class(N(t_, i), cs_));
      T.push_back(SymNode{cs_, z3::ite(pj_local == code(i), ctm.bits, w.back().bits)});
    }
    // The first target in s's own cluster (other than s) is reached inside it by the local path
    // whose first hop the cluster route takes; the two paths exchange targets.
    std::vector<SymNode> swapped = T;
    std::vector<z3::expr> is_direct(static_cast<size_t>(k_ + m_), ctx().bool_val(false));
    z3::expr found = ctx().bool_val(false);
    for (int a = k_; a < k_ + m_; ++a) {
      const SymNode& Ta = T[static_cast<size_t>(a)];
      const z3::expr here = !found && Ta.bits != s_.bits && others_equal(Ta, s_, cs_);
      const z3::expr direct = lowest_dimension(field(Ta, cs_) ^ field(s_, cs_));
      found = found || here;
      for (int i = k_; i < k_ + m_; ++i) {
        // After the exchange: T'_direct = T_a, T'_a = T_direct (the same when a = direct).
        const SymNode other = select(T, direct, T[static_cast<size_t>(i)]);
        z3::expr bits = swapped[static_cast<size_t>(i)].bits;
        if (i == a) bits = z3::ite(here, other.bits, bits);
        bits = z3::ite(here && direct == code(i), Ta.bits, bits);
        swapped[static_cast<size_t>(i)].bits = bits;
        is_direct[static_cast<size_t>(i)] = is_direct[static_cast<size_t>(i)] || (here && direct == code(i));
      }
    }
    const SymNode wd0 = with_class(t_, cs_ ^ (1 << d0));
    for (int i = k_; i < k_ + m_; ++i) {
      const SymNode& Ti = swapped[static_cast<size_t>(i)];
      SymPath direct = start(s_);
      append(direct, p3_cluster(m_, m_ - 1, s_, Ti));
      SymPath segment = start(s_);
      append(segment, case2_local_segment(i, Ti));
      SymPath p = merge(is_direct[static_cast<size_t>(i)], direct, segment);
      append(p, p3_class(local_class_i(), Ti, with_class(Ti, ct_)));
      append(p, start(t_));
      if (two_or_more) {
        SymPath around = start(s_);
        append(around, case2_local_segment(i, ctm));
        push(around, wd0);
        append(around, p3_class(d0, wd0, t_));
        p = merge(w_is_s[static_cast<size_t>(i)], around, p);
      }
      P.push_back(p);
    }
    return P;
  }

  // m = 1 under `corrected` (disjoint.cc's lamplighter_paths): the rules of lamplighter.h decide on
  // (c, D) alone, c = c_s XOR c_t and D (lamp y = M[y XOR c_s] of s XOR t), both concrete in a split
  // of all_splits(mc, o): the moves are replayed from the symbolic s, every node s XOR a constant.
  std::vector<SymPath> lamplighter_paths() const {
    TC_CHECK(lamps_ >= 0, "Algorithm 4 encoding: the m = 1 rules need a split on D (all_splits(mc, options))");
    const auto moves = metacube::lamplighter::paths(k_, static_cast<uint32_t>(cs_ ^ ct_), static_cast<uint64_t>(lamps_));
    std::vector<SymPath> out;
    for (const auto& path : moves) {
      SymPath p = start(s_);
      SymNode u = s_;
      for (uint8_t move : path) {
        u = N(u, move == metacube::lamplighter::kToggle ? k_ : move);
        push(p, u);
      }
      out.push_back(std::move(p));
    }
    return out;
  }

  // Case 2, global P_i with c_s^(i) != c_t, as printed.
  SymPath global_path(int i) const {
    const SymNode si = N(s_, i);
    const int ci = si.cls;
    const SymNode w = with_class(t_, ci);
    SymPath direct = start(s_);
    append(direct, p1_walk(si, w, walk_global(i, si)));
    const SymNode b = o_.broken_ignore_key ? si : SymNode{si.cls, si.bits ^ key_flip(i)};
    const SymNode d = N(b, l_global(i));
    SymPath keyed = start(s_);
    push(keyed, si);
    if (!o_.broken_ignore_key) push(keyed, b);
    push(keyed, d);
    append(keyed, p1_walk(d, w, walk_global(i, d)));
    SymPath p = merge(others_equal(s_, t_, ci), direct, keyed);
    append(p, p3_class(i, w, t_));
    return p;
  }

  const Space& sp_;
  const Alg4Options& o_;
  int k_, m_, cs_, ct_, case_;
  int64_t lamps_;  // the split's D (lamplighter_paths), or -1
  SymNode s_, t_;
};

}  // namespace

std::vector<SymPath> alg4_paths(const Space& sp, const Alg4Options& o, const Split& split, const z3::expr& s,
                                const z3::expr& t) {
  return Encoder(sp, o, split, s, t).paths();
}

}  // namespace topocheck::smt::metacube_encoding
