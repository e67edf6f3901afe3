#include "routing/deadlock.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

namespace topocheck::routing {

std::string to_string(BufferModel b) { return b == BufferModel::kPerNode ? "per_node" : "per_link"; }

std::optional<BufferModel> parse_buffer_model(std::string_view s) {
  if (s == "per_node") return BufferModel::kPerNode;
  if (s == "per_link") return BufferModel::kPerLink;
  return std::nullopt;
}

std::string to_string(const DeadlockModel& m) {
  return fmt::format("{} routing, {} buffers, B = {}", to_string(m.routing), to_string(m.buffers), m.capacity);
}

std::string to_string(Where w) {
  switch (w) {
    case Where::kInjected: return "injected";
    case Where::kBuffered: return "buffered";
    case Where::kDelivered: return "delivered";
  }
  return "?";
}

std::string to_string(DeadlockSearchMethod m) {
  return m == DeadlockSearchMethod::kConfigurations ? "configurations" : "state_space";
}

std::string to_string(DeadlockVerdict v) {
  switch (v) {
    case DeadlockVerdict::kFound: return "found";
    case DeadlockVerdict::kNoneUpToLimit: return "none";
    case DeadlockVerdict::kInconclusive: return "inconclusive";
  }
  return "?";
}

DeadlockSearchLimits quick_deadlock_limits() {
  DeadlockSearchLimits limits;
  limits.max_messages = 24;
  limits.max_states = 1'000'000;
  return limits;
}

DeadlockSearchLimits standard_deadlock_limits() {
  DeadlockSearchLimits limits;
  limits.max_messages = 128;
  limits.max_states = 100'000'000;
  return limits;
}

namespace {

constexpr int kMaxDeadlockN = 6;

// The n-bit text form of node u, most significant bit first.
std::string bits(NodeId u, int n) {
  std::string s(static_cast<size_t>(n), '0');
  for (int i = 0; i < n; ++i)
    if (u >> i & 1u) s[static_cast<size_t>(n - 1 - i)] = '1';
  return s;
}

bool is_hypercube(const Network& net, int n) {
  if (n < 1 || n > kMaxDeadlockN || net.num_nodes() != (NodeId{1} << n)) return false;
  for (NodeId u = 0; u < net.num_nodes(); ++u) {
    if (net.degree(u) != n) return false;
    for (int i = 0; i < n; ++i)
      if (net.neighbor(u, i) != (u ^ (NodeId{1} << i))) return false;
  }
  return true;
}

int dimension_of(const Network& net) { return std::countr_zero(net.num_nodes()); }

// ---------------------------------------------------------------------------------------------
// The search's view of the model: buffers numbered 0..count-1 (kPerNode: the node; kPerLink: the
// directed link id of Network::link(u, port, kUnidirectional)), the node each sits at, and the
// buffer a hop c --port--> fills.
struct BufferTable {
  BufferTable(const Network& network, const DeadlockModel& m) : net(network), model(m) {
    if (model.buffers == BufferModel::kPerNode) {
      count = net.num_nodes();
      for (NodeId u = 0; u < count; ++u) {
        head.push_back(u);
        tail.push_back(u);
      }
    } else {
      count = net.num_links(LinkKind::kUnidirectional);
      head.assign(count, 0);
      tail.assign(count, 0);
      for (NodeId u = 0; u < net.num_nodes(); ++u)
        for (int p = 0; p < net.degree(u); ++p) {
          const uint32_t b = net.link(u, p, LinkKind::kUnidirectional);
          head[b] = net.neighbor(u, p);
          tail[b] = u;
        }
    }
  }
  uint32_t target(NodeId c, int port) const {
    return model.buffers == BufferModel::kPerNode ? net.neighbor(c, port)
                                                  : net.link(c, port, LinkKind::kUnidirectional);
  }
  bool allowed_hop(NodeId u, NodeId v, NodeId d, std::vector<int>& scratch) const {
    net.candidates(u, d, model.routing, scratch);
    const int port = net.port_to(u, v);
    return std::find(scratch.begin(), scratch.end(), port) != scratch.end();
  }

  const Network& net;
  DeadlockModel model;
  uint32_t count = 0;
  std::vector<NodeId> head, tail;
};

// Location codes of the searches: 0 injected, 1 delivered, 2 + b buffered in buffer b.
constexpr uint16_t kCodeInjected = 0;
constexpr uint16_t kCodeDelivered = 1;
constexpr uint16_t kCodeBuffer = 2;

// A wait cycle of a deadlocked placement: follow "waits for the first occupant of the first full
// buffer it needs" from the first undelivered message until a message repeats.
std::vector<uint32_t> extract_wait_cycle(const BufferTable& table, const std::vector<DeadlockMessage>& messages,
                                         const std::vector<uint16_t>& codes) {
  std::vector<int> ports;
  auto waits_for = [&](uint32_t m) -> uint32_t {
    const NodeId c = codes[m] == kCodeInjected ? messages[m].source : table.head[codes[m] - kCodeBuffer];
    table.net.candidates(c, messages[m].destination, table.model.routing, ports);
    for (int p : ports) {
      TC_CHECK(table.net.neighbor(c, p) != messages[m].destination, "a deadlocked message can be delivered");
      const uint16_t want = static_cast<uint16_t>(kCodeBuffer + table.target(c, p));
      for (uint32_t o = 0; o < codes.size(); ++o)
        if (codes[o] == want) return o;
    }
    TC_CHECK(false, "a deadlocked message waits on nobody");
    return 0;
  };
  uint32_t start = 0;
  while (codes[start] == kCodeDelivered) ++start;
  std::vector<int> seen_at(codes.size(), -1);
  std::vector<uint32_t> walk;
  uint32_t m = start;
  while (seen_at[m] < 0) {
    seen_at[m] = static_cast<int>(walk.size());
    walk.push_back(m);
    m = waits_for(m);
  }
  return std::vector<uint32_t>(walk.begin() + seen_at[m], walk.end());
}

// The witness for `messages` after `moves` (final placement replayed, wait cycle extracted).
DeadlockWitness make_witness(const BufferTable& table, int n, const std::vector<DeadlockMessage>& messages,
                             std::vector<Move> moves, const std::vector<uint16_t>& codes) {
  DeadlockWitness w;
  w.n = n;
  w.model = table.model;
  w.messages = messages;
  w.moves = std::move(moves);
  for (const DeadlockMessage& m : messages) w.final.push_back({Where::kInjected, m.source, m.source});
  for (const Move& mv : w.moves) {
    const bool delivered = mv.to == messages[mv.message].destination;
    w.final[mv.message] = delivered ? MessageLocation{Where::kDelivered, mv.to, mv.to}
                                    : MessageLocation{Where::kBuffered, mv.to, mv.from};
  }
  w.wait_cycle = extract_wait_cycle(table, messages, codes);
  return w;
}

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
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

std::string scope_line(const Network& net, const DeadlockModel& model, const DeadlockSearchLimits& limits,
                       const DeadlockSearchResult& r) {
  std::string verdict;
  switch (r.verdict) {
    case DeadlockVerdict::kFound:
      verdict = fmt::format("deadlock of {} messages after {} moves (fewest messages, then moves)",
                            r.witness->messages.size(), r.witness->moves.size());
      break;
    case DeadlockVerdict::kNoneUpToLimit:
      verdict = r.every_message_count
                    ? fmt::format("no reachable deadlock with any number of messages (complete: no configuration "
                                  "of up to all {} buffers deadlocks)", BufferTable(net, model).count)
                    : fmt::format("no reachable deadlock with up to {} messages (complete)", r.messages_searched);
      break;
    case DeadlockVerdict::kInconclusive:
      verdict = fmt::format("state limit {} reached at {} messages (inconclusive; none with up to {})",
                            limits.max_states, r.messages_searched + 1, r.messages_searched);
      break;
  }
  return fmt::format("{}, {}: {} search{}, up to {} messages, {} states: {}", net.name(), to_string(model),
                     to_string(limits.method), limits.translation_symmetry ? " up to translation" : "",
                     limits.max_messages, r.states_explored, verdict);
}

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

}  // namespace

DeadlockSearchResult search_deadlock(const Network& net, const DeadlockModel& model,
                                     const DeadlockSearchLimits& limits, const DeadlockProgress& progress) {
  const int n = dimension_of(net);
  TC_CHECK(is_hypercube(net, n), fmt::format("search_deadlock needs Q_n with 1 <= n <= {}, not {}", kMaxDeadlockN,
                                             net.name()));
  TC_CHECK(model.capacity >= 1, "buffer capacity below 1");
  const BufferTable table(net, model);
  DeadlockSearchResult r = limits.method == DeadlockSearchMethod::kStateSpace
                               ? search_state_space(table, n, limits, progress)
                               : search_configurations(table, n, limits, progress);
  if (r.witness) {
    const auto problem = check_deadlock_witness(net, *r.witness);
    TC_CHECK(!problem, "the search's witness fails the checker: " + problem.value_or(""));
  }
  r.scope = scope_line(net, model, limits, r);
  return r;
}

// ---------------------------------------------------------------------------------------------
// The naive judge. Deliberately shares nothing with the searches above: the routing rules are
// restated on bits, buffers are recounted from the placement for every question.
namespace {

// The nodes the routing lets a message at c for d go to next (the paper's rules on bits).
std::vector<NodeId> next_hops(NodeId c, NodeId d, Routing routing) {
  const NodeId diff = c ^ d;
  std::vector<NodeId> out;
  if (diff == 0) return out;
  if (routing == Routing::kStatic) {
    out.push_back(c ^ (diff & (~diff + 1)));  // flip the rightmost differing bit: diff & -diff
    return out;
  }
  for (int i = 0; i < 32; ++i)
    if (diff >> i & 1u) out.push_back(c ^ (NodeId{1} << i));
  return out;
}

// How many messages hold a slot of the buffer a hop c -> v fills.
int occupants(const DeadlockWitness& w, const std::vector<MessageLocation>& at, NodeId c, NodeId v) {
  int count = 0;
  for (const MessageLocation& loc : at)
    if (loc.where == Where::kBuffered && loc.node == v && (w.model.buffers == BufferModel::kPerNode || loc.from == c))
      ++count;
  return count;
}

std::string place(const MessageLocation& loc, int n) {
  switch (loc.where) {
    case Where::kInjected: return fmt::format("injected at {}", bits(loc.node, n));
    case Where::kDelivered: return fmt::format("delivered at {}", bits(loc.node, n));
    case Where::kBuffered: return fmt::format("at {} (from {})", bits(loc.node, n), bits(loc.from, n));
  }
  return "?";
}

}  // namespace

std::optional<std::string> check_deadlock_witness(const Network& net, const DeadlockWitness& w) {
  const int n = w.n;
  if (n < 1 || n > kMaxDeadlockN) return fmt::format("n = {} is outside 1..{}", n, kMaxDeadlockN);
  const NodeId N = NodeId{1} << n;
  if (net.num_nodes() != N) return fmt::format("the network {} is not Q_{}", net.name(), n);
  for (NodeId u = 0; u < N; ++u)
    for (int i = 0; i < n; ++i)
      if (net.degree(u) != n || net.neighbor(u, i) != (u ^ (NodeId{1} << i)))
        return fmt::format("the network {} is not Q_{} with port i = dimension i", net.name(), n);
  if (w.model.capacity < 1) return fmt::format("capacity {} is below 1", w.model.capacity);
  const int B = w.model.capacity;
  const size_t M = w.messages.size();
  if (M == 0) return "no messages";
  for (size_t i = 0; i < M; ++i) {
    const DeadlockMessage& m = w.messages[i];
    if (m.source >= N || m.destination >= N) return fmt::format("m{}: a node outside Q_{}", i, n);
    if (m.source == m.destination) return fmt::format("m{}: source equals destination", i);
  }
  std::vector<MessageLocation> at;
  for (const DeadlockMessage& m : w.messages) at.push_back({Where::kInjected, m.source, m.source});
  for (size_t k = 0; k < w.moves.size(); ++k) {
    const Move& mv = w.moves[k];
    if (mv.message >= M) return fmt::format("move {}: no message m{}", k, mv.message);
    MessageLocation& loc = at[mv.message];
    const DeadlockMessage& m = w.messages[mv.message];
    if (loc.where == Where::kDelivered) return fmt::format("move {}: m{} is already delivered", k, mv.message);
    if (loc.node != mv.from)
      return fmt::format("move {}: m{} is at {}, not {}", k, mv.message, bits(loc.node, n), bits(mv.from, n));
    const std::vector<NodeId> hops = next_hops(mv.from, m.destination, w.model.routing);
    if (std::find(hops.begin(), hops.end(), mv.to) == hops.end())
      return fmt::format("move {}: {} routing does not take m{} ({}->{}) from {} to {}", k,
                         to_string(w.model.routing), mv.message, bits(m.source, n), bits(m.destination, n),
                         bits(mv.from, n), bits(mv.to, n));
    if (mv.to == m.destination) {
      loc = {Where::kDelivered, mv.to, mv.to};
      continue;
    }
    if (occupants(w, at, mv.from, mv.to) >= B)
      return fmt::format("move {}: m{} {}->{} into a full buffer", k, mv.message, bits(mv.from, n), bits(mv.to, n));
    loc = {Where::kBuffered, mv.to, mv.from};
  }
  if (w.final.size() != M) return fmt::format("{} final locations for {} messages", w.final.size(), M);
  for (size_t i = 0; i < M; ++i)
    if (!(w.final[i] == at[i]))
      return fmt::format("m{}: final location {} but the moves leave it {}", i, place(w.final[i], n), place(at[i], n));
  bool undelivered = false;
  for (size_t i = 0; i < M; ++i) {
    if (at[i].where == Where::kDelivered) continue;
    undelivered = true;
    for (NodeId v : next_hops(at[i].node, w.messages[i].destination, w.model.routing)) {
      if (v == w.messages[i].destination)
        return fmt::format("not deadlocked: m{} at {} can be delivered to {}", i, bits(at[i].node, n), bits(v, n));
      if (occupants(w, at, at[i].node, v) < B)
        return fmt::format("not deadlocked: m{} can move {}->{}", i, bits(at[i].node, n), bits(v, n));
    }
  }
  if (!undelivered) return "not deadlocked: every message is delivered";
  const std::vector<uint32_t>& cycle = w.wait_cycle;
  if (cycle.empty()) return "empty wait cycle";
  for (size_t k = 0; k < cycle.size(); ++k) {
    if (cycle[k] >= M) return fmt::format("wait cycle: no message m{}", cycle[k]);
    for (size_t j = 0; j < k; ++j)
      if (cycle[j] == cycle[k]) return fmt::format("wait cycle: m{} appears twice", cycle[k]);
  }
  for (size_t k = 0; k < cycle.size(); ++k) {
    const uint32_t a = cycle[k], b = cycle[(k + 1) % cycle.size()];
    if (at[a].where == Where::kDelivered) return fmt::format("wait cycle: m{} is delivered", a);
    bool waits = false;
    for (NodeId v : next_hops(at[a].node, w.messages[a].destination, w.model.routing))
      waits = waits || (at[b].where == Where::kBuffered && at[b].node == v &&
                        (w.model.buffers == BufferModel::kPerNode || at[b].from == at[a].node));
    if (!waits) return fmt::format("wait cycle: m{} does not wait for m{}", a, b);
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Text and JSON.

std::string to_string(const DeadlockWitness& w) {
  const int n = w.n;
  auto message = [&](uint32_t i) {
    return fmt::format("m{} {}->{}", i, bits(w.messages[i].source, n), bits(w.messages[i].destination, n));
  };
  std::string out = fmt::format("Q_{}, {}: deadlock of {} messages after {} moves\nmessages:", n,
                                to_string(w.model), w.messages.size(), w.moves.size());
  for (uint32_t i = 0; i < w.messages.size(); ++i) out += (i ? ", " : " ") + message(i);
  out += "\nmoves:";
  for (size_t k = 0; k < w.moves.size(); ++k)
    out += fmt::format("{} m{} {}->{}", k ? "," : "", w.moves[k].message, bits(w.moves[k].from, n),
                       bits(w.moves[k].to, n));
  out += "\nfinal:";
  for (size_t i = 0; i < w.final.size(); ++i) out += fmt::format("{} m{} {}", i ? "," : "", i, place(w.final[i], n));
  out += "\nwait cycle:";
  for (size_t k = 0; k < w.wait_cycle.size(); ++k) {
    const uint32_t a = w.wait_cycle[k], b = w.wait_cycle[(k + 1) % w.wait_cycle.size()];
    if (a >= w.messages.size() || b >= w.messages.size() || a >= w.final.size() || b >= w.final.size()) {
      out += fmt::format("{} m{} -> m{}", k ? ";" : "", a, b);
      continue;
    }
    const MessageLocation& la = w.final[a];
    const MessageLocation& lb = w.final[b];
    const std::string buffer = w.model.buffers == BufferModel::kPerNode
                                   ? fmt::format("{}'s pool", bits(lb.node, n))
                                   : fmt::format("link {}->{}", bits(lb.from, n), bits(lb.node, n));
    out += fmt::format("{} {} at {} waits for m{} (in {})", k ? ";" : "", message(a), bits(la.node, n), b, buffer);
  }
  return out;
}

namespace {

constexpr const char* kFormat = "topocheck-deadlock";
constexpr int kVersion = 1;

}  // namespace

nlohmann::json to_json(const DeadlockWitness& w) {
  using nlohmann::json;
  json j = {{"format", kFormat},
            {"version", kVersion},
            {"n", w.n},
            {"routing", to_string(w.model.routing)},
            {"buffers", to_string(w.model.buffers)},
            {"capacity", w.model.capacity}};
  json messages = json::array(), moves = json::array(), final = json::array();
  for (const DeadlockMessage& m : w.messages)
    messages.push_back({{"source", bits(m.source, w.n)}, {"destination", bits(m.destination, w.n)}});
  for (const Move& mv : w.moves)
    moves.push_back({{"message", mv.message}, {"from", bits(mv.from, w.n)}, {"to", bits(mv.to, w.n)}});
  for (const MessageLocation& loc : w.final)
    final.push_back({{"where", to_string(loc.where)}, {"node", bits(loc.node, w.n)}, {"from", bits(loc.from, w.n)}});
  j["messages"] = std::move(messages);
  j["moves"] = std::move(moves);
  j["final"] = std::move(final);
  j["wait_cycle"] = w.wait_cycle;
  return j;
}

namespace {

using nlohmann::json;

struct JsonReader {
  std::optional<std::string> problem;  // "POINTER: MESSAGE"

  void fail(const std::string& pointer, const std::string& message) {
    if (!problem) problem = fmt::format("{}: {}", pointer.empty() ? "/" : pointer, message);
  }
  const json* field(const json& object, const std::string& pointer, const char* key) {
    if (problem) return nullptr;
    if (!object.is_object()) {
      fail(pointer, "is not an object");
      return nullptr;
    }
    if (!object.contains(key)) {
      fail(pointer, fmt::format("missing field '{}'", key));
      return nullptr;
    }
    return &object.at(key);
  }
  std::string string(const json& object, const std::string& pointer, const char* key) {
    const json* v = field(object, pointer, key);
    if (!v) return {};
    if (!v->is_string()) {
      fail(pointer + "/" + key, fmt::format("{} is not a string", v->dump()));
      return {};
    }
    return v->get<std::string>();
  }
  int64_t integer(const json& object, const std::string& pointer, const char* key, int64_t lo, int64_t hi) {
    const json* v = field(object, pointer, key);
    if (!v) return lo;
    if (!v->is_number_integer() || v->get<int64_t>() < lo || v->get<int64_t>() > hi) {
      fail(pointer + "/" + key, fmt::format("{} is not an integer in {}..{}", v->dump(), lo, hi));
      return lo;
    }
    return v->get<int64_t>();
  }
  NodeId node(const json& object, const std::string& pointer, const char* key, int n) {
    const std::string text = string(object, pointer, key);
    if (problem) return 0;
    if (text.size() != static_cast<size_t>(n) ||
        text.find_first_not_of("01") != std::string::npos) {
      fail(pointer + "/" + key, fmt::format("\"{}\" is not a node of Q_{} ({} bits of 0/1)", text, n, n));
      return 0;
    }
    NodeId u = 0;
    for (char ch : text) u = (u << 1) | static_cast<NodeId>(ch == '1');
    return u;
  }
  const json* array(const json& object, const std::string& pointer, const char* key) {
    const json* v = field(object, pointer, key);
    if (v && !v->is_array()) {
      fail(pointer + "/" + key, "is not an array");
      return nullptr;
    }
    return v;
  }
};

}  // namespace

Result<DeadlockWitness> witness_from_json(const json& j, const std::string& source) {
  JsonReader r;
  DeadlockWitness w;
  const std::string format = r.string(j, "", "format");
  if (!r.problem && format != kFormat) r.fail("/format", fmt::format("\"{}\", expected \"{}\"", format, kFormat));
  r.integer(j, "", "version", kVersion, kVersion);
  w.n = static_cast<int>(r.integer(j, "", "n", 1, kMaxDeadlockN));
  const std::string routing = r.string(j, "", "routing");
  if (!r.problem) {
    if (auto parsed = parse_routing(routing)) w.model.routing = *parsed;
    else r.fail("/routing", fmt::format("\"{}\", expected \"static\" or \"dynamic\"", routing));
  }
  const std::string buffers = r.string(j, "", "buffers");
  if (!r.problem) {
    if (auto parsed = parse_buffer_model(buffers)) w.model.buffers = *parsed;
    else r.fail("/buffers", fmt::format("\"{}\", expected \"per_node\" or \"per_link\"", buffers));
  }
  w.model.capacity = static_cast<int>(r.integer(j, "", "capacity", 1, 1 << 20));
  if (const json* messages = r.array(j, "", "messages")) {
    for (size_t i = 0; i < messages->size() && !r.problem; ++i) {
      const std::string pointer = fmt::format("/messages/{}", i);
      DeadlockMessage m;
      m.source = r.node(messages->at(i), pointer, "source", w.n);
      m.destination = r.node(messages->at(i), pointer, "destination", w.n);
      if (!r.problem && m.source == m.destination) r.fail(pointer, "source equals destination");
      w.messages.push_back(m);
    }
  }
  const int64_t last_message = static_cast<int64_t>(w.messages.size()) - 1;
  if (const json* moves = r.array(j, "", "moves")) {
    for (size_t k = 0; k < moves->size() && !r.problem; ++k) {
      const std::string pointer = fmt::format("/moves/{}", k);
      Move mv;
      mv.message = static_cast<uint32_t>(r.integer(moves->at(k), pointer, "message", 0, last_message));
      mv.from = r.node(moves->at(k), pointer, "from", w.n);
      mv.to = r.node(moves->at(k), pointer, "to", w.n);
      w.moves.push_back(mv);
    }
  }
  if (const json* final = r.array(j, "", "final")) {
    if (!r.problem && final->size() != w.messages.size())
      r.fail("/final", fmt::format("{} entries for {} messages", final->size(), w.messages.size()));
    for (size_t i = 0; i < final->size() && !r.problem; ++i) {
      const std::string pointer = fmt::format("/final/{}", i);
      MessageLocation loc;
      const std::string where = r.string(final->at(i), pointer, "where");
      if (where == "injected") loc.where = Where::kInjected;
      else if (where == "buffered") loc.where = Where::kBuffered;
      else if (where == "delivered") loc.where = Where::kDelivered;
      else if (!r.problem) r.fail(pointer + "/where", fmt::format("\"{}\", expected injected, buffered or delivered", where));
      loc.node = r.node(final->at(i), pointer, "node", w.n);
      loc.from = r.node(final->at(i), pointer, "from", w.n);
      w.final.push_back(loc);
    }
  }
  if (const json* cycle = r.array(j, "", "wait_cycle")) {
    for (size_t k = 0; k < cycle->size() && !r.problem; ++k) {
      const json& v = cycle->at(k);
      if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > last_message)
        r.fail(fmt::format("/wait_cycle/{}", k), fmt::format("{} is not a message index 0..{}", v.dump(), last_message));
      else
        w.wait_cycle.push_back(static_cast<uint32_t>(v.get<int64_t>()));
    }
  }
  if (r.problem) return parse_error(*r.problem, source);
  return w;
}

}  // namespace topocheck::routing
