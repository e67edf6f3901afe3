// The plain deadlock search of deadlock.h (kStateSpace): for M = 1, 2, ... every multiset of M
// (source, destination) pairs of Q_n, up to translation, explored breadth-first over its
// reachable states until a deadlocked one. The first M with a deadlock is the fewest messages and
// BFS gives the fewest moves. Cost: C(N(N-1)+M-1, M) / N multisets, each its reachable states
// (measured figures in deadlock.h); limits.max_states bounds the states of all multisets.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "routing/deadlock_search.h"

namespace topocheck::routing::deadlock_search {
namespace {

// kStateSpace: BFS over the states of one message multiset.
class StateSpaceSearch {
 public:
  StateSpaceSearch(const BufferTable& table, uint64_t max_states) : table_(table), max_states_(max_states) {}

  uint64_t states() const { return states_; }
  bool exhausted() const { return exhausted_; }

  struct Found {
    std::vector<Move> moves;
    std::vector<uint16_t> codes;
  };
  // The shortest move sequence from the initial state to a deadlocked one, or nullopt (none, or
  // the state budget ran out: see exhausted()).
  std::optional<Found> shortest_deadlock(const std::vector<DeadlockMessage>& messages) {
    const size_t m = messages.size();
    std::vector<std::u16string> states{std::u16string(m, char16_t{kCodeInjected})};
    std::vector<uint32_t> parent{0};
    std::vector<Move> via{Move{}};
    std::unordered_map<std::u16string, uint32_t> index{{states[0], 0}};
    std::vector<uint32_t> occupancy(table_.count);
    std::vector<int> ports;
    if (!count_state()) return std::nullopt;
    for (uint32_t i = 0; i < states.size(); ++i) {
      const std::u16string state = states[i];
      std::fill(occupancy.begin(), occupancy.end(), 0);
      for (char16_t code : state)
        if (code >= kCodeBuffer) ++occupancy[code - kCodeBuffer];
      bool undelivered = false, can_move = false;
      for (uint32_t k = 0; k < m; ++k) {
        if (state[k] == kCodeDelivered) continue;
        undelivered = true;
        const NodeId c = state[k] == kCodeInjected ? messages[k].source : table_.head[state[k] - kCodeBuffer];
        table_.net.candidates(c, messages[k].destination, table_.model.routing, ports);
        for (int p : ports) {
          const NodeId v = table_.net.neighbor(c, p);
          uint16_t next;
          if (v == messages[k].destination) {
            next = kCodeDelivered;
          } else {
            const uint32_t b = table_.target(c, p);
            if (occupancy[b] >= static_cast<uint32_t>(table_.model.capacity)) continue;
            next = static_cast<uint16_t>(kCodeBuffer + b);
          }
          can_move = true;
          std::u16string successor = state;
          successor[k] = static_cast<char16_t>(next);
          if (index.contains(successor)) continue;
          if (!count_state()) return std::nullopt;
          index.emplace(successor, static_cast<uint32_t>(states.size()));
          states.push_back(std::move(successor));
          parent.push_back(i);
          via.push_back(Move{k, c, v});
        }
      }
      if (undelivered && !can_move) {
        Found found;
        found.codes.assign(state.begin(), state.end());
        for (uint32_t s = i; s != 0; s = parent[s]) found.moves.push_back(via[s]);
        std::reverse(found.moves.begin(), found.moves.end());
        return found;
      }
    }
    return std::nullopt;
  }

 private:
  bool count_state() {
    if (states_ >= max_states_) {
      exhausted_ = true;
      return false;
    }
    ++states_;
    return true;
  }

  const BufferTable& table_;
  uint64_t max_states_;
  uint64_t states_ = 0;
  bool exhausted_ = false;
};

struct LevelOutcome {
  bool exhausted = false;
  std::optional<DeadlockWitness> witness;
  uint64_t sets = 0;
  uint64_t deadlocking = 0;
};

LevelOutcome state_space_level(const BufferTable& table, int n, int m, bool symmetry, StateSpaceSearch& search) {
  const NodeId N = table.net.num_nodes();
  const uint32_t P = N * (N - 1);  // pair k = (k / (N-1), the (k % (N-1))-th other node)
  auto pair_of = [&](uint32_t k) {
    const NodeId s = k / (N - 1), r = k % (N - 1);
    return DeadlockMessage{s, r < s ? r : r + 1};
  };
  auto index_of = [&](NodeId s, NodeId d) { return s * (N - 1) + (d < s ? d : d - 1); };
  LevelOutcome out;
  // Multisets as non-decreasing index lists. Under symmetry the canonical (least) member of an
  // orbit has a message from node 0 (translating by any message's source gives one, and pairs
  // from 0 have the lowest indices), so idx[0] < N - 1.
  const uint32_t first_limit = symmetry ? N - 1 : P;
  std::vector<uint32_t> idx(static_cast<size_t>(m), 0), image(static_cast<size_t>(m));
  size_t best_moves = SIZE_MAX;
  while (true) {
    bool canonical = true;
    uint64_t stabilizer = 1;
    if (symmetry) {
      for (NodeId t = 1; t < N && canonical; ++t) {
        for (size_t k = 0; k < idx.size(); ++k) {
          const DeadlockMessage p = pair_of(idx[k]);
          image[k] = index_of(p.source ^ t, p.destination ^ t);
        }
        std::sort(image.begin(), image.end());
        if (image < idx) canonical = false;
        if (image == idx) ++stabilizer;
      }
    }
    if (canonical) {
      ++out.sets;
      std::vector<DeadlockMessage> messages;
      for (uint32_t k : idx) messages.push_back(pair_of(k));
      auto found = search.shortest_deadlock(messages);
      if (search.exhausted()) {
        out.exhausted = true;
        return out;
      }
      if (found) {
        out.deadlocking += symmetry ? N / stabilizer : 1;
        if (found->moves.size() < best_moves) {
          best_moves = found->moves.size();
          out.witness = make_witness(table, n, messages, std::move(found->moves), found->codes);
        }
      }
    }
    // Next multiset: bump the last position that can grow, reset the rest to it.
    int k = m - 1;
    while (k >= 0 && idx[static_cast<size_t>(k)] + 1 >= (k == 0 ? first_limit : P)) --k;
    if (k < 0) break;
    const uint32_t v = idx[static_cast<size_t>(k)] + 1;
    for (size_t j = static_cast<size_t>(k); j < idx.size(); ++j) idx[j] = v;
  }
  return out;
}

}  // namespace

DeadlockSearchResult search_state_space(const BufferTable& table, int n, const DeadlockSearchLimits& limits,
                                        const DeadlockProgress& progress) {
  DeadlockSearchResult r;
  StateSpaceSearch search(table, limits.max_states);
  for (int m = 1; m <= limits.max_messages; ++m) {
    LevelOutcome level = state_space_level(table, n, m, limits.translation_symmetry, search);
    r.states_explored = search.states();
    r.message_sets += level.sets;
    if (level.exhausted) {
      r.verdict = DeadlockVerdict::kInconclusive;
      return r;
    }
    if (level.witness) {
      r.verdict = DeadlockVerdict::kFound;
      r.messages_searched = m;
      r.deadlocking_sets = level.deadlocking;
      r.witness = std::move(level.witness);
      return r;
    }
    r.messages_searched = m;
    if (progress) progress(m, r.states_explored);
  }
  r.verdict = DeadlockVerdict::kNoneUpToLimit;
  return r;
}

}  // namespace topocheck::routing::deadlock_search
