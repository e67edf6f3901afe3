// The throughput experiment of papers/002 (issue 8): ITM shortest-path routing against up*/down*
// routing on the same graphs, under wormhole switching (wormhole.h) and uniform random traffic.
//
// The paper's words (abstract): "Our initial experimental results demonstrate that ITM provides
// better throughput than up-down routing." No data, sizes, traffic or routing details are printed;
// every choice below is ours, stated here and in the JSON.
//
// Words -> code:
//  - Instance (size, seed): the ITM random_itm(size, rule, seed) (wormhole_graphs.h; rule default
//    kAnyEdge, the paper's definition) as a Network (network_of), named "ITM(any-edge, 16, seed 3)".
//  - Routings (wormhole_routing.h), compared on the same instance in PAIRINGS of one adaptivity:
//    kAdaptive -> sp-adaptive vs updown-adaptive; kDeterministic -> sp-deterministic vs
//    updown-deterministic. The up*/down* root: by default the CENTER, the node of smallest
//    eccentricity (ties: smallest id); `updown_root` fixes one node instead on every instance.
//  - A run at load index k (k = 1, 2, ...): offered load k * load_step flits/node/cycle;
//    uniform_traffic(N, load, length, warmup + measure, traffic seed) (wormhole_traffic.h), then
//    simulate_wormhole with buffer B, selection, window [warmup, warmup + measure) and
//    max_cycles = warmup + measure + drain: traffic stops at the window's end and the network may
//    drain for `drain` more cycles so that the window's worms can be delivered for the latency;
//    worms of the window still undelivered at the end are counted (WormPoint::undelivered) and
//    left out of the mean latency (beyond saturation it is a lower bound).
//  - Seeds of the run (size, seed, k): traffic seed and simulator seed are derived from the
//    instance seed, the size and k (derive_seed), the SAME for every routing: each routing sees
//    exactly the same messages and arbitration stream (common random numbers).
//  - Sweep: k = 1, 2, ... while k * load_step <= max_load (1.0), stopping after the first
//    `saturated_points` (2) consecutive runs with accepted < saturation_ratio (0.9) * offered
//    (both as measured in the window: WormResult.accepted, .offered).
//  - Saturation throughput of a curve = the largest accepted throughput measured on it.
//  - Summary per (size, routing): the curves of the seeds averaged point by point (aligned by k;
//    a point averages the seeds whose curve reached k, their number is given), and the mean
//    saturation throughput over the seeds with the half-width of its 95% confidence interval,
//    t_{0.975, n-1} * sd / sqrt(n) (t975 of network/statistics.h; 0 for one seed).
//  - Verdict per pairing (the claim "ITM shortest-path routing has better throughput than
//    up*/down*"): reproduced iff on EVERY instance the shortest-path saturation throughput is
//    strictly larger than the up*/down* one; the ratio sp/updown per instance and the first
//    instance (sizes, then seeds, in config order) where it fails.
// A deadlock in any run, a simulator error, or a graph or routing that cannot be built is an
// error of the study (ITMs are deadlock-free under shortest-path routing, Theorem 2; up*/down*
// on every graph).
//
// Example: run_wormhole_study(WormStudyConfig{}) runs 3 sizes x 3 seeds x 4 routings = 36 curves;
// result.verdicts[0] is the adaptive pairing: {reproduced: false, better 0, equal 9, worse 0,
// instances: [{16, 1, sp 0.5157, updown 0.5157, ratio 1}, ...], first_failure 0} (see the note
// below); wormhole_study_svg(result, 16, WormMetric::kThroughput) is the content of
// throughput_16.svg.
// Determinism: the result (everything but `seconds`) is a function of the config without `jobs`;
// `jobs` threads share the curves, each curve is computed by one thread.
// Observed (not assumed by the code): on the nine default instances the center is a kernel node
// (0, 1 or 2) under both rules, and with a kernel root up*/down* allows exactly the shortest-path
// channels in every state a worm can reach (checked, adaptive and deterministic, over all (node,
// arrival channel, destination) states reachable from the sources, on 80 random ITMs of 16, 32,
// 64, 128 nodes, seeds 1..10, both rules, roots 0, 1, 2), so both routings run identically and
// every ratio is exactly 1. With a fixed non-kernel root (10 or 15, quick config) the
// deterministic saturation throughputs were still equal and the adaptive ratios ranged over
// 0.95..1.14.
// Cost: per curve about (saturation load / load_step + 2) runs of O((warmup + measure + drain) *
// worms in flight) each. Measured (one core, jobs 1, Release): the default study 628 runs, 32 M
// flit crossings, 6.6 s; WormStudyConfig::quick() 338 runs, 1.4 s.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "itm/itm.h"
#include "network/network.h"
#include "wormhole/wormhole.h"
#include "wormhole/wormhole_routing.h"

namespace topocheck::routing {

// How the up*/down* root of an instance is chosen when no fixed root is given: kCenter, the node
// of smallest eccentricity (ties: smallest id); kRandom, a node drawn uniformly by
// Rng(derive_seed(instance seed, size, 0, 2)).below(N) (the same for every routing and pairing).
enum class RootPolicy { kCenter, kRandom };
std::string to_string(RootPolicy p);  // "center", "random"

struct WormStudyConfig {
  std::vector<int> sizes = {16, 32, 64};       // ITM node counts, each in 3..kMaxNodes
  std::vector<uint64_t> seeds = {1, 2, 3};     // instance seeds (random_itm), at least one
  itm::Rule rule = itm::Rule::kAnyEdge;
  std::vector<Adaptivity> pairings = {Adaptivity::kAdaptive, Adaptivity::kDeterministic};
  std::optional<NodeId> updown_root;           // a fixed root on every instance; nullopt: the policy
  RootPolicy root_policy = RootPolicy::kCenter;  // without a fixed root
  uint32_t length = 8;                         // L, flits per worm
  uint32_t buffer = 2;                         // B, flits per channel buffer
  Selection selection = Selection::kRandomFree;
  uint32_t warmup = 1000, measure = 3000;      // the statistics window, cycles (measure >= 1)
  uint32_t drain = 6000;                       // extra cycles after the traffic stops
  double load_step = 0.02;                     // flits/node/cycle, in (0, 1]
  double max_load = 1.0;                       // in (0, 1]
  double saturation_ratio = 0.9;               // accepted < ratio * offered: a saturated run
  int saturated_points = 2;                    // consecutive saturated runs that end a curve
  int jobs = 1;                                // threads; never changes the result

  // The same experiment, about five times cheaper: warmup 300, measure 1000, drain 2000, load
  // step 0.04 (for tests and a first look; the verdicts are the default config's).
  static WormStudyConfig quick();
};

// One run: the load, what the window measured, and what the run cost.
struct WormPoint {
  int k = 0;                   // load index: load = k * load_step
  double load = 0;             // nominal offered load, flits/node/cycle
  double offered = 0;          // measured: flits created in the window per node per cycle
  double accepted = 0;         // flits ejected in the window per node per cycle
  double mean_latency = 0;     // cycles, over the window's worms delivered by the end (0: none)
  uint64_t window_worms = 0, window_delivered = 0;
  uint64_t undelivered() const { return window_worms - window_delivered; }
  uint32_t cycles = 0;         // cycles simulated
  uint64_t flit_crossings = 0;
};

// One instance as built: enough to rebuild it (steps) and to read the routing setup.
struct WormInstance {
  int size = 0;
  uint64_t seed = 0;
  std::string name;            // "ITM(any-edge, 16, seed 3)"
  std::string steps;           // itm::to_string of the AddNode steps (replay with itm::Itm::build)
  int edges = 0, diameter = 0;
  NodeId root = 0;             // the up*/down* root used
  int root_eccentricity = 0;
};

struct WormCurve {
  int size = 0;
  uint64_t seed = 0;
  RoutingSpec routing;         // family, adaptivity, root
  std::vector<WormPoint> points;  // k = 1, 2, ... in order
  bool saturated = false;      // ended by the saturation rule (false: max_load reached)
  double saturation = 0;       // the largest accepted on the curve
  double saturation_load = 0;  // the nominal load at which it was measured (first such)
  std::string label() const;   // "sp-adaptive"
};

// The largest accepted throughput of the points (0 for none).
double saturation_throughput(const std::vector<WormPoint>& points);

struct WormMeanPoint {
  int k = 0;
  double load = 0;
  int n = 0;                   // seeds whose curve reached k
  double offered = 0, accepted = 0, accepted_ci95 = 0;
  double mean_latency = 0;     // mean over those seeds' mean latencies
  uint64_t undelivered = 0;    // summed over those seeds
};
struct WormSummary {
  int size = 0;
  RoutingSpec routing;         // root not meaningful here (it may differ per instance)
  std::vector<WormMeanPoint> curve;
  std::vector<double> saturation;  // per seed, in config order
  double saturation_mean = 0, saturation_ci95 = 0;
  std::string label() const;   // "sp-adaptive"
};

struct WormInstanceRatio {
  int size = 0;
  uint64_t seed = 0;
  double sp = 0, updown = 0;   // saturation throughputs
  double ratio = 0;            // sp / updown (infinity if updown is 0 and sp > 0, NaN for 0/0)
  bool sp_better = false;      // sp > updown
};
struct WormVerdict {
  Adaptivity pairing = Adaptivity::kAdaptive;
  std::string claim;           // the statement checked, in words
  bool reproduced = false;
  std::vector<WormInstanceRatio> instances;  // in curve order (sizes, then seeds)
  std::optional<size_t> first_failure;       // index into `instances`
  int better = 0, equal = 0, worse = 0;      // instances with sp >, ==, < updown
  double min_ratio = 0, max_ratio = 0;
  std::string detail;          // one line: the numbers behind the verdict
};
// The verdict of one pairing from curves alone (so that it can be checked on made-up data):
// instances are the (size, seed) of the curves with family kShortestPath and this adaptivity,
// in their order; each must have exactly one up*/down* curve of the same adaptivity (aborts
// otherwise). No instance: not reproduced.
WormVerdict evaluate_throughput_claim(const std::vector<WormCurve>& curves, Adaptivity pairing);

// Point-by-point means of the curves of one (size, family, adaptivity), seeds in curve order.
WormSummary summarize_curves(const std::vector<WormCurve>& curves, int size, RoutingSpec routing, double load_step);

struct WormStudyResult {
  WormStudyConfig config;
  std::vector<WormInstance> instances;  // sizes then seeds, config order
  std::vector<WormCurve> curves;        // per instance, per pairing: sp then updown
  std::vector<WormSummary> summaries;   // per size, per pairing: sp then updown
  std::vector<WormVerdict> verdicts;    // per pairing
  uint64_t runs = 0, flit_crossings = 0;
  double seconds = 0;                   // wall time (the only field that depends on the machine)

  // Aborts when absent.
  const WormCurve& curve(int size, uint64_t seed, RoutingFamily family, Adaptivity adaptivity) const;
  const WormSummary& summary(int size, RoutingFamily family, Adaptivity adaptivity) const;
};

// The seed of run (instance seed, size, load index k) for one purpose (salt 0: traffic, 1: the
// simulator): splitmix-style mixing through Rng, a pure function.
uint64_t derive_seed(uint64_t instance_seed, int size, int k, uint64_t salt);

using WormStudyProgress = std::function<void(const std::string& line)>;
// Errors (kInvalidArgument): an empty size or seed list, a size outside 3..kMaxNodes, an empty
// pairing list, length/buffer/measure 0, load_step or max_load outside (0, 1], saturation_ratio
// outside (0, 1], saturated_points < 1, jobs < 1, a fixed root outside the smallest instance.
// kInternal: a graph or routing that cannot be built, a simulator error, a deadlock (with the
// run's coordinates and the witness's cycle of worms). `progress` gets one line per finished
// curve (from the worker threads, serialised).
Result<WormStudyResult> run_wormhole_study(const WormStudyConfig& config, const WormStudyProgress& progress = nullptr);

// Forms: a table for people (per size the mean curves, then saturation throughputs with 95% CI,
// the per-instance ratios and the verdicts), JSON for machines (config without jobs, instances,
// every point of every curve, summaries, verdicts, runs, seconds), and SVG line plots.
std::string wormhole_study_table(const WormStudyResult& study);
nlohmann::json to_json(const WormStudyResult& study);
nlohmann::json to_json(const WormStudyConfig& config);

// The plots: per size, accepted throughput (linear axis, with the line accepted = offered) or
// mean latency (log10 axis: it grows by orders of magnitude past saturation) against the nominal
// offered load; one polyline per routing (the mean over seeds; a hollow marker where fewer seeds
// reached the load), axes labelled, a legend (naming a routing whose line coincides with an
// earlier one, since it hides it). Plain SVG 1.1 text. Aborts when the study has no such size.
enum class WormMetric { kThroughput, kLatency };
std::string wormhole_study_svg(const WormStudyResult& study, int size, WormMetric metric);
std::string svg_file_name(int size, WormMetric metric);  // "throughput_16.svg", "latency_16.svg"

}  // namespace topocheck::routing
