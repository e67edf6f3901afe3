// The throughput experiment of wormhole_study.h: the instances (random ITMs, their up*/down*
// roots), the load sweeps (one curve per instance and routing, on `jobs` threads), the summaries
// over seeds and the verdict per pairing. Its text, JSON and SVG forms are in
// wormhole_study_report.cc.
#include "wormhole/wormhole_study.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "network/rng.h"
#include "network/statistics.h"
#include "wormhole/wormhole_graphs.h"
#include "wormhole/wormhole_study_numbers.h"
#include "wormhole/wormhole_traffic.h"

namespace topocheck::routing {

WormStudyConfig WormStudyConfig::quick() {
  WormStudyConfig c;
  c.warmup = 300;
  c.measure = 1000;
  c.drain = 2000;
  c.load_step = 0.04;
  return c;
}

std::string WormCurve::label() const { return to_string(routing); }
std::string WormSummary::label() const { return to_string(routing); }

double saturation_throughput(const std::vector<WormPoint>& points) {
  double best = 0;
  for (const WormPoint& p : points) best = std::max(best, p.accepted);
  return best;
}

uint64_t derive_seed(uint64_t instance_seed, int size, int k, uint64_t salt) {
  // Two Rng (splitmix64 + xoshiro) rounds: the first scrambles the instance seed, the second
  // scrambles it combined with the run's coordinates, so nearby (seed, size, k) give unrelated
  // streams. size < 2^24 (kMaxNodes), k < 2^24 and salt < 2^8 occupy disjoint bits.
  const uint64_t scrambled = Rng(instance_seed).next();
  const uint64_t coordinates = (static_cast<uint64_t>(size) << 32) ^ (static_cast<uint64_t>(k) << 8) ^ salt;
  return Rng(scrambled ^ coordinates).next();
}

std::string to_string(RootPolicy p) { return p == RootPolicy::kRandom ? "random" : "center"; }

namespace {

using wormhole_study_numbers::format_ratio;
using wormhole_study_numbers::load_of;

constexpr RoutingFamily kFamilies[] = {RoutingFamily::kShortestPath, RoutingFamily::kUpDown};

std::string instance_name(itm::Rule rule, int size, uint64_t seed) {
  return fmt::format("ITM({}, {}, seed {})", itm::to_string(rule), size, seed);
}

// The last load index of the sweep: k * step <= max_load (with a margin for rounding).
int last_k(double step, double max_load) { return static_cast<int>(std::floor(max_load / step + 1e-9)); }

std::optional<Error> validate(const WormStudyConfig& c) {
  if (c.sizes.empty()) return invalid_argument("the wormhole study needs at least one size");
  if (c.seeds.empty()) return invalid_argument("the wormhole study needs at least one seed");
  if (c.pairings.empty()) return invalid_argument("the wormhole study needs at least one pairing");
  for (int n : c.sizes)
    if (n < 3 || n > static_cast<int>(kMaxNodes))
      return invalid_argument(fmt::format("ITM size {} is outside 3..{}", n, kMaxNodes));
  if (c.length == 0) return invalid_argument("worm length 0: a worm needs at least one flit");
  if (c.buffer == 0) return invalid_argument("buffer 0: a channel needs at least one flit of buffer");
  if (c.measure == 0) return invalid_argument("measure 0: the statistics window is empty");
  if (!(c.load_step > 0 && c.load_step <= 1)) return invalid_argument(fmt::format("load step {} is outside (0, 1]", c.load_step));
  if (!(c.max_load > 0 && c.max_load <= 1)) return invalid_argument(fmt::format("max load {} is outside (0, 1]", c.max_load));
  if (last_k(c.load_step, c.max_load) < 1)
    return invalid_argument(fmt::format("no load: step {} exceeds max load {}", c.load_step, c.max_load));
  if (!(c.saturation_ratio > 0 && c.saturation_ratio <= 1))
    return invalid_argument(fmt::format("saturation ratio {} is outside (0, 1]", c.saturation_ratio));
  if (c.saturated_points < 1) return invalid_argument(fmt::format("saturated points {} is below 1", c.saturated_points));
  if (c.jobs < 1) return invalid_argument(fmt::format("--jobs: {} is below 1", c.jobs));
  const uint64_t max_cycles = uint64_t{c.warmup} + c.measure + c.drain;
  if (max_cycles > std::numeric_limits<uint32_t>::max() / 2)
    return invalid_argument(fmt::format("warmup + measure + drain = {} cycles is too long", max_cycles));
  if (c.updown_root) {
    const int smallest = *std::min_element(c.sizes.begin(), c.sizes.end());
    if (*c.updown_root >= static_cast<NodeId>(smallest))
      return invalid_argument(fmt::format("up*/down* root {} is outside the smallest ITM ({} nodes)", *c.updown_root, smallest));
  }
  return std::nullopt;
}

struct Built {
  WormInstance info;
  std::optional<Network> net;
};

Result<Built> build_instance(const WormStudyConfig& c, int size, uint64_t seed) {
  Built b;
  b.info.size = size;
  b.info.seed = seed;
  b.info.name = instance_name(c.rule, size, seed);
  const itm::Steps steps = random_itm(size, c.rule, seed);
  b.info.steps = itm::to_string(steps);
  auto itm = itm::Itm::build(steps, c.rule);
  if (!itm) return Error{ErrorCode::kInternal, fmt::format("{}: random_itm's steps do not replay: {}", b.info.name, itm.error().message), {}, 0};
  auto net = network_of(itm->graph(), b.info.name);
  if (!net) return Error{ErrorCode::kInternal, fmt::format("{}: {}", b.info.name, net.error().message), {}, 0};
  b.info.edges = itm->graph().num_edges();
  b.info.diameter = net->diameter();
  // The center: smallest eccentricity, ties by the smallest id (the scan keeps the first).
  const NodeId n = net->num_nodes();
  auto ecc = [&](NodeId u) {
    int e = 0;
    for (NodeId v = 0; v < n; ++v) e = std::max(e, net->distance(u, v));
    return e;
  };
  NodeId root = 0;
  if (c.updown_root) {
    root = *c.updown_root;
  } else if (c.root_policy == RootPolicy::kRandom) {
    Rng rng(derive_seed(seed, size, 0, 2));
    root = static_cast<NodeId>(rng.below(n));
  } else {
    int best = std::numeric_limits<int>::max();
    for (NodeId u = 0; u < n; ++u)
      if (const int e = ecc(u); e < best) {
        best = e;
        root = u;
      }
  }
  b.info.root = root;
  b.info.root_eccentricity = ecc(root);
  b.net = std::move(*net);
  return b;
}


// One curve: the load sweep on one instance with one routing.
Result<WormCurve> run_curve(const WormStudyConfig& c, const Built& inst, const RoutingSpec& spec) {
  WormCurve curve;
  curve.size = inst.info.size;
  curve.seed = inst.info.seed;
  curve.routing = spec;
  const Network& net = *inst.net;
  auto routing = make_routing(net, spec);
  if (!routing)
    return Error{ErrorCode::kInternal, fmt::format("{}: {}: {}", inst.info.name, to_string(spec), routing.error().message), {}, 0};
  WormConfig wc;
  wc.buffer = c.buffer;
  wc.selection = c.selection;
  wc.warmup = c.warmup;
  wc.measure = c.measure;
  wc.max_cycles = c.warmup + c.measure + c.drain;
  wc.stop_on_deadlock = true;
  int saturated_run = 0;
  const int last = last_k(c.load_step, c.max_load);
  for (int k = 1; k <= last; ++k) {
    const double load = load_of(k, c.load_step);
    const auto messages =
        uniform_traffic(net.num_nodes(), load, c.length, c.warmup + c.measure, derive_seed(inst.info.seed, inst.info.size, k, 0));
    wc.seed = derive_seed(inst.info.seed, inst.info.size, k, 1);
    auto r = simulate_wormhole(net, **routing, messages, wc);
    const std::string where = fmt::format("{}, {}, load {:.4g}", inst.info.name, to_string(spec), load);
    if (!r) return Error{ErrorCode::kInternal, fmt::format("{}: simulator error: {}", where, r.error().message), {}, 0};
    if (r->deadlock) return Error{ErrorCode::kInternal, fmt::format("{}: deadlock at cycle {}: {} worms stuck; {}", where, r->deadlock->cycle,
                                                          r->deadlock->stuck.size(), waiting_cycle_text(net, messages, *r->deadlock)), {}, 0};
    WormPoint p;
    p.k = k;
    p.load = load;
    p.offered = r->offered;
    p.accepted = r->accepted;
    p.mean_latency = r->mean_latency;
    p.window_worms = r->window_worms;
    p.window_delivered = r->window_delivered;
    p.cycles = r->cycles;
    p.flit_crossings = r->flit_crossings;
    curve.points.push_back(p);
    saturated_run = p.accepted < c.saturation_ratio * p.offered ? saturated_run + 1 : 0;
    if (saturated_run >= c.saturated_points) {
      curve.saturated = true;
      break;
    }
  }
  curve.saturation = saturation_throughput(curve.points);
  for (const WormPoint& p : curve.points)
    if (p.accepted == curve.saturation) {
      curve.saturation_load = p.load;
      break;
    }
  return curve;
}

double mean_of(const std::vector<double>& xs) {
  double s = 0;
  for (double x : xs) s += x;
  return xs.empty() ? 0 : s / static_cast<double>(xs.size());
}

// Half-width of the 95% confidence interval of the mean (Student's t); 0 below two values.
double ci95_of(const std::vector<double>& xs) {
  if (xs.size() < 2) return 0;
  const double m = mean_of(xs);
  double sq = 0;
  for (double x : xs) sq += (x - m) * (x - m);
  const double sd = std::sqrt(sq / static_cast<double>(xs.size() - 1));
  return t975(static_cast<int>(xs.size()) - 1) * sd / std::sqrt(static_cast<double>(xs.size()));
}


}  // namespace

WormSummary summarize_curves(const std::vector<WormCurve>& curves, int size, RoutingSpec routing, double load_step) {
  WormSummary s;
  s.size = size;
  s.routing = routing;
  std::vector<const WormCurve*> mine;
  int max_k = 0;
  for (const WormCurve& c : curves)
    if (c.size == size && c.routing.family == routing.family && c.routing.adaptivity == routing.adaptivity) {
      mine.push_back(&c);
      s.saturation.push_back(c.saturation);
      for (const WormPoint& p : c.points) max_k = std::max(max_k, p.k);
    }
  s.saturation_mean = mean_of(s.saturation);
  s.saturation_ci95 = ci95_of(s.saturation);
  for (int k = 1; k <= max_k; ++k) {
    WormMeanPoint m;
    m.k = k;
    m.load = load_of(k, load_step);
    std::vector<double> offered, accepted, latency;
    for (const WormCurve* c : mine)
      for (const WormPoint& p : c->points)
        if (p.k == k) {
          offered.push_back(p.offered);
          accepted.push_back(p.accepted);
          if (p.window_delivered > 0) latency.push_back(p.mean_latency);
          m.undelivered += p.undelivered();
        }
    m.n = static_cast<int>(accepted.size());
    if (m.n == 0) continue;
    m.offered = mean_of(offered);
    m.accepted = mean_of(accepted);
    m.accepted_ci95 = ci95_of(accepted);
    m.mean_latency = mean_of(latency);
    s.curve.push_back(m);
  }
  return s;
}

WormVerdict evaluate_throughput_claim(const std::vector<WormCurve>& curves, Adaptivity pairing) {
  WormVerdict v;
  v.pairing = pairing;
  const std::string sp = to_string(RoutingSpec{RoutingFamily::kShortestPath, pairing, 0});
  const std::string ud = to_string(RoutingSpec{RoutingFamily::kUpDown, pairing, 0});
  v.claim = fmt::format("ITM shortest-path routing ({}) has a larger saturation throughput than up*/down* routing ({}) "
                        "on every instance",
                        sp, ud);
  for (const WormCurve& c : curves) {
    if (c.routing.family != RoutingFamily::kShortestPath || c.routing.adaptivity != pairing) continue;
    const WormCurve* partner = nullptr;
    int found = 0;
    for (const WormCurve& d : curves)
      if (d.routing.family == RoutingFamily::kUpDown && d.routing.adaptivity == pairing && d.size == c.size && d.seed == c.seed) {
        partner = &d;
        ++found;
      }
    TC_CHECK(found == 1, fmt::format("ITM {} seed {}: {} {} curves, expected exactly one", c.size, c.seed, found, ud));
    WormInstanceRatio r;
    r.size = c.size;
    r.seed = c.seed;
    r.sp = c.saturation;
    r.updown = partner->saturation;
    r.ratio = r.sp / r.updown;
    r.sp_better = r.sp > r.updown;
    if (!r.sp_better && !v.first_failure) v.first_failure = v.instances.size();
    v.instances.push_back(r);
  }
  if (v.instances.empty()) {
    v.detail = fmt::format("no instance with a {} curve", sp);
    return v;
  }
  v.min_ratio = v.max_ratio = v.instances.front().ratio;
  for (const WormInstanceRatio& r : v.instances) {
    // fmin/fmax skip a NaN (0/0) so that the range shows the instances that have a ratio.
    v.min_ratio = std::fmin(v.min_ratio, r.ratio);
    v.max_ratio = std::fmax(v.max_ratio, r.ratio);
    if (r.sp > r.updown) ++v.better;
    else if (r.sp == r.updown) ++v.equal;
    else ++v.worse;
  }
  v.reproduced = !v.first_failure;
  const std::string range = fmt::format("sp/updown saturation throughput from {} to {}", format_ratio(v.min_ratio), format_ratio(v.max_ratio));
  if (v.reproduced) {
    v.detail = fmt::format("{} is better on all {} instances; {}", sp, v.instances.size(), range);
  } else {
    const WormInstanceRatio& f = v.instances[*v.first_failure];
    v.detail = fmt::format("{} is better on {} of {} instances, equal on {}, worse on {}; first failure ITM {} seed {}: {:.4f} "
                           "vs {:.4f} (ratio {}); {}",
                           sp, v.better, v.instances.size(), v.equal, v.worse, f.size, f.seed, f.sp, f.updown,
                           format_ratio(f.ratio), range);
  }
  return v;
}

const WormCurve& WormStudyResult::curve(int size, uint64_t seed, RoutingFamily family, Adaptivity adaptivity) const {
  for (const WormCurve& c : curves)
    if (c.size == size && c.seed == seed && c.routing.family == family && c.routing.adaptivity == adaptivity) return c;
  TC_CHECK(false, fmt::format("no curve for ITM {} seed {}", size, seed));
  return curves.front();
}

const WormSummary& WormStudyResult::summary(int size, RoutingFamily family, Adaptivity adaptivity) const {
  for (const WormSummary& s : summaries)
    if (s.size == size && s.routing.family == family && s.routing.adaptivity == adaptivity) return s;
  TC_CHECK(false, fmt::format("no summary for ITM {}", size));
  return summaries.front();
}

Result<WormStudyResult> run_wormhole_study(const WormStudyConfig& config, const WormStudyProgress& progress) {
  if (auto bad = validate(config)) return *bad;
  const auto start = std::chrono::steady_clock::now();
  WormStudyResult study;
  study.config = config;
  std::vector<Built> built;
  for (int size : config.sizes)
    for (uint64_t seed : config.seeds) {
      auto b = build_instance(config, size, seed);
      if (!b) return b.error();
      study.instances.push_back(b->info);
      built.push_back(std::move(*b));
    }
  // The curves, in result order: per instance, per pairing, sp then updown.
  struct Job {
    size_t instance;
    RoutingSpec spec;
  };
  std::vector<Job> jobs;
  for (size_t i = 0; i < built.size(); ++i)
    for (Adaptivity a : config.pairings)
      for (RoutingFamily f : kFamilies) jobs.push_back(Job{i, RoutingSpec{f, a, built[i].info.root}});
  // Largest instances first so that the threads finish together; the order of execution never
  // reaches the result (each curve lands at its own index).
  std::vector<size_t> order(jobs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return built[jobs[a].instance].info.size > built[jobs[b].instance].info.size; });
  std::vector<std::optional<WormCurve>> curves(jobs.size());
  std::vector<std::optional<Error>> failures(jobs.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  size_t done = 0;
  auto worker = [&] {
    for (size_t i = next++; i < order.size() && !failed; i = next++) {
      const size_t j = order[i];
      const auto t0 = std::chrono::steady_clock::now();
      auto r = run_curve(config, built[jobs[j].instance], jobs[j].spec);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::lock_guard<std::mutex> lock(mu);
      ++done;
      if (!r) {
        failures[j] = r.error();
        failed = true;
        continue;
      }
      if (progress)
        progress(fmt::format("[{}/{}] {} {}: saturation {:.4f} at load {:.2f} ({} runs, {:.1f} s)", done, jobs.size(),
                             built[jobs[j].instance].info.name, to_string(jobs[j].spec), r->saturation, r->saturation_load,
                             r->points.size(), secs));
      curves[j] = std::move(*r);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < config.jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  for (const auto& f : failures)
    if (f) return *f;
  for (auto& c : curves) {
    TC_CHECK(c.has_value(), "a curve of the wormhole study was not run");
    study.runs += c->points.size();
    for (const WormPoint& p : c->points) study.flit_crossings += p.flit_crossings;
    study.curves.push_back(std::move(*c));
  }
  for (int size : config.sizes)
    for (Adaptivity a : config.pairings)
      for (RoutingFamily f : kFamilies)
        study.summaries.push_back(summarize_curves(study.curves, size, RoutingSpec{f, a, 0}, config.load_step));
  for (Adaptivity a : config.pairings) study.verdicts.push_back(evaluate_throughput_claim(study.curves, a));
  study.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return study;
}

}  // namespace topocheck::routing
