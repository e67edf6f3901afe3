// The exact minimum by search of bounds.h (Masuyama & Masuyama, papers/004, Section 3.1.2: under
// which model the "2^n - 1 time units" can hold): search_schedule decides one horizon T by a
// depth-first search over time units and slots on destination classes, exact_min_by_search deepens
// T from the best lower bound. Method, pruning, preconditions (n <= 4) and cost are stated in
// bounds.h; every schedule found is confirmed by check_schedule. One algorithm, the Search class,
// takes most of the file: its state, pruning and replay share the same count matrices.
#include "aapc/bounds.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "aapc/live_graph.h"

namespace topocheck::aapc {

std::string to_string(Feasibility f) {
  switch (f) {
    case Feasibility::kFeasible: return "feasible";
    case Feasibility::kInfeasible: return "infeasible";
    case Feasibility::kInconclusive: return "inconclusive";
  }
  return "?";
}

std::string to_string(MinimumStatus s) {
  switch (s) {
    case MinimumStatus::kMinimum: return "minimum";
    case MinimumStatus::kUnschedulable: return "unschedulable";
    case MinimumStatus::kNoneUpTo: return "none_up_to_t_max";
    case MinimumStatus::kInconclusive: return "inconclusive";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;

// Every automorphism of Q_n as a node map x -> perm(x) XOR mask (n! 2^n of them).
std::vector<std::vector<NodeId>> cube_automorphisms(int n) {
  const NodeId N = NodeId{1} << n;
  std::vector<std::vector<NodeId>> out;
  std::vector<int> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  do {
    for (NodeId mask = 0; mask < N; ++mask) {
      std::vector<NodeId> sigma(N);
      for (NodeId x = 0; x < N; ++x) {
        NodeId y = 0;
        for (int j = 0; j < n; ++j) y |= ((x >> j) & 1u) << perm[static_cast<size_t>(j)];
        sigma[x] = y ^ mask;
      }
      out.push_back(std::move(sigma));
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

// One move of a destination class in one unit: a datum with destination `dest` hops u -> w.
struct ClassMove {
  NodeId dest, u, w;
};

// The depth-first search of search_schedule (see the header). Counts are bytes: at most
// L - 1 <= 15 data share a destination (n <= 4).
class Search {
 public:
  Search(const FaultSet& faults, Model model, int units, const SearchLimits& limits, Clock::time_point deadline)
      : faults_(faults), model_(model), T_(units), limits_(limits), deadline_(deadline) {
    n_ = faults.n();
    N_ = faults.num_nodes();
    live_ = faults.nonfaulty();
    dist_ = live_distances(faults);
    // Slots: all_port, one per directed link (each carries at most one datum); the port models,
    // one per receiving node (each receives at most one datum), holding the links into it.
    for (NodeId v : live_) {
      Slot receiver;
      for (int j = 0; j < n_; ++j) {
        const NodeId x = v ^ (NodeId{1} << j);
        if (faults.is_faulty(x)) continue;
        if (model == Model::kAllPort) {
          slots_.push_back(Slot{{Link{v, x}}, {}});
        } else {
          receiver.links.push_back(Link{x, v});
        }
      }
      if (!receiver.links.empty()) slots_.push_back(std::move(receiver));
    }
    // A node's staying data are judged after the last slot that could move them.
    std::vector<int> last_slot(N_, -1);
    for (size_t s = 0; s < slots_.size(); ++s)
      for (const Link& l : slots_[s].links) last_slot[l.u] = static_cast<int>(s);
    for (NodeId v : live_)
      if (last_slot[v] >= 0) slots_[static_cast<size_t>(last_slot[v])].finishes.push_back(v);
    // slots_into_[s][X]: the slots s.. whose receiver is on side X.
    slots_into_.assign(slots_.size() + 1, {0, 0});
    for (size_t s = slots_.size(); s-- > 0;) {
      slots_into_[s] = slots_into_[s + 1];
      ++slots_into_[s][static_cast<size_t>(side_of(slots_[s].links.front().w))];
    }
    in_ports_.assign(N_, 0);
    out_ports_.assign(N_, 0);
    for (NodeId v : live_) {
      in_ports_[v] = in_ports(faults, model, v);
      out_ports_[v] = out_ports(faults, model, v);
    }
    cap_ = static_cast<int64_t>(hop_capacity(faults, model));
    for (int side = 0; side < 2; ++side) side_cap_[side] = static_cast<int64_t>(side_capacity(faults, model, side));
    for (int j = 0; j < n_; ++j)
      for (int a = 0; a < 2; ++a) cut_cap_.push_back(static_cast<int64_t>(cut_links(faults, j, a)));
    if (n_ <= 3) build_automorphisms();
    comp_ = components_without(faults);
    for (NodeId v : live_)
      for (NodeId x : live_)
        if (comp_[uint64_t{v} * N_ + x] > 0) has_cut_vertex_ = true;
    const size_t frames = static_cast<size_t>(T_) + 1;
    cnt_.assign(frames, std::vector<uint8_t>(uint64_t{N_} * N_, 0));
    avail_ = next_ = cnt_;
    send_used_.assign(frames, std::vector<char>(N_, 0));
    h_next_.assign(frames, 0);
    side_next_.assign(frames, {0, 0});
    into_now_.assign(frames, {0, 0});
    moves_.assign(frames, {});
    for (NodeId s : live_)
      for (NodeId i : live_)
        if (s != i) cnt_[0][uint64_t{s} * N_ + i] = 1;
  }

  HorizonSearch run() {
    const auto start = Clock::now();
    HorizonSearch out;
    bool found = false;
    if (!limits_.prune_with_bounds || state_ok(cnt_[0], T_)) found = unit_start(0);
    out.nodes = nodes_;
    out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (found) {
      out.answer = Feasibility::kFeasible;
      out.schedule = replay();
    } else {
      out.answer = aborted_ ? Feasibility::kInconclusive : Feasibility::kInfeasible;
    }
    return out;
  }

 private:
  struct Link {
    NodeId u, w;
  };
  struct Slot {
    std::vector<Link> links;      // at most one of them carries one datum per unit
    std::vector<NodeId> finishes;  // nodes whose last outgoing link is in this slot
  };
  static constexpr int kMaxOptions = 4 * 15 + 1;  // n <= 4 links of a slot, 15 classes each, none

  int d(NodeId a, NodeId b) const { return dist_[uint64_t{a} * N_ + b]; }
  // Hops of a shortest path from p to i that end on side x (see side_arrivals).
  int64_t arrivals(NodeId p, NodeId i, int x) const { return side_of(p) == x ? d(p, i) / 2 : (d(p, i) + 1) / 2; }
  size_t at(NodeId pos, NodeId dest) const { return uint64_t{pos} * N_ + dest; }

  // Necessary conditions for delivering everything of `c` within k units (the bounds of the
  // header, restricted to the undelivered data).
  bool state_ok(const std::vector<uint8_t>& c, int k) const {
    int64_t hops = 0;
    int64_t to_side[2] = {0, 0};
    std::vector<int64_t> to_cut(cut_cap_.size(), 0);
    // by_distance[v * (k + 1) + d]: data at v at distance d (leaving), data for v at distance d
    // (arriving).
    const size_t row = static_cast<size_t>(k) + 1;
    std::vector<int64_t> leaving(N_ * row, 0), arriving(N_ * row, 0);
    for (NodeId u : live_) {
      for (NodeId i : live_) {
        const int64_t m = c[at(u, i)];
        if (m == 0 || u == i) continue;
        if (d(u, i) > k) return false;
        hops += m * d(u, i);
        to_side[side_of(u)] += m * (d(u, i) / 2);
        to_side[1 - side_of(u)] += m * ((d(u, i) + 1) / 2);
        leaving[u * row + static_cast<size_t>(d(u, i))] += m;
        arriving[i * row + static_cast<size_t>(d(u, i))] += m;
        for (int j = 0; j < n_; ++j) {
          const NodeId bu = (u >> j) & 1u, bi = (i >> j) & 1u;
          if (bu != bi) to_cut[static_cast<size_t>(2 * j) + bu] += m;
        }
      }
    }
    if (hops > cap_ * k) return false;
    for (int side = 0; side < 2; ++side)
      if (to_side[side] > side_cap_[side] * k) return false;
    for (size_t x = 0; x < to_cut.size(); ++x)
      if (to_cut[x] > cut_cap_[x] * k) return false;
    // Deadlines: a datum at distance d leaves its node in one of the units 1 .. k - d + 1 and
    // arrives in one of the units d .. k (counted among the k left); per unit a node sends at most
    // out_ports and receives at most in_ports data. So for each j = 1..k, the data at v with
    // d >= j leave v within k - j + 1 units and the data for v with d >= j arrive within k - j + 1.
    for (NodeId v : live_) {
      int64_t late_leaving = 0, late_arriving = 0;
      for (int j = k; j >= 1; --j) {
        late_leaving += leaving[v * row + static_cast<size_t>(j)];
        late_arriving += arriving[v * row + static_cast<size_t>(j)];
        if (late_leaving > int64_t{out_ports_[v]} * (k - j + 1)) return false;
        if (late_arriving > int64_t{in_ports_[v]} * (k - j + 1)) return false;
      }
      // Data that v separates pass through it: one more reception and sending each.
      if (!has_cut_vertex_) continue;
      const int* cv = &comp_[uint64_t{v} * N_];
      int64_t through = 0;
      for (NodeId p : live_)
        for (NodeId i : live_)
          if (p != i && cv[p] >= 0 && cv[i] >= 0 && cv[p] != cv[i]) through += c[at(p, i)];
      if (late_arriving + through > int64_t{in_ports_[v]} * k) return false;
      if (late_leaving + through > int64_t{out_ports_[v]} * k) return false;
    }
    return true;
  }

  bool out_of_budget() {
    ++nodes_;
    if (aborted_) return true;
    if (limits_.max_nodes != 0 && nodes_ > limits_.max_nodes) aborted_ = true;
    if ((nodes_ & 1023u) == 0 && deadline_ != Clock::time_point::max() && Clock::now() > deadline_) aborted_ = true;
    return aborted_;
  }

  bool unit_start(int t) {
    if (t == T_) return all_delivered(cnt_[static_cast<size_t>(t)]);
    const size_t f = static_cast<size_t>(t);
    avail_[f] = cnt_[f];
    next_[f] = cnt_[f];
    std::fill(send_used_[f].begin(), send_used_[f].end(), 0);
    int64_t h = 0;
    for (NodeId u : live_)
      for (NodeId i : live_)
        if (u != i) h += int64_t{cnt_[f][at(u, i)]} * d(u, i);
    h_next_[f] = h;
    side_next_[f] = {0, 0};
    for (NodeId u : live_)
      for (NodeId i : live_)
        if (u != i)
          for (int x = 0; x < 2; ++x) side_next_[f][static_cast<size_t>(x)] += int64_t{cnt_[f][at(u, i)]} * arrivals(u, i, x);
    into_now_[f] = {0, 0};
    moves_[f].clear();
    return slot_dfs(t, 0);
  }

  bool all_delivered(const std::vector<uint8_t>& c) const {
    for (NodeId u : live_)
      for (NodeId i : live_)
        if (u != i && c[at(u, i)] != 0) return false;
    return true;
  }

  bool slot_dfs(int t, size_t si) {
    if (out_of_budget()) return false;
    if (si == slots_.size()) return end_unit(t);
    const size_t f = static_cast<size_t>(t);
    const int k = T_ - t;  // units left, this one included
    const Slot& slot = slots_[si];
    std::vector<uint8_t>& avail = avail_[f];
    std::vector<uint8_t>& next = next_[f];
    // Options: progress moves (those with distance k first, then the nearest: delivering early
    // found schedules at once on Q_3 where farthest-first wandered for minutes), none, detours.
    struct Option {
      Link link;
      NodeId dest;
      int key;
    };
    Option options[kMaxOptions];
    int num = 0;
    for (const Link& link : slot.links) {
      if (model_ == Model::kOnePort && send_used_[f][link.u]) continue;
      for (NodeId i : live_) {
        if (i == link.u || avail[at(link.u, i)] == 0) continue;
        const int du = d(link.u, i), dw = d(link.w, i);
        if (dw > k - 1) continue;  // could not arrive any more
        options[num++] = Option{link, i, dw < du ? (du == k ? 1000 : 100 - du) : 10 - dw};
      }
    }
    options[num++] = Option{Link{0, 0}, N_, 50};  // none: the slot idles in this unit
    std::stable_sort(options, options + num, [](const Option& a, const Option& b) { return a.key > b.key; });
    for (int o = 0; o < num; ++o) {
      const Link link = options[o].link;
      const NodeId i = options[o].dest;
      const bool move = i != N_;
      if (move) {
        --avail[at(link.u, i)];
        --next[at(link.u, i)];
        ++next[at(link.w, i)];
        h_next_[f] += d(link.w, i) - d(link.u, i);
        for (int x = 0; x < 2; ++x)
          side_next_[f][static_cast<size_t>(x)] += arrivals(link.w, i, x) - arrivals(link.u, i, x);
        ++into_now_[f][static_cast<size_t>(side_of(link.w))];
        send_used_[f][link.u] = 1;
        moves_[f].push_back(ClassMove{i, link.u, link.w});
      }
      // Each slot left carries at most one hop of progress.
      const int64_t slots_left = static_cast<int64_t>(slots_.size() - si - 1);
      bool ok = !limits_.prune_with_bounds || h_next_[f] - slots_left <= cap_ * (k - 1);
      // Likewise per side: a hop into X lowers the arrivals X still needs by at most one.
      for (size_t x = 0; x < 2 && ok && limits_.prune_with_bounds; ++x) {
        const int64_t possible = std::min(slots_into_[si + 1][x], side_cap_[x] - into_now_[f][x]);
        if (side_next_[f][x] - possible > side_cap_[x] * (k - 1)) ok = false;
      }
      // Every datum that stays must be within k - 1 of its destination after this unit.
      for (NodeId u : slot.finishes)
        for (NodeId c : live_)
          if (ok && c != u && avail[at(u, c)] != 0 && d(u, c) > k - 1) ok = false;
      if (ok && slot_dfs(t, si + 1)) return true;
      if (move) {
        ++avail[at(link.u, i)];
        ++next[at(link.u, i)];
        --next[at(link.w, i)];
        h_next_[f] -= d(link.w, i) - d(link.u, i);
        for (int x = 0; x < 2; ++x)
          side_next_[f][static_cast<size_t>(x)] -= arrivals(link.w, i, x) - arrivals(link.u, i, x);
        --into_now_[f][static_cast<size_t>(side_of(link.w))];
        send_used_[f][link.u] = 0;
        moves_[f].pop_back();
      }
      if (aborted_) return false;
    }
    return false;
  }

  bool end_unit(int t) {
    const size_t f = static_cast<size_t>(t);
    if (t + 1 == T_) return all_delivered(next_[f]);
    if (limits_.prune_with_bounds && !state_ok(next_[f], T_ - t - 1)) return false;
    std::string key = canonical(next_[f]);
    key.push_back(static_cast<char>(t + 1));
    if (dead_.count(key)) return false;
    cnt_[f + 1] = next_[f];
    if (unit_start(t + 1)) return true;
    if (!aborted_) dead_.insert(std::move(key));
    return false;
  }

  // Automorphisms of Q_n mapping F onto itself: x -> perm(x) XOR mask.
  void build_automorphisms() {
    for (std::vector<NodeId>& sigma : cube_automorphisms(n_)) {
      bool keeps = true;
      for (NodeId x = 0; x < N_; ++x) keeps = keeps && faults_.is_faulty(x) == faults_.is_faulty(sigma[x]);
      if (keeps) autos_.push_back(std::move(sigma));
    }
  }

  // The smallest image of the count matrix under the automorphisms (the matrix itself without).
  std::string canonical(const std::vector<uint8_t>& c) const {
    std::string best(c.begin(), c.end());
    std::string img(c.size(), '\0');
    for (const std::vector<NodeId>& s : autos_) {
      for (NodeId u = 0; u < N_; ++u)
        for (NodeId i = 0; i < N_; ++i) img[at(s[u], s[i])] = static_cast<char>(c[at(u, i)]);
      if (img < best) best = img;
    }
    return best;
  }

  // The found class moves as concrete data: any datum of the class at the node that has not moved
  // in this unit (they are interchangeable).
  Schedule replay() const {
    Schedule s;
    s.n = n_;
    std::vector<std::vector<std::vector<Datum>>> bucket(N_, std::vector<std::vector<Datum>>(N_));
    for (NodeId src : live_)
      for (NodeId i : live_)
        if (src != i) bucket[src][i].push_back(Datum{src, i});
    for (int t = 0; t < T_; ++t) {
      auto next = bucket;
      std::vector<Move> unit;
      for (const ClassMove& m : moves_[static_cast<size_t>(t)]) {
        std::vector<Datum>& here = bucket[m.u][m.dest];
        TC_CHECK(!here.empty(), "search replay: no datum of the class at the node");
        const Datum datum = here.back();
        here.pop_back();
        auto& stay = next[m.u][m.dest];
        stay.erase(std::find(stay.begin(), stay.end(), datum));
        if (m.w != m.dest) next[m.w][m.dest].push_back(datum);
        unit.push_back(Move{datum, m.u, m.w});
      }
      s.units.push_back(std::move(unit));
      bucket = std::move(next);
    }
    return s;
  }

  const FaultSet& faults_;
  Model model_;
  int T_;
  SearchLimits limits_;
  Clock::time_point deadline_;
  int n_ = 0;
  NodeId N_ = 0;
  std::vector<NodeId> live_;
  std::vector<int> dist_;
  std::vector<Slot> slots_;
  std::vector<int> in_ports_, out_ports_;
  int64_t cap_ = 0;
  int64_t side_cap_[2] = {0, 0};
  std::vector<int64_t> cut_cap_;  // index 2 j + a: links of dimension j from side a
  std::vector<std::vector<NodeId>> autos_;
  std::vector<int> comp_;  // components_without
  bool has_cut_vertex_ = false;
  // Per unit t (frame t): counts at the start, not yet moved, after the unit; ports used.
  std::vector<std::vector<uint8_t>> cnt_, avail_, next_;
  std::vector<std::vector<char>> send_used_;
  std::vector<int64_t> h_next_;  // sum of distances over next_
  std::vector<std::array<int64_t, 2>> side_next_;  // side arrivals still needed after the unit
  std::vector<std::array<int64_t, 2>> into_now_;   // hops into each side so far in the unit
  std::vector<std::array<int64_t, 2>> slots_into_;
  std::vector<std::vector<ClassMove>> moves_;
  std::unordered_set<std::string> dead_;
  uint64_t nodes_ = 0;
  bool aborted_ = false;
};

Clock::time_point deadline_of(double seconds) {
  if (seconds <= 0) return Clock::time_point::max();
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

HorizonSearch search_until(const FaultSet& faults, Model model, int units, const SearchLimits& limits,
                           Clock::time_point deadline) {
  TC_CHECK(faults.n() <= 4, "search_schedule: n > 4");
  TC_CHECK(units >= 0, "search_schedule: negative number of units");
  // Search the isomorphic fault set with the smallest mask (sum of 2^x over faulty x), so that
  // the work does not depend on how the faults are labelled; map the schedule back.
  const NodeId N = faults.num_nodes();
  std::vector<NodeId> best_sigma;
  uint64_t best_mask = 0;
  for (std::vector<NodeId>& sigma : cube_automorphisms(faults.n())) {
    uint64_t mask = 0;
    for (NodeId x : faults.faulty()) mask |= uint64_t{1} << sigma[x];
    if (best_sigma.empty() || mask < best_mask) best_mask = mask, best_sigma = std::move(sigma);
  }
  std::vector<NodeId> image, inverse(N);
  for (NodeId x : faults.faulty()) image.push_back(best_sigma[x]);
  for (NodeId x = 0; x < N; ++x) inverse[best_sigma[x]] = x;
  const FaultSet canonical(faults.n(), std::move(image));
  Search search(canonical, model, units, limits, deadline);
  HorizonSearch out = search.run();
  if (out.answer == Feasibility::kFeasible) {
    for (std::vector<Move>& unit : out.schedule.units)
      for (Move& m : unit)
        m = Move{Datum{inverse[m.datum.source], inverse[m.datum.dest]}, inverse[m.from], inverse[m.to]};
    const ScheduleCheck check = check_schedule(out.schedule, faults, model);
    TC_CHECK(check.ok, "search_schedule found a schedule check_schedule rejects: " + check.violation);
  }
  return out;
}

}  // namespace

HorizonSearch search_schedule(const FaultSet& faults, Model model, int units, const SearchLimits& limits) {
  return search_until(faults, model, units, limits, deadline_of(limits.max_seconds));
}

ExactSearchResult exact_min_by_search(const FaultSet& faults, Model model, int t_max, const SearchLimits& limits) {
  TC_CHECK(faults.n() <= 4, "exact_min_by_search: n > 4");
  TC_CHECK(t_max >= 0, "exact_min_by_search: negative t_max");
  ExactSearchResult out;
  const auto start = Clock::now();
  const LowerBounds bounds = lower_bounds(faults, model);
  out.lower_bound = bounds.best;
  if (!bounds.schedulable) {
    out.status = MinimumStatus::kUnschedulable;
    return out;
  }
  const Clock::time_point deadline = deadline_of(limits.max_seconds);
  out.status = MinimumStatus::kNoneUpTo;
  for (int T = bounds.best; T <= t_max; ++T) {
    SearchLimits per_call = limits;
    if (limits.max_nodes != 0) per_call.max_nodes = limits.max_nodes > out.nodes ? limits.max_nodes - out.nodes : 1;
    HorizonSearch h = search_until(faults, model, T, per_call, deadline);
    out.nodes += h.nodes;
    if (h.answer == Feasibility::kFeasible) {
      out.status = MinimumStatus::kMinimum;
      out.min_units = T;
      out.schedule = std::move(h.schedule);
      break;
    }
    if (h.answer == Feasibility::kInconclusive) {
      out.status = MinimumStatus::kInconclusive;
      break;
    }
    out.last_infeasible = T;
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

}  // namespace topocheck::aapc
