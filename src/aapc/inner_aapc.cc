// The inner AAPC of a fault-free subcube (schedules.h, "The inner AAPC timetable"): the paper's
// unnamed "optimal AAPC algorithm" of Section 3 (papers/004), as an exact timetable per model
// (all_port: König's edge colouring of phases x dimensions, 2^(m-1) units; one_receive and one_port:
// phases one after the other, m 2^(m-1) units) or as greedy e-cube variants, placed on a
// ListScheduler. Also inner_aapc, the AAPC of the fault-free Q_m alone. Cost: the colouring is
// O(2^m m 2^(m-1)) at worst; placing is one ListScheduler hop per datum hop.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "aapc/schedules.h"
#include "aapc/subcube_masks.h"

namespace topocheck::aapc {
namespace {

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

}  // namespace

std::string to_string(InnerMethod method) {
  switch (method) {
    case InnerMethod::kTimetable: return "timetable";
    case InnerMethod::kEcubeAscending: return "ecube_ascending";
    case InnerMethod::kEcubeRotated: return "ecube_rotated";
  }
  return "?";
}

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
  if (m < 1 || m > kMaxN) return invalid_argument(fmt::format("m: {} is outside 1..{}", m, kMaxN));
  const FaultSet none(m, {});
  ListScheduler sched(none, model);
  const uint32_t mask = bit(m) - 1;
  const std::vector<int> arrival = place_inner_aapc(sched, mask, subcube_data(0, mask), 0, method);
  const int end = *std::max_element(arrival.begin(), arrival.end());
  return sched.take_schedule({Step{"aapc", 0, end}});
}

}  // namespace topocheck::aapc
