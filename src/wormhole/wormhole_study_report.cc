// The forms of a wormhole study's result (wormhole_study.h): the text report
// (wormhole_study_table), the JSON (to_json) and one SVG plot per size and metric
// (wormhole_study_svg: a frame of axes and ticks, then one polyline per routing with its legend
// entry). Reads the result only; cost linear in its curves and points.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wormhole/wormhole_study.h"
#include "wormhole/wormhole_study_numbers.h"

namespace topocheck::routing {

namespace {

using wormhole_study_numbers::format_ratio;
using wormhole_study_numbers::load_of;

std::string adaptivity_name(Adaptivity a) { return a == Adaptivity::kAdaptive ? "adaptive" : "deterministic"; }

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

// The frame of one plot: its pixel layout, the data ranges rounded out to whole ticks, and the
// maps from data to pixels. x: nominal load from 0; y: accepted throughput from 0 (linear, tp)
// or mean latency (log10, from the decade below the least to the decade above the largest).
struct Frame {
  static constexpr int left = 80, top = 60, plot_w = 460, plot_h = 320, legend_w = 250, bottom = 60;
  static constexpr int width = left + plot_w + legend_w, height = top + plot_h + bottom;
  bool tp = true;  // throughput (else latency)
  double x_max = 0, x_step = 0;
  double y_lo = 0, y_hi = 0, y_step = 0;  // y_step: throughput only (latency ticks are decades)

  double px(double x) const { return left + plot_w * x / x_max; }
  double py(double y) const {
    const double v = tp ? y : std::log10(y);
    return top + plot_h * (y_hi - v) / (y_hi - y_lo);
  }
};

Frame frame_of(const WormStudyResult& s, const std::vector<const WormSummary*>& group, bool tp) {
  Frame f;
  f.tp = tp;
  double& x_max = f.x_max;
  double& y_lo = f.y_lo;
  double& y_hi = f.y_hi;
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
  f.x_step = nice_step(x_max);
  x_max = std::ceil(x_max / f.x_step - 1e-9) * f.x_step;
  if (tp) {
    if (y_hi <= 0) y_hi = x_max;
    f.y_step = nice_step(y_hi);
    y_hi = std::ceil(y_hi / f.y_step - 1e-9) * f.y_step;
  } else {
    if (lat_max <= 0) lat_min = 1, lat_max = 10;
    y_lo = std::floor(std::log10(lat_min));
    y_hi = std::ceil(std::log10(lat_max));
    if (y_hi <= y_lo) y_hi = y_lo + 1;
  }
  return f;
}

// The opening: the svg element, the title and the line of settings under it.
std::string svg_open(const WormStudyResult& s, int size, const Frame& f) {
  const std::string title = fmt::format("{} vs offered load, ITM({}) of {} nodes", f.tp ? "Accepted throughput" : "Mean latency",
                                        itm::to_string(s.config.rule), size);
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"22\" font-size=\"15\">{}</text>\n"
      "<text x=\"{}\" y=\"40\" fill=\"#555\">uniform traffic, {}-flit worms, {}-flit buffers, window {}+{} cycles; mean of {} "
      "seeds</text>\n",
      Frame::width, Frame::height, title, Frame::left, title, Frame::left, s.config.length, s.config.buffer, s.config.warmup,
      s.config.measure, s.config.seeds.size());
}

// Grid lines, ticks and tick labels of both axes.
std::string svg_grid(const Frame& f) {
  constexpr int left = Frame::left, top = Frame::top, plot_w = Frame::plot_w, plot_h = Frame::plot_h;
  std::string out;
  for (double x = 0; x <= f.x_max + 1e-9; x += f.x_step)
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e5e5e5\"/>"
                       "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4:.2f}</text>\n",
                       f.px(x), top, top + plot_h, top + plot_h + 16, x);
  if (f.tp) {
    for (double y = 0; y <= f.y_hi + 1e-9; y += f.y_step)
      out += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#e5e5e5\"/>"
                         "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:.2f}</text>\n",
                         left, f.py(y), left + plot_w, left - 6, f.py(y) + 4, y);
  } else {
    for (double e = f.y_lo; e <= f.y_hi + 1e-9; e += 1) {
      const double y = std::pow(10.0, e);
      out += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#e5e5e5\"/>"
                         "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:g}</text>\n",
                         left, f.py(y), left + plot_w, left - 6, f.py(y) + 4, y);
    }
  }
  return out;
}

// The axes and their labels; for throughput, the dotted line accepted = offered (a curve on it
// delivers everything offered).
std::string svg_axes(const Frame& f) {
  constexpr int left = Frame::left, top = Frame::top, plot_w = Frame::plot_w, plot_h = Frame::plot_h;
  std::string out;
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>"
                     "<line x1=\"{0}\" y1=\"{2}\" x2=\"{3}\" y2=\"{2}\" stroke=\"black\"/>\n",
                     left, top, top + plot_h, left + plot_w);
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">offered load (flits/node/cycle)</text>\n", left + plot_w / 2,
                     top + plot_h + 40);
  out += fmt::format("<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\" transform=\"rotate(-90 {0} {1})\">{2}</text>\n", 22,
                     top + plot_h / 2, f.tp ? "accepted throughput (flits/node/cycle)" : "mean latency (cycles, log scale)");
  if (f.tp) {
    const double t = std::min(f.x_max, f.y_hi);
    out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#aaa\" stroke-dasharray=\"2 3\"/>\n",
                       f.px(0), f.py(0), f.px(t), f.py(t));
  }
  return out;
}

// One polyline per routing (colour by family, dashes for deterministic) with a marker per point
// (hollow where fewer than `seeds` seeds reached it), and its legend entry; a routing whose line
// is the same as an earlier one's says so under its entry. Advances legend_row.
std::string svg_curves(const std::vector<const WormSummary*>& group, const Frame& f, size_t seeds, int& legend_row) {
  constexpr int left = Frame::left, top = Frame::top, plot_w = Frame::plot_w;
  const bool tp = f.tp;
  auto same_line = [&](const WormSummary* a, const WormSummary* b) {
    if (a->curve.size() != b->curve.size()) return false;
    for (size_t i = 0; i < a->curve.size(); ++i)
      if (a->curve[i].k != b->curve[i].k || (tp ? a->curve[i].accepted != b->curve[i].accepted
                                               : a->curve[i].mean_latency != b->curve[i].mean_latency))
        return false;
    return true;
  };
  std::string out;
  for (size_t g = 0; g < group.size(); ++g) {
    const WormSummary* m = group[g];
    const bool sp = m->routing.family == RoutingFamily::kShortestPath;
    const std::string colour = sp ? "#1f77b4" : "#d62728";
    const std::string dash = m->routing.adaptivity == Adaptivity::kDeterministic ? " stroke-dasharray=\"7 4\"" : "";
    std::string pts, marks;
    for (const WormMeanPoint& p : m->curve) {
      const double v = tp ? p.accepted : p.mean_latency;
      if (!tp && v <= 0) continue;  // no delivered worm: no latency to plot
      pts += fmt::format("{}{:.1f},{:.1f}", pts.empty() ? "" : " ", f.px(p.load), f.py(v));
      const bool all = p.n >= static_cast<int>(seeds);
      marks += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\" stroke=\"{}\"><title>{} load {:.2f}: {:.4g} "
                           "(n={})</title></circle>\n",
                           f.px(p.load), f.py(v), all ? colour : "white", colour, m->label(), p.load, v, p.n);
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
  return out;
}

// The end: the legend entry of the line accepted = offered (throughput), the note on hollow
// markers, and the closing tag.
std::string svg_close(const Frame& f, size_t seeds, int legend_row) {
  constexpr int left = Frame::left, top = Frame::top, plot_w = Frame::plot_w, plot_h = Frame::plot_h;
  std::string out;
  if (f.tp) {
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

}  // namespace

std::string wormhole_study_svg(const WormStudyResult& s, int size, WormMetric metric) {
  const auto group = summaries_of(s, size);
  TC_CHECK(!group.empty(), fmt::format("the study has no ITM of {} nodes", size));
  const Frame f = frame_of(s, group, metric == WormMetric::kThroughput);
  const size_t seeds = s.config.seeds.size();
  int legend_row = 0;
  std::string out = svg_open(s, size, f);
  out += svg_grid(f);
  out += svg_axes(f);
  out += svg_curves(group, f, seeds, legend_row);
  out += svg_close(f, seeds, legend_row);
  return out;
}

}  // namespace topocheck::routing
