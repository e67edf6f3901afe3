// RapidCheck properties of the routing simulator (paper 001): the simulator's contract on random
// cubes, workloads, routings, link kinds, schemes and seeds, each judged by the naive trace
// checker (routing/trace_check.h), and the negative controls: every deliberately broken
// simulator (routing::Defect) is caught, by the rule it breaks.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "catalog/routing/inputs.h"
#include "catalog/routing/scope.h"
#include "props/props_harness.h"
#include "routing/trace_check.h"

namespace topocheck {
namespace {

using claims::SimInput;
using routing::Defect;
using routing::TraceRule;

namespace scope = claims::routing_scope;

int Cases() { return scope::kPropertyCases.at(props::BudgetFromEnvironment()); }
int MaxDim() { return scope::kPropertyMaxDim.at(props::BudgetFromEnvironment()); }
std::string Inputs() {
  return "Q_1..Q_" + std::to_string(MaxDim()) + ", 3 workloads, both routings and link kinds, schemes A-K, both readings";
}

TEST(RoutingProps, EveryRunObeysTheSimulatorContract) {
  props::CheckClaim("routing.sim.*", props::BudgetFromEnvironment(), Cases(), Inputs(), [] {
    const SimInput in = *claims::sim_input_gen(MaxDim(), std::nullopt).as("input");
    RC_TAG(routing::to_string(in.routing), routing::to_string(in.links));
    auto run = claims::run_input(in);
    RC_ASSERT(run.ok());
    const auto bad = routing::check_trace_rules(run->net, run->workload, run->config, run->result);
    if (bad) RC_FAIL(routing::to_string(bad->rule) + ": " + bad->message);
  });
}

TEST(RoutingProps, TheSameSeedGivesTheSameRun) {
  props::CheckClaim("routing.sec3.deterministic", props::BudgetFromEnvironment(), Cases(), Inputs(), [] {
    const SimInput in = *claims::sim_input_gen(MaxDim(), std::nullopt).as("input");
    auto a = claims::run_input(in);
    auto b = claims::run_input(in);
    RC_ASSERT(a.ok() && b.ok());
    RC_ASSERT(routing::trace_to_json(*a->result.trace) == routing::trace_to_json(*b->result.trace));
  });
}

// Metamorphic: link kinds and schemes change a static run's timing (and so the order in which
// messages are generated and numbered), never its routes: every message, named by its processes,
// walks the same e-cube path.
TEST(RoutingProps, StaticRoutesDoNotDependOnLinksOrScheme) {
  props::CheckClaim("routing.sec1.static_ecube (metamorphic)", props::BudgetFromEnvironment(), Cases(), Inputs(), [] {
    SimInput in = *claims::sim_input_gen(MaxDim(), routing::Routing::kStatic).as("input");
    auto a = claims::run_input(in);
    in.links = in.links == routing::LinkKind::kBidirectional ? routing::LinkKind::kUnidirectional
                                                             : routing::LinkKind::kBidirectional;
    in.scheme = in.scheme == 'K' ? 'A' : 'K';
    auto b = claims::run_input(in);
    RC_ASSERT(a.ok() && b.ok());
    auto walks = [](const routing::Trace& t) {
      std::map<std::pair<uint32_t, uint32_t>, std::vector<routing::NodeId>> w;
      for (const auto& h : t.hops) w[{t.messages[h.message].src_process, t.messages[h.message].dst_process}].push_back(h.to);
      return w;
    };
    RC_ASSERT(walks(*a->result.trace) == walks(*b->result.trace));
  });
}

struct Control {
  Defect defect;
  std::optional<routing::Routing> only;
  TraceRule rule;
};

void ExpectCaught(const std::string& id, const Control& c) {
  const int cases = Cases();
  props::PrintScope(id, props::BudgetFromEnvironment(), cases, Inputs());
  // The broken simulator must be caught on some input, by the rule it breaks; RapidCheck's
  // shrunk input is the smallest it finds.
  auto f = props::Falsify<SimInput>(id, cases, claims::sim_input_gen(MaxDim(), c.only),
                                    [&c](const SimInput& in) -> Violation {
                                      auto run = claims::run_input(in, c.defect);
                                      if (!run) return std::nullopt;  // e.g. a detour that never ends
                                      auto bad = routing::check_trace_rules(run->net, run->workload, run->config,
                                                                            run->result);
                                      if (!bad || bad->rule != c.rule) return std::nullopt;
                                      return bad->message;
                                    });
  ASSERT_TRUE(f.falsified) << id << ": the broken simulator was never caught";
  std::cout << id << ": caught on " << claims::input_json(*f.smallest).dump() << " (Q_" << f.smallest->dim
            << "): " << f.violation << std::endl;
}

TEST(RoutingProps, NegativeControlsAreCaughtByTheRuleTheyBreak) {
  const std::vector<std::pair<std::string, Control>> controls = {
      {"routing.control.ignore_link_capacity", {Defect::kIgnoreLinkCapacity, std::nullopt, TraceRule::kCapacity}},
      {"routing.control.double_hop", {Defect::kDoubleHop, std::nullopt, TraceRule::kOneHop}},
      {"routing.control.static_highest_bit", {Defect::kStaticHighestBit, routing::Routing::kStatic, TraceRule::kEcube}},
      {"routing.control.non_minimal_detour", {Defect::kNonMinimalDetour, routing::Routing::kDynamic, TraceRule::kMinimal}},
      {"routing.control.fire_early", {Defect::kFireEarly, std::nullopt, TraceRule::kDelivery}},
      {"routing.control.drop_message", {Defect::kDropMessage, std::nullopt, TraceRule::kDelivery}},
      {"routing.control.reverse_priority", {Defect::kReversePriority, std::nullopt, TraceRule::kPriority}},
      {"routing.control.skip_first_message", {Defect::kSkipFirstMessage, std::nullopt, TraceRule::kWorkConservation}},
  };
  for (const auto& [id, c] : controls) ExpectCaught(id, c);
}

}  // namespace
}  // namespace topocheck
