// The claims of the ITM paper's abstract (002) about wormhole routing, and one beyond it that
// explains its result:
//
//  - wormhole.updown.shortest_paths (beyond the paper; readings rule x kernel-root / any-root):
//    up*/down* over a BFS tree from a kernel node permits every shortest path of an ITM. Proof:
//    ids follow the AddNode order and a node v added at (x, y) has level min(level x, level y)
//    + 1; every later neighbour w of v (added at an edge (v, z), z adjacent to v) has level >=
//    level v, and id > id v, so v's only neighbours below it in the (level, id) order are among
//    x, y, which are adjacent: no shortest 2-hop path turns down then up at v, and a route that
//    is illegal has such a turn. From other roots it fails (any-root: refuted).
//  - wormhole.abstract.throughput_vs_updown (empirical; readings pairing x up*/down* root):
//    "ITM provides better throughput than up-down routing", from the throughput study
//    (wormhole/wormhole_study.h, default configuration: random any-edge ITMs of 16, 32, 64 nodes,
//    seeds 1..3, uniform traffic, load swept to saturation). Reproduced iff shortest-path
//    routing's saturation throughput is strictly larger than up*/down*'s on every instance; the
//    first instance where it is not is the counterexample, replayed by re-running that instance.
#include <algorithm>
#include <cstdint>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/itm/methods.h"
#include "catalog/wormhole/parts.h"
#include "catalog/wormhole/scope.h"
#include "catalog/wormhole/simulation.h"
#include "wormhole/wormhole_study.h"

namespace topocheck::claims::wormhole_parts {
namespace {

namespace scope = wormhole_scope;
using itm::Itm;
using itm::Rule;
using nlohmann::json;

// ---- wormhole.updown.shortest_paths (beyond the paper) -----------------------------------------

// Every shortest path of the ITM is a legal up*/down* route for the BFS tree from `root`. A route
// is illegal iff it takes an up hop after a down hop, and then some down hop is IMMEDIATELY
// followed by an up hop; a shortest path's two consecutive hops a -> b -> c are exactly the
// neighbours a != c of b that are not adjacent. So the check: no node b has two non-adjacent
// neighbours a, c with a -> b down and b -> c up (b below both in the (level, id) order).
Violation valley_check(const rt::Network& net, rt::NodeId root, const itm::Graph& g) {
  const rt::UpDownTree tree = rt::updown_tree(net, root);
  for (int b = 0; b < g.n(); ++b)
    for (int a : g.neighbors(b))
      for (int c : g.neighbors(b))
        if (a != c && !g.adjacent(a, c) && !tree.up(static_cast<rt::NodeId>(a), static_cast<rt::NodeId>(b)) &&
            tree.up(static_cast<rt::NodeId>(b), static_cast<rt::NodeId>(c)))
          return fmt::format("root {}: the shortest path {} -> {} -> {} goes down to {} (level {}) and up again, which "
                             "up*/down* forbids",
                             root, a, b, c, b, tree.level[static_cast<size_t>(b)]);
  return std::nullopt;
}

// The consequence, on the routing functions themselves: at every state up*/down* (adaptive)
// reaches from an injection, it allows exactly the channels shortest-path routing allows.
Violation same_allowed_check(const rt::Network& net, rt::NodeId root) {
  auto ud = rt::make_routing(net, rt::RoutingSpec{rt::RoutingFamily::kUpDown, rt::Adaptivity::kAdaptive, root});
  TC_CHECK(ud.ok(), "up*/down* builds on an ITM");
  const auto sp = shortest_path(net, rt::Adaptivity::kAdaptive);
  const rt::ChannelTable ch(net);
  std::vector<uint32_t> a, b;
  for (rt::NodeId d = 0; d < net.num_nodes(); ++d) {
    std::vector<char> seen(ch.size(), 0);
    std::vector<std::pair<rt::NodeId, uint32_t>> todo;
    for (rt::NodeId s = 0; s < net.num_nodes(); ++s)
      if (s != d) todo.emplace_back(s, rt::kInjection);
    while (!todo.empty()) {
      const auto [x, in] = todo.back();
      todo.pop_back();
      (*ud)->allowed(x, in, d, a);
      sp->allowed(x, in, d, b);
      if (a != b)
        return fmt::format("root {}: toward {} at {} (arrived on {}) up*/down* allows {} channels, shortest-path {}", root, d,
                           x, in == rt::kInjection ? std::string("injection") : fmt::format("{}->{}", ch.tail[in], ch.head[in]),
                           a.size(), b.size());
      for (uint32_t c : a)
        if (!seen[c] && ch.head[c] != d) {
          seen[c] = 1;
          todo.emplace_back(ch.head[c], c);
        }
    }
  }
  return std::nullopt;
}

ItmCheck updown_check(bool kernel_roots, bool by_routing) {
  return [kernel_roots, by_routing](const Itm& g, json* witness) -> Violation {
    const rt::Network net = itm_network(g);
    const int roots = kernel_roots ? 3 : g.n();
    for (int r = 0; r < roots; ++r) {
      const auto root = static_cast<rt::NodeId>(r);
      Violation v = by_routing ? same_allowed_check(net, root) : valley_check(net, root, g.graph());
      if (v) {
        if (witness) (*witness)["root"] = r;
        return v;
      }
    }
    return std::nullopt;
  };
}

// ---- wormhole.abstract.throughput_vs_updown -------------------------------------------------

rt::WormStudyConfig study_config(rt::RootPolicy policy) {
  rt::WormStudyConfig c;  // the default protocol
  c.root_policy = policy;
  c.jobs = 2;
  return c;
}

Result<rt::WormStudyResult> cached_wormhole_study(rt::RootPolicy policy) {
  static std::mutex mu;
  static std::map<rt::RootPolicy, std::shared_future<Result<rt::WormStudyResult>>> cache;
  std::shared_future<Result<rt::WormStudyResult>> f;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(policy);
    if (it == cache.end())
      it = cache.emplace(policy, std::async(std::launch::deferred, [policy] {
                                   return rt::run_wormhole_study(study_config(policy));
                                 }).share()).first;
    f = it->second;
  }
  return f.get();
}

Counterexample throughput_counterexample(const rt::WormVerdict& v, const rt::WormStudyResult& study, rt::RootPolicy policy) {
  const rt::WormInstanceRatio& bad = v.instances[*v.first_failure];
  Counterexample cx;
  cx.params = {{"rule", itm::to_string(study.config.rule)}, {"root", rt::to_string(policy)},
               {"pairing", adaptivity_word(v.pairing)}};
  cx.input = {{"size", bad.size}, {"seed", bad.seed}};
  cx.violation = fmt::format("ITM of {} nodes, seed {}: shortest-path saturation throughput {:.4f} vs up*/down* {:.4f} "
                             "(ratio {:.3f}); over all instances: {}",
                             bad.size, bad.seed, bad.sp, bad.updown, bad.ratio, v.detail);
  json ratios = json::array();
  for (const rt::WormInstanceRatio& r : v.instances)
    ratios.push_back({{"size", r.size}, {"seed", r.seed}, {"sp", r.sp}, {"updown", r.updown}, {"ratio", r.ratio}});
  cx.witness = {{"instances", ratios}};
  for (const rt::WormInstance& i : study.instances)
    if (i.size == bad.size && i.seed == bad.seed) cx.witness["steps"] = i.steps, cx.witness["root"] = i.root;
  cx.minimized = true;  // the first instance in the study's order (smallest size, then seed)
  return cx;
}

MethodResult throughput_method(const RunContext& ctx, rt::Adaptivity pairing, rt::RootPolicy policy) {
  MethodResult r;
  r.method = Method::kRandom;
  ctx.report(fmt::format("throughput study, up*/down* root {}", rt::to_string(policy)));
  auto study = cached_wormhole_study(policy);
  if (!study) {
    r.outcome = Outcome::kError;
    r.detail = study.error().message;
    return r;
  }
  const rt::WormStudyConfig& c = study->config;
  r.scope = fmt::format("random {} ITMs of {} nodes, seeds {}; up*/down* root: {}; uniform traffic, {}-flit worms, {}-flit "
                        "buffers; loads {}, {}, ... to saturation; window {} + {} cycles",
                        itm::to_string(c.rule), fmt::join(c.sizes, ", "), fmt::join(c.seeds, ", "), rt::to_string(policy),
                        c.length, c.buffer, c.load_step, 2 * c.load_step, c.warmup, c.measure);
  for (const rt::WormVerdict& v : study->verdicts) {
    if (v.pairing != pairing) continue;
    r.cases = v.instances.size();
    r.detail = v.detail;
    if (v.reproduced) {
      r.outcome = Outcome::kHolds;
    } else if (!v.first_failure) {
      r.outcome = Outcome::kError;
      r.detail = "no instance in the study";
    } else {
      r.outcome = Outcome::kRefuted;
      r.counterexample = throughput_counterexample(v, *study, policy);
      r.detail = r.counterexample->violation;
    }
    return r;
  }
  r.outcome = Outcome::kError;
  r.detail = "the study has no verdict for this pairing";
  return r;
}

Result<CaseCheck> throughput_case(rt::Adaptivity pairing, rt::RootPolicy policy, const json& params, const json& input) {
  if (!params.is_object() || params.value("root", std::string()) != rt::to_string(policy) ||
      params.value("pairing", std::string()) != adaptivity_word(pairing))
    return invalid_argument(fmt::format("params: this reading is pairing {}, root {}", adaptivity_word(pairing),
                                        rt::to_string(policy)));
  if (!input.is_object() || !input.contains("size") || !input.at("size").is_number_integer() || !input.contains("seed") ||
      !input.at("seed").is_number_unsigned())
    return invalid_argument("input: needs integer size and unsigned seed");
  rt::WormStudyConfig c = study_config(policy);
  c.sizes = {input.at("size").get<int>()};
  c.seeds = {input.at("seed").get<uint64_t>()};
  c.pairings = {pairing};
  auto study = rt::run_wormhole_study(c);
  if (!study) return study.error();
  const rt::WormVerdict& v = study->verdicts.front();
  CaseCheck cc;
  if (!v.reproduced && v.first_failure) cc.violation = throughput_counterexample(v, *study, policy).violation;
  cc.witness = {{"detail", v.detail}};
  return cc;
}

}  // namespace

void add_updown_claim(Registry& registry) {
  std::vector<Reading> readings;
  for (Rule rule : kRules)
    for (bool kernel : {true, false}) {
      Reading r;
      r.name = fmt::format("{}-{}", itm::to_string(rule), kernel ? "kernel-root" : "any-root");
      r.description = fmt::format(
          "ITMs built by AddNode on {} (node ids in AddNode order); up*/down* over the BFS tree from {} (up = towards the "
          "smaller (level, id)): every shortest path is a legal up*/down* route, so up*/down* and shortest-path routing "
          "allow the same channels",
          rule == Rule::kAnyEdge ? "any edge" : "exterior edges", kernel ? "any kernel node (0, 1, 2)" : "any node");
      r.methods.emplace_back(Method::kExhaustive, [rule, kernel](const RunContext& ctx) {
        return exhaustive_itms(ctx, rule, scope::kUpDownMaxN.at(ctx.budget), updown_check(kernel, false));
      });
      r.methods.emplace_back(Method::kRandom, [rule, kernel](const RunContext& ctx) {
        return random_itms(ctx, rule, scope::kUpDownRandomMaxNodes, updown_check(kernel, false),
                           scope::kUpDownRandomCases.at(ctx.budget));
      });
      // The routing functions compared state by state: the same verdict, independently reached.
      r.methods.emplace_back(Method::kOracle, [rule, kernel](const RunContext& ctx) {
        const int max_n = std::min(scope::kUpDownMaxN.at(ctx.budget), scope::kUpDownOracleMaxN);
        MethodResult m = exhaustive_itms(ctx, rule, max_n, updown_check(kernel, true));
        m.method = Method::kOracle;
        m.scope += " (allowed channels of the two routing functions compared at every reachable state)";
        return m;
      });
      r.check_case = itm_case_fn(rule, updown_check(kernel, false));
      readings.push_back(std::move(r));
    }
  registry.add(Claim::make(
      kPaper, "wormhole.updown.shortest_paths", "Abstract (beyond the paper: why the throughput comparison ties)",
      "on an ITM, up*/down* routing over a BFS tree rooted at a kernel node permits every shortest path, so it is the "
      "same routing as shortest-path routing",
      std::move(readings)));
}

void add_throughput_claim(Registry& registry) {
  std::vector<Reading> readings;
  for (rt::Adaptivity a : kAdaptivities)
    for (rt::RootPolicy policy : {rt::RootPolicy::kCenter, rt::RootPolicy::kRandom}) {
      Reading r;
      r.name = fmt::format("{}-root-{}", adaptivity_word(a), rt::to_string(policy));
      r.description = fmt::format(
          "on the same random ITM, {} shortest-path routing reaches a strictly higher saturation throughput than {} "
          "up*/down* routing over a BFS tree from {}, on every instance of the study (routing/wormhole_study.h)",
          adaptivity_word(a), adaptivity_word(a),
          policy == rt::RootPolicy::kCenter ? "the center (smallest eccentricity, then smallest id)"
                                            : "a node drawn at random per instance");
      r.methods.emplace_back(Method::kRandom, [a, policy](const RunContext& ctx) { return throughput_method(ctx, a, policy); });
      r.check_case = [a, policy](const json& params, const json& input) { return throughput_case(a, policy, params, input); };
      readings.push_back(std::move(r));
    }
  registry.add(Claim::make(kPaper, "wormhole.abstract.throughput_vs_updown", "Abstract",
                           "'Our initial experimental results demonstrate that ITM provides better throughput than up-down "
                           "routing' (no data printed)",
                           std::move(readings), /*empirical=*/true));
}

}  // namespace topocheck::claims::wormhole_parts
