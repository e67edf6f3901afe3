// A deadlock witness (deadlock.h) judged and written: check_deadlock_witness, the naive judge,
// which shares nothing with the searches (deadlock.cc, deadlock_state_space.cc,
// deadlock_configurations.cc): it restates the routing rules on bits and recounts every buffer
// from the placement for every question; and the witness's text and JSON forms (to_string,
// to_json, witness_from_json). Cost: the judge O(moves * messages + messages^2 * n).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "routing/deadlock.h"
#include "routing/deadlock_text.h"

namespace topocheck::routing {
namespace {

using deadlock_text::bits;
using deadlock_text::kMaxDeadlockN;

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
