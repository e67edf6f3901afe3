// The fast deadlock search of deadlock.h (kConfigurations, the default): closed blocked
// configurations of full buffers grown from a seed buffer, by iterative deepening on the number
// of full buffers k; sound and complete by facts (a) and (b) of deadlock.h. Each configuration
// found becomes a witness in which every message moves once, into its buffer. Cost: search nodes
// bounded by limits.max_states (measured figures in deadlock.h).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "routing/deadlock_search.h"

namespace topocheck::routing::deadlock_search {
namespace {

// kConfigurations: closed blocked configurations grown from a seed buffer.
class ConfigurationSearch {
 public:
  ConfigurationSearch(const BufferTable& table, uint64_t max_states) : table_(table), max_states_(max_states) {
    const Network& net = table.net;
    std::vector<int> ports;
    items_.resize(table.count);
    per_link_ = table.model.buffers == BufferModel::kPerLink;
    head_bound_.assign(net.num_nodes(), 0);
    for (uint32_t b = 0; b < table.count; ++b) {
      const NodeId c = table.head[b];
      for (NodeId d = 0; d < net.num_nodes(); ++d) {
        if (net.distance(c, d) < 2) continue;  // at distance 1 the message can always be delivered
        // The node it came from: kPerLink the link's tail; kPerNode the first neighbour from
        // which the routing allows the hop into c.
        std::optional<NodeId> from;
        if (table.model.buffers == BufferModel::kPerLink) {
          if (table.allowed_hop(table.tail[b], c, d, ports)) from = table.tail[b];
        } else {
          for (int q = 0; q < net.degree(c) && !from; ++q)
            if (table.allowed_hop(net.neighbor(c, q), c, d, ports)) from = net.neighbor(c, q);
        }
        if (!from) continue;
        Item item{d, *from, {}};
        net.candidates(c, d, table.model.routing, ports);
        for (int p : ports) item.needs.push_back(table.target(c, p));
        items_[b].push_back(std::move(item));
      }
    }
  }

  uint64_t states() const { return states_; }
  bool exhausted() const { return exhausted_; }

  // A closed configuration of exactly `k` full buffers containing `seed` and none of `forbidden`,
  // as (buffer, item) pairs; nullopt if none (or the budget ran out: exhausted()).
  std::optional<std::vector<std::pair<uint32_t, uint32_t>>> find(uint32_t seed, const std::vector<uint32_t>& forbidden,
                                                                 int k) {
    status_.assign(table_.count, kFree);
    for (uint32_t f : forbidden) status_[f] = kForbidden;
    status_[seed] = kPending;
    chosen_.clear();
    full_ = 1;
    limit_ = k;
    if (dfs()) return chosen_;
    return std::nullopt;
  }

 private:
  struct Item {
    NodeId destination;
    NodeId from;
    std::vector<uint32_t> needs;  // the buffers of its allowed hops
  };
  enum Status : uint8_t { kFree, kPending, kAssigned, kForbidden };

  // Invariant: full_ = number of pending + assigned buffers <= limit_; every assigned buffer
  // holds B items whose needed buffers are all pending or assigned.
  bool dfs() {
    if (states_ >= max_states_) {
      exhausted_ = true;
      return false;
    }
    ++states_;
    // Fill next the pending buffer with the fewest viable messages (fail first; ties: the lowest
    // number). A message is viable if none of the buffers it needs is excluded and the ones it
    // would add still fit within the depth. Which buffer is filled next does not matter for
    // completeness: every pending buffer must be filled in any closed extension.
    // Lower bound on the extension: each pending buffer x adds at least the fewest new buffers of
    // any of its viable messages, min_added(x). Under kPerLink a message needs only links out of
    // its buffer's head, so pending buffers at different heads add disjoint sets and the bound
    // is full + the sum over heads of the largest min_added there; under kPerNode neighbouring
    // nodes share needs, so only the largest min_added counts.
    uint32_t b = table_.count;
    size_t fewest = SIZE_MAX;
    std::fill(head_bound_.begin(), head_bound_.end(), 0);
    for (uint32_t x = 0; x < table_.count && fewest > 0; ++x) {
      if (status_[x] != kPending) continue;
      size_t viable = 0;
      int min_added = INT_MAX;
      for (const Item& item : items_[x]) {
        int added = 0;
        bool excluded = false;
        for (uint32_t need : item.needs) {
          excluded = excluded || status_[need] == kForbidden;
          added += status_[need] == kFree;
        }
        if (excluded || full_ + added > limit_) continue;
        ++viable;
        min_added = std::min(min_added, added);
      }
      if (viable < fewest) {
        fewest = viable;
        b = x;
      }
      if (viable > 0) {
        const NodeId group = per_link_ ? table_.head[x] : 0;
        head_bound_[group] = std::max(head_bound_[group], min_added);
      }
    }
    if (b == table_.count) return true;  // nothing pending: closed (smaller ones met at a lower depth)
    if (fewest == 0) return false;
    int bound = full_;
    for (int h : head_bound_) bound += h;
    if (bound > limit_) return false;
    status_[b] = kAssigned;
    const int capacity = table_.model.capacity;
    const uint32_t options = static_cast<uint32_t>(items_[b].size());
    std::vector<uint32_t> pick(static_cast<size_t>(capacity), 0);  // a multiset, non-decreasing
    std::vector<uint32_t> added;
    if (options > 0) {
      while (true) {
        added.clear();
        bool ok = true;
        for (uint32_t j : pick) {
          for (uint32_t need : items_[b][j].needs) {
            if (status_[need] == kForbidden) ok = false;
            if (status_[need] == kFree) {
              status_[need] = kPending;
              added.push_back(need);
            }
          }
        }
        full_ += static_cast<int>(added.size());
        if (ok && full_ <= limit_) {
          for (uint32_t j : pick) chosen_.push_back({b, j});
          if (dfs()) return true;
          chosen_.resize(chosen_.size() - pick.size());
        }
        full_ -= static_cast<int>(added.size());
        for (uint32_t a : added) status_[a] = kFree;
        if (exhausted_) break;
        int k = capacity - 1;
        while (k >= 0 && pick[static_cast<size_t>(k)] + 1 >= options) --k;
        if (k < 0) break;
        const uint32_t v = pick[static_cast<size_t>(k)] + 1;
        for (size_t j = static_cast<size_t>(k); j < pick.size(); ++j) pick[j] = v;
      }
    }
    status_[b] = kPending;
    return false;
  }

 public:
  const Item& item(uint32_t b, uint32_t j) const { return items_[b][j]; }

 private:
  const BufferTable& table_;
  uint64_t max_states_;
  uint64_t states_ = 0;
  bool exhausted_ = false;
  std::vector<std::vector<Item>> items_;
  std::vector<uint8_t> status_;
  std::vector<std::pair<uint32_t, uint32_t>> chosen_;
  int full_ = 0;
  int limit_ = 0;
  bool per_link_ = false;
  std::vector<int> head_bound_;  // per head node (kPerLink) or one group (kPerNode): largest min_added
};

}  // namespace

DeadlockSearchResult search_configurations(const BufferTable& table, int n, const DeadlockSearchLimits& limits,
                                           const DeadlockProgress& progress) {
  DeadlockSearchResult r;
  ConfigurationSearch search(table, limits.max_states);
  // Seeds: buffers at node 0 under symmetry (every configuration has a translate with a full
  // buffer there), every buffer without it. Seed i excludes seeds 0..i-1: a configuration
  // holding one of them was met from that seed.
  std::vector<uint32_t> seeds;
  for (uint32_t b = 0; b < table.count; ++b)
    if (!limits.translation_symmetry || table.head[b] == 0) seeds.push_back(b);
  const int capacity = table.model.capacity;
  // No deadlock has fewer than B messages (a smallest one has k full buffers of B each).
  r.messages_searched = std::min(limits.max_messages, capacity - 1);
  const int depth_limit = static_cast<int>(std::min<int64_t>(limits.max_messages / capacity, table.count));
  for (int k = 1; k <= depth_limit; ++k) {
    for (size_t s = 0; s < seeds.size(); ++s) {
      const std::vector<uint32_t> earlier(seeds.begin(), seeds.begin() + static_cast<long>(s));
      auto config = search.find(seeds[s], earlier, k);
      r.states_explored = search.states();
      if (search.exhausted()) {
        r.verdict = DeadlockVerdict::kInconclusive;
        return r;
      }
      if (!config) continue;
      // Each message moves once, from the node it came from into its buffer (fact (b)).
      std::vector<DeadlockMessage> messages;
      std::vector<Move> moves;
      std::vector<uint16_t> codes;
      for (const auto& [b, j] : *config) {
        const auto& item = search.item(b, j);
        moves.push_back(Move{static_cast<uint32_t>(messages.size()), item.from, table.head[b]});
        messages.push_back(DeadlockMessage{item.from, item.destination});
        codes.push_back(static_cast<uint16_t>(kCodeBuffer + b));
      }
      r.verdict = DeadlockVerdict::kFound;
      r.messages_searched = static_cast<int>(messages.size());
      r.witness = make_witness(table, n, messages, std::move(moves), codes);
      return r;
    }
    r.messages_searched = std::min(limits.max_messages, (k + 1) * capacity - 1);
    if (progress) progress(r.messages_searched, r.states_explored);
  }
  r.verdict = DeadlockVerdict::kNoneUpToLimit;
  // Every configuration has at most one full buffer per buffer: past B * buffers there is
  // nothing left to search, so no number of messages can deadlock.
  r.every_message_count = static_cast<int64_t>(limits.max_messages) >= int64_t{capacity} * table.count;
  return r;
}

}  // namespace topocheck::routing::deadlock_search
