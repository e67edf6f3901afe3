#include "catalog/metacube/min_max_paths.h"

#include <algorithm>
#include <climits>
#include <set>

#include <fmt/format.h>

#include "core/status.h"

namespace topocheck::claims {
namespace {

constexpr int kFar = INT_MAX / 4;  // "unreachable" distance; sums of two stay below INT_MAX
using Adjacency = std::vector<std::vector<uint32_t>>;

// BFS distances from `from` over the vertices that are not blocked (`from` itself always).
void bfs(const Adjacency& adj, uint32_t from, const std::vector<char>& blocked, std::vector<int>& dist) {
  dist.assign(adj.size(), kFar);
  std::vector<uint32_t> queue{from};
  dist[from] = 0;
  for (size_t q = 0; q < queue.size(); ++q)
    for (uint32_t w : adj[queue[q]])
      if (!blocked[w] && dist[w] == kFar) {
        dist[w] = dist[queue[q]] + 1;
        queue.push_back(w);
      }
}

// The number (capped at `need`) of internally node-disjoint s-t paths through allowed vertices
// only, leaving s to an allowed vertex other than t (the direct edge is counted by the caller).
// Augmenting paths (BFS) on the node-split graph: state 2v is v's in-copy, 2v+1 its out-copy; every
// internal vertex has capacity 1, every arc v -> w (one per direction of an edge) capacity 1.
int disjoint_count(const Adjacency& adj, uint32_t s, uint32_t t, const std::vector<char>& allowed, int need) {
  const size_t n = adj.size();
  std::vector<size_t> offset(n + 1, 0);  // arc v -> adj[v][j] is offset[v] + j
  for (size_t v = 0; v < n; ++v) offset[v + 1] = offset[v] + adj[v].size();
  std::vector<char> arc_flow(offset[n], 0), node_flow(n, 0);
  auto arc = [&](uint32_t v, uint32_t w) {
    const auto& a = adj[v];
    return offset[v] + static_cast<size_t>(std::find(a.begin(), a.end(), w) - a.begin());
  };
  int flow = 0;
  std::vector<int64_t> parent(2 * n);
  std::vector<uint32_t> queue;
  while (flow < need) {
    std::fill(parent.begin(), parent.end(), -1);
    const uint32_t start = 2 * s + 1, goal = 2 * t;
    parent[start] = start;
    queue.assign(1, start);
    for (size_t q = 0; q < queue.size() && parent[goal] < 0; ++q) {
      const uint32_t state = queue[q], v = state / 2;
      auto go = [&](uint32_t next) {
        if (parent[next] < 0) {
          parent[next] = state;
          queue.push_back(next);
        }
      };
      if (state % 2 == 1) {  // out-copy: forward arcs with no flow, and back into v's in-copy
        for (uint32_t w : adj[v]) {
          if (w == s || !allowed[w] || (v == s && w == t)) continue;
          if (!arc_flow[arc(v, w)]) go(2 * w);
        }
        if (v != s && node_flow[v]) go(2 * v);
      } else {  // in-copy: through v if v is free; back along the arc that brought flow into v
        if (!node_flow[v]) go(2 * v + 1);
        for (uint32_t u : adj[v])
          if (u != s && allowed[u] && arc_flow[arc(u, v)]) go(2 * u + 1);  // (from s: back to the start)
      }
    }
    if (parent[goal] < 0) break;
    for (uint32_t state = goal; state != start;) {
      const uint32_t from = static_cast<uint32_t>(parent[state]);
      const uint32_t a = from / 2, b = state / 2;
      if (a == b) node_flow[a] = (from % 2 == 0);  // in -> out takes v; out -> in frees it
      else if (from % 2 == 1) arc_flow[arc(a, b)] = 1;  // forward arc a -> b
      else arc_flow[arc(b, a)] = 0;                     // cancels b -> a
      state = from;
    }
    ++flow;
  }
  return flow;
}

// Decides whether `first.size()` paths, the i-th from s through first[i] to some neighbour of t
// and then t, internally node-disjoint and avoiding `initially_blocked`, each of length <= L,
// exist (see the header, step 3).
class ExactSearch {
 public:
  ExactSearch(const Adjacency& adj, uint32_t s, uint32_t t, int limit, std::vector<uint32_t> first,
              std::vector<char> blocked, long max_steps, long& steps)
      : adj_(adj), s_(s), t_(t), limit_(limit), first_(std::move(first)), blocked_(std::move(blocked)),
        last_(adj.size(), 0), max_steps_(max_steps), steps_(steps) {
    for (uint32_t b : adj_[t_]) last_[b] = 1;
    for (uint32_t a : first_) blocked_[a] = 1;  // reserved for their own paths
    dist_.resize(first_.size());
    fixed_.resize(first_.size());
    current_.resize(first_.size());
  }

  // 1: feasible (paths() holds the internal nodes of each path), 0: not, -1: out of steps.
  int run() {
    const bool found = solve(0);
    return aborted_ ? -1 : found ? 1 : 0;
  }
  const std::vector<std::vector<uint32_t>>& paths() const { return fixed_; }

 private:
  bool solve(size_t i) {
    if (i == first_.size()) return true;
    std::vector<uint32_t> key;
    for (size_t j = 0; j < i; ++j) key.insert(key.end(), fixed_[j].begin(), fixed_[j].end());
    std::sort(key.begin(), key.end());
    if (failed_.count(key)) return false;
    std::vector<int>& dt = dist_[i];
    bfs(adj_, t_, blocked_, dt);
    // A reserved first hop a_j is blocked for the BFS; its distance is one more than its best
    // free neighbour's. Every remaining path must fit: 1 + d(a_j, t) <= L. The path built next
    // is the most constrained one (largest distance, then fewest ways on): first_[i..] is
    // reordered, which its callers do not read.
    size_t pick = i;
    int pick_ways = 0;
    for (size_t j = i; j < first_.size(); ++j) {
      int best = kFar, ways = 0;
      for (uint32_t w : adj_[first_[j]])
        if (!blocked_[w]) {
          best = std::min(best, dt[w]);
          ++ways;
        }
      dt[first_[j]] = best == kFar ? kFar : best + 1;
      if (1 + dt[first_[j]] > limit_) return remember(std::move(key));
      if (j == i || dt[first_[j]] > dt[first_[pick]] || (dt[first_[j]] == dt[first_[pick]] && ways < pick_ways)) {
        pick = j;
        pick_ways = ways;
      }
    }
    std::swap(first_[i], first_[pick]);
    // The remaining paths must exist disjointly inside the nodes within L of both ends.
    std::vector<char> start_blocked = blocked_;
    for (size_t j = i; j < first_.size(); ++j) start_blocked[first_[j]] = 0;
    std::vector<int> ds;
    bfs_from_first(i, ds);
    std::vector<char> allowed(adj_.size(), 0);
    for (size_t x = 0; x < adj_.size(); ++x)
      allowed[x] = x == t_ || (!start_blocked[x] && x != s_ && ds[x] + dt[x] <= limit_);
    const int need = static_cast<int>(first_.size() - i);
    if (disjoint_count(adj_, s_, t_, allowed, need) < need) return remember(std::move(key));
    current_[i].assign(1, first_[i]);
    if (dfs(i, first_[i], 1)) return true;
    if (aborted_) return false;
    return remember(std::move(key));
  }

  // Distances from s when s may leave only through the remaining first hops.
  void bfs_from_first(size_t i, std::vector<int>& ds) {
    ds.assign(adj_.size(), kFar);
    std::vector<uint32_t> queue;
    for (size_t j = i; j < first_.size(); ++j) {
      ds[first_[j]] = 1;
      queue.push_back(first_[j]);
    }
    for (size_t q = 0; q < queue.size(); ++q)
      for (uint32_t w : adj_[queue[q]])
        if (!blocked_[w] && ds[w] == kFar) {
          ds[w] = ds[queue[q]] + 1;
          queue.push_back(w);
        }
  }

  bool remember(std::vector<uint32_t> key) {
    if (failed_.size() < kMaxRemembered) failed_.insert(std::move(key));
    return false;
  }

  // Extends path i at v (len hops from s) towards a neighbour of t.
  bool dfs(size_t i, uint32_t v, int len) {
    if (++steps_ > max_steps_) {
      aborted_ = true;
      return false;
    }
    if (last_[v]) {  // a neighbour of t ends the path: it cannot be passed through
      fixed_[i] = current_[i];
      return solve(i + 1);
    }
    const std::vector<int>& dt = dist_[i];
    uint32_t next[64];
    size_t count = 0;
    for (uint32_t w : adj_[v])
      if (!blocked_[w] && len + 1 + dt[w] <= limit_ && count < 64) next[count++] = w;
    std::sort(next, next + count, [&](uint32_t a, uint32_t b) { return dt[a] < dt[b]; });
    for (size_t c = 0; c < count; ++c) {
      const uint32_t w = next[c];
      blocked_[w] = 1;
      current_[i].push_back(w);
      if (dfs(i, w, len + 1)) return true;
      current_[i].pop_back();
      blocked_[w] = 0;
      if (aborted_) return false;
    }
    return false;
  }

  static constexpr size_t kMaxRemembered = 1 << 20;
  const Adjacency& adj_;
  const uint32_t s_, t_;
  const int limit_;
  std::vector<uint32_t> first_;  // [i..]: the first hops of the paths not yet built
  std::vector<char> blocked_, last_;
  const long max_steps_;
  long& steps_;
  bool aborted_ = false;
  std::vector<std::vector<int>> dist_;            // per path index: distances to t
  std::vector<std::vector<uint32_t>> fixed_;      // per path index: its internal nodes
  std::vector<std::vector<uint32_t>> current_;    // per path index: the path being extended
  std::set<std::vector<uint32_t>> failed_;        // taken-node sets from which no completion exists
};

// Step 3 of the header: the exact search at length `limit`, on the subgraph of the nodes
// `within` limit of both ends only (renumbered): no path of length <= limit leaves it. It holds
// every neighbour of s and t, or the restricted flow would have found fewer than `count` paths.
// Returns ExactSearch::run()'s answer; when feasible (1), appends to `paths` the forced paths and
// the search's, as vertex lists s ... t of the whole graph ordered by first hop.
int exact_search_within(const Adjacency& adj, uint32_t s, uint32_t t, int limit, const std::vector<bool>& within,
                        const std::vector<char>& blocked, const std::vector<uint32_t>& first,
                        const std::vector<std::vector<uint32_t>>& forced, long max_steps, long& steps,
                        std::vector<std::vector<uint64_t>>& paths) {
  std::vector<uint32_t> region;
  std::vector<int64_t> local(adj.size(), -1);
  for (uint32_t x = 0; x < adj.size(); ++x)
    if (within[x]) {
      local[x] = static_cast<int64_t>(region.size());
      region.push_back(x);
    }
  Adjacency sub(region.size());
  std::vector<char> sub_blocked(region.size(), 0);
  for (size_t i = 0; i < region.size(); ++i) {
    for (uint32_t w : adj[region[i]])
      if (local[w] >= 0) sub[i].push_back(static_cast<uint32_t>(local[w]));
    sub_blocked[i] = blocked[region[i]];
  }
  std::vector<uint32_t> sub_first;
  for (uint32_t a : first) sub_first.push_back(static_cast<uint32_t>(local[a]));
  ExactSearch search(sub, static_cast<uint32_t>(local[s]), static_cast<uint32_t>(local[t]), limit,
                     std::move(sub_first), std::move(sub_blocked), max_steps, steps);
  const int found = search.run();
  if (found != 1) return found;
  for (const auto& internal : forced) {
    std::vector<uint64_t> p{s};
    p.insert(p.end(), internal.begin(), internal.end());
    p.push_back(t);
    paths.push_back(std::move(p));
  }
  for (const auto& internal : search.paths()) {
    std::vector<uint64_t> p{s};
    for (uint32_t x : internal) p.push_back(region[x]);
    p.push_back(t);
    paths.push_back(std::move(p));
  }
  std::sort(paths.begin(), paths.end(), [](const auto& a, const auto& b) { return a[1] < b[1]; });
  return 1;
}

}  // namespace

MinMaxPathsOracle::MinMaxPathsOracle(const UndirectedGraph& graph) : min_cost_(graph) {
  const size_t n = boost::num_vertices(graph);
  adjacency_.resize(n);
  for (auto [e, end] = boost::edges(graph); e != end; ++e) {
    const auto a = static_cast<uint32_t>(boost::source(*e, graph)), b = static_cast<uint32_t>(boost::target(*e, graph));
    adjacency_[a].push_back(b);
    adjacency_[b].push_back(a);
  }
  for (auto& a : adjacency_) std::sort(a.begin(), a.end());
  // Two-colour every component by BFS.
  std::vector<int> colour(n, -1);
  for (uint32_t root = 0; root < n; ++root) {
    if (colour[root] >= 0) continue;
    colour[root] = 0;
    std::vector<uint32_t> queue{root};
    for (size_t q = 0; q < queue.size(); ++q)
      for (uint32_t w : adjacency_[queue[q]]) {
        if (colour[w] < 0) {
          colour[w] = 1 - colour[queue[q]];
          queue.push_back(w);
        } else if (colour[w] == colour[queue[q]]) {
          bipartite_ = false;
        }
      }
  }
  for (const auto& a : adjacency_) TC_CHECK(a.size() <= 64, "MinMaxPathsOracle: degrees up to 64 only");
}

MinMaxDisjointPaths MinMaxPathsOracle::solve(uint64_t s64, uint64_t t64, int count, long max_steps) {
  const Adjacency& adj = adjacency_;
  TC_CHECK(s64 != t64 && s64 < adj.size() && t64 < adj.size(), "min_max_disjoint_paths needs distinct vertices");
  const auto s = static_cast<uint32_t>(s64), t = static_cast<uint32_t>(t64);
  TC_CHECK(count >= 1 && static_cast<size_t>(count) == adj[s].size() && static_cast<size_t>(count) == adj[t].size(),
           "min_max_disjoint_paths needs count = deg(s) = deg(t)");
  MinMaxDisjointPaths out;
  out.count = count;
  std::vector<int> ds, dt;
  const std::vector<char> none(adj.size(), 0);
  bfs(adj, s, none, ds);
  bfs(adj, t, none, dt);
  out.distance = ds[t];
  if (ds[t] == kFar) return out;  // not connected: no path at all
  auto longest = [](const std::vector<std::vector<uint64_t>>& paths) {
    int l = 0;
    for (const auto& p : paths) l = std::max(l, static_cast<int>(p.size()) - 1);
    return l;
  };
  // Forced paths (count = deg(s) = deg(t): every neighbour of s starts a path, every neighbour of
  // t ends one): the direct edge, and s : u : t for every common neighbour u.
  std::vector<std::vector<uint32_t>> forced;
  std::vector<uint32_t> first;
  std::vector<char> blocked(adj.size(), 0);
  blocked[s] = blocked[t] = 1;
  for (uint32_t a : adj[s]) {
    if (a == t) forced.push_back({});
    else if (std::binary_search(adj[t].begin(), adj[t].end(), a)) {
      forced.push_back({a});
      blocked[a] = 1;
    } else {
      first.push_back(a);
    }
  }
  int forced_longest = 0, widest = 0;
  for (const auto& internal : forced) forced_longest = std::max(forced_longest, static_cast<int>(internal.size()) + 1);
  for (size_t x = 0; x < adj.size(); ++x)
    if (ds[x] < kFar && dt[x] < kFar) widest = std::max(widest, ds[x] + dt[x]);
  std::vector<std::vector<uint64_t>> best;  // the feasible set with the shortest longest path seen
  int best_longest = kFar;
  const int adjacent = std::binary_search(adj[s].begin(), adj[s].end(), t) ? 1 : 0;  // the direct edge: one path
  // In a bipartite graph every s-t path has the parity of d(s,t), so only those L are tried.
  const int step = bipartite_ ? 2 : 1;
  int start = std::max(out.distance, forced_longest);
  if (bipartite_ && (start - out.distance) % 2 != 0) ++start;
  for (int limit = start;; limit += step) {
    out.lower_bound = limit;
    if (limit >= best_longest) {  // every shorter limit was infeasible
      out.optimum = best_longest;
      out.paths = std::move(best);
      return out;
    }
    // Step 1-2: min-cost flow on the subgraph of nodes within `limit` of both ends.
    std::vector<bool> within(adj.size());
    std::vector<char> within_chars(adj.size());
    for (size_t x = 0; x < adj.size(); ++x) within_chars[x] = within[x] = ds[x] + dt[x] <= limit;
    // A cheap count first (augmenting paths on the subgraph): too few paths, L is infeasible.
    if (disjoint_count(adj, s, t, within_chars, count - adjacent) + adjacent < count) {
      if (limit >= widest) return out;  // the whole graph: fewer than `count` disjoint paths exist
      continue;
    }
    const DisjointPathsFlow restricted = min_cost_.solve(s, t, count, within);
    out.flow = restricted.count;
    if (restricted.count < count) {
      if (limit >= widest) return out;  // the whole graph: fewer than `count` disjoint paths exist
      continue;
    }
    out.min_total = restricted.total_length;
    out.min_cost_longest = longest(restricted.paths);
    if (out.min_cost_longest < best_longest) {
      best_longest = out.min_cost_longest;
      best = restricted.paths;
    }
    if (restricted.total_length > static_cast<long>(count) * limit) continue;
    if (out.min_cost_longest <= limit) {
      out.optimum = limit;
      out.paths = restricted.paths;
      return out;
    }
    // Step 3: exact search.
    ++out.searched_lengths;
    const int found = exact_search_within(adj, s, t, limit, within, blocked, first, forced, max_steps, out.steps,
                                          out.paths);
    if (found < 0) return out;  // out of steps: optimum stays unknown, lower_bound = limit
    if (found == 1) {
      out.optimum = limit;
      return out;
    }
  }
}

Violation check_bound_attainable(const MinMaxDisjointPaths& oracle, int bound) {
  if (!oracle.optimum || *oracle.optimum <= bound) return std::nullopt;
  return fmt::format("L* = {} > H(s,t) + 2^k + m + 5 = {}: no {} internally node-disjoint s-t paths all fit Theorem 2's "
                     "bound",
                     *oracle.optimum, bound, oracle.count);
}

}  // namespace topocheck::claims
