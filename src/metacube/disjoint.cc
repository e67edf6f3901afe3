#include "metacube/disjoint.h"

#include <algorithm>
#include <array>
#include <bit>
#include <initializer_list>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "metacube/completion.h"
#include "metacube/lamplighter.h"

namespace topocheck::metacube {

std::optional<Alg4Options> options_for_reading(const std::string& reading) {
  Alg4Options o;
  if (reading == "paper") return o;
  if (reading == "paper-keybit-example4") {
    o.key_compare = KeyCompare::kExample4;
    return o;
  }
  if (reading == "repaired") {
    o.repair = true;
    o.key_compare = KeyCompare::kExample4;
    return o;
  }
  if (reading == "corrected") {
    o.key_compare = KeyCompare::kExample4;
    o.fix_pj = true;
    o.case1_cluster = true;
    o.local_in_cluster = true;
    o.w_is_s = true;
    o.lamplighter = true;
    return o;
  }
  if (reading == "broken-no-exchange") {
    o.broken_no_exchange = true;
    return o;
  }
  if (reading == "broken-ignore-key") {
    o.broken_ignore_key = true;
    return o;
  }
  return std::nullopt;
}

std::vector<std::string> reading_names() { return {"paper", "paper-keybit-example4", "repaired", "corrected"}; }

std::vector<Alg4Options> all_choices(const Metacube& mc, const Alg4Options& base) {
  std::vector<Alg4Options> out;
  const int k = mc.k();
  for (CycleOrder order : {CycleOrder::kRotate, CycleOrder::kReverse}) {
    if (k < 3 && order == CycleOrder::kReverse) continue;  // k <= 2: the same cycles
    for (int lh = 0; lh < std::max(k, 1); ++lh)
      for (ExchangeChoice ex : {ExchangeChoice::kLowestOther, ExchangeChoice::kNextCyclic}) {
        if (mc.m() < 3 && ex == ExchangeChoice::kNextCyclic) continue;  // m <= 2: one choice
        for (int x = 0; x < mc.m(); ++x) {
          Alg4Options o = base;
          o.hc_order = order;
          o.local_hc = lh;
          o.exchange = ex;
          o.default_key = x;
          out.push_back(o);
        }
      }
  }
  return out;
}

std::string describe(const Alg4Options& o) {
  return fmt::format("hc_order={} local_hc={} exchange={} default_key={} key_compare={} case0_p3_n={}{}{}{}{}{}{}{}{}",
                     o.hc_order == CycleOrder::kRotate ? "rotate" : "reverse", o.local_hc,
                     o.exchange == ExchangeChoice::kLowestOther ? "lowest" : "next", o.default_key,
                     o.key_compare == KeyCompare::kRule ? "rule" : "example4",
                     o.case0_p3_n == 0 ? std::string("m") : std::to_string(o.case0_p3_n),
                     o.case0_hop == Case0Hop::kTable ? "" : " case0_hop=k",
                     o.local_class_path == LocalClassPath::kAscending ? "" : " local_class_path=p3(k,0)",
                     o.empty_when_equal ? "" : " literal_detour", o.case2_pj_ends_at_t ? "" : " pj_stops_at_tj",
                     o.repair ? " repaired" : "",
                     std::string(o.fix_pj ? " fix_pj" : "") + (o.case1_cluster ? " case1_cluster" : "") +
                         (o.local_in_cluster ? " local_in_cluster" : "") + (o.w_is_s ? " w_is_s" : "") +
                         (o.lamplighter ? " lamplighter" : ""),
                     o.broken_no_exchange ? " BROKEN_no_exchange" : "",
                     o.broken_ignore_key ? " BROKEN_ignore_key" : "");
}

int alg4_case(const Metacube& mc, Node s, Node t) {
  if (mc.class_of(s) != mc.class_of(t)) return 2;
  return mc.same_cluster(s, t) ? 0 : 1;
}

namespace {

// The cycles HC_i = hamiltonian_cycle(k, start, first_dim, order) with their walks, each computed
// on first use and then kept (one cache per thread, for one k at a time): ClassCycle::assign costs
// O(2^k) steps with a division each, and every pair of a sweep needs up to k + 1 cycles, of at
// most 2 * k * 2^k different ones.
class CycleCache {
 public:
  const ClassCycle& get(int k, int start, int first_dim, CycleOrder order) {
    const int dims = std::max(k, 1);  // k = 0: the one "cycle" (start), first_dim 0
    if (k != k_) {
      k_ = k;
      cycles_.resize(static_cast<size_t>(2 * dims) << k);
      ready_.assign(cycles_.size(), 0);
    }
    TC_CHECK(start >= 0 && start < (1 << k) && first_dim >= 0 && first_dim < dims, "HC_i: bad class or dimension");
    const size_t index = (static_cast<size_t>((order == CycleOrder::kReverse ? dims : 0) + first_dim) << k) +
                         static_cast<size_t>(start);
    if (!ready_[index]) {
      cycles_[index].assign(k, start, first_dim, order);
      ready_[index] = 1;
    }
    return cycles_[index];
  }

 private:
  int k_ = -1;
  std::vector<ClassCycle> cycles_;  // by (order, first_dim, start)
  std::vector<unsigned char> ready_;
};

thread_local CycleCache cycle_cache;

struct Ctx {
  Ctx(const Metacube& mc_, Node s_, Node t_, const Alg4Options& o_, std::vector<std::string>& notes_)
      : mc(mc_), s(s_), t(t_), o(o_), k(mc_.k()), m(mc_.m()), cs(mc_.class_of(s_)), ct(mc_.class_of(t_)),
        local_index(k == 0 ? 0 : o.local_hc % k), notes(notes_) {
    // Every HC_i this pair can use, looked up once (a pair asks for them a dozen times or more).
    TC_CHECK(k <= ClassCycle::kMaxClassDim, "Algorithm 4: k above the class cycles' range");
    for (int i = 0; i < std::max(k, 1); ++i) cycles[static_cast<size_t>(i)] = &cycle_cache.get(k, cs, i, o.hc_order);
  }

  const Metacube& mc;
  Node s, t;
  const Alg4Options& o;
  int k, m, cs, ct;
  int local_index;  // the i of HC_i for the local paths: local_hc mod k (0 when k = 0)
  std::vector<std::string>& notes;
  std::vector<Alg4Step>* steps = nullptr;  // with o.record_steps

  Node N(Node u, int d) const { return mc.neighbor(u, d); }
  // The nodes P's current path gets from here on are written by step `what` (a node append()
  // drops as a repeat of the last one stays with the step before).
  void mark(const PathBlock& P, const char* what) {
    if (steps) steps->push_back({static_cast<int>(P.size()) - 1, static_cast<int>(P.path(P.size() - 1).size()), what});
  }
  // Records a note for show / construct; formatted only when the caller wants notes (the
  // exhaustive sweeps do not: formatting was most of the construction's time).
  template <class... Args>
  void note(fmt::format_string<Args...> format, Args&&... args) {
    if (o.record_notes) notes.push_back(fmt::format(format, std::forward<Args>(args)...));
  }

  // HC_i = hamiltonian_cycle(k, c_s, i, hc_order) with its walks.
  const ClassCycle& hc(int i) const { return *cycles[static_cast<size_t>(i)]; }
  // l of a global path: HC_i's second step (c_s^(i) -> next).
  int l_global(int i) {
    const auto c = hc(i).cycle();
    return std::countr_zero(static_cast<unsigned>(c[1] ^ c[2]));
  }
  // The i of p3(k, i, w_i, t^(i)) for case 2's local tails.
  int local_class_i() const {
    return o.local_class_path == LocalClassPath::kAscending ? std::max(k - 1, 0) : 0;
  }
  int l_local() {
    const auto c = hc(local_index).cycle();
    return std::countr_zero(static_cast<unsigned>(c[0] ^ c[1]));
  }
  // The cycles of p1's walks (from the walk's first node's class): HC_i for a global path, HC_l
  // for a local one.
  const ClassCycle& walk_global(int i) const { return hc(i); }
  const ClassCycle& walk_local() const { return hc(local_index); }

  // Key-bit dimension y = k + x of global path i.
  int key_dimension(int i) {
    const int csi = cs ^ (1 << i);
    const int cti = ct ^ (1 << i);
    const uint64_t a = mc.field(s, csi);
    const uint64_t b = o.key_compare == KeyCompare::kRule ? mc.field(t, cti) : mc.field(t, csi);
    // Type 1: the lowest bit x where the two agree; type 2 (none): the default key bit.
    const uint64_t agree = ~(a ^ b) & ((uint64_t{1} << m) - 1);
    const int x = agree != 0 ? std::countr_zero(agree) : o.default_key;
    note("P_{}: key bit y = {} (type {})", i, k + x, agree != 0 ? 1 : 2);
    return k + x;
  }

  // The local dimension j' != j chosen for an exchange, or -1 when m = 1.
  int other_local(int j) const {
    if (m < 2) return -1;
    if (o.exchange == ExchangeChoice::kNextCyclic) return k + ((j - k) + 1) % m;
    return j == k ? k + 1 : k;
  }

 private:
  std::array<const ClassCycle*, ClassCycle::kMaxClassDim> cycles;  // HC_0 .. HC_{max(k,1)-1}
};

// Starts P_i (the paths are built in index order, P_0 first) with `nodes`.
void start_path(PathBlock& P, int i, std::initializer_list<Node> nodes) {
  TC_CHECK(P.size() == static_cast<size_t>(i), "Algorithm 4: paths built out of order");
  P.start_path();
  for (const Node& u : nodes) P.push(u.bits);
}

void push(PathBlock& P, Node u) { P.push(u.bits); }

void case0(Ctx& c, PathBlock& P) {
  const auto& mc = c.mc;
  const int n0 = c.o.case0_p3_n == 0 ? c.m : c.o.case0_p3_n;
  for (int i = 0; i < c.k; ++i) {
    const int hop = c.o.case0_hop == Case0Hop::kTable ? c.k + i % c.m : c.k;
    const Node a = c.N(c.s, i), b = c.N(a, hop), cc = c.N(b, i);
    const Node ta = c.N(c.t, i), tb = c.N(ta, hop), tc = c.N(tb, i);
    start_path(P, i, {c.s, a});
    c.mark(P, "s^(i,k)");
    push(P, b);
    c.mark(P, "p3 s^(i,k,i) -> t^(i,k,i)");
    append_p3_cluster(P, mc, n0, i, cc, tc);
    c.mark(P, "t^(i,k) : t^(i) : t");
    push(P, tb);
    push(P, ta);
    push(P, c.t);
  }
  for (int i = c.k; i < c.k + c.m; ++i) {
    start_path(P, i, {c.s});
    c.mark(P, "p3 s^(i) -> t");
    append_p3_cluster(P, mc, c.m, i - c.k, c.N(c.s, i), c.t);
  }
}

void case1(Ctx& c, PathBlock& P) {
  const auto& mc = c.mc;
  for (int i = 0; i < c.k; ++i) {
    const Node a = c.N(c.s, i);
    if (c.o.case1_cluster && mc.same_cluster(a, c.N(c.t, i))) {
      // s and t differ only in M[c_s^(i)]: the walk around HC_i would change nothing and
      // come back to s^(i,y). As case 2 prints for this situation: the cluster route.
      start_path(P, i, {c.s, a});
      c.mark(P, "p3 s^(i) -> t^(i)");
      append_p3_cluster(P, mc, c.m, c.m - 1, a, c.N(c.t, i));
      c.mark(P, "t");
      push(P, c.t);
      continue;
    }
    const int y = c.key_dimension(i);
    const Node b = c.o.broken_ignore_key ? a : c.N(a, y);
    const Node d = c.N(b, c.l_global(i));
    const Node ti = c.N(c.t, i);
    start_path(P, i, {c.s, a});
    c.mark(P, "key y");
    if (!c.o.broken_ignore_key) push(P, b);
    c.mark(P, "hop l");
    push(P, d);
    c.mark(P, "p1 -> t^(i)");
    append_p1_walk(P, mc, d, ti, c.walk_global(i));
    c.mark(P, "t");
    push(P, c.t);
  }
  const int l = c.l_local();
  // The j / j' exchange: M_s^(j)[c_s] = M_t[c_t]. P_j and P_j' take their exchanged forms in
  // place of the plain local paths (the paths are written in index order).
  const uint64_t diff = mc.field(c.s, c.cs) ^ mc.field(c.t, c.ct);
  const bool exchange_needed = std::popcount(diff) == 1 && !c.o.broken_no_exchange;
  const int j = exchange_needed ? c.k + std::countr_zero(diff) : -1;
  const int jp = exchange_needed ? c.other_local(j) : -1;
  const bool exchange = exchange_needed && jp >= 0;
  for (int i = c.k; i < c.k + c.m; ++i) {
    if (exchange && i == j) {
      const Node sj = c.N(c.s, j), sjj = c.N(sj, jp), sjjl = c.N(sjj, l);
      start_path(P, j, {c.s, sj});
      c.mark(P, "s^(j,j') : hop l");
      push(P, sjj);
      push(P, sjjl);
      c.mark(P, "p1 -> t^(j')");
      append_p1_walk(P, mc, sjjl, c.N(c.t, jp), c.walk_local());
      c.mark(P, "t");
      push(P, c.t);
      continue;
    }
    if (exchange && i == jp) {
      const Node sjp = c.N(c.s, jp), sjpl = c.N(sjp, l);
      start_path(P, jp, {c.s, sjp});
      c.mark(P, "hop l");
      push(P, sjpl);
      c.mark(P, "p1 -> t^(j)");
      append_p1_walk(P, mc, sjpl, c.N(c.t, j), c.walk_local());
      c.mark(P, "t");
      push(P, c.t);
      continue;
    }
    const Node si = c.N(c.s, i);
    const Node w = mc.with_field(c.t, c.ct, mc.field(si, c.ct));
    const Node d = c.N(si, l);
    start_path(P, i, {c.s, si});
    c.mark(P, "hop l");
    push(P, d);
    c.mark(P, "p1 -> w_i");
    append_p1_walk(P, mc, d, w, c.walk_local());
    c.mark(P, "p3 w_i -> t");
    append_p3_cluster(P, mc, c.m, i - c.k, w, c.t);
  }
  if (exchange_needed && jp < 0) c.note("exchange needed for j = {} but m = 1 has no j'", j);
  if (exchange) c.note("exchange j = {}, j' = {}", j, jp);
}

// Case 2, local: appends (s^(i) -> w) to P's current path as the if / else of the algorithm
// prints it.
void append_case2_local_segment(Ctx& c, PathBlock& P, int i, Node w) {
  const auto& mc = c.mc;
  const Node si = c.N(c.s, i);
  const int l = c.l_local();
  if (si == w && c.o.empty_when_equal) {
    append(P, si.bits);
    return;
  }
  if (mc.field(si, c.cs) == mc.field(c.t, c.cs) && !c.o.broken_no_exchange) {
    const int ip = c.other_local(i);
    if (ip >= 0) {
      c.note("P_{}: M_s^(i)[c_s] = M_t[c_s], detour i' = {}", i, ip);
      const Node b = c.N(si, ip), d = c.N(b, l);
      append(P, si.bits);
      c.mark(P, "detour i'");
      push(P, b);
      c.mark(P, "hop l");
      push(P, d);
      c.mark(P, "p1 -> w_i");
      append_p1_walk(P, mc, d, w, c.walk_local());
      return;
    }
    c.note("P_{}: detour needed but m = 1 has no i'", i);
  }
  const Node d = c.N(si, l);
  append(P, si.bits);
  c.mark(P, "hop l");
  push(P, d);
  c.mark(P, "p1 -> w_i");
  append_p1_walk(P, mc, d, w, c.walk_local());
}

void case2(Ctx& c, PathBlock& P) {
  const auto& mc = c.mc;
  int pj_local = -1;  // fix_pj: the local path that enters t through t^(j)
  // w_is_s, H_k(s, t) >= 2: a local path whose w is s itself (s and t differ, outside the class,
  // in one bit b of M[c_t]) would start its class tail at s through s^(d0), d0 the tail's first
  // class dimension: P_{d0} takes that tail (s, the class path, t^(k+b), t), and the local path
  // P_{k+b} takes P_{d0}'s end: its walk to (c_s, M_t), across d0 to w_{d0}, then Z_{d0}.
  int w_is_s = -1, d0 = -1;
  if (c.o.w_is_s && std::popcount(static_cast<unsigned>(c.cs ^ c.ct)) >= 2) {
    for (int i = c.k; i < c.k + c.m; ++i)
      if (mc.with_class(c.N(c.t, i), c.cs) == c.s) w_is_s = i;
    d0 = std::countr_zero(static_cast<unsigned>(c.cs ^ c.ct));
  }
  for (int i = 0; i < c.k; ++i) {
    const Node si = c.N(c.s, i);
    const int ci = mc.class_of(si);
    if (w_is_s >= 0 && i == d0) {
      start_path(P, i, {c.s});
      c.mark(P, "p3 s -> t^(k+b) (w_b = s)");
      append_p3_class(P, mc, c.local_class_i(), c.s, mc.with_class(c.s, c.ct));
      append(P, c.t.bits);
      continue;
    }
    if (ci == c.ct) {
      // P_j with c_s^(j) = c_t: (s^(j) -> t^(j)) = p1(s^(j), t^(j)), no signature.
      c.note("P_{}: c_s^({}) = c_t, no key bit", i, i);
      if (c.o.fix_pj && si == c.t) {
        start_path(P, i, {c.s, c.t});  // s and t adjacent: the edge itself
        continue;
      }
      if (c.o.fix_pj) {
        // P_j like the other global paths with w_j = t: a key hop in M[c_t], the l hop, p1 along
        // HC_j to t. It enters t by a cube edge t^(k+x'); the local path P_{k+x'} takes t^(j)
        // instead (its w is (c_s, M_t), then t^(j) : t).
        start_path(P, i, {c.s, si});
        pj_local = -1;
        if (si == c.t) continue;  // s and t adjacent: the edge itself
        if (mc.same_cluster(si, c.t)) {
          // s^(j) in t's cluster (the printed rule's "M_s[j] = M_t[j] for all j != c_s^(i)"):
          // the cluster route, no key hop and no walk.
          c.mark(P, "p3 s^(j) -> t");
          append_p3_cluster(P, mc, c.m, c.m - 1, si, c.t);
        } else {
          const int y = c.key_dimension(i);
          const Node b = c.N(si, y), d = c.N(b, c.l_global(i));
          c.mark(P, "key y");
          push(P, b);
          c.mark(P, "hop l");
          push(P, d);
          c.mark(P, "p1 -> t");
          append_p1_walk(P, mc, d, c.t, c.walk_global(i));
        }
        const auto nodes = P.path(P.size() - 1);
        const auto dim = mc.edge_dimension(Node{nodes[nodes.size() - 2], mc.width()}, c.t);
        pj_local = dim && *dim >= c.k ? *dim : -1;
        continue;
      }
      start_path(P, i, {c.s});
      c.mark(P, "p1 s^(j) -> t^(j)");
      append_p1_walk(P, mc, si, c.N(c.t, i), c.walk_global(i));
      c.mark(P, "t");
      if (c.o.case2_pj_ends_at_t) push(P, c.t);
      continue;
    }
    const Node w = mc.with_class(c.t, ci);
    // s and t agree in every field but M[c_i] (all of M is below the class field).
    const uint64_t fields = (uint64_t{1} << (c.m * mc.h())) - 1;
    const uint64_t field_ci = ((uint64_t{1} << c.m) - 1) << (ci * c.m);
    const bool others_equal = ((c.s.bits ^ c.t.bits) & fields & ~field_ci) == 0;
    start_path(P, i, {c.s});
    if (others_equal) {
      c.mark(P, "p1 s^(i) -> w_i");
      append_p1_walk(P, mc, si, w, c.walk_global(i));
    } else {
      const int y = c.key_dimension(i);
      const Node b = c.o.broken_ignore_key ? si : c.N(si, y);
      const Node d = c.N(b, c.l_global(i));
      push(P, si);
      c.mark(P, "key y");
      if (!c.o.broken_ignore_key) push(P, b);
      c.mark(P, "hop l");
      push(P, d);
      c.mark(P, "p1 -> w_i");
      append_p1_walk(P, mc, d, w, c.walk_global(i));
    }
    c.mark(P, "p3 w_i -> t");
    append_p3_class(P, mc, i, w, c.t);
  }
  // Local paths: w_i = (c_s, M_t[h-1], ..., M_t^(i)[c_t], ..., M_t[0]). Indexed by dimension
  // (k + m <= 63: the address has m*2^k + k <= 63 bits); the addresses' bits only, so that the
  // arrays are not zeroed on every call as arrays of Node would be.
  std::array<uint64_t, 64> w, ti, si;
  const auto node = [&mc](uint64_t bits) { return Node{bits, mc.width()}; };
  for (int i = c.k; i < c.k + c.m; ++i) {
    const Node t_i = c.N(c.t, i);
    ti[static_cast<size_t>(i)] = t_i.bits;
    w[static_cast<size_t>(i)] = mc.with_class(t_i, c.cs).bits;
    si[static_cast<size_t>(i)] = c.N(c.s, i).bits;
  }
  // w_is_s: the local path P_{k+b} whose w is s takes P_{d0}'s end (see above).
  auto w_is_s_path = [&](int i) {
    const Node ctm = mc.with_class(c.t, c.cs), wd0 = mc.with_class(c.t, c.cs ^ (1 << d0));
    append_case2_local_segment(c, P, i, ctm);
    c.mark(P, "w_{d0} : Z_{d0} (w_b = s)");
    push(P, wd0);
    append_p3_class(P, mc, d0, wd0, c.t);
  };
  if (c.o.local_in_cluster) {
    // Each local path's target T (w_i, or t^(j) for the one that gave t^(j,...) to P_j); a
    // target in s's own cluster is reached inside that cluster by the local path whose first
    // hop the cluster route takes, and the path that had it takes that path's target (the
    // printed "w_i = s^(j)" exchange is the case of a route of one hop).
    std::array<uint64_t, 64> T;
    for (int i = c.k; i < c.k + c.m; ++i)
      T[static_cast<size_t>(i)] = i == pj_local ? mc.with_class(c.t, c.cs).bits : w[static_cast<size_t>(i)];
    int direct = -1;
    for (int a = c.k; a < c.k + c.m; ++a) {
      const Node Ta = node(T[static_cast<size_t>(a)]);
      if (Ta != c.s && mc.same_cluster(Ta, c.s)) {
        direct = c.k + std::countr_zero(mc.field(Ta, c.cs) ^ mc.field(c.s, c.cs));
        std::swap(T[static_cast<size_t>(a)], T[static_cast<size_t>(direct)]);
        break;
      }
    }
    for (int i = c.k; i < c.k + c.m; ++i) {
      start_path(P, i, {c.s});
      if (i == w_is_s) {
        w_is_s_path(i);
        continue;
      }
      const Node Ti = node(T[static_cast<size_t>(i)]);
      if (i == direct) {
        c.mark(P, "p3 s -> T (s's cluster)");
        append_p3_cluster(P, mc, c.m, c.m - 1, c.s, Ti);
      } else {
        append_case2_local_segment(c, P, i, Ti);
      }
      c.mark(P, "p3 T -> t");
      append_p3_class(P, mc, c.local_class_i(), Ti, mc.with_class(Ti, c.ct));
      append(P, c.t.bits);
    }
    return;
  }
  std::array<int, 64> target;
  for (int i = c.k; i < c.k + c.m; ++i) target[static_cast<size_t>(i)] = i;
  for (int i = c.k; i < c.k + c.m; ++i)
    for (int j = c.k; j < c.k + c.m; ++j)
      if (j != i && w[static_cast<size_t>(i)] == si[static_cast<size_t>(j)]) {
        // w_i = s^(j): P_i runs to w_j -> t^(j), P_j runs s^(j) -> t^(i).
        c.note("w_{} = s^({}): P_{} and P_{} exchange targets", i, j, i, j);
        target[static_cast<size_t>(i)] = j;
        target[static_cast<size_t>(j)] = -i - 1;  // marker: P_j = s : s^(j) -> t^(i) : t
      }
  for (int i = c.k; i < c.k + c.m; ++i) {
    start_path(P, i, {c.s});
    if (i == w_is_s) {
      w_is_s_path(i);
      continue;
    }
    if (i == pj_local) {
      const Node tj = mc.with_class(c.t, c.cs);
      append_case2_local_segment(c, P, i, tj);
      c.mark(P, "t^(j) : t");
      push(P, c.t);
      continue;
    }
    const int tg = target[static_cast<size_t>(i)];
    if (tg < 0) {
      const int from = -tg - 1;
      const Node sj = c.N(c.s, i);
      c.mark(P, "p3 s^(j) -> t^(i) (exchanged)");
      append_p3_class(P, mc, c.local_class_i(), sj, node(ti[static_cast<size_t>(from)]));
    } else {
      append_case2_local_segment(c, P, i, node(w[static_cast<size_t>(tg)]));
      c.mark(P, tg == i ? "p3 w_i -> t^(i)" : "p3 w_j -> t^(j) (exchanged)");
      append_p3_class(P, mc, c.local_class_i(), node(w[static_cast<size_t>(tg)]), node(ti[static_cast<size_t>(tg)]));
    }
    c.mark(P, "t");
    push(P, c.t);
  }
}

// m = 1 (reading `corrected`): the rules of lamplighter.h in the frame s = (0, {}), replayed from s.
// c = c_s XOR c_t; D's lamp y is the real lamp y XOR c_s (M[i] is bit i of the address when m = 1).
void lamplighter_paths(Ctx& c, PathBlock& P) {
  const auto& mc = c.mc;
  const uint64_t lamps = c.s.bits ^ c.t.bits;
  uint64_t D = 0;
  for (int y = 0; y < mc.h(); ++y)
    if ((lamps >> (y ^ c.cs)) & 1u) D |= uint64_t{1} << y;
  const auto moves = lamplighter::paths(c.k, static_cast<uint32_t>(c.cs ^ c.ct), D);
  for (size_t i = 0; i < moves.size(); ++i) {
    start_path(P, static_cast<int>(i), {c.s});
    c.mark(P, "m = 1 rules");
    Node u = c.s;
    for (uint8_t move : moves[i]) {
      u = c.N(u, move == lamplighter::kToggle ? c.k : move);
      push(P, u);
    }
  }
  c.note("m = 1: the rules of the corrected construction (lamplighter.h)");
}

// Algorithm 4's paths (no repair) for s != t into `P` (emptied first); notes when o.record_notes.
void construct(const Metacube& mc, Node s, Node t, const Alg4Options& o, PathBlock& P, std::vector<std::string>& notes,
               std::vector<Alg4Step>* steps = nullptr) {
  TC_CHECK(mc.contains(s) && mc.contains(t), "metacube_disjoint_paths: node outside the topology");
  TC_CHECK(s != t, "metacube_disjoint_paths: s == t");
  P.clear(mc.width());
  Ctx c(mc, s, t, o, notes);
  c.steps = steps;
  if (o.lamplighter && mc.m() == 1 && mc.k() >= 1) {
    lamplighter_paths(c, P);
    return;
  }
  switch (alg4_case(mc, s, t)) {
    case 0: case0(c, P); break;
    case 1: case1(c, P); break;
    default: case2(c, P); break;
  }
  TC_CHECK(P.size() == static_cast<size_t>(mc.k() + mc.m()), "Algorithm 4: a path was not built");
}

// A lower bound on d(x, t) in MC(k, m), consistent along edges (for the completion's A*): the
// differing field bits each need a cube-edge, and the class walk must enter every class whose
// field still differs (other than x's own) and end in c_t, so it has at least
// max(H_k(x, t), |V|) cross-edges, V = {f != c_x : M_x[f] != M_t[f]} plus c_t if c_t != c_x.
// One edge changes each term by at most 1.
int distance_lower_bound(const Metacube& mc, Node x, Node t) {
  const int cx = mc.class_of(x), ct = mc.class_of(t);
  int field_bits = 0, visits = 0;
  bool ct_counted = false;
  for (int f = 0; f < mc.h(); ++f) {
    const uint64_t diff = mc.field(x, f) ^ mc.field(t, f);
    field_bits += std::popcount(diff);
    if (diff != 0 && f != cx) {
      ++visits;
      ct_counted = ct_counted || f == ct;
    }
  }
  if (ct != cx && !ct_counted) ++visits;
  return field_bits + std::max(std::popcount(static_cast<unsigned>(cx ^ ct)), visits);
}

int longest(const std::vector<Path>& paths) {
  int out = 0;
  for (const Path& p : paths) out = std::max(out, p.length());
  return out;
}

// Removes every cycle: when a node recurs, the nodes between its two occurrences are cut out.
Path loop_erased(const Path& p) {
  Path out;
  for (const Node& v : p.nodes) {
    auto it = std::find(out.nodes.begin(), out.nodes.end(), v);
    if (it != out.nodes.end()) out.nodes.erase(it + 1, out.nodes.end());
    else out.nodes.push_back(v);
  }
  return out;
}

}  // namespace

void metacube_disjoint_paths_block(const Metacube& mc, Node s, Node t, const Alg4Options& options, PathBlock& out) {
  TC_CHECK(!options.repair, "metacube_disjoint_paths_block: the repaired reading needs metacube_disjoint_paths");
  thread_local std::vector<std::string> no_notes;
  Alg4Options quiet = options;
  quiet.record_notes = false;
  construct(mc, s, t, quiet, out, no_notes);
}

void metacube_disjoint_paths_into(const Metacube& mc, Node s, Node t, const Alg4Options& options, Alg4Result& out) {
  out.notes.clear();
  out.repaired_kept = 0;
  out.repaired_augmentations = 0;
  // Built in a block (one per thread), then copied into out.paths, reusing their capacity.
  thread_local PathBlock block;
  out.steps.clear();
  construct(mc, s, t, options, block, out.notes, options.record_steps && !options.repair ? &out.steps : nullptr);
  out.case_number = alg4_case(mc, s, t);
  std::vector<Path>& P = out.paths;
  P.resize(block.size());
  for (size_t i = 0; i < block.size(); ++i) {
    const auto nodes = block.path(i);
    P[i].nodes.resize(nodes.size());
    for (size_t q = 0; q < nodes.size(); ++q) P[i].nodes[q] = Node{nodes[q], block.width()};
  }
  if (options.repair) {
    for (Path& p : P) p = loop_erased(p);
    const DistanceBound bound = [&mc, t](Node x) { return distance_lower_bound(mc, x, t); };
    CompletionResult done = complete_disjoint_paths(mc, s, t, P, mc.degree(), bound);
    if (done.augmentations > 0) {
      // Algorithm 4's paths needed help: also complete from nothing (a plain shortest-augmenting-
      // path max-flow) and keep whichever has the shorter longest path (ties: the seeded one).
      CompletionResult scratch = complete_disjoint_paths(mc, s, t, {}, mc.degree(), bound);
      if (scratch.complete && (!done.complete || longest(scratch.paths) < longest(done.paths))) {
        scratch.note = fmt::format("repaired: max-flow from scratch ({} augmenting paths; seeding with Algorithm 4's "
                                   "{} disjoint paths gave a longest path of {})",
                                   scratch.augmentations, done.kept, longest(done.paths));
        scratch.kept = 0;
        done = std::move(scratch);
      }
    }
    if (options.record_notes) out.notes.push_back(done.note);
    out.repaired_kept = done.kept;
    out.repaired_augmentations = done.augmentations;
    P = std::move(done.paths);
  }
}

const char* alg4_step_of(const Alg4Result& result, int path, int index) {
  if (index == 0) return "s";
  const char* what = "s^(i)";  // the nodes written with s before the path's first step
  for (const Alg4Step& st : result.steps)
    if (st.path == path && st.from <= index) what = st.what;
  return what;
}

Alg4Result metacube_disjoint_paths(const Metacube& mc, Node s, Node t, const Alg4Options& options) {
  Alg4Result r;
  metacube_disjoint_paths_into(mc, s, t, options, r);
  return r;
}

}  // namespace topocheck::metacube
