#include "routing/simulator.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include <fmt/format.h>

#include "network/rng.h"

namespace topocheck::routing {

std::optional<Scheme> parse_scheme(std::string_view s) {
  if (s.size() != 1) return std::nullopt;
  const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  if (kSchemes.find(c) == std::string_view::npos) return std::nullopt;
  return c;
}

std::string describe_scheme(Scheme s, bool text_reading) {
  if (text_reading && s == 'A') s = 'C';
  else if (text_reading && s == 'C') s = 'A';
  switch (s) {
    case 'A': return "minimum remaining number of hops";
    case 'B': return "maximum remaining number of hops";
    case 'C': return "minimum original number of hops";
    case 'D': return "maximum original number of hops";
    case 'E': return "minimum sequence number of originating process";
    case 'F': return "maximum sequence number of originating process";
    case 'G': return "earliest generation time";
    case 'H': return "latest generation time";
    case 'I': return "earliest arrival time at a node (FIFO)";
    case 'J': return "latest arrival time at a node (LIFO)";
    case 'K': return "no prioritization scheme";
  }
  return "?";
}

std::string to_string(SchemeReading r) { return r == SchemeReading::kList ? "list" : "text"; }
std::optional<SchemeReading> parse_scheme_reading(std::string_view s) {
  if (s == "list") return SchemeReading::kList;
  if (s == "text") return SchemeReading::kText;
  return std::nullopt;
}

std::string to_string(Arbitration a) { return a == Arbitration::kRounds ? "rounds" : "node_by_node"; }
std::optional<Arbitration> parse_arbitration(std::string_view s) {
  if (s == "rounds") return Arbitration::kRounds;
  if (s == "node_by_node") return Arbitration::kNodeByNode;
  return std::nullopt;
}

std::string to_string(Defect d) {
  switch (d) {
    case Defect::kNone: return "none";
    case Defect::kIgnoreLinkCapacity: return "ignore_link_capacity";
    case Defect::kDoubleHop: return "double_hop";
    case Defect::kStaticHighestBit: return "static_highest_bit";
    case Defect::kNonMinimalDetour: return "non_minimal_detour";
    case Defect::kFireEarly: return "fire_early";
    case Defect::kDropMessage: return "drop_message";
    case Defect::kReversePriority: return "reverse_priority";
    case Defect::kSkipFirstMessage: return "skip_first_message";
  }
  return "?";
}

namespace {

// The priority key of a message under a scheme: smaller is transmitted first. `scheme` is the
// list's letter after the reading's swap.
int64_t priority_key(Scheme scheme, const Message& m) {
  switch (scheme) {
    case 'A': return m.remaining_hops;
    case 'B': return -int64_t{m.remaining_hops};
    case 'C': return m.original_hops;
    case 'D': return -int64_t{m.original_hops};
    case 'E': return m.seq;
    case 'F': return -int64_t{m.seq};
    case 'G': return m.generated;
    case 'H': return -int64_t{m.generated};
    case 'I': return m.arrival;
    case 'J': return -int64_t{m.arrival};
    default: return 0;  // K
  }
}

class Simulation {
 public:
  Simulation(const Network& net, const Workload& w, const SimConfig& c)
      : net_(net), w_(w), c_(c), rng_(c.seed) {
    scheme_ = c.scheme;
    if (c.reading == SchemeReading::kText && scheme_ == 'A') scheme_ = 'C';
    else if (c.reading == SchemeReading::kText && scheme_ == 'C') scheme_ = 'A';
    const NodeId n = net.num_nodes();
    buf_.resize(n);
    arrivals_.resize(n);
    cursor_.assign(n, 0);
    free_ports_.assign(n, 0);
    busy_.assign(net.num_links(c.links), 0);
    need_ = w.in_degrees();
    received_.assign(w.processes.size(), 0);
    fired_.assign(w.processes.size(), false);
    for (const Process& p : w.processes)
      if (need_[p.id] == 0) ready_.push_back(p.id);
    if (c.record_trace) result_.trace.emplace();
  }

  Result<SimResult> run() {
    size_t fired = 0;
    double latency_sum = 0;
    for (uint32_t t = 1; fired < w_.processes.size(); ++t) {
      if (t > c_.max_cycles)
        return invalid_argument(fmt::format("the run did not finish within {} cycles", c_.max_cycles));
      // 1. Generation, in process order (the fixed order of Section 3).
      std::sort(ready_.begin(), ready_.end());
      for (uint32_t p : ready_) {
        const Process& proc = w_.processes[p];
        fired_[p] = true;
        ++fired;
        result_.running_time = t;
        if (result_.trace) result_.trace->fires.push_back(Fire{t, p});
        for (uint32_t q : proc.sends) {
          Message m;
          m.id = static_cast<uint32_t>(msgs_.size());
          m.src_process = p;
          m.dst_process = q;
          m.src = proc.node;
          m.dst = w_.processes[q].node;
          m.at = m.src;
          m.seq = proc.seq;
          m.generated = t;
          m.arrival = t;
          m.original_hops = m.remaining_hops = static_cast<uint16_t>(net_.distance(m.src, m.dst));
          msgs_.push_back(m);
          moved_.push_back(0);
          if (result_.trace) result_.trace->messages.push_back(m);
          buf_[m.src].push_back(m.id);
        }
      }
      ready_.clear();
      if (fired == w_.processes.size()) break;
      // 2. Ordering: shuffle each buffer, then sort stably by priority.
      nonempty_.clear();
      for (NodeId u = 0; u < net_.num_nodes(); ++u) {
        std::vector<uint32_t>& b = buf_[u];
        if (b.empty()) continue;
        nonempty_.push_back(u);
        result_.max_buffer = std::max(result_.max_buffer, static_cast<uint32_t>(b.size()));
        rng_.shuffle(b);
        if (scheme_ != 'K' && b.size() > 1) {
          keyed_.clear();
          for (uint32_t id : b) {
            const int64_t key = priority_key(scheme_, msgs_[id]);
            keyed_.emplace_back(c_.defect == Defect::kReversePriority ? -key : key, id);
          }
          std::stable_sort(keyed_.begin(), keyed_.end(),
                           [](const auto& a, const auto& b2) { return a.first < b2.first; });
          for (size_t i = 0; i < b.size(); ++i) b[i] = keyed_[i].second;
        }
      }
      // 3. Routing: nodes take turns (shuffled), each trying its next message per round.
      rng_.shuffle(nonempty_);
      for (NodeId u : nonempty_) {
        cursor_[u] = 0;
        free_ports_[u] = net_.degree(u);
      }
      // Bidirectional links are shared with neighbours that may have empty buffers.
      if (c_.links == LinkKind::kBidirectional)
        for (NodeId u : nonempty_)
          for (int p = 0; p < net_.degree(u); ++p) free_ports_[net_.neighbor(u, p)] = net_.degree(net_.neighbor(u, p));
      active_ = nonempty_;
      const bool capacity = c_.defect != Defect::kIgnoreLinkCapacity;
      const bool whole_buffer = c_.arbitration == Arbitration::kNodeByNode;
      while (!active_.empty()) {
        size_t keep = 0;
        for (NodeId u : active_) {
          // kRounds: one message of u per pass; kNodeByNode: all of u's buffer in this pass.
          while (cursor_[u] < buf_[u].size() && (!capacity || free_ports_[u] > 0)) {
            const uint32_t id = buf_[u][cursor_[u]++];
            const bool skip = c_.defect == Defect::kSkipFirstMessage && cursor_[u] == 1 && t % 2 == 0;
            if (!skip && try_move(id, t)) {
              const Message& m = msgs_[id];
              if (m.at == m.dst) deliver(id, t, latency_sum);
            }
            if (!whole_buffer) break;
          }
          if (cursor_[u] < buf_[u].size() && (!capacity || free_ports_[u] > 0)) active_[keep++] = u;
        }
        active_.resize(keep);
      }
      // Messages that stayed waited a cycle; arrivals join their new buffers.
      for (NodeId u : nonempty_) {
        std::vector<uint32_t>& b = buf_[u];
        b.erase(std::remove_if(b.begin(), b.end(), [&](uint32_t id) { return moved_[id] == t; }), b.end());
        result_.waits += b.size();
      }
      if (c_.defect == Defect::kDoubleHop) {
        // Broken on purpose: arrivals get a second hop in the same cycle.
        for (NodeId u = 0; u < net_.num_nodes(); ++u) {
          std::vector<uint32_t> again = std::move(arrivals_[u]);
          arrivals_[u].clear();
          for (uint32_t id : again) {
            free_ports_[u] = net_.degree(u);
            if (try_move(id, t, /*second=*/true)) {
              if (msgs_[id].at == msgs_[id].dst) deliver(id, t, latency_sum);
            } else {
              arrivals_[u].push_back(id);
            }
          }
        }
      }
      for (NodeId u = 0; u < net_.num_nodes(); ++u) {
        if (arrivals_[u].empty()) continue;
        buf_[u].insert(buf_[u].end(), arrivals_[u].begin(), arrivals_[u].end());
        arrivals_[u].clear();
      }
    }
    result_.messages = msgs_.size();
    result_.mean_latency = msgs_.empty() ? 0 : latency_sum / static_cast<double>(msgs_.size());
    return std::move(result_);
  }

 private:
  // Tries the message's candidate ports in order; takes the first whose link is free.
  bool try_move(uint32_t id, uint32_t t, bool second = false) {
    Message& m = msgs_[id];
    const NodeId u = m.at;
    net_.candidates(u, m.dst, c_.routing, ports_);
    if (c_.defect == Defect::kStaticHighestBit && c_.routing == Routing::kStatic) {
      net_.candidates(u, m.dst, Routing::kDynamic, ports_);
      ports_ = {ports_.back()};
    }
    const bool capacity = c_.defect != Defect::kIgnoreLinkCapacity;
    auto take = [&](int p) {
      const uint32_t link = net_.link(u, p, c_.links);
      if (capacity && busy_[link] == t && !second) return false;
      busy_[link] = t;
      --free_ports_[u];
      if (c_.links == LinkKind::kBidirectional) --free_ports_[net_.neighbor(u, p)];
      const NodeId v = net_.neighbor(u, p);
      // Broken on purpose (kDropMessage): the first delivery after cycle 2 leaves no hop.
      const bool drop = c_.defect == Defect::kDropMessage && !dropped_ && t > 2 && v == m.dst;
      dropped_ = dropped_ || drop;
      if (result_.trace && !drop) result_.trace->hops.push_back(Hop{t, id, u, v});
      m.at = v;
      m.arrival = t;
      m.remaining_hops = static_cast<uint16_t>(net_.distance(v, m.dst));
      moved_[id] = t;
      ++result_.hops;
      if (v != m.dst) arrivals_[v].push_back(id);
      return true;
    };
    for (int p : ports_)
      if (take(p)) return true;
    if (c_.defect == Defect::kNonMinimalDetour && c_.routing == Routing::kDynamic)
      for (int p = 0; p < net_.degree(u); ++p)
        if (std::find(ports_.begin(), ports_.end(), p) == ports_.end() && take(p)) return true;
    return false;
  }

  void deliver(uint32_t id, uint32_t t, double& latency_sum) {
    const Message& m = msgs_[id];
    latency_sum += t - m.generated + 1;
    const uint32_t q = m.dst_process;
    ++received_[q];
    // Broken on purpose (kFireEarly): one message short is enough.
    const uint32_t threshold = c_.defect == Defect::kFireEarly && need_[q] >= 2 ? need_[q] - 1 : need_[q];
    if (received_[q] == threshold) ready_.push_back(q);
  }

  const Network& net_;
  const Workload& w_;
  const SimConfig& c_;
  Rng rng_;
  Scheme scheme_ = 'K';
  std::vector<Message> msgs_;
  std::vector<uint32_t> moved_;  // cycle of the message's last hop
  std::vector<std::vector<uint32_t>> buf_, arrivals_;
  std::vector<size_t> cursor_;
  std::vector<int> free_ports_;
  std::vector<uint32_t> busy_;   // cycle in which the link was last used
  std::vector<uint32_t> need_, received_;
  std::vector<bool> fired_;
  std::vector<uint32_t> ready_;
  std::vector<NodeId> nonempty_, active_;
  std::vector<std::pair<int64_t, uint32_t>> keyed_;
  std::vector<int> ports_;
  bool dropped_ = false;
  SimResult result_;
};

}  // namespace

Result<SimResult> simulate(const Network& net, const Workload& workload, const SimConfig& config) {
  if (workload.nodes != net.num_nodes())
    return invalid_argument(fmt::format("the workload '{}' is placed on {} nodes, the network {} has {}",
                                        workload.name, workload.nodes, net.name(), net.num_nodes()));
  if (auto bad = validate(workload)) return invalid_argument(fmt::format("workload '{}': {}", workload.name, *bad));
  Simulation sim(net, workload, config);
  return sim.run();
}

nlohmann::json to_json(const SimConfig& c) {
  return {{"routing", to_string(c.routing)}, {"links", to_string(c.links)},
          {"scheme", std::string(1, c.scheme)}, {"scheme_reading", to_string(c.reading)},
          {"arbitration", to_string(c.arbitration)},
          {"seed", c.seed}, {"defect", to_string(c.defect)}};
}

nlohmann::json to_json(const SimResult& r) {
  return {{"running_time", r.running_time}, {"messages", r.messages}, {"hops", r.hops},
          {"waits", r.waits}, {"max_buffer", r.max_buffer}, {"mean_latency", r.mean_latency}};
}

nlohmann::json trace_to_json(const Trace& t) {
  nlohmann::json j;
  j["messages"] = nlohmann::json::array();
  for (const Message& m : t.messages)
    j["messages"].push_back({{"id", m.id}, {"src_process", m.src_process}, {"dst_process", m.dst_process},
                             {"src", m.src}, {"dst", m.dst}, {"seq", m.seq}, {"generated", m.generated},
                             {"original_hops", m.original_hops}});
  j["fires"] = nlohmann::json::array();
  for (const Fire& f : t.fires) j["fires"].push_back({f.cycle, f.process});
  j["hops"] = nlohmann::json::array();
  for (const Hop& h : t.hops) j["hops"].push_back({h.cycle, h.message, h.from, h.to});
  return j;
}

}  // namespace topocheck::routing
