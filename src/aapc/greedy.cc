// The greedy upper bound of bounds.h (greedy_schedule): a randomized unit-by-unit greedy for any
// cube size, each unit moving data one hop closer; one_port picks the unit's moves by a
// minimum-cost assignment (Hungarian method), the other models take free productive links
// longest-first. The method, the seeded noise and the cost are stated in bounds.h; every
// schedule is judged by check_schedule and the shortest kept.
#include "aapc/bounds.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace topocheck::aapc {
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
