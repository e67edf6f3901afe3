// The deadlock search's entry (deadlock.h): the names and budgets of the model, the witness a
// search builds from a deadlocked placement (final placement replayed, wait cycle followed), the
// scope line, and search_deadlock, which checks its precondition, dispatches to the search the
// limits name (deadlock_state_space.cc, deadlock_configurations.cc) and has the naive judge
// (deadlock_witness.cc) accept the witness before returning it.
#include "routing/deadlock.h"

#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "routing/deadlock_search.h"
#include "routing/deadlock_text.h"

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

namespace deadlock_search {
namespace {

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

}  // namespace

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

}  // namespace deadlock_search

namespace {

using deadlock_search::BufferTable;
using deadlock_text::kMaxDeadlockN;

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

// The scope line of deadlock.h's DeadlockSearchResult.
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

}  // namespace

DeadlockSearchResult search_deadlock(const Network& net, const DeadlockModel& model,
                                     const DeadlockSearchLimits& limits, const DeadlockProgress& progress) {
  const int n = dimension_of(net);
  TC_CHECK(is_hypercube(net, n), fmt::format("search_deadlock needs Q_n with 1 <= n <= {}, not {}", kMaxDeadlockN,
                                             net.name()));
  TC_CHECK(model.capacity >= 1, "buffer capacity below 1");
  const BufferTable table(net, model);
  DeadlockSearchResult r = limits.method == DeadlockSearchMethod::kStateSpace
                               ? deadlock_search::search_state_space(table, n, limits, progress)
                               : deadlock_search::search_configurations(table, n, limits, progress);
  if (r.witness) {
    const auto problem = check_deadlock_witness(net, *r.witness);
    TC_CHECK(!problem, "the search's witness fails the checker: " + problem.value_or(""));
  }
  r.scope = scope_line(net, model, limits, r);
  return r;
}

}  // namespace topocheck::routing
