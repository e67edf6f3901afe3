#include "aapc/bounds.h"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace topocheck::aapc {
namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

int as_units(uint64_t v) {
  TC_CHECK(v <= static_cast<uint64_t>(INT32_MAX), "bound does not fit an int");
  return static_cast<int>(v);
}

// Nonfaulty neighbours of v.
int live_degree(const FaultSet& faults, NodeId v) {
  int deg = 0;
  for (int j = 0; j < faults.n(); ++j) deg += faults.is_faulty(v ^ (NodeId{1} << j)) ? 0 : 1;
  return deg;
}

// Per unit, how many data can enter (in) and leave (out) v under the model.
int in_ports(const FaultSet& faults, Model model, NodeId v) {
  const int deg = live_degree(faults, v);
  return model == Model::kAllPort ? deg : std::min(deg, 1);
}
int out_ports(const FaultSet& faults, Model model, NodeId v) {
  const int deg = live_degree(faults, v);
  return model == Model::kOnePort ? std::min(deg, 1) : deg;
}

// Directed dimension-j links from side a (bit j = a) to the other side, both ends nonfaulty.
uint64_t cut_links(const FaultSet& faults, int j, int a) {
  uint64_t c = 0;
  for (NodeId x : faults.nonfaulty())
    if (((x >> j) & 1u) == static_cast<NodeId>(a) && !faults.is_faulty(x ^ (NodeId{1} << j))) ++c;
  return c;
}

// A maximum matching of the graph on the nonfaulty nodes (bipartite: even and odd sides), by
// augmenting paths from the even side (Kuhn), O(N^2 n).
uint64_t max_matching(const FaultSet& faults) {
  const NodeId N = faults.num_nodes();
  constexpr NodeId kNone = ~NodeId{0};
  std::vector<NodeId> mate(N, kNone);  // mate[odd node] = its even partner
  std::vector<char> seen(N, 0);
  auto augment = [&](auto& self, NodeId u) -> bool {
    for (int j = 0; j < faults.n(); ++j) {
      const NodeId w = u ^ (NodeId{1} << j);
      if (faults.is_faulty(w) || seen[w]) continue;
      seen[w] = 1;
      if (mate[w] == kNone || self(self, mate[w])) {
        mate[w] = u;
        return true;
      }
    }
    return false;
  };
  uint64_t size = 0;
  for (NodeId u : faults.nonfaulty()) {
    if (side_of(u) != 0) continue;
    std::fill(seen.begin(), seen.end(), 0);
    if (augment(augment, u)) ++size;
  }
  return size;
}

// comp[v * N + x]: the component of x in the graph on the nonfaulty nodes without v (-1 for a
// faulty x, for x = v and for every x when v is faulty). O(N^2 n).
std::vector<int> components_without(const FaultSet& faults) {
  const NodeId N = faults.num_nodes();
  std::vector<int> comp(uint64_t{N} * N, -1);
  std::vector<NodeId> queue;
  for (NodeId v : faults.nonfaulty()) {
    int* c = &comp[uint64_t{v} * N];
    int label = 0;
    for (NodeId s : faults.nonfaulty()) {
      if (s == v || c[s] >= 0) continue;
      c[s] = label;
      queue.assign(1, s);
      for (size_t head = 0; head < queue.size(); ++head)
        for (int j = 0; j < faults.n(); ++j) {
          const NodeId w = queue[head] ^ (NodeId{1} << j);
          if (w == v || faults.is_faulty(w) || c[w] >= 0) continue;
          c[w] = label;
          queue.push_back(w);
        }
      ++label;
    }
  }
  return comp;
}

}  // namespace

uint64_t side_capacity(const FaultSet& faults, Model model, int side) {
  uint64_t c = 0;
  switch (model) {
    case Model::kAllPort:  // every link between nonfaulty nodes has one direction into the side
      for (NodeId v : faults.nonfaulty())
        if (side_of(v) == side) c += static_cast<uint64_t>(live_degree(faults, v));
      return c;
    case Model::kOneReceive:
      for (NodeId v : faults.nonfaulty())
        if (side_of(v) == side && live_degree(faults, v) > 0) ++c;
      return c;
    case Model::kOnePort: return max_matching(faults);
  }
  return c;
}

uint64_t hop_capacity(const FaultSet& faults, Model model) {
  return side_capacity(faults, model, 0) + side_capacity(faults, model, 1);
}

uint64_t side_arrivals(const FaultSet& faults, int side) {
  const NodeId N = faults.num_nodes();
  const std::vector<int> dist = live_distances(faults);
  uint64_t a = 0;
  for (NodeId j : faults.nonfaulty())
    for (NodeId i : faults.nonfaulty()) {
      const int d = dist[uint64_t{j} * N + i];
      TC_CHECK(d >= 0, "side_arrivals: nonfaulty nodes without a fault-free path");
      a += static_cast<uint64_t>(side_of(j) == side ? d / 2 : (d + 1) / 2);
    }
  return a;
}

std::vector<int> live_distances(const FaultSet& faults) {
  const NodeId N = faults.num_nodes();
  std::vector<int> dist(uint64_t{N} * N, -1);
  std::vector<NodeId> queue;
  queue.reserve(N);
  for (NodeId s = 0; s < N; ++s) {
    if (faults.is_faulty(s)) continue;
    int* row = &dist[uint64_t{s} * N];
    row[s] = 0;
    queue.assign(1, s);
    for (size_t head = 0; head < queue.size(); ++head) {
      const NodeId u = queue[head];
      for (int j = 0; j < faults.n(); ++j) {
        const NodeId w = u ^ (NodeId{1} << j);
        if (faults.is_faulty(w) || row[w] >= 0) continue;
        row[w] = row[u] + 1;
        queue.push_back(w);
      }
    }
  }
  return dist;
}

LowerBounds lower_bounds(const FaultSet& faults, Model model) {
  LowerBounds out;
  const NodeId N = faults.num_nodes();
  const std::vector<NodeId> live = faults.nonfaulty();
  const uint64_t L = live.size();
  const uint64_t D = L == 0 ? 0 : L * (L - 1);
  const std::vector<int> dist = live_distances(faults);
  auto d = [&](NodeId a, NodeId b) { return dist[uint64_t{a} * N + b]; };
  for (NodeId a : live)
    for (NodeId b : live)
      if (d(a, b) < 0) {
        out.schedulable = false;
        out.bounds.push_back(LowerBound{
            "connectivity",
            fmt::format("no schedule: nonfaulty nodes {} and {} have no fault-free path, so the datum {} "
                        "cannot be delivered",
                        a, b, Datum{a, b}.to_string()),
            0});
        return out;
      }

  // distance
  {
    int best = 0;
    NodeId ba = 0, bb = 0;
    for (NodeId a : live)
      for (NodeId b : live)
        if (d(a, b) > best) best = d(a, b), ba = a, bb = b;
    out.bounds.push_back(LowerBound{
        "distance",
        L < 2 ? std::string("distance: fewer than two nonfaulty nodes, no data: 0")
              : fmt::format("distance: the largest fault-free distance between two nonfaulty nodes, dist({}, {}) = {}; "
                            "a datum hops at most once per unit",
                            ba, bb, best),
        best});
  }
  // receive and send
  const char* in_words = model == Model::kAllPort ? "one per incoming link from a nonfaulty neighbour"
                                                  : "one per unit at a node (one_receive/one_port)";
  const char* out_words = model == Model::kOnePort ? "one per unit from a node (one_port)"
                                                   : "one per outgoing link to a nonfaulty neighbour";
  // separated[v]: ordered pairs (a, b) of other nonfaulty nodes whose every fault-free path
  // passes through v (a and b in different components of the graph without v).
  std::vector<uint64_t> separated(N, 0);
  {
    const std::vector<int> comp = components_without(faults);
    for (NodeId v : live) {
      std::vector<uint64_t> size(N, 0);
      for (NodeId x : live)
        if (comp[uint64_t{v} * N + x] >= 0) ++size[static_cast<size_t>(comp[uint64_t{v} * N + x])];
      uint64_t same = 0;
      for (uint64_t c : size) same += c * c;
      separated[v] = (L - 1) * (L - 1) - same;
    }
  }
  for (int sending = 0; sending < 2; ++sending) {
    uint64_t best = 0;
    NodeId at = 0;
    int ports_at = 0;
    for (size_t k = 0; k < live.size(); ++k) {
      const NodeId v = live[k];
      const int ports = sending ? out_ports(faults, model, v) : in_ports(faults, model, v);
      const uint64_t b = L < 2 ? 0 : ceil_div(L - 1 + separated[v], static_cast<uint64_t>(ports));
      if (k == 0 || b > best) best = b, at = v, ports_at = ports;
    }
    const uint64_t own = L == 0 ? 0 : L - 1, through = separated[at];
    out.bounds.push_back(LowerBound{
        sending ? "send" : "receive",
        fmt::format("{}: node {} must {} L - 1 = {} data and forward the {} data it separates (every fault-free "
                    "path of theirs passes through it), at most {} per unit ({}): ceil({} / {}) = {}",
                    sending ? "send" : "receive", at, sending ? "send its" : "receive", own, through, ports_at,
                    sending ? out_words : in_words, own + through, ports_at, best),
        as_units(best)});
  }
  // link_load
  {
    uint64_t hops = 0;
    for (NodeId a : live)
      for (NodeId b : live) hops += static_cast<uint64_t>(d(a, b));
    const uint64_t cap = hop_capacity(faults, model);
    const uint64_t b = ceil_div(hops, cap);
    out.bounds.push_back(LowerBound{
        "link_load",
        fmt::format("link_load: the D = {} data need at least sum dist = {} hops, at most C = {} per unit ({}): "
                    "ceil({} / {}) = {}",
                    D, hops, cap,
                    model == Model::kAllPort      ? "directed links between nonfaulty nodes"
                    : model == Model::kOneReceive ? "nonfaulty nodes with a nonfaulty neighbour, one hop ends at each"
                                                  : "twice a maximum matching: the hops of a unit into either side "
                                                    "pair distinct senders with distinct receivers",
                    hops, cap, b),
        as_units(b)});
  }
  // sides
  for (int side = 0; side < 2; ++side) {
    const uint64_t arrivals = side_arrivals(faults, side);
    const uint64_t cap = side_capacity(faults, model, side);
    const uint64_t b = ceil_div(arrivals, cap);
    const char* cap_words = model == Model::kAllPort      ? "links into the side"
                            : model == Model::kOneReceive ? "nodes of the side with a nonfaulty neighbour, one each"
                                                          : "a maximum matching of the fault-free graph";
    out.bounds.push_back(LowerBound{
        side ? "side_odd" : "side_even",
        fmt::format("{0}: shortest paths end {1} hops at {2} nodes (ceil(d/2) per datum from the other side, "
                    "floor(d/2) from this side; a detour adds one), at most {3} per unit ({4}): ceil({1} / {3}) = {5}",
                    side ? "side_odd" : "side_even", arrivals, side ? "odd" : "even", cap, cap_words, b),
        as_units(b)});
  }
  // cuts
  for (int j = 0; j < faults.n(); ++j)
    for (int a = 0; a < 2; ++a) {
      uint64_t side_a = 0, side_b = 0;
      for (NodeId x : live) (((x >> j) & 1u) == static_cast<NodeId>(a) ? side_a : side_b) += 1;
      const uint64_t links = cut_links(faults, j, a);
      const uint64_t b = ceil_div(side_a * side_b, links);
      out.bounds.push_back(LowerBound{
          fmt::format("cut_d{}_{}to{}", j, a, 1 - a),
          fmt::format("cut_d{0}_{1}to{2}: {3} data from the {4} nonfaulty nodes with bit {0} = {1} to the {5} with bit "
                      "{0} = {2} cross the {6} nonfaulty dimension-{0} links that way, one each per unit: "
                      "ceil({3} / {6}) = {7}",
                      j, a, 1 - a, side_a * side_b, side_a, side_b, links, b),
          as_units(b)});
    }
  for (const LowerBound& b : out.bounds)
    if (out.attained_by.empty() || b.units > out.best) {
      out.best = b.units;
      out.attained_by = b.name;
    }
  return out;
}

// Closed form for the fault-free Q_n (N = 2^n, every node has degree n). Each node has C(n, k)
// nodes at distance k and sum_k k C(n, k) = n 2^(n-1), so the data need N n 2^(n-1) hops in all.
//   all_port: link_load = N n 2^(n-1) / (n N) = 2^(n-1); cut = 2^(n-1) 2^(n-1) / 2^(n-1) = 2^(n-1);
//     distance n <= 2^(n-1) and receive = send = ceil((2^n - 1) / n) <= 2^(n-1) (as
//     2^n - 1 <= n 2^(n-1) for n >= 1). Best: 2^(n-1).
//   one_receive, one_port: link_load = N n 2^(n-1) / N = n 2^(n-1); receive = 2^n - 1 <= n 2^(n-1)
//     (equal for n = 1, and n 2^(n-1) >= 2^n for n >= 2); send <= 2^n - 1; cut 2^(n-1); distance n.
//     Best: n 2^(n-1).
int fault_free_lower_bound(int n, Model model) {
  TC_CHECK(n >= 1 && n <= kMaxN, "fault_free_lower_bound: n outside 1..kMaxN");
  return model == Model::kAllPort ? (1 << (n - 1)) : n * (1 << (n - 1));
}

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

namespace {

// splitmix64 steps: a portable stream for the greedy's noise.
struct Noise {
  uint64_t state;
  double unit() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
  }
};

// Minimum-cost perfect assignment of rows to columns of a square matrix (Hungarian method with
// potentials, O(N^3)); returns column of each row.
std::vector<int> min_cost_assignment(const std::vector<double>& cost, int N) {
  const double inf = 1e300;
  std::vector<double> u(N + 1, 0), v(N + 1, 0);
  std::vector<int> p(N + 1, 0), way(N + 1, 0);
  for (int i = 1; i <= N; ++i) {
    p[0] = i;
    int j0 = 0;
    std::vector<double> minv(N + 1, inf);
    std::vector<char> used(N + 1, 0);
    do {
      used[j0] = 1;
      const int i0 = p[j0];
      int j1 = 0;
      double delta = inf;
      for (int j = 1; j <= N; ++j)
        if (!used[j]) {
          const double cur = cost[(i0 - 1) * N + (j - 1)] - u[i0] - v[j];
          if (cur < minv[j]) {
            minv[j] = cur;
            way[j] = j0;
          }
          if (minv[j] < delta) {
            delta = minv[j];
            j1 = j;
          }
        }
      for (int j = 0; j <= N; ++j) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] != 0);
    do {
      const int j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0);
  }
  std::vector<int> column(N, -1);
  for (int j = 1; j <= N; ++j)
    if (p[j]) column[p[j] - 1] = j - 1;
  return column;
}

}  // namespace

GreedyResult greedy_schedule(const FaultSet& faults, Model model, int trials, uint64_t seed, int stop_at) {
  GreedyResult out;
  const int n = faults.n();
  const int N = static_cast<int>(faults.num_nodes());
  const std::vector<int> dist = live_distances(faults);
  struct Item {
    NodeId at, source, dest;
  };
  for (NodeId a : faults.nonfaulty())
    for (NodeId b : faults.nonfaulty())
      if (dist[a * N + b] < 0) return out;  // unschedulable: no fault-free path from a to b
  Noise noise{seed};
  for (int trial = 0; trial < trials; ++trial) {
    ++out.trials_run;
    const double scale = trial == 0 ? 0.0 : 30.0 * noise.unit();
    std::vector<Item> data;
    for (NodeId a : faults.nonfaulty())
      for (NodeId b : faults.nonfaulty())
        if (a != b && dist[a * N + b] > 0) data.push_back(Item{a, a, b});
    Schedule schedule;
    schedule.n = n;
    const int cap = out.found ? out.units : 64 * N;  // a trial longer than the best is abandoned
    std::vector<double> weight(static_cast<size_t>(N) * N);
    std::vector<int> pick(static_cast<size_t>(N) * N);
    std::vector<char> link_busy(static_cast<size_t>(N) * n), received(N);
    while (!data.empty() && schedule.num_units() < cap) {
      std::vector<Move> moves;
      std::vector<size_t> moved;
      if (model == Model::kOnePort) {
        std::fill(weight.begin(), weight.end(), 0.0);
        std::fill(pick.begin(), pick.end(), -1);
        for (size_t i = 0; i < data.size(); ++i) {
          const Item& d = data[i];
          const int here = dist[d.dest * N + d.at];
          for (int k = 0; k < n; ++k) {
            const NodeId v = d.at ^ (NodeId{1} << k);
            if (faults.is_faulty(v) || dist[d.dest * N + v] != here - 1) continue;
            const double w = 1000 + 10.0 * here + scale * noise.unit();
            if (-w < weight[d.at * N + v]) {
              weight[d.at * N + v] = -w;
              pick[d.at * N + v] = static_cast<int>(i);
            }
          }
        }
        const std::vector<int> column = min_cost_assignment(weight, N);
        for (int u = 0; u < N; ++u)
          if (column[u] >= 0 && pick[u * N + column[u]] >= 0) moved.push_back(static_cast<size_t>(pick[u * N + column[u]]));
        for (size_t i : moved) {
          Item& d = data[i];
          const NodeId v = static_cast<NodeId>(column[d.at]);
          moves.push_back(Move{Datum{d.source, d.dest}, d.at, v});
          d.at = v;
        }
      } else {
        std::fill(link_busy.begin(), link_busy.end(), 0);
        std::fill(received.begin(), received.end(), 0);
        std::vector<std::pair<double, size_t>> order;
        for (size_t i = 0; i < data.size(); ++i)
          order.emplace_back(-(dist[data[i].dest * N + data[i].at] + scale * noise.unit()), i);
        std::sort(order.begin(), order.end());
        for (const auto& [key, i] : order) {
          Item& d = data[i];
          const int here = dist[d.dest * N + d.at];
          for (int k = 0; k < n; ++k) {
            const NodeId v = d.at ^ (NodeId{1} << k);
            if (faults.is_faulty(v) || dist[d.dest * N + v] != here - 1 || link_busy[d.at * n + k]) continue;
            if (model == Model::kOneReceive && received[v]) continue;
            link_busy[d.at * n + k] = 1;
            received[v] = 1;
            moves.push_back(Move{Datum{d.source, d.dest}, d.at, v});
            d.at = v;
            break;
          }
        }
      }
      data.erase(std::remove_if(data.begin(), data.end(), [](const Item& d) { return d.at == d.dest; }), data.end());
      schedule.units.push_back(std::move(moves));
    }
    if (!data.empty()) continue;  // abandoned (or unschedulable)
    const ScheduleCheck c = check_schedule(schedule, faults, model);
    TC_CHECK(c.ok, "greedy_schedule built an invalid schedule: " + c.violation);
    if (!out.found || c.units < out.units) {
      out.found = true;
      out.units = c.units;
      out.trial = trial;
      out.schedule = std::move(schedule);
    }
    if (stop_at > 0 && out.units <= stop_at) break;
  }
  return out;
}

}  // namespace topocheck::aapc
