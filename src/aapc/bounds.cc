// The lower bounds of bounds.h (Masuyama & Masuyama, papers/004, Section 3.1.2's "2^n - 1 time
// units", under each port model): distance, receive, send, link_load, side_even/side_odd and the
// dimension cuts for one fault set, their capacities and arrivals, and the fault-free closed form.
// Each bound is its own named step of lower_bounds, in the order of the header. Preconditions and
// cost as in bounds.h (O(N^2 n) per call). The exact search is in exact_search.cc, the greedy upper
// bound in greedy.cc.
#include "aapc/bounds.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "aapc/live_graph.h"

namespace topocheck::aapc {
namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

int as_units(uint64_t v) {
  TC_CHECK(v <= static_cast<uint64_t>(INT32_MAX), "bound does not fit an int");
  return static_cast<int>(v);
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

namespace {

// dist(a, b) of live_distances.
struct Distances {
  NodeId N = 0;
  std::vector<int> dist;
  int operator()(NodeId a, NodeId b) const { return dist[uint64_t{a} * N + b]; }
};

// The "connectivity" entry for the first ordered pair of nonfaulty nodes without a fault-free
// path, or nullopt when every pair has one.
std::optional<LowerBound> connectivity_failure(const std::vector<NodeId>& live, const Distances& d) {
  for (NodeId a : live)
    for (NodeId b : live)
      if (d(a, b) < 0)
        return LowerBound{
            "connectivity",
            fmt::format("no schedule: nonfaulty nodes {} and {} have no fault-free path, so the datum {} "
                        "cannot be delivered",
                        a, b, Datum{a, b}.to_string()),
            0};
  return std::nullopt;
}

// distance: the largest fault-free distance (the first pair attaining it).
LowerBound distance_bound(const std::vector<NodeId>& live, const Distances& d) {
  const uint64_t L = live.size();
  int best = 0;
  NodeId ba = 0, bb = 0;
  for (NodeId a : live)
    for (NodeId b : live)
      if (d(a, b) > best) best = d(a, b), ba = a, bb = b;
  return LowerBound{
      "distance",
      L < 2 ? std::string("distance: fewer than two nonfaulty nodes, no data: 0")
            : fmt::format("distance: the largest fault-free distance between two nonfaulty nodes, dist({}, {}) = {}; "
                          "a datum hops at most once per unit",
                          ba, bb, best),
      best};
}

// separated[v]: ordered pairs (a, b) of other nonfaulty nodes whose every fault-free path
// passes through v (a and b in different components of the graph without v).
std::vector<uint64_t> separated_pairs(const FaultSet& faults, const std::vector<NodeId>& live) {
  const NodeId N = faults.num_nodes();
  const uint64_t L = live.size();
  std::vector<uint64_t> separated(N, 0);
  const std::vector<int> comp = components_without(faults);
  for (NodeId v : live) {
    std::vector<uint64_t> size(N, 0);
    for (NodeId x : live)
      if (comp[uint64_t{v} * N + x] >= 0) ++size[static_cast<size_t>(comp[uint64_t{v} * N + x])];
    uint64_t same = 0;
    for (uint64_t c : size) same += c * c;
    separated[v] = (L - 1) * (L - 1) - same;
  }
  return separated;
}

// receive (sending false) or send: the node whose own L - 1 data and separated data need the most
// units through its ports (the first such node).
LowerBound port_bound(const FaultSet& faults, Model model, const std::vector<NodeId>& live,
                      const std::vector<uint64_t>& separated, bool sending) {
  const uint64_t L = live.size();
  const char* in_words = model == Model::kAllPort ? "one per incoming link from a nonfaulty neighbour"
                                                  : "one per unit at a node (one_receive/one_port)";
  const char* out_words = model == Model::kOnePort ? "one per unit from a node (one_port)"
                                                   : "one per outgoing link to a nonfaulty neighbour";
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
  return LowerBound{
      sending ? "send" : "receive",
      fmt::format("{}: node {} must {} L - 1 = {} data and forward the {} data it separates (every fault-free "
                  "path of theirs passes through it), at most {} per unit ({}): ceil({} / {}) = {}",
                  sending ? "send" : "receive", at, sending ? "send its" : "receive", own, through, ports_at,
                  sending ? out_words : in_words, own + through, ports_at, best),
      as_units(best)};
}

// link_load: the hops of shortest paths over the hops a unit can carry.
LowerBound link_load_bound(const FaultSet& faults, Model model, const std::vector<NodeId>& live, const Distances& d) {
  const uint64_t L = live.size();
  const uint64_t D = L == 0 ? 0 : L * (L - 1);
  uint64_t hops = 0;
  for (NodeId a : live)
    for (NodeId b : live) hops += static_cast<uint64_t>(d(a, b));
  const uint64_t cap = hop_capacity(faults, model);
  const uint64_t b = ceil_div(hops, cap);
  return LowerBound{
      "link_load",
      fmt::format("link_load: the D = {} data need at least sum dist = {} hops, at most C = {} per unit ({}): "
                  "ceil({} / {}) = {}",
                  D, hops, cap,
                  model == Model::kAllPort      ? "directed links between nonfaulty nodes"
                  : model == Model::kOneReceive ? "nonfaulty nodes with a nonfaulty neighbour, one hop ends at each"
                                                : "twice a maximum matching: the hops of a unit into either side "
                                                  "pair distinct senders with distinct receivers",
                  hops, cap, b),
      as_units(b)};
}

// side_even / side_odd: the hops ending on one side over the side's capacity.
LowerBound side_bound(const FaultSet& faults, Model model, int side) {
  const uint64_t arrivals = side_arrivals(faults, side);
  const uint64_t cap = side_capacity(faults, model, side);
  const uint64_t b = ceil_div(arrivals, cap);
  const char* cap_words = model == Model::kAllPort      ? "links into the side"
                          : model == Model::kOneReceive ? "nodes of the side with a nonfaulty neighbour, one each"
                                                        : "a maximum matching of the fault-free graph";
  return LowerBound{
      side ? "side_odd" : "side_even",
      fmt::format("{0}: shortest paths end {1} hops at {2} nodes (ceil(d/2) per datum from the other side, "
                  "floor(d/2) from this side; a detour adds one), at most {3} per unit ({4}): ceil({1} / {3}) = {5}",
                  side ? "side_odd" : "side_even", arrivals, side ? "odd" : "even", cap, cap_words, b),
      as_units(b)};
}

// cut_d<j>_<a>to<1-a>: the data from the nonfaulty nodes with bit j = a to the others, over the
// dimension-j links that way.
LowerBound cut_bound(const FaultSet& faults, const std::vector<NodeId>& live, int j, int a) {
  uint64_t side_a = 0, side_b = 0;
  for (NodeId x : live) (((x >> j) & 1u) == static_cast<NodeId>(a) ? side_a : side_b) += 1;
  const uint64_t links = cut_links(faults, j, a);
  const uint64_t b = ceil_div(side_a * side_b, links);
  return LowerBound{
      fmt::format("cut_d{}_{}to{}", j, a, 1 - a),
      fmt::format("cut_d{0}_{1}to{2}: {3} data from the {4} nonfaulty nodes with bit {0} = {1} to the {5} with bit "
                  "{0} = {2} cross the {6} nonfaulty dimension-{0} links that way, one each per unit: "
                  "ceil({3} / {6}) = {7}",
                  j, a, 1 - a, side_a * side_b, side_a, side_b, links, b),
      as_units(b)};
}

}  // namespace

LowerBounds lower_bounds(const FaultSet& faults, Model model) {
  LowerBounds out;
  const std::vector<NodeId> live = faults.nonfaulty();
  const Distances d{faults.num_nodes(), live_distances(faults)};
  if (std::optional<LowerBound> failure = connectivity_failure(live, d)) {
    out.schedulable = false;
    out.bounds.push_back(std::move(*failure));
    return out;
  }
  out.bounds.push_back(distance_bound(live, d));
  const std::vector<uint64_t> separated = separated_pairs(faults, live);
  for (bool sending : {false, true}) out.bounds.push_back(port_bound(faults, model, live, separated, sending));
  out.bounds.push_back(link_load_bound(faults, model, live, d));
  for (int side = 0; side < 2; ++side) out.bounds.push_back(side_bound(faults, model, side));
  for (int j = 0; j < faults.n(); ++j)
    for (int a = 0; a < 2; ++a) out.bounds.push_back(cut_bound(faults, live, j, a));
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

}  // namespace topocheck::aapc
