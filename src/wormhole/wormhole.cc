#include "wormhole/wormhole.h"

#include <algorithm>
#include <deque>
#include <utility>

#include <fmt/format.h>

#include "network/rng.h"

namespace topocheck::routing {

ChannelTable::ChannelTable(const Network& net) {
  const NodeId n = net.num_nodes();
  first.assign(n + 1, 0);
  for (NodeId u = 0; u < n; ++u) {
    first[u] = static_cast<uint32_t>(tail.size());
    for (int p = 0; p < net.degree(u); ++p) {
      TC_CHECK(net.link(u, p, LinkKind::kUnidirectional) == tail.size(), "ChannelTable: link ids are not by port");
      tail.push_back(u);
      head.push_back(net.neighbor(u, p));
    }
  }
  first[n] = static_cast<uint32_t>(tail.size());
}

std::string to_string(Selection s) { return s == Selection::kFirstFree ? "first" : "random"; }
std::optional<Selection> parse_selection(std::string_view s) {
  if (s == "first") return Selection::kFirstFree;
  if (s == "random") return Selection::kRandomFree;
  return std::nullopt;
}

std::string to_string(WormDefect d) {
  switch (d) {
    case WormDefect::kNone: return "none";
    case WormDefect::kSharedChannel: return "shared_channel";
    case WormDefect::kBufferOverflow: return "buffer_overflow";
    case WormDefect::kTeleport: return "teleport";
    case WormDefect::kEarlyRelease: return "early_release";
    case WormDefect::kIgnoreRouting: return "ignore_routing";
    case WormDefect::kDropTail: return "drop_tail";
  }
  return "?";
}

namespace {

constexpr uint32_t kFree = 0xffffffffu;

// One worm's state. Its flits occupy the buffers of path[first_held..]; count[i] flits sit in
// path[i]'s buffer and crossed[i] have crossed path[i] so far (the next to cross is flit
// crossed[i]: flits stay in order).
struct Worm {
  std::vector<uint32_t> path, count, crossed;
  uint32_t first_held = 0;
  uint32_t at_source = 0;  // flits not yet injected
  uint32_t ejected = 0;
  bool started = false;    // its header left the source
  bool blocked = false;    // its header asked for a channel in this cycle's allocation and got none
  bool reserved_now = false;
};

class Simulation {
 public:
  Simulation(const Network& net, const WormholeRouting& routing, const std::vector<WormMessage>& messages,
             const WormConfig& config)
      : net_(net), routing_(routing), msgs_(messages), cfg_(config), ch_(net), rng_(config.seed) {}

  Result<WormResult> run();

 private:
  NodeId header_node(uint32_t w) const {
    const Worm& s = worms_[w];
    return s.path.empty() ? msgs_[w].src : ch_.head[s.path.back()];
  }
  uint32_t arrival(uint32_t w) const {
    const Worm& s = worms_[w];
    return s.path.empty() ? kInjection : s.path.back();
  }
  void allocate(uint32_t t);
  bool move(uint32_t w, uint32_t t);  // true iff some flit of w moved or was ejected
  std::optional<WormDeadlock> detect(uint32_t t);

  const Network& net_;
  const WormholeRouting& routing_;
  const std::vector<WormMessage>& msgs_;
  const WormConfig& cfg_;
  ChannelTable ch_;
  Rng rng_;
  std::vector<Worm> worms_;
  std::vector<uint32_t> owner_;               // per channel
  std::vector<std::deque<uint32_t>> queue_;   // per node: created worms whose tail has not left
  std::vector<uint32_t> active_;              // started, not delivered
  std::vector<uint32_t> requesters_;
  std::vector<uint32_t> allowed_, free_;
  WormResult result_;
  uint64_t window_flits_ = 0;
};

void Simulation::allocate(uint32_t t) {
  (void)t;
  requesters_.clear();
  for (NodeId u = 0; u < net_.num_nodes(); ++u)
    if (!queue_[u].empty() && !worms_[queue_[u].front()].started) requesters_.push_back(queue_[u].front());
  for (uint32_t w : active_)
    if (header_node(w) != msgs_[w].dst) requesters_.push_back(w);
  rng_.shuffle(requesters_);
  for (uint32_t w : requesters_) {
    Worm& s = worms_[w];
    s.blocked = false;
    const NodeId at = header_node(w);
    routing_.allowed(at, arrival(w), msgs_[w].dst, allowed_);
    free_.clear();
    for (uint32_t c : allowed_)
      if (owner_[c] == kFree || (cfg_.defect == WormDefect::kSharedChannel && owner_[c] != w)) free_.push_back(c);
    if (free_.empty() && cfg_.defect == WormDefect::kIgnoreRouting)
      for (uint32_t c = ch_.first[at]; c < ch_.first[at + 1]; ++c)
        if (owner_[c] == kFree) free_.push_back(c);
    if (free_.empty()) {
      s.blocked = true;
      continue;
    }
    const uint32_t c = cfg_.selection == Selection::kFirstFree ? free_.front()
                                                               : free_[static_cast<size_t>(rng_.below(free_.size()))];
    owner_[c] = w;
    s.path.push_back(c);
    s.count.push_back(0);
    s.crossed.push_back(0);
    s.reserved_now = true;
    if (!s.started) {
      s.started = true;
      active_.push_back(w);
    }
  }
}

bool Simulation::move(uint32_t w, uint32_t t) {
  Worm& s = worms_[w];
  const WormMessage& m = msgs_[w];
  const uint32_t length = m.length;
  const uint32_t cap = cfg_.buffer;
  bool moved = false;
  auto cross = [&](size_t i) {  // one flit into path[i]'s buffer, from path[i-1]'s or the source
    if (i > s.first_held) --s.count[i - 1];
    else --s.at_source;
    if (result_.trace) result_.trace->crossings.push_back({t, w, s.crossed[i], s.path[i]});
    ++s.count[i];
    ++s.crossed[i];
    ++result_.flit_crossings;
    moved = true;
  };
  const size_t last = s.path.size() - 1;
  if (ch_.head[s.path[last]] == m.dst && !s.reserved_now && s.count[last] > 0) {
    const uint32_t flit = s.ejected++;
    --s.count[last];
    moved = true;
    const bool dropped = cfg_.defect == WormDefect::kDropTail && w % 3 == 2 && flit + 1 == length;
    if (result_.trace && !dropped) result_.trace->ejections.push_back({t, w, flit});
    if (t >= cfg_.warmup && (cfg_.measure == 0 || t < cfg_.warmup + cfg_.measure)) ++window_flits_;
  }
  // Front to back: each flit crosses at most one channel (kTeleport: back to front, so a flit can
  // cross several).
  const auto step = [&](size_t i) {
    // Into path[i] from behind: from path[i-1]'s buffer (i > first_held) or from the source.
    const bool source_side = i == s.first_held;
    const bool has_flit = source_side ? s.at_source > 0 : s.count[i - 1] > 0;
    if (source_side && s.first_held > 0) return;  // the tail has left the source long ago
    if (!has_flit || s.crossed[i] >= length) return;
    const uint32_t room = cfg_.defect == WormDefect::kBufferOverflow ? cap + 1 : cap;
    if (s.count[i] >= room) return;
    cross(i);
  };
  if (cfg_.defect == WormDefect::kTeleport) {
    for (size_t i = s.first_held; i <= last; ++i) step(i);
  } else {
    for (size_t i = last + 1; i-- > s.first_held;) step(i);
  }
  s.reserved_now = false;
  // Releases: a channel whose every flit has crossed it and left its buffer.
  while (s.first_held < s.path.size() && s.crossed[s.first_held] == length && s.count[s.first_held] == 0) {
    if (owner_[s.path[s.first_held]] == w) owner_[s.path[s.first_held]] = kFree;
    ++s.first_held;
  }
  if (cfg_.defect == WormDefect::kEarlyRelease)
    for (size_t i = s.first_held; i + 1 < s.path.size(); ++i)
      if (owner_[s.path[i]] == w) owner_[s.path[i]] = kFree;
  if (s.at_source == 0 && !queue_[m.src].empty() && queue_[m.src].front() == w) queue_[m.src].pop_front();
  if (s.ejected == length) result_.delivered_at[w] = t;
  return moved;
}

std::optional<WormDeadlock> Simulation::detect(uint32_t t) {
  std::vector<uint32_t> set;
  std::vector<char> in(msgs_.size(), 0);
  for (uint32_t w : requesters_)
    if (worms_[w].blocked) {
      set.push_back(w);
      in[w] = 1;
    }
  bool changed = true;
  while (changed && !set.empty()) {
    changed = false;
    std::vector<uint32_t> keep;
    for (uint32_t w : set) {
      routing_.allowed(header_node(w), arrival(w), msgs_[w].dst, allowed_);
      bool stuck = !allowed_.empty();
      for (uint32_t c : allowed_)
        if (owner_[c] == kFree || !in[owner_[c]]) stuck = false;
      if (stuck) keep.push_back(w);
      else {
        in[w] = 0;
        changed = true;
      }
    }
    set.swap(keep);
  }
  if (set.empty()) return std::nullopt;
  std::sort(set.begin(), set.end());
  WormDeadlock wit;
  wit.cycle = t;
  for (uint32_t w : set) {
    const Worm& s = worms_[w];
    StuckWorm sw;
    sw.worm = w;
    sw.at = header_node(w);
    sw.in = arrival(w);
    sw.held.assign(s.path.begin() + s.first_held, s.path.end());
    routing_.allowed(sw.at, sw.in, msgs_[w].dst, sw.wants);
    for (uint32_t c : sw.wants) sw.holders.push_back(owner_[c]);
    wit.stuck.push_back(std::move(sw));
  }
  // A cycle of waiting: walk from the first stuck worm to the holder of its first wanted channel
  // until a worm repeats.
  std::vector<int> seen(msgs_.size(), -1);
  std::vector<uint32_t> walk, via;
  uint32_t w = set.front();
  while (seen[w] < 0) {
    seen[w] = static_cast<int>(walk.size());
    walk.push_back(w);
    const auto it = std::lower_bound(set.begin(), set.end(), w);
    const StuckWorm& sw = wit.stuck[static_cast<size_t>(it - set.begin())];
    via.push_back(sw.wants.front());
    w = sw.holders.front();
  }
  wit.cycle_worms.assign(walk.begin() + seen[w], walk.end());
  wit.waits_on.assign(via.begin() + seen[w], via.end());
  return wit;
}

Result<WormResult> Simulation::run() {
  const NodeId n = net_.num_nodes();
  if (cfg_.buffer < 1) return invalid_argument("wormhole: the buffer size must be at least 1 flit");
  if (cfg_.detect_every < 1) return invalid_argument("wormhole: detect_every must be at least 1");
  for (size_t i = 0; i < msgs_.size(); ++i) {
    const WormMessage& m = msgs_[i];
    if (m.src >= n || m.dst >= n)
      return invalid_argument(fmt::format("wormhole: message {}: node outside 0..{}", i, n - 1));
    if (m.src == m.dst) return invalid_argument(fmt::format("wormhole: message {}: source = destination {}", i, m.src));
    if (m.length < 1) return invalid_argument(fmt::format("wormhole: message {}: length 0", i));
  }
  worms_.assign(msgs_.size(), Worm{});
  for (size_t i = 0; i < msgs_.size(); ++i) worms_[i].at_source = msgs_[i].length;
  owner_.assign(ch_.size(), kFree);
  queue_.assign(n, {});
  result_.delivered_at.assign(msgs_.size(), 0);
  if (cfg_.record_trace) result_.trace.emplace();
  std::vector<uint32_t> order(msgs_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return msgs_[a].created < msgs_[b].created; });
  size_t next = 0;
  uint64_t delivered = 0;
  uint32_t t = 0;
  for (; t < cfg_.max_cycles && delivered < msgs_.size(); ++t) {
    while (next < order.size() && msgs_[order[next]].created <= t) {
      const uint32_t w = order[next++];
      queue_[msgs_[w].src].push_back(w);
    }
    allocate(t);
    bool moved = false;
    for (size_t i = 0; i < active_.size();) {
      const uint32_t w = active_[i];
      moved = move(w, t) || moved;
      if (worms_[w].ejected == msgs_[w].length) {
        ++delivered;
        active_[i] = active_.back();
        active_.pop_back();
      } else {
        ++i;
      }
    }
    const bool waiting = !active_.empty();
    if (waiting && (!moved || (t + 1) % cfg_.detect_every == 0)) {
      if (auto wit = detect(t)) {
        if (!cfg_.stop_on_deadlock)
          return Error{ErrorCode::kInternal, fmt::format("wormhole: deadlock at cycle {}", t), {}, 0};
        result_.deadlock = std::move(wit);
        ++t;
        break;
      }
      if (!moved)
        return Error{ErrorCode::kInternal,
                     fmt::format("wormhole: no flit moved in cycle {} and the detector finds no deadlock", t), {}, 0};
    }
  }
  result_.cycles = t;
  result_.delivered_worms = delivered;
  result_.completed = delivered == msgs_.size();
  // The window: [warmup, warmup + measure), or [warmup, t) when measure = 0 (the cycles run).
  const uint32_t w_begin = cfg_.warmup;
  const uint32_t w_end = cfg_.measure == 0 ? t : w_begin + cfg_.measure;
  const uint32_t w_len = std::max<uint32_t>(w_end > w_begin ? w_end - w_begin : 0, 1);
  uint64_t offered_flits = 0, lat_sum = 0;
  for (size_t i = 0; i < msgs_.size(); ++i) {
    const WormMessage& m = msgs_[i];
    if (m.created < w_begin || m.created >= w_end) continue;
    ++result_.window_worms;
    offered_flits += m.length;
    if (worms_[i].ejected == m.length) {
      ++result_.window_delivered;
      lat_sum += result_.delivered_at[i] - m.created + 1;
    }
  }
  const double denom = static_cast<double>(n) * w_len;
  result_.accepted = static_cast<double>(window_flits_) / denom;
  result_.offered = static_cast<double>(offered_flits) / denom;
  result_.mean_latency = result_.window_delivered ? static_cast<double>(lat_sum) / result_.window_delivered : 0;
  return std::move(result_);
}

std::string channel_text(const ChannelTable& ch, uint32_t c) {
  if (c == kInjection) return "injection";
  if (c >= ch.size()) return fmt::format("channel {}?", c);
  return fmt::format("{}->{}", ch.tail[c], ch.head[c]);
}

}  // namespace

Result<WormResult> simulate_wormhole(const Network& net, const WormholeRouting& routing,
                                     const std::vector<WormMessage>& messages, const WormConfig& config) {
  Simulation sim(net, routing, messages, config);
  return sim.run();
}

std::optional<std::string> check_worm_deadlock(const Network& net, const WormholeRouting& routing,
                                                  const std::vector<WormMessage>& messages,
                                                  const WormDeadlock& witness) {
  const ChannelTable ch(net);
  if (witness.stuck.empty()) return "the stuck set is empty";
  std::vector<int> index(messages.size(), -1);  // worm -> position in stuck
  std::vector<int> holder(ch.size(), -1);
  for (size_t i = 0; i < witness.stuck.size(); ++i) {
    const StuckWorm& s = witness.stuck[i];
    if (s.worm >= messages.size()) return fmt::format("stuck worm {} is not a message", s.worm);
    if (index[s.worm] >= 0) return fmt::format("worm {} is listed twice", s.worm);
    index[s.worm] = static_cast<int>(i);
    const WormMessage& m = messages[s.worm];
    if (s.at >= net.num_nodes()) return fmt::format("worm {}: node {} out of range", s.worm, s.at);
    if (s.at == m.dst) return fmt::format("worm {} is at its destination {}", s.worm, s.at);
    // Its held channels are a walk from its source side ending where the header waits, the
    // arrival channel last.
    if (s.held.empty() ? s.in != kInjection : s.in != s.held.back())
      return fmt::format("worm {}: arrival channel {} is not its last held channel", s.worm, channel_text(ch, s.in));
    if (s.held.empty() && s.at != m.src) return fmt::format("worm {} holds nothing but is not at its source", s.worm);
    for (size_t j = 0; j < s.held.size(); ++j) {
      const uint32_t c = s.held[j];
      if (c >= ch.size()) return fmt::format("worm {}: channel id {} out of range", s.worm, c);
      if (j > 0 && ch.tail[c] != ch.head[s.held[j - 1]])
        return fmt::format("worm {}: held channels {} and {} are not consecutive", s.worm,
                           channel_text(ch, s.held[j - 1]), channel_text(ch, c));
      if (holder[c] >= 0) return fmt::format("channel {} is held by worms {} and {}", channel_text(ch, c), holder[c], s.worm);
      holder[c] = static_cast<int>(s.worm);
    }
    if (!s.held.empty() && ch.head[s.held.back()] != s.at)
      return fmt::format("worm {}: its last held channel does not end at {}", s.worm, s.at);
  }
  std::vector<uint32_t> allowed;
  for (const StuckWorm& s : witness.stuck) {
    routing.allowed(s.at, s.in, messages[s.worm].dst, allowed);
    if (allowed != s.wants) return fmt::format("worm {}: its wanted channels are not the routing's allowed ones", s.worm);
    if (allowed.empty()) return fmt::format("worm {}: the routing allows nothing at {}", s.worm, s.at);
    for (uint32_t c : allowed)
      if (holder[c] < 0)
        return fmt::format("worm {} at {} may take channel {}, which no stuck worm holds", s.worm, s.at, channel_text(ch, c));
  }
  const size_t k = witness.cycle_worms.size();
  if (k < 2 || witness.waits_on.size() != k) return "the waiting cycle has fewer than two worms or no channels";
  for (size_t i = 0; i < k; ++i) {
    const uint32_t w = witness.cycle_worms[i], next = witness.cycle_worms[(i + 1) % k], c = witness.waits_on[i];
    if (w >= messages.size() || index[w] < 0) return fmt::format("cycle worm {} is not stuck", w);
    const auto& wants = witness.stuck[static_cast<size_t>(index[w])].wants;
    if (std::find(wants.begin(), wants.end(), c) == wants.end())
      return fmt::format("worm {} does not wait on channel {}", w, channel_text(ch, c));
    if (c >= ch.size() || holder[c] != static_cast<int>(next))
      return fmt::format("channel {} (wanted by worm {}) is not held by worm {}", channel_text(ch, c), w, next);
  }
  return std::nullopt;
}

std::string waiting_cycle_text(const Network& net, const std::vector<WormMessage>& messages,
                               const WormDeadlock& witness) {
  const ChannelTable ch(net);
  std::string out;
  const size_t k = witness.cycle_worms.size();
  for (size_t i = 0; i < k; ++i) {
    const uint32_t x = witness.cycle_worms[i], c = witness.waits_on[i];
    out += fmt::format("{}worm {} ({}->{}) waits on {}, held by worm {}", i ? "; " : "", x, messages[x].src,
                       messages[x].dst, channel_text(ch, c), witness.cycle_worms[(i + 1) % k]);
  }
  return out;
}

nlohmann::json to_json(const WormConfig& c) {
  return {{"buffer", c.buffer},        {"selection", to_string(c.selection)}, {"seed", c.seed},
          {"max_cycles", c.max_cycles}, {"warmup", c.warmup},                 {"measure", c.measure},
          {"defect", to_string(c.defect)}};
}

nlohmann::json to_json(const WormResult& r) {
  nlohmann::json j = {{"cycles", r.cycles},
                      {"completed", r.completed},
                      {"delivered_worms", r.delivered_worms},
                      {"flit_crossings", r.flit_crossings},
                      {"accepted", r.accepted},
                      {"offered", r.offered},
                      {"mean_latency", r.mean_latency},
                      {"window_worms", r.window_worms},
                      {"window_delivered", r.window_delivered}};
  j["deadlock"] = r.deadlock ? to_json(*r.deadlock) : nlohmann::json(nullptr);
  return j;
}

nlohmann::json to_json(const WormDeadlock& w) {
  nlohmann::json stuck = nlohmann::json::array();
  for (const StuckWorm& s : w.stuck)
    stuck.push_back({{"worm", s.worm}, {"at", s.at}, {"in", s.in == kInjection ? nlohmann::json("injection") : nlohmann::json(s.in)},
                     {"held", s.held}, {"wants", s.wants}, {"holders", s.holders}});
  return {{"cycle", w.cycle}, {"stuck", stuck}, {"cycle_worms", w.cycle_worms}, {"waits_on", w.waits_on}};
}

}  // namespace topocheck::routing
