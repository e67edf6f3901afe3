#include "aapc/schedules.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <queue>
#include <string_view>

#include <fmt/format.h>

#include "aapc/symmetry.h"

namespace topocheck::aapc {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

constexpr uint32_t bit(int d) { return uint32_t{1} << d; }

std::vector<int> dims_of(uint32_t mask) {
  std::vector<int> out;
  for (; mask != 0; mask &= mask - 1) out.push_back(std::countr_zero(mask));
  return out;
}

// The nodes base + span(mask), ascending (the bits of base inside mask are ignored).
std::vector<NodeId> subcube_nodes(NodeId base, uint32_t mask) {
  std::vector<NodeId> out;
  base &= ~mask;
  uint32_t s = 0;
  do {  // s runs over the submasks of mask in ascending order: s' = (s - mask) & mask
    out.push_back(base | s);
    s = (s - mask) & mask;
  } while (s != 0);
  return out;
}

// pext: the bits of x at the positions of mask, packed to the low end (a local offset).
uint32_t compress(uint32_t x, uint32_t mask) {
  uint32_t out = 0;
  int k = 0;
  for (; mask != 0; mask &= mask - 1, ++k)
    if (x & mask & (~mask + 1)) out |= bit(k);  // mask & -mask: the lowest bit of mask
  return out;
}

// pdep: local offset t spread over the positions of mask.
uint32_t expand(uint32_t t, uint32_t mask) {
  uint32_t out = 0;
  for (int k = 0; mask != 0; mask &= mask - 1, ++k)
    if (t & bit(k)) out |= mask & (~mask + 1);
  return out;
}

// The route from `from` crossing dims[k], dims[k+1], ... (cyclically, each once): rotation k of
// the dimension list.
std::vector<NodeId> rotation_route(NodeId from, const std::vector<int>& dims, size_t k) {
  std::vector<NodeId> route{from};
  for (size_t i = 0; i < dims.size(); ++i) route.push_back(route.back() ^ bit(dims[(k + i) % dims.size()]));
  return route;
}

bool fault_free(const std::vector<NodeId>& route, const FaultSet& faults) {
  return std::none_of(route.begin(), route.end(), [&](NodeId x) { return faults.is_faulty(x); });
}

// Every fault-free rotation of the ascending dimensions of from ^ to (shortest paths).
std::vector<std::vector<NodeId>> fault_free_rotations(NodeId from, NodeId to, const FaultSet& faults) {
  const std::vector<int> dims = dims_of(from ^ to);
  std::vector<std::vector<NodeId>> out;
  if (dims.empty()) out.push_back({from});
  for (size_t k = 0; k < dims.size(); ++k) {
    std::vector<NodeId> route = rotation_route(from, dims, k);
    if (fault_free(route, faults)) out.push_back(std::move(route));
  }
  return out;
}

// A shortest path from -> to avoiding the faults (breadth-first from `to`, then from `from` always
// to the lowest-dimension neighbour one step closer). Aborts if `to` is unreachable.
std::vector<NodeId> bfs_route(NodeId from, NodeId to, const FaultSet& faults) {
  const int n = faults.n();
  std::vector<int> dist(faults.num_nodes(), -1);
  std::queue<NodeId> queue;
  dist[to] = 0;
  queue.push(to);
  while (!queue.empty()) {
    const NodeId x = queue.front();
    queue.pop();
    for (int j = 0; j < n; ++j) {
      const NodeId y = x ^ bit(j);
      if (dist[y] < 0 && !faults.is_faulty(y)) {
        dist[y] = dist[x] + 1;
        queue.push(y);
      }
    }
  }
  TC_CHECK(dist[from] >= 0, fmt::format("no fault-free path {} -> {}", from, to));
  std::vector<NodeId> route{from};
  while (route.back() != to) {
    const NodeId x = route.back();
    for (int j = 0; j < n; ++j)
      if (dist[x ^ bit(j)] == dist[x] - 1) {
        route.push_back(x ^ bit(j));
        break;
      }
  }
  return route;
}

// ---- The inner AAPC timetable -------------------------------------------------------------

// Per local phase t (1..2^m - 1): the local dimensions of t in crossing order and the unit offset
// of each hop. Entry 0 is unused.
struct Timetable {
  std::vector<std::vector<int>> order;
  std::vector<std::vector<int>> offset;
};

// all_port: König edge colouring of the bipartite graph phases x dimensions with
// Delta = 2^(m-1) colours (alternating-path recolouring); colour = unit offset.
Timetable all_port_timetable(int m) {
  const uint32_t phases = bit(m);
  const int colours = std::max(1, static_cast<int>(bit(m - 1)));
  // Vertices: phases 0..phases-1 (0 unused), then dimensions phases..phases+m-1.
  const uint32_t vertices = phases + static_cast<uint32_t>(m);
  std::vector<std::vector<int>> at(vertices, std::vector<int>(colours, -1));  // at[v][c]: the other end
  auto free_colour = [&](uint32_t v) {
    for (int c = 0; c < colours; ++c)
      if (at[v][c] < 0) return c;
    TC_CHECK(false, "König colouring: no free colour (degree above Delta)");
    return -1;
  };
  for (uint32_t t = 1; t < phases; ++t)
    for (int j : dims_of(t)) {
      const uint32_t u = t, v = phases + static_cast<uint32_t>(j);
      const int a = free_colour(u), b = free_colour(v);
      if (at[v][a] >= 0) {
        // Flip the a/b alternating path from v; it cannot reach u (bipartite parity), so
        // afterwards a is free at both ends.
        std::vector<std::pair<uint32_t, uint32_t>> path;
        uint32_t x = v;
        int c = a;
        while (at[x][c] >= 0) {
          const uint32_t y = static_cast<uint32_t>(at[x][c]);
          path.emplace_back(x, y);
          x = y;
          c = (c == a) ? b : a;
        }
        for (size_t k = 0; k < path.size(); ++k) {
          const int old = (k % 2 == 0) ? a : b;
          at[path[k].first][old] = at[path[k].second][old] = -1;
        }
        for (size_t k = 0; k < path.size(); ++k) {
          const int now = (k % 2 == 0) ? b : a;
          at[path[k].first][now] = static_cast<int>(path[k].second);
          at[path[k].second][now] = static_cast<int>(path[k].first);
        }
      }
      TC_CHECK(at[u][a] < 0 && at[v][a] < 0, "König colouring: colour not free after the flip");
      at[u][a] = static_cast<int>(v);
      at[v][a] = static_cast<int>(u);
    }
  Timetable tt;
  tt.order.resize(phases);
  tt.offset.resize(phases);
  for (uint32_t t = 1; t < phases; ++t)
    for (int c = 0; c < colours; ++c)
      if (at[t][c] >= 0) {
        tt.order[t].push_back(at[t][c] - static_cast<int>(phases));
        tt.offset[t].push_back(c);
      }
  return tt;
}

// one_receive / one_port: phases one after the other (t ascending), dimensions ascending.
Timetable serial_timetable(int m) {
  const uint32_t phases = bit(m);
  Timetable tt;
  tt.order.resize(phases);
  tt.offset.resize(phases);
  int unit = 0;
  for (uint32_t t = 1; t < phases; ++t)
    for (int j : dims_of(t)) {
      tt.order[t].push_back(j);
      tt.offset[t].push_back(unit++);
    }
  return tt;
}

Timetable timetable(int m, Model model) {
  return model == Model::kAllPort ? all_port_timetable(m) : serial_timetable(m);
}

// ---- A_1 inside a subcube ---------------------------------------------------------------------

// A_1 on the subcube base + span(mask) (one fault phi in it), divided along d (in mask).
// H = the half without phi, F = the half with it, p(x) = x ^ 2^d.
struct A1Cube {
  uint32_t mask = 0;
  NodeId phi = 0;
  int d = 0;
  std::vector<NodeId> h;  // nodes of H
  std::vector<NodeId> f;  // nonfaulty nodes of F

  A1Cube(uint32_t mask_in, NodeId phi_in, int d_in) : mask(mask_in), phi(phi_in), d(d_in) {
    for (NodeId x : subcube_nodes(phi, mask)) {
      if (in_h(x)) h.push_back(x);
      else if (x != phi) f.push_back(x);
    }
  }
  uint32_t hmask() const { return mask & ~bit(d); }
  bool in_h(NodeId x) const { return ((x ^ phi) & bit(d)) != 0; }
  NodeId p(NodeId x) const { return x ^ bit(d); }
};

// Places step k (1..5) of A_1 on `cube`, starting at `begin`; returns the step's end (the unit
// after its last move; `begin` if it has none).
int a1_step(ListScheduler& sched, const A1Cube& c, int k, int begin, const ScheduleOptions& options) {
  int end = begin;
  auto note = [&](int arrival) { end = std::max(end, arrival); };
  const uint32_t hmask = c.hmask();
  const uint32_t h_size = static_cast<uint32_t>(c.h.size());
  std::vector<Transfer> inner;
  switch (k) {
    case 1: {
      // Data H -> H: the inner AAPC in H. Simultaneously data F -> H cross y -> p(y), placed
      // after the inner AAPC (its timetable first; the crossings fill around it), round t
      // carrying the datum to p(y) ^ t from every y.
      for (NodeId s : c.h)
        for (NodeId w : c.h)
          if (s != w) inner.push_back(Transfer{Datum{s, w}, s, w});
      for (int a : place_inner_aapc(sched, hmask, inner, begin, options.inner)) note(a);
      for (uint32_t t = 0; t < h_size; ++t)
        for (NodeId y : c.f) {
          const NodeId route[] = {y, c.p(y)};
          note(sched.place(Datum{y, c.p(y) ^ expand(t, hmask)}, route, begin));
        }
      break;
    }
    case 2:  // data F -> H, now at p(y): the inner AAPC in H to their destinations
      for (NodeId y : c.f)
        for (NodeId w : c.h)
          if (w != c.p(y)) inner.push_back(Transfer{Datum{y, w}, c.p(y), w});
      for (int a : place_inner_aapc(sched, hmask, inner, begin, options.inner)) note(a);
      break;
    case 3:  // data H -> F: the inner AAPC in H to p(w)
      for (NodeId s : c.h)
        for (NodeId w : c.f)
          if (s != c.p(w)) inner.push_back(Transfer{Datum{s, w}, s, c.p(w)});
      for (int a : place_inner_aapc(sched, hmask, inner, begin, options.inner)) note(a);
      break;
    case 4: {
      // Data H -> F cross p(w) -> w (round t: the datum from p(w) ^ t); simultaneously data
      // F -> F cross y -> p(y) (round t: the datum to p(y) ^ t's partner).
      for (uint32_t t = 0; t < h_size; ++t)
        for (NodeId w : c.f) {
          const NodeId route[] = {c.p(w), w};
          note(sched.place(Datum{c.p(w) ^ expand(t, hmask), w}, route, begin));
        }
      for (uint32_t t = 1; t < h_size; ++t)
        for (NodeId y : c.f) {
          const NodeId w = y ^ expand(t, hmask);
          if (w == c.phi) continue;
          const NodeId route[] = {y, c.p(y)};
          note(sched.place(Datum{y, w}, route, begin));
        }
      break;
    }
    case 5: {
      // Data F -> F, at p(y): the inner AAPC in H to p(w); each crosses p(w) -> w in the order
      // of arrival at p(w).
      for (NodeId y : c.f)
        for (NodeId w : c.f)
          if (y != w) inner.push_back(Transfer{Datum{y, w}, c.p(y), c.p(w)});
      const std::vector<int> arrival = place_inner_aapc(sched, hmask, inner, begin, options.inner);
      std::vector<size_t> by_arrival(inner.size());
      std::iota(by_arrival.begin(), by_arrival.end(), size_t{0});
      std::stable_sort(by_arrival.begin(), by_arrival.end(),
                       [&](size_t a, size_t b) { return arrival[a] < arrival[b]; });
      for (size_t i : by_arrival) {
        const NodeId route[] = {inner[i].to, inner[i].datum.dest};
        note(sched.place(inner[i].datum, route, arrival[i]));
      }
      break;
    }
    default:
      TC_CHECK(false, fmt::format("A_1 has no step {}", k));
  }
  return end;
}

// ---- The two phases of A_2 / A_f (and A_1 alone) ----------------------------------------------

// The subcubes are the cosets of span(inner_mask). split(base) is the dividing dimension of A_1 in
// the faulty coset with that base (base = coset node with the inner bits zero).
struct Partition {
  uint32_t inner_mask = 0;
  uint32_t outer_mask = 0;
  std::function<int(NodeId)> split;
};

// Phase 1: A_1 in every faulty coset (shared step boundaries), the inner AAPC in every nonfaulty
// one (from `begin`). Appends the steps (prefix + "step k", or prefix "phase 1" alone when no coset
// is faulty); returns the phase's end.
int phase1(ListScheduler& sched, const Partition& part, int begin, const std::string& prefix,
           const ScheduleOptions& options, std::vector<Step>& steps) {
  const FaultSet& faults = sched.faults();
  std::vector<A1Cube> faulty;
  int other_end = begin;
  for (NodeId base : subcube_nodes(0, part.outer_mask)) {
    NodeId phi = kNone;
    for (NodeId x : faults.faulty())
      if ((x & part.outer_mask) == base) phi = x;
    if (phi != kNone) {
      faulty.emplace_back(part.inner_mask, phi, part.split(base));
    } else {
      for (int a : place_inner_aapc(sched, part.inner_mask, subcube_data(base, part.inner_mask), begin, options.inner))
        other_end = std::max(other_end, a);
    }
  }
  if (faulty.empty()) {
    steps.push_back(Step{prefix.empty() ? "phase 1" : prefix.substr(0, prefix.size() - 1), begin, other_end});
    return other_end;
  }
  int step_begin = begin;
  for (int k = 1; k <= 5; ++k) {
    int end = step_begin;
    for (const A1Cube& c : faulty) end = std::max(end, a1_step(sched, c, k, step_begin, options));
    if (k == 5) end = std::max(end, other_end);
    steps.push_back(Step{fmt::format("{}step {}", prefix, k), step_begin, end});
    step_begin = end;
  }
  return step_begin;
}

// Places `datum` on the candidate route that arrives first (ties: the first candidate); returns
// the arrival and the route taken.
std::pair<int, std::vector<NodeId>> place_earliest(ListScheduler& sched, Datum datum,
                                                   std::vector<std::vector<NodeId>> candidates, int release) {
  TC_CHECK(!candidates.empty(), "no candidate route for " + datum.to_string());
  size_t best = 0;
  int best_arrival = std::numeric_limits<int>::max();
  for (size_t k = 0; k < candidates.size(); ++k) {
    const int a = candidates.size() == 1 ? release : sched.probe(candidates[k], release);
    if (a < best_arrival) {
      best = k;
      best_arrival = a;
    }
  }
  const int arrival = sched.place(datum, candidates[best], release);
  return {arrival, std::move(candidates[best])};
}

// The candidate routes of a datum at c to w inside the coset of c (Phase 2 Step 2 after the
// exchange): e-cube in a nonfaulty coset; in a faulty one every fault-free rotation
// (kShortestFaultFree) or A_1's route through the nonfaulty half (kViaNonfaultyHalf).
std::vector<std::vector<NodeId>> inner_routes(NodeId c, NodeId w, const Partition& part, const FaultSet& faults,
                                              FaultyInnerRoutes how) {
  NodeId phi = kNone;
  for (NodeId x : faults.faulty())
    if ((x & part.outer_mask) == (c & part.outer_mask)) phi = x;
  if (c == w) return {{c}};
  if (phi == kNone) return {rotation_route(c, dims_of(c ^ w), 0)};
  if (how == FaultyInnerRoutes::kViaNonfaultyHalf) {
    const int d = part.split(c & part.outer_mask);
    const bool c_in_h = ((c ^ phi) & bit(d)) != 0, w_in_h = ((w ^ phi) & bit(d)) != 0;
    const NodeId from = c_in_h ? c : c ^ bit(d);  // enter H
    const NodeId to = w_in_h ? w : w ^ bit(d);    // leave H at p(w)
    std::vector<NodeId> route{c};
    if (from != c) route.push_back(from);
    for (int j : dims_of(from ^ to)) route.push_back(route.back() ^ bit(j));
    if (to != w) route.push_back(w);
    return {route};
  }
  auto routes = fault_free_rotations(c, w, faults);
  TC_CHECK(!routes.empty(), fmt::format("no fault-free shortest path {} -> {} in a coset with one fault", c, w));
  return routes;
}

// The straight routes of an inter-coset datum: the fault-free rotations of the outer dimensions
// of s ^ w, to the corresponding node of s in w's coset; none if every one is blocked.
std::vector<std::vector<NodeId>> straight_routes(NodeId s, NodeId w, const Partition& part, const FaultSet& faults) {
  return fault_free_rotations(s, s ^ ((s ^ w) & part.outer_mask), faults);
}

// Phase 2: Step 1 (the data that cannot go straight, or all data of the corresponding nodes of
// faults) along fault-free shortest paths; Step 2 the exchange among the cosets, round by round
// over the outer offsets r, each datum going on inside its destination coset in the order of
// arrival. Wherever several routes qualify, a datum takes the one that arrives first.
int phase2(ListScheduler& sched, const Partition& part, int begin, const ScheduleOptions& options,
           std::vector<Step>& steps) {
  const FaultSet& faults = sched.faults();
  const std::vector<NodeId> live = faults.nonfaulty();
  // column_fault[x & inner]: some fault has the inner bits of x, so x is a corresponding node of
  // a fault (or the fault); straight routes only touch nodes with the inner bits of their source.
  std::vector<bool> column_fault(faults.num_nodes(), false);
  for (NodeId phi : faults.faulty()) column_fault[phi & part.inner_mask] = true;
  auto in_step1 = [&](NodeId s, NodeId w) {
    if (!column_fault[s & part.inner_mask]) return false;
    if (options.step1 == Step1Scope::kWholeSources) return true;
    return straight_routes(s, w, part, faults).empty();
  };

  // Step 1: longest first; each datum on the fault-free rotation that arrives first, a
  // breadth-first path if every rotation is blocked.
  std::vector<Datum> first;
  for (NodeId s : live)
    for (NodeId w : live)
      if (((s ^ w) & part.outer_mask) != 0 && in_step1(s, w)) first.push_back(Datum{s, w});
  std::stable_sort(first.begin(), first.end(), [](const Datum& a, const Datum& b) {
    return std::popcount(a.source ^ a.dest) > std::popcount(b.source ^ b.dest);
  });
  int end = begin;
  for (const Datum& datum : first) {
    auto routes = fault_free_rotations(datum.source, datum.dest, faults);
    if (routes.empty()) routes.push_back(bfs_route(datum.source, datum.dest, faults));
    end = std::max(end, place_earliest(sched, datum, std::move(routes), begin).first);
  }
  steps.push_back(Step{"phase 2 step 1", begin, end});

  // Step 2: round r moves the data from every coset J to J ^ r. Per source s the data go in the
  // order of their inner phase t = (corresponding node) ^ w, longest first (t = 0, the
  // corresponding node itself, last), so that each round's exchange is a lockstep permutation.
  std::vector<uint32_t> inner_phases;
  for (uint32_t t = 0; t < bit(std::popcount(part.inner_mask)); ++t) inner_phases.push_back(t);
  std::stable_sort(inner_phases.begin(), inner_phases.end(),
                   [](uint32_t a, uint32_t b) { return std::popcount(a) > std::popcount(b); });
  const std::vector<NodeId> offsets = [&] {
    std::vector<NodeId> all = subcube_nodes(0, part.outer_mask);
    all.erase(all.begin());  // r = 0 is not a round
    return all;
  }();
  const bool sequential = options.rounds == Rounds::kSequential;
  int round_begin = end;
  const int step2_begin = end;
  int round_index = 0;
  for (NodeId r : offsets) {
    ++round_index;
    std::vector<Datum> data;
    std::vector<NodeId> corresponding;
    std::vector<int> arrival;
    int round_end = round_begin;
    for (uint32_t t : inner_phases)
      for (NodeId s : live) {
        const NodeId c = s ^ r;
        const NodeId w = c ^ expand(t, part.inner_mask);
        if (faults.is_faulty(w) || in_step1(s, w)) continue;
        data.push_back(Datum{s, w});
        corresponding.push_back(c);
        arrival.push_back(place_earliest(sched, data.back(), straight_routes(s, w, part, faults), round_begin).first);
        round_end = std::max(round_end, arrival.back());
      }
    std::vector<size_t> by_arrival(data.size());
    std::iota(by_arrival.begin(), by_arrival.end(), size_t{0});
    std::stable_sort(by_arrival.begin(), by_arrival.end(), [&](size_t a, size_t b) { return arrival[a] < arrival[b]; });
    for (size_t i : by_arrival) {
      auto routes = inner_routes(corresponding[i], data[i].dest, part, faults, options.faulty_inner);
      round_end = std::max(round_end, place_earliest(sched, data[i], std::move(routes), arrival[i]).first);
    }
    end = std::max(end, round_end);
    if (sequential) {
      steps.push_back(Step{fmt::format("phase 2 step 2 round {}", round_index), round_begin, round_end});
      round_begin = round_end;
    }
  }
  if (!sequential || offsets.empty()) steps.push_back(Step{"phase 2 step 2", step2_begin, end});
  return end;
}

Error bad(std::string message) { return invalid_argument(std::move(message)); }

}  // namespace

// ---- ListScheduler --------------------------------------------------------------------------

ListScheduler::ListScheduler(const FaultSet& faults, Model model) : faults_(faults), model_(model) {
  busy_.resize(size_t{faults.num_nodes()} * (faults.n() + 2));
}

void ListScheduler::occupy(uint32_t resource, int unit) {
  auto& words = busy_[resource];
  const size_t w = static_cast<size_t>(unit) / 64;
  if (words.size() <= w) words.resize(w + 1, 0);
  words[w] |= uint64_t{1} << (unit % 64);
}

int ListScheduler::earliest_free(int unit, uint32_t link, uint32_t receiver, uint32_t sender) const {
  auto word = [&](uint32_t r, size_t w) -> uint64_t {
    if (r == kNone || w >= busy_[r].size()) return 0;
    return busy_[r][w];
  };
  for (size_t w = static_cast<size_t>(unit) / 64;; ++w) {
    uint64_t taken = word(link, w) | word(receiver, w) | word(sender, w);
    if (w == static_cast<size_t>(unit) / 64) taken |= (uint64_t{1} << (unit % 64)) - 1;  // units < unit
    if (~taken != 0) return static_cast<int>(w * 64) + std::countr_zero(~taken);
  }
}

uint32_t ListScheduler::link_of(NodeId from, NodeId to) const {
  return from * static_cast<uint32_t>(faults_.n()) + static_cast<uint32_t>(std::countr_zero(from ^ to));
}
uint32_t ListScheduler::receiver_of(NodeId to) const {
  return model_ == Model::kAllPort ? kNone : faults_.num_nodes() * static_cast<uint32_t>(faults_.n()) + to;
}
uint32_t ListScheduler::sender_of(NodeId from) const {
  return model_ == Model::kOnePort ? faults_.num_nodes() * static_cast<uint32_t>(faults_.n() + 1) + from : kNone;
}

void ListScheduler::time_hops(std::span<const NodeId> route, int release, std::span<const int> not_before,
                              std::vector<int>& units) const {
  TC_CHECK(!route.empty(), "empty route");
  TC_CHECK(not_before.empty() || not_before.size() + 1 == route.size(), "one not_before per hop");
  const uint32_t N = faults_.num_nodes();
  TC_CHECK(route[0] < N && !faults_.is_faulty(route[0]), "route starts at a faulty node");
  units.clear();
  int unit = release;
  for (size_t k = 0; k + 1 < route.size(); ++k) {
    const NodeId from = route[k], to = route[k + 1];
    TC_CHECK(to < N && std::has_single_bit(from ^ to), fmt::format("{} -> {} is not a link", from, to));
    TC_CHECK(!faults_.is_faulty(to), fmt::format("route through faulty node {}", to));
    if (!not_before.empty()) unit = std::max(unit, not_before[k]);
    const int u = earliest_free(unit, link_of(from, to), receiver_of(to), sender_of(from));
    units.push_back(u);
    unit = u + 1;
  }
}

int ListScheduler::probe(std::span<const NodeId> route, int release, std::span<const int> not_before) const {
  time_hops(route, release, not_before, scratch_);
  return scratch_.empty() ? release : scratch_.back() + 1;
}

int ListScheduler::place(Datum datum, std::span<const NodeId> route, int release, std::span<const int> not_before) {
  std::vector<int>& units = scratch_;
  time_hops(route, release, not_before, units);
  for (size_t k = 0; k < units.size(); ++k) {
    const NodeId from = route[k], to = route[k + 1];
    TC_CHECK(from != datum.dest, fmt::format("route of {} goes on from its destination", datum.to_string()));
    const int u = units[k];
    occupy(link_of(from, to), u);
    if (receiver_of(to) != kNone) occupy(receiver_of(to), u);
    if (sender_of(from) != kNone) occupy(sender_of(from), u);
    if (units_.size() <= static_cast<size_t>(u)) units_.resize(u + 1);
    units_[u].push_back(Move{datum, from, to});
  }
  return units.empty() ? release : units.back() + 1;
}

Schedule ListScheduler::take_schedule(std::vector<Step> steps) {
  Schedule s;
  s.n = faults_.n();
  s.units = std::move(units_);
  units_.clear();
  for (auto& words : busy_) words.clear();
  s.steps = std::move(steps);
  return s;
}

// ---- Inner AAPC -----------------------------------------------------------------------------

std::string to_string(InnerMethod method) {
  switch (method) {
    case InnerMethod::kTimetable: return "timetable";
    case InnerMethod::kEcubeAscending: return "ecube_ascending";
    case InnerMethod::kEcubeRotated: return "ecube_rotated";
  }
  return "?";
}
std::string to_string(Step1Scope scope) {
  return scope == Step1Scope::kBlockedData ? "blocked_data" : "whole_sources";
}
std::string to_string(FaultyInnerRoutes routes) {
  return routes == FaultyInnerRoutes::kShortestFaultFree ? "shortest_fault_free" : "via_nonfaulty_half";
}
std::string to_string(Rounds rounds) { return rounds == Rounds::kSequential ? "sequential" : "pipelined"; }

std::vector<Transfer> subcube_data(NodeId base, uint32_t mask) {
  const std::vector<NodeId> nodes = subcube_nodes(base, mask);
  std::vector<Transfer> out;
  out.reserve(nodes.size() * (nodes.size() - 1));
  for (NodeId s : nodes)
    for (NodeId w : nodes)
      if (s != w) out.push_back(Transfer{Datum{s, w}, s, w});
  return out;
}

std::vector<int> place_inner_aapc(ListScheduler& sched, uint32_t mask, std::span<const Transfer> data, int release,
                                  InnerMethod method) {
  const int m = std::popcount(mask);
  const std::vector<int> dims = dims_of(mask);
  std::vector<int> arrival(data.size(), release);
  if (data.empty()) return arrival;
  for (const Transfer& x : data)
    TC_CHECK(x.at != x.to && ((x.at ^ x.to) & ~mask) == 0,
             fmt::format("transfer {} {} -> {} is not inside the subcube", x.datum.to_string(), x.at, x.to));
  // Bucket the transfers by phase (input order within a phase), then visit the phases in the
  // method's order.
  const uint32_t phases = bit(m);
  std::vector<uint32_t> phase_of(data.size());
  std::vector<uint32_t> start(phases + 1, 0);
  for (size_t i = 0; i < data.size(); ++i) {
    phase_of[i] = compress(data[i].at ^ data[i].to, mask);
    ++start[phase_of[i] + 1];
  }
  for (uint32_t t = 0; t < phases; ++t) start[t + 1] += start[t];
  std::vector<size_t> bucketed(data.size());
  {
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (size_t i = 0; i < data.size(); ++i) bucketed[fill[phase_of[i]]++] = i;
  }
  std::vector<uint32_t> phase_order(phases - 1);
  std::iota(phase_order.begin(), phase_order.end(), uint32_t{1});
  std::vector<NodeId> route;
  std::vector<int> hints;
  if (method == InnerMethod::kTimetable) {
    const Timetable tt = timetable(m, sched.model());
    // Earliest timetable units first (then phase), so that traffic placed before and delays push
    // the later hops, not the earlier ones.
    std::stable_sort(phase_order.begin(), phase_order.end(),
                     [&](uint32_t a, uint32_t b) { return tt.offset[a][0] < tt.offset[b][0]; });
    for (uint32_t t : phase_order)
      for (uint32_t k = start[t]; k < start[t + 1]; ++k) {
        const size_t i = bucketed[k];
        route.assign(1, data[i].at);
        hints.clear();
        for (size_t h = 0; h < tt.order[t].size(); ++h) {
          route.push_back(route.back() ^ bit(dims[tt.order[t][h]]));
          hints.push_back(release + tt.offset[t][h]);
        }
        arrival[i] = sched.place(data[i].datum, route, release, hints);
      }
    return arrival;
  }
  // Greedy e-cube: longest phases first, then phase, then input order.
  std::stable_sort(phase_order.begin(), phase_order.end(),
                   [](uint32_t a, uint32_t b) { return std::popcount(a) > std::popcount(b); });
  for (uint32_t t : phase_order)
    for (uint32_t k = start[t]; k < start[t + 1]; ++k) {
      const size_t i = bucketed[k];
      const int first = method == InnerMethod::kEcubeRotated ? static_cast<int>(compress(data[i].at, mask) % m) : 0;
      route.assign(1, data[i].at);
      for (int h = 0; h < m; ++h) {
        const int j = (first + h) % m;
        if (t & bit(j)) route.push_back(route.back() ^ bit(dims[j]));
      }
      arrival[i] = sched.place(data[i].datum, route, release);
    }
  return arrival;
}

Result<Schedule> inner_aapc(int m, Model model, InnerMethod method) {
  if (m < 1 || m > kMaxN) return bad(fmt::format("m: {} is outside 1..{}", m, kMaxN));
  const FaultSet none(m, {});
  ListScheduler sched(none, model);
  const uint32_t mask = bit(m) - 1;
  const std::vector<int> arrival = place_inner_aapc(sched, mask, subcube_data(0, mask), 0, method);
  const int end = *std::max_element(arrival.begin(), arrival.end());
  return sched.take_schedule({Step{"aapc", 0, end}});
}

// ---- A_1, A_2, A_f ----------------------------------------------------------------------------

Result<Schedule> a1(const FaultSet& faults, int d, Model model, const ScheduleOptions& options) {
  const int n = faults.n();
  if (faults.faulty().size() != 1)
    return bad(fmt::format("faults: A_1 needs exactly one fault, got {}", faults.to_string()));
  if (n < 2) return bad(fmt::format("n: A_1 needs n >= 2, got {}", n));
  if (d < 0 || d >= n) return bad(fmt::format("d: {} is not a dimension of Q_{}", d, n));
  ListScheduler sched(faults, model);
  std::vector<Step> steps;
  Partition whole{bit(n) - 1, 0, [d](NodeId) { return d; }};
  phase1(sched, whole, 0, "", options, steps);
  return sched.take_schedule(std::move(steps));
}

Result<std::pair<NodeId, NodeId>> a2_special_nodes(const FaultSet& faults, int d) {
  const int n = faults.n();
  if (faults.faulty().size() != 2)
    return bad(fmt::format("faults: A_2 needs exactly two faults, got {}", faults.to_string()));
  if (n < 3) return bad(fmt::format("n: A_2 needs n >= 3 (A_1 in each half), got {}", n));
  if (d < 0 || d >= n) return bad(fmt::format("d: {} is not a dimension of Q_{}", d, n));
  NodeId f1 = faults.faulty()[0], f2 = faults.faulty()[1];
  if (((f1 ^ f2) & bit(d)) == 0)
    return bad(fmt::format("d: the faults are not in different halves (faults {} and {} agree in bit {})", f1, f2, d));
  if ((f1 ^ f2) == bit(d))
    return bad(fmt::format("d: the faults {} and {} are neighbours along d = {}, so n_1 and n_2 would be faulty",
                           f1, f2, d));
  if (f1 & bit(d)) std::swap(f1, f2);  // f1 in Q^1 (bit d = 0)
  return std::pair<NodeId, NodeId>{f2 ^ bit(d), f1 ^ bit(d)};
}

namespace {

// The preconditions of A_2 and A_f (errors name the parameter); they are invariant under every
// automorphism of Q_n, so checking them in the caller's labels is checking them in any frame.
std::optional<Error> a2_input_error(const FaultSet& faults, int d, int d1, int d2) {
  auto special = a2_special_nodes(faults, d);
  if (!special.ok()) return special.error();
  const int n = faults.n();
  if (d1 < 0 || d1 >= n || d1 == d)
    return bad(fmt::format("d1: {} is not a dimension of Q_{} other than d = {}", d1, n, d));
  if (d2 < 0 || d2 >= n || d2 == d)
    return bad(fmt::format("d2: {} is not a dimension of Q_{} other than d = {}", d2, n, d));
  return std::nullopt;
}

std::optional<Error> af_input_error(const FaultSet& faults, uint32_t D, int d) {
  const int n = faults.n();
  const int f = static_cast<int>(faults.faulty().size());
  if (d < 0 || d >= n) return bad(fmt::format("d: {} is not a dimension of Q_{}", d, n));
  if (D >= bit(n) || std::popcount(D) != f)
    return bad(fmt::format("D: mask {:#x} must name f = |faults| = {} dimensions of Q_{}", D, f, n));
  if (D & bit(d)) return bad(fmt::format("d: {} is one of the dividing dimensions D", d));
  const uint32_t outer = (bit(n) - 1) & ~(D | bit(d));
  for (size_t a = 0; a < faults.faulty().size(); ++a)
    for (size_t b = a + 1; b < faults.faulty().size(); ++b)
      if (((faults.faulty()[a] ^ faults.faulty()[b]) & outer) == 0)
        return bad(fmt::format("D: the faults {} and {} lie in one Q_{{f+1}} (coset of span(D + {{d}}))",
                               faults.faulty()[a], faults.faulty()[b]));
  return std::nullopt;
}

// A_2 and A_f in the labels they are given (Frame::kAbsolute); inputs already checked.
Schedule a2_absolute(const FaultSet& faults, int d, int d1, int d2, Model model, const ScheduleOptions& options) {
  const int n = faults.n();
  ListScheduler sched(faults, model);
  std::vector<Step> steps;
  // Q^1 is the half with bit d = 0 (it holds n_1), Q^2 the other.
  Partition halves{(bit(n) - 1) & ~bit(d), bit(d), [d, d1, d2](NodeId base) { return (base & bit(d)) ? d2 : d1; }};
  ScheduleOptions one_round = options;
  one_round.rounds = Rounds::kPipelined;  // a single round: one step "phase 2 step 2"
  const int end = phase1(sched, halves, 0, "phase 1 ", options, steps);
  phase2(sched, halves, end, one_round, steps);
  return sched.take_schedule(std::move(steps));
}

Schedule af_absolute(const FaultSet& faults, uint32_t D, int d, Model model, const ScheduleOptions& options) {
  const int n = faults.n();
  const uint32_t inner = D | bit(d);
  const uint32_t outer = (bit(n) - 1) & ~inner;
  ListScheduler sched(faults, model);
  std::vector<Step> steps;
  Partition part{inner, outer, [d](NodeId) { return d; }};
  const int end = phase1(sched, part, 0, "phase 1 ", options, steps);
  phase2(sched, part, end, options, steps);
  return sched.take_schedule(std::move(steps));
}

FaultSet image(const FaultSet& faults, const Automorphism& g) {
  std::vector<NodeId> mapped;
  for (NodeId x : faults.faulty()) mapped.push_back(g.apply(x));
  std::sort(mapped.begin(), mapped.end());
  return FaultSet(faults.n(), std::move(mapped));
}

}  // namespace

std::string to_string(Frame frame) { return frame == Frame::kCanonical ? "canonical" : "absolute"; }

Result<Frame> parse_frame(std::string_view text) {
  for (Frame f : {Frame::kCanonical, Frame::kAbsolute})
    if (to_string(f) == text) return f;
  return bad(fmt::format("--frame: '{}' is not canonical or absolute", text));
}

Result<Schedule> a2(const FaultSet& faults, int d, int d1, int d2, Model model, const ScheduleOptions& options) {
  if (auto e = a2_input_error(faults, d, d1, d2)) return *e;
  const Automorphism g = options.frame == Frame::kCanonical ? canonical_frame(faults) : Automorphism::identity(faults.n());
  if (g.is_identity()) return a2_absolute(faults, d, d1, d2, model, options);
  // In K = g(F), Q^1 (bit d = 0) becomes the half with bit sigma(d) = t_d: with t_d = 1 the halves
  // trade places, and so do the dimensions that divide them.
  const bool swapped = (g.t >> d) & 1u;
  const int k1 = g.dim(swapped ? d2 : d1), k2 = g.dim(swapped ? d1 : d2);
  return transform(a2_absolute(image(faults, g), g.dim(d), k1, k2, model, options), g.inverse());
}

Result<Schedule> af(const FaultSet& faults, uint32_t D, int d, Model model, const ScheduleOptions& options) {
  if (auto e = af_input_error(faults, D, d)) return *e;
  const Automorphism g = options.frame == Frame::kCanonical ? canonical_frame(faults) : Automorphism::identity(faults.n());
  if (g.is_identity()) return af_absolute(faults, D, d, model, options);
  return transform(af_absolute(image(faults, g), g.dims(D), g.dim(d), model, options), g.inverse());
}

}  // namespace topocheck::aapc
