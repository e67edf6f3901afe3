#include "routing/simulator.h"

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "metacube/metacube.h"
#include "routing/trace_check.h"

namespace topocheck::routing {
namespace {

using ::testing::HasSubstr;

// The decimal numbers at the '#'s of `pattern` where it first occurs in `text` (the rest of the
// pattern is literal); nullopt when it does not occur.
std::optional<std::vector<uint64_t>> find_numbers(const std::string& text, const std::string& pattern) {
  for (size_t start = 0; start < text.size(); ++start) {
    std::vector<uint64_t> numbers;
    size_t i = start;
    bool ok = true;
    for (char p : pattern) {
      if (p != '#') {
        ok = i < text.size() && text[i] == p;
        ++i;
      } else {
        const size_t first = i;
        uint64_t n = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - first < 19) n = n * 10 + (text[i++] - '0');
        ok = i > first;
        numbers.push_back(n);
      }
      if (!ok) break;
    }
    if (ok) return numbers;
  }
  return std::nullopt;
}

Workload hand_workload(uint32_t nodes, std::vector<Process> processes) {
  Workload w;
  w.name = "hand";
  w.nodes = nodes;
  w.processes = std::move(processes);
  return w;
}

Process proc(uint32_t id, uint32_t node, uint32_t seq, std::vector<uint32_t> sends) {
  Process p;
  p.id = id;
  p.node = node;
  p.seq = seq;
  p.sends = std::move(sends);
  return p;
}

SimConfig config(Routing r, LinkKind k, Scheme s, uint64_t seed = 1) {
  SimConfig c;
  c.routing = r;
  c.links = k;
  c.scheme = s;
  c.seed = seed;
  c.record_trace = true;
  return c;
}

// Two messages that both want the link 0-1 in cycle 1 (Q_2): 0 -> 3 (e-cube 0, 1, 3) and
// 1 -> 2 (e-cube 1, 0, 2).
Workload crossing() {
  return hand_workload(4, {proc(0, 0, 0, {2}), proc(1, 1, 1, {3}), proc(2, 3, 2, {}), proc(3, 2, 3, {})});
}

TEST(RoutingSimulator, OneMessageTakesOneHopPerCycleAndItsReceiverFiresTheCycleAfter) {
  auto net = Network::hypercube(2);
  const Workload w = hand_workload(4, {proc(0, 0, 0, {1}), proc(1, 3, 1, {})});
  auto r = simulate(*net, w, config(Routing::kStatic, LinkKind::kBidirectional, 'K'));
  ASSERT_TRUE(r.ok()) << r.error().message;
  // Cycle 1: process 0 fires, hop 00 -> 01; cycle 2: hop 01 -> 11 (delivered); cycle 3: fires.
  EXPECT_EQ(r->running_time, 3u);
  ASSERT_EQ(r->trace->hops.size(), 2u);
  EXPECT_EQ(r->trace->hops[0].to, 1u);  // e-cube: dimension 0 first
  EXPECT_EQ(r->trace->hops[1].to, 3u);
  EXPECT_EQ(check_trace(*net, w, config(Routing::kStatic, LinkKind::kBidirectional, 'K'), *r), std::nullopt);
}

TEST(RoutingSimulator, ABidirectionalLinkCarriesOneMessageAndTwoUnidirectionalLinksCarryTwo) {
  auto net = Network::hypercube(2);
  const Workload w = crossing();
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const SimConfig bi = config(Routing::kStatic, LinkKind::kBidirectional, 'K', seed);
    const SimConfig uni = config(Routing::kStatic, LinkKind::kUnidirectional, 'K', seed);
    const SimConfig dyn = config(Routing::kDynamic, LinkKind::kBidirectional, 'K', seed);
    auto rb = simulate(*net, w, bi), ru = simulate(*net, w, uni), rd = simulate(*net, w, dyn);
    EXPECT_EQ(rb->running_time, 4u);  // one of the two waits a cycle
    EXPECT_EQ(ru->running_time, 3u);
    EXPECT_EQ(rd->running_time, 3u);  // the loser takes its other dimension
    EXPECT_EQ(check_trace(*net, w, bi, *rb), std::nullopt);
    EXPECT_EQ(check_trace(*net, w, uni, *ru), std::nullopt);
    EXPECT_EQ(check_trace(*net, w, dyn, *rd), std::nullopt);
  }
}

TEST(RoutingSimulator, EveryCaseOfTheStudyPassesTheTraceCheckOnSmallCubes) {
  for (int n = 1; n <= 4; ++n) {
    auto net = Network::hypercube(n);
    ASSERT_TRUE(net.ok());
    for (const std::string& name : builtin_workload_names()) {
      if (net->num_nodes() < 2) continue;
      auto w = builtin_workload(name, net->num_nodes(), 3);
      ASSERT_TRUE(w.ok()) << name << ": " << w.error().message;
      for (Routing r : {Routing::kStatic, Routing::kDynamic})
        for (LinkKind k : {LinkKind::kBidirectional, LinkKind::kUnidirectional})
          for (char s : kSchemes)
            for (SchemeReading reading : {SchemeReading::kList, SchemeReading::kText})
            for (Arbitration arb : {Arbitration::kRounds, Arbitration::kNodeByNode}) {
              SimConfig c = config(r, k, s, 11);
              c.reading = reading;
              c.arbitration = arb;
              auto res = simulate(*net, *w, c);
              ASSERT_TRUE(res.ok()) << res.error().message;
              EXPECT_EQ(check_trace(*net, *w, c, *res), std::nullopt)
                  << "Q_" << n << " " << name << " " << to_string(r) << " " << to_string(k) << " " << s;
            }
    }
  }
}

// Any topology of src/: on a metacube (not a cube, so the judge uses the network's BFS distances)
// static routing is a fixed shortest path and dynamic routing minimal adaptive; every case passes.
TEST(RoutingSimulator, RunsOnAMetacubeAndEveryRunIsJudgedValid) {
  auto mc = metacube::Metacube::make(1, 2);
  ASSERT_TRUE(mc.ok());
  auto net = Network::from_topology(*mc);
  ASSERT_TRUE(net.ok()) << net.error().message;
  EXPECT_EQ(net->num_nodes(), 32u);
  EXPECT_EQ(net->name(), mc->name());
  for (const std::string& name : builtin_workload_names()) {
    auto w = builtin_workload(name, net->num_nodes(), 5);
    ASSERT_TRUE(w.ok());
    for (Routing r : {Routing::kStatic, Routing::kDynamic})
      for (LinkKind k : {LinkKind::kBidirectional, LinkKind::kUnidirectional})
        for (char s : std::string("ACEK")) {
          const SimConfig c = config(r, k, s, 3);
          auto res = simulate(*net, *w, c);
          ASSERT_TRUE(res.ok()) << res.error().message;
          EXPECT_EQ(check_trace(*net, *w, c, *res), std::nullopt) << name << " " << to_string(r) << " " << s;
        }
  }
}

TEST(RoutingSimulator, TheSameSeedGivesTheSameRun) {
  auto net = Network::hypercube(5);
  auto w = builtin_workload("gauss", 32, 2);
  ASSERT_TRUE(w.ok());
  const SimConfig c = config(Routing::kDynamic, LinkKind::kBidirectional, 'I', 99);
  auto a = simulate(*net, *w, c), b = simulate(*net, *w, c);
  EXPECT_EQ(to_json(*a), to_json(*b));
  EXPECT_EQ(trace_to_json(*a->trace), trace_to_json(*b->trace));
}

TEST(RoutingSimulator, SchemeAUnderTheTextReadingIsSchemeCOfTheList) {
  auto net = Network::hypercube(5);
  auto w = builtin_workload("layered", 32, 4);
  ASSERT_TRUE(w.ok());
  SimConfig text = config(Routing::kDynamic, LinkKind::kBidirectional, 'A', 5);
  text.reading = SchemeReading::kText;
  const SimConfig list_c = config(Routing::kDynamic, LinkKind::kBidirectional, 'C', 5);
  EXPECT_EQ(trace_to_json(*simulate(*net, *w, text)->trace), trace_to_json(*simulate(*net, *w, list_c)->trace));
}

TEST(RoutingSimulator, RejectsAWorkloadPlacedOnAnotherSize) {
  auto net = Network::hypercube(3);
  auto w = builtin_workload("gauss", 16, 1);
  ASSERT_TRUE(w.ok());
  auto r = simulate(*net, *w, config(Routing::kStatic, LinkKind::kBidirectional, 'K'));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("16 nodes"));
}

TEST(RoutingSimulator, ParsesSchemeLetters) {
  EXPECT_EQ(parse_scheme("e"), 'E');
  EXPECT_EQ(parse_scheme("K"), 'K');
  EXPECT_FALSE(parse_scheme("L").has_value());
  EXPECT_FALSE(parse_scheme("AB").has_value());
  EXPECT_EQ(describe_scheme('A', /*text_reading=*/true), "minimum original number of hops");
}

// Negative controls: each deliberately broken simulator is caught by the trace checker.
struct BrokenCase {
  Defect defect;
  Routing routing;
  LinkKind links;
  Scheme scheme;
  const char* violation;
  TraceRule rule;
};

TEST(RoutingTraceCheck, RejectsEveryDeliberatelyBrokenSimulator) {
  const std::vector<BrokenCase> cases = {
      {Defect::kIgnoreLinkCapacity, Routing::kStatic, LinkKind::kBidirectional, 'K', "carries messages", TraceRule::kCapacity},
      {Defect::kDoubleHop, Routing::kStatic, LinkKind::kUnidirectional, 'K', "second hop in one cycle", TraceRule::kOneHop},
      {Defect::kStaticHighestBit, Routing::kStatic, LinkKind::kBidirectional, 'K', "not the e-cube hop", TraceRule::kEcube},
      {Defect::kNonMinimalDetour, Routing::kDynamic, LinkKind::kBidirectional, 'K', "does not reduce its distance", TraceRule::kMinimal},
      {Defect::kFireEarly, Routing::kStatic, LinkKind::kBidirectional, 'K', "never delivered, yet process", TraceRule::kDelivery},
      {Defect::kDropMessage, Routing::kDynamic, LinkKind::kUnidirectional, 'E', "never delivered", TraceRule::kDelivery},
      {Defect::kSkipFirstMessage, Routing::kDynamic, LinkKind::kBidirectional, 'K', "while its link to", TraceRule::kWorkConservation},
      {Defect::kReversePriority, Routing::kStatic, LinkKind::kBidirectional, 'A', "takes the link", TraceRule::kPriority},
  };
  auto net = Network::hypercube(6);
  auto w = builtin_workload("gauss", 64, 1);
  ASSERT_TRUE(w.ok());
  for (const BrokenCase& bc : cases) {
    SimConfig c = config(bc.routing, bc.links, bc.scheme, 3);
    c.max_cycles = 100000;
    // The correct simulator passes on the same input ...
    auto good = simulate(*net, *w, c);
    ASSERT_TRUE(good.ok());
    EXPECT_EQ(check_trace(*net, *w, c, *good), std::nullopt) << to_string(bc.defect);
    // ... the broken one is rejected with the expected violation.
    c.defect = bc.defect;
    auto bad = simulate(*net, *w, c);
    ASSERT_TRUE(bad.ok()) << to_string(bc.defect) << ": " << bad.error().message;
    c.defect = Defect::kNone;  // the judge is told the configuration, not the defect
    auto verdict = check_trace(*net, *w, c, *bad);
    ASSERT_TRUE(verdict.has_value()) << to_string(bc.defect) << " was not caught";
    EXPECT_THAT(*verdict, HasSubstr(bc.violation)) << to_string(bc.defect);
    EXPECT_EQ(check_trace_rules(*net, *w, c, *bad)->rule, bc.rule) << to_string(bc.defect);
    if (bc.defect == Defect::kSkipFirstMessage) {
      // The node named is the waiting message's own: the free link named leaves it.
      const auto mt = find_numbers(*verdict, "message # waits at node # while its link to # is free");
      ASSERT_TRUE(mt.has_value()) << *verdict;
      const uint64_t at = (*mt)[1], to = (*mt)[2];
      EXPECT_EQ(std::popcount(at ^ to), 1) << *verdict;
    }
    if (bc.defect == Defect::kFireEarly) {
      // The message names the undelivered message's own destination process and its firing cycle.
      const auto mt = find_numbers(*verdict, "message # (process # -> #) is never delivered, yet process # fires in cycle #");
      ASSERT_TRUE(mt.has_value()) << *verdict;
      ASSERT_LT((*mt)[0], bad->trace->messages.size()) << *verdict;
      const auto& msg = bad->trace->messages[(*mt)[0]];
      EXPECT_EQ((*mt)[1], msg.src_process);
      EXPECT_EQ((*mt)[2], msg.dst_process);
      EXPECT_EQ((*mt)[3], msg.dst_process);
      bool found = false;
      for (const Fire& f : bad->trace->fires)
        if (f.process == msg.dst_process) {
          EXPECT_EQ((*mt)[4], f.cycle) << *verdict;
          found = true;
        }
      EXPECT_TRUE(found) << *verdict;
    }
  }
}

// A trace edited by hand: a process that fires twice breaks rule 1.
TEST(RoutingTraceCheck, RejectsEditedTraces) {
  auto net = Network::hypercube(4);
  auto w = builtin_workload("gauss", 16, 1);
  ASSERT_TRUE(w.ok());
  SimConfig c = config(Routing::kStatic, LinkKind::kBidirectional, 'K', 3);
  c.max_cycles = 100000;
  auto good = simulate(*net, *w, c);
  ASSERT_TRUE(good.ok());
  ASSERT_TRUE(good->trace.has_value());
  ASSERT_EQ(check_trace_rules(*net, *w, c, *good), std::nullopt);
  {
    Trace edited = *good->trace;
    edited.fires.push_back(edited.fires.front());
    SimResult bad = *good;
    bad.trace = std::move(edited);
    auto v = check_trace_rules(*net, *w, c, bad);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->rule, TraceRule::kFiring);
    EXPECT_THAT(v->message, HasSubstr("fires twice"));
  }
  {
    // The result's message count disagrees with the trace: rule 7.
    SimResult bad = *good;
    bad.messages += 1;
    auto v = check_trace_rules(*net, *w, c, bad);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->rule, TraceRule::kCounts) << v->message;
    EXPECT_EQ(v->message, fmt::format("the result counts {} messages, the trace has {}", bad.messages,
                                      good->trace->messages.size()));
  }
  {
    // A process that sends nothing fires one cycle late (not the last firing, so the running time
    // still holds): rule 1's firing cycle names it, its cycle and the cycle it should fire in.
    Trace edited = *good->trace;
    bool edited_one = false;
    for (Fire& f : edited.fires)
      if (!edited_one && w->processes[f.process].sends.empty() && f.cycle + 1 < good->running_time) {
        SimResult bad = *good;
        const uint32_t cycle = f.cycle, process = f.process;
        f.cycle += 1;
        bad.trace = edited;
        auto v = check_trace_rules(*net, *w, c, bad);
        ASSERT_TRUE(v.has_value());
        EXPECT_EQ(v->rule, TraceRule::kFiring) << v->message;
        EXPECT_EQ(v->message, fmt::format("process {} fires in cycle {}, but its last message arrived so that it "
                                          "should fire in cycle {}",
                                          process, cycle + 1, cycle));
        edited_one = true;
      }
    EXPECT_TRUE(edited_one);
  }
  {
    // The result's running time is not the last firing's cycle: rule 7.
    SimResult bad = *good;
    bad.running_time += 1;
    auto v = check_trace_rules(*net, *w, c, bad);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->rule, TraceRule::kCounts) << v->message;
    EXPECT_EQ(v->message, fmt::format("the running time is {}, but the last process fires in cycle {}",
                                      bad.running_time, good->running_time));
  }
  {
    // The second firing of a process in a later cycle: both cycles are named, the first one's
    // from that process's own firing.
    Trace edited = *good->trace;
    // A process whose neighbour in numbering fired in another cycle, so that the cycle named
    // can only come from the process's own firing.
    std::vector<uint32_t> cycle_of(w->processes.size(), 0);
    for (const Fire& f : edited.fires) cycle_of[f.process] = f.cycle;
    Fire again = edited.fires.front();
    for (const Fire& f : edited.fires)
      if (f.process + 1 < cycle_of.size() && cycle_of[f.process + 1] != f.cycle && f.process > 0 &&
          cycle_of[f.process - 1] != f.cycle) {
        again = f;
        break;
      }
    ASSERT_NE(cycle_of[again.process + 1], again.cycle) << "no such process in this trace";
    const uint32_t first = again.cycle;
    again.cycle = first + 1000;
    edited.fires.push_back(again);
    SimResult bad = *good;
    bad.trace = std::move(edited);
    auto v = check_trace_rules(*net, *w, c, bad);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->message, fmt::format("process {} fires twice (cycles {} and {})", again.process, first, first + 1000));
  }
  {
    // One header field wrong (the generation cycle), the hop count right: rule 2 names it.
    Trace edited = *good->trace;
    edited.messages.front().generated += 1;
    SimResult bad = *good;
    bad.trace = std::move(edited);
    auto v = check_trace_rules(*net, *w, c, bad);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->rule, TraceRule::kMessages) << v->message;
    EXPECT_THAT(v->message, HasSubstr("header does not match"));
  }
}

}  // namespace
}  // namespace topocheck::routing
