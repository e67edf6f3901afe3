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

constexpr RoutingFamily kFamilies[] = {RoutingFamily::kShortestPath, RoutingFamily::kUpDown};

std::string adaptivity_name(Adaptivity a) { return a == Adaptivity::kAdaptive ? "adaptive" : "deterministic"; }

std::string instance_name(itm::Rule rule, int size, uint64_t seed) {
  return fmt::format("ITM({}, {}, seed {})", itm::to_string(rule), size, seed);
}

// The load of index k, clamped so that k * step rounding just above max_load still runs.
double load_of(int k, double step) { return std::min(1.0, k * step); }
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

std::string format_ratio(double r) { return std::isfinite(r) ? fmt::format("{:.3f}", r) : fmt::format("{}", r); }

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

// ---------------------------------------------------------------------------------------------
// Forms.

namespace {

std::string setup_line(const WormStudyConfig& c) {
  return fmt::format(
      "ITM({}) sizes {}, seeds {}; uniform random traffic, worms of {} flits, buffers of {} flits, selection {}; "
      "window {} + {} cycles, drain <= {}; loads {}, {}, ... until {} consecutive runs accept < {} x offered (max {})",
      itm::to_string(c.rule), fmt::join(c.sizes, ", "), fmt::join(c.seeds, ", "), c.length, c.buffer, to_string(c.selection),
      c.warmup, c.measure, c.drain, c.load_step, load_of(2, c.load_step), c.saturated_points, c.saturation_ratio, c.max_load);
}

std::string root_words(const WormStudyConfig& c) {
  if (c.updown_root) return fmt::format("node {}", *c.updown_root);
  return c.root_policy == RootPolicy::kRandom ? "a random node per instance (seeded)"
                                              : "the center (smallest eccentricity, then smallest id)";
}

// The summaries of one size, in result order.
std::vector<const WormSummary*> summaries_of(const WormStudyResult& s, int size) {
  std::vector<const WormSummary*> out;
  for (const WormSummary& m : s.summaries)
    if (m.size == size) out.push_back(&m);
  return out;
}

}  // namespace

std::string wormhole_study_table(const WormStudyResult& s) {
  const WormStudyConfig& c = s.config;
  const int seeds = static_cast<int>(c.seeds.size());
  std::string out = fmt::format("Wormhole throughput study (papers/002): {}\nup*/down* root: {}; {} runs, {} flit crossings, {:.1f} s\n",
                                setup_line(c), root_words(c), s.runs, s.flit_crossings, s.seconds);
  out += "\nInstances:\n";
  for (const WormInstance& i : s.instances)
    out += fmt::format("  {}: {} edges, diameter {}, up*/down* root {} (eccentricity {})\n", i.name, i.edges, i.diameter, i.root,
                       i.root_eccentricity);
  for (int size : c.sizes) {
    const auto group = summaries_of(s, size);
    int max_k = 0;
    for (const WormSummary* m : group)
      for (const WormMeanPoint& p : m->curve) max_k = std::max(max_k, p.k);
    auto find = [](const WormSummary* m, int k) -> const WormMeanPoint* {
      for (const WormMeanPoint& p : m->curve)
        if (p.k == k) return &p;
      return nullptr;
    };
    auto header = [&] {
      std::string h = fmt::format("{:>6}", "load");
      for (const WormSummary* m : group) h += fmt::format("  {:>24}", m->label());
      return h + "\n";
    };
    out += fmt::format("\nITM {} nodes: accepted throughput, flits/node/cycle (mean over seeds +- 95% CI; (n=...) when fewer "
                       "than {} seeds reached the load)\n",
                       size, seeds);
    out += header();
    for (int k = 1; k <= max_k; ++k) {
      out += fmt::format("{:>6.2f}", load_of(k, c.load_step));
      for (const WormSummary* m : group) {
        const WormMeanPoint* p = find(m, k);
        std::string cell = p ? fmt::format("{:.4f} +- {:.4f}", p->accepted, p->accepted_ci95) : "-";
        if (p && p->n < seeds) cell += fmt::format(" (n={})", p->n);
        out += fmt::format("  {:>24}", cell);
      }
      out += "\n";
    }
    out += fmt::format("\nITM {} nodes: mean latency, cycles (mean over seeds; [u] window worms not delivered by the end of "
                       "the run, summed over seeds)\n",
                       size);
    out += header();
    for (int k = 1; k <= max_k; ++k) {
      out += fmt::format("{:>6.2f}", load_of(k, c.load_step));
      for (const WormSummary* m : group) {
        const WormMeanPoint* p = find(m, k);
        std::string cell = p ? fmt::format("{:.1f}", p->mean_latency) : "-";
        if (p && p->undelivered > 0) cell += fmt::format(" [{}]", p->undelivered);
        if (p && p->n < seeds) cell += fmt::format(" (n={})", p->n);
        out += fmt::format("  {:>24}", cell);
      }
      out += "\n";
    }
  }
  out += "\nSaturation throughput (largest accepted throughput of a curve; mean over seeds +- 95% CI), flits/node/cycle:\n";
  out += fmt::format("{:>6}", "size");
  for (Adaptivity a : c.pairings)
    out += fmt::format("  {:>20}  {:>20}  {:>7}", to_string(RoutingSpec{RoutingFamily::kShortestPath, a, 0}),
                       to_string(RoutingSpec{RoutingFamily::kUpDown, a, 0}), "sp/ud");
  out += "\n";
  for (int size : c.sizes) {
    out += fmt::format("{:>6}", size);
    for (Adaptivity a : c.pairings) {
      const WormSummary& sp = s.summary(size, RoutingFamily::kShortestPath, a);
      const WormSummary& ud = s.summary(size, RoutingFamily::kUpDown, a);
      out += fmt::format("  {:>20}  {:>20}  {:>7}", fmt::format("{:.4f} +- {:.4f}", sp.saturation_mean, sp.saturation_ci95),
                         fmt::format("{:.4f} +- {:.4f}", ud.saturation_mean, ud.saturation_ci95),
                         format_ratio(sp.saturation_mean / ud.saturation_mean));
    }
    out += "\n";
  }
  out += "\nPer instance (saturation throughput sp vs updown, ratio):\n";
  out += fmt::format("{:>6} {:>6}", "size", "seed");
  for (Adaptivity a : c.pairings) out += fmt::format("  {:>32}", adaptivity_name(a));
  out += "\n";
  for (size_t i = 0; i < s.instances.size(); ++i) {
    out += fmt::format("{:>6} {:>6}", s.instances[i].size, s.instances[i].seed);
    for (const WormVerdict& v : s.verdicts) {
      const WormInstanceRatio& r = v.instances.at(i);
      out += fmt::format("  {:>32}", fmt::format("{:.4f} vs {:.4f} = {}{}", r.sp, r.updown, format_ratio(r.ratio), r.sp_better ? "" : " X"));
    }
    out += "\n";
  }
  out += "\nVerdicts (\"Our initial experimental results demonstrate that ITM provides better throughput than up-down "
         "routing\"):\n";
  for (const WormVerdict& v : s.verdicts)
    out += fmt::format("  {}: {}. {}\n    ({})\n", adaptivity_name(v.pairing), v.reproduced ? "REPRODUCED" : "NOT REPRODUCED",
                       v.detail, v.claim);
  return out;
}

nlohmann::json to_json(const WormStudyConfig& c) {
  nlohmann::json j;
  j["rule"] = itm::to_string(c.rule);
  j["sizes"] = c.sizes;
  j["seeds"] = c.seeds;
  j["pairings"] = nlohmann::json::array();
  for (Adaptivity a : c.pairings) j["pairings"].push_back(adaptivity_name(a));
  j["updown_root"] = c.updown_root ? nlohmann::json(*c.updown_root) : nlohmann::json(to_string(c.root_policy));
  j["length"] = c.length;
  j["buffer"] = c.buffer;
  j["selection"] = to_string(c.selection);
  j["warmup"] = c.warmup;
  j["measure"] = c.measure;
  j["drain"] = c.drain;
  j["load_step"] = c.load_step;
  j["max_load"] = c.max_load;
  j["saturation_ratio"] = c.saturation_ratio;
  j["saturated_points"] = c.saturated_points;
  return j;  // jobs left out on purpose: it never changes the result
}

nlohmann::json to_json(const WormStudyResult& s) {
  nlohmann::json j;
  j["study"] = "wormhole throughput: ITM shortest-path vs up*/down* (papers/002)";
  j["config"] = to_json(s.config);
  j["instances"] = nlohmann::json::array();
  for (const WormInstance& i : s.instances)
    j["instances"].push_back({{"size", i.size}, {"seed", i.seed}, {"name", i.name}, {"steps", i.steps}, {"edges", i.edges},
                              {"diameter", i.diameter}, {"root", i.root}, {"root_eccentricity", i.root_eccentricity}});
  j["curves"] = nlohmann::json::array();
  for (const WormCurve& c : s.curves) {
    nlohmann::json points = nlohmann::json::array();
    for (const WormPoint& p : c.points)
      points.push_back({{"load", p.load}, {"offered", p.offered}, {"accepted", p.accepted}, {"mean_latency", p.mean_latency},
                        {"window_worms", p.window_worms}, {"window_delivered", p.window_delivered}, {"cycles", p.cycles},
                        {"flit_crossings", p.flit_crossings}});
    j["curves"].push_back({{"size", c.size}, {"seed", c.seed}, {"routing", c.label()}, {"root", c.routing.root},
                           {"saturated", c.saturated}, {"saturation", c.saturation}, {"saturation_load", c.saturation_load},
                           {"points", points}});
  }
  j["summaries"] = nlohmann::json::array();
  for (const WormSummary& m : s.summaries) {
    nlohmann::json curve = nlohmann::json::array();
    for (const WormMeanPoint& p : m.curve)
      curve.push_back({{"load", p.load}, {"n", p.n}, {"offered", p.offered}, {"accepted", p.accepted},
                       {"accepted_ci95", p.accepted_ci95}, {"mean_latency", p.mean_latency}, {"undelivered", p.undelivered}});
    j["summaries"].push_back({{"size", m.size}, {"routing", m.label()}, {"saturation", m.saturation},
                              {"saturation_mean", m.saturation_mean}, {"saturation_ci95", m.saturation_ci95}, {"curve", curve}});
  }
  j["verdicts"] = nlohmann::json::array();
  for (const WormVerdict& v : s.verdicts) {
    nlohmann::json inst = nlohmann::json::array();
    for (const WormInstanceRatio& r : v.instances)
      inst.push_back({{"size", r.size}, {"seed", r.seed}, {"sp", r.sp}, {"updown", r.updown},
                      {"ratio", std::isfinite(r.ratio) ? nlohmann::json(r.ratio) : nlohmann::json(format_ratio(r.ratio))},
                      {"sp_better", r.sp_better}});
    nlohmann::json first = nullptr;
    if (v.first_failure) first = {{"size", v.instances[*v.first_failure].size}, {"seed", v.instances[*v.first_failure].seed}};
    j["verdicts"].push_back({{"pairing", adaptivity_name(v.pairing)}, {"claim", v.claim},
                             {"verdict", v.reproduced ? "reproduced" : "not reproduced"}, {"detail", v.detail},
                             {"better", v.better}, {"equal", v.equal}, {"worse", v.worse},
                             {"instances", inst}, {"first_failure", first}});
  }
  j["runs"] = s.runs;
  j["flit_crossings"] = s.flit_crossings;
  j["seconds"] = s.seconds;
  return j;
}

std::string svg_file_name(int size, WormMetric metric) {
  return fmt::format("{}_{}.svg", metric == WormMetric::kThroughput ? "throughput" : "latency", size);
}

namespace {

// A round tick step (1, 2 or 5 times a power of ten) giving at most about five intervals.
double nice_step(double range) {
  const double raw = range / 5;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw * (1 - 1e-9)) return m * mag;
  return 10 * mag;
}

}  // namespace

std::string wormhole_study_svg(const WormStudyResult& s, int size, WormMetric metric) {
  const auto group = summaries_of(s, size);
  TC_CHECK(!group.empty(), fmt::format("the study has no ITM of {} nodes", size));
  const bool tp = metric == WormMetric::kThroughput;
  const int left = 80, top = 60, plot_w = 460, plot_h = 320, legend_w = 250, bottom = 60;
  const int width = left + plot_w + legend_w, height = top + plot_h + bottom;
  // Data ranges. x: nominal load from 0; y: accepted from 0 (linear) or latency (log10).
  double x_max = 0, y_lo = 0, y_hi = 0;
  double lat_min = std::numeric_limits<double>::infinity(), lat_max = 0;
  for (const WormSummary* m : group)
    for (const WormMeanPoint& p : m->curve) {
      x_max = std::max(x_max, p.load);
      y_hi = std::max(y_hi, p.accepted);
      if (p.mean_latency > 0) {
        lat_min = std::min(lat_min, p.mean_latency);
        lat_max = std::max(lat_max, p.mean_latency);
      }
    }
  if (x_max <= 0) x_max = s.config.load_step;
  const double x_step = nice_step(x_max);
  x_max = std::ceil(x_max / x_step - 1e-9) * x_step;
  double y_step = 0;
  if (tp) {
    if (y_hi <= 0) y_hi = x_max;
    y_step = nice_step(y_hi);
    y_hi = std::ceil(y_hi / y_step - 1e-9) * y_step;
  } else {
    if (lat_max <= 0) lat_min = 1, lat_max = 10;
    y_lo = std::floor(std::log10(lat_min));
    y_hi = std::ceil(std::log10(lat_max));
    if (y_hi <= y_lo) y_hi = y_lo + 1;
  }
  auto px = [&](double x) { return left + plot_w * x / x_max; };
  auto py = [&](double y) {
    const double v = tp ? y : std::log10(y);
    return top + plot_h * (y_hi - v) / (y_hi - y_lo);
  };
  const std::string title = fmt::format("{} vs offered load, ITM({}) of {} nodes", tp ? "Accepted throughput" : "Mean latency",
                                        itm::to_string(s.config.rule), size);
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"22\" font-size=\"15\">{}</text>\n"
      "<text x=\"{}\" y=\"40\" fill=\"#555\">uniform traffic, {}-flit worms, {}-flit buffers, window {}+{} cycles; mean of {} "
      "seeds</text>\n",
      width, height, title, left, title, left, s.config.length, s.config.buffer, s.config.warmup, s.config.measure,
      s.config.seeds.size());
  // Grid, ticks and tick labels.
  for (double x = 0; x <= x_max + 1e-9; x += x_step)
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e5e5e5\"/>"
                       "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4:.2f}</text>\n",
                       px(x), top, top + plot_h, top + plot_h + 16, x);
  if (tp) {
    for (double y = 0; y <= y_hi + 1e-9; y += y_step)
      out += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#e5e5e5\"/>"
                         "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:.2f}</text>\n",
                         left, py(y), left + plot_w, left - 6, py(y) + 4, y);
  } else {
    for (double e = y_lo; e <= y_hi + 1e-9; e += 1) {
      const double y = std::pow(10.0, e);
      out += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#e5e5e5\"/>"
                         "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:g}</text>\n",
                         left, py(y), left + plot_w, left - 6, py(y) + 4, y);
    }
  }
  // Axes and their labels.
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>"
                     "<line x1=\"{0}\" y1=\"{2}\" x2=\"{3}\" y2=\"{2}\" stroke=\"black\"/>\n",
                     left, top, top + plot_h, left + plot_w);
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">offered load (flits/node/cycle)</text>\n", left + plot_w / 2,
                     top + plot_h + 40);
  out += fmt::format("<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\" transform=\"rotate(-90 {0} {1})\">{2}</text>\n", 22,
                     top + plot_h / 2, tp ? "accepted throughput (flits/node/cycle)" : "mean latency (cycles, log scale)");
  if (tp) {
    // The line accepted = offered: a curve on it delivers everything offered.
    const double t = std::min(x_max, y_hi);
    out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#aaa\" stroke-dasharray=\"2 3\"/>\n",
                       px(0), py(0), px(t), py(t));
  }
  // One polyline per routing: colour by family, dashes for deterministic.
  const size_t seeds = s.config.seeds.size();
  auto same_line = [&](const WormSummary* a, const WormSummary* b) {
    if (a->curve.size() != b->curve.size()) return false;
    for (size_t i = 0; i < a->curve.size(); ++i)
      if (a->curve[i].k != b->curve[i].k || (tp ? a->curve[i].accepted != b->curve[i].accepted
                                               : a->curve[i].mean_latency != b->curve[i].mean_latency))
        return false;
    return true;
  };
  int legend_row = 0;
  for (size_t g = 0; g < group.size(); ++g) {
    const WormSummary* m = group[g];
    const bool sp = m->routing.family == RoutingFamily::kShortestPath;
    const std::string colour = sp ? "#1f77b4" : "#d62728";
    const std::string dash = m->routing.adaptivity == Adaptivity::kDeterministic ? " stroke-dasharray=\"7 4\"" : "";
    std::string pts, marks;
    for (const WormMeanPoint& p : m->curve) {
      const double v = tp ? p.accepted : p.mean_latency;
      if (!tp && v <= 0) continue;  // no delivered worm: no latency to plot
      pts += fmt::format("{}{:.1f},{:.1f}", pts.empty() ? "" : " ", px(p.load), py(v));
      const bool all = p.n >= static_cast<int>(seeds);
      marks += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\" stroke=\"{}\"><title>{} load {:.2f}: {:.4g} "
                           "(n={})</title></circle>\n",
                           px(p.load), py(v), all ? colour : "white", colour, m->label(), p.load, v, p.n);
    }
    out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"{}\"><title>{}</title></polyline>\n",
                       colour, dash, pts, m->label());
    out += marks;
    const int ly = top + 10 + 20 * legend_row++;
    const int lx = left + plot_w + 20;
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>"
                       "<text x=\"{}\" y=\"{}\">{}</text>\n",
                       lx, ly, lx + 30, ly, colour, dash, lx + 38, ly + 4, m->label());
    for (size_t h = 0; h < g; ++h)
      if (same_line(group[h], m)) {
        out += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#555\" font-size=\"10\">(same line as {})</text>\n", lx + 38,
                           ly + 16, group[h]->label());
        ++legend_row;
        break;
      }
  }
  if (tp) {
    const int ly = top + 10 + 20 * legend_row;
    const int lx = left + plot_w + 20;
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#aaa\" stroke-dasharray=\"2 3\"/>"
                       "<text x=\"{}\" y=\"{}\">accepted = offered</text>\n",
                       lx, ly, lx + 30, ly, lx + 38, ly + 4);
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#555\" font-size=\"10\">hollow marker: fewer than {} seeds</text>\n",
                     left + plot_w + 20, top + plot_h, seeds);
  out += "</svg>\n";
  return out;
}

}  // namespace topocheck::routing
