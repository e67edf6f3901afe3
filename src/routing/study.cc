#include "routing/study.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "routing/trace_check.h"

namespace topocheck::routing {

std::string CaseStats::label() const {
  return fmt::format("{}/{}/{}", to_string(routing), to_string(links), scheme);
}

const CaseStats& StudyResult::at(Routing r, LinkKind k, Scheme s) const {
  for (const CaseStats& c : cases)
    if (c.routing == r && c.links == k && c.scheme == s) return c;
  TC_CHECK(false, fmt::format("no case {}/{}/{}", to_string(r), to_string(k), s));
  return cases.front();
}

Result<StudyResult> run_study(const Network& net, const Workload& workload, const StudyConfig& config,
                              const StudyProgress& progress) {
  if (config.reps < 2 || config.reps > 1000) return invalid_argument(fmt::format("--reps: {} is outside 2..1000", config.reps));
  if (config.jobs < 1) return invalid_argument(fmt::format("--jobs: {} is below 1", config.jobs));
  if (workload.nodes != net.num_nodes())
    return invalid_argument(fmt::format("the workload '{}' is placed on {} nodes, the network {} has {}", workload.name,
                                        workload.nodes, net.name(), net.num_nodes()));
  if (auto bad = validate(workload)) return invalid_argument(fmt::format("workload '{}': {}", workload.name, *bad));
  const auto start = std::chrono::steady_clock::now();
  StudyResult study;
  study.network = net.name();
  study.workload = workload.name;
  study.workload_generator = workload.generator;
  study.messages = workload.num_messages();
  study.config = config;
  // Deliberate twin of src/routing/study_test.cc:synthetic: the test builds its expected cases in
  // this order by itself, so that a change here shows there.
  for (LinkKind k : {LinkKind::kBidirectional, LinkKind::kUnidirectional})
    for (Routing r : {Routing::kStatic, Routing::kDynamic})
      for (char s : kSchemes) {
        CaseStats c;
        c.routing = r;
        c.links = k;
        c.scheme = s;
        c.times.assign(config.reps, 0);
        study.cases.push_back(c);
      }
  const int total = static_cast<int>(study.cases.size()) * config.reps;
  std::vector<uint64_t> hops(total, 0);
  std::atomic<int> next{0};
  std::mutex mu;
  int done = 0;
  std::optional<Error> failure;
  auto worker = [&] {
    for (int i = next++; i < total; i = next++) {
      CaseStats& c = study.cases[i / config.reps];
      const int rep = i % config.reps;
      SimConfig sc;
      sc.routing = c.routing;
      sc.links = c.links;
      sc.scheme = c.scheme;
      sc.reading = config.reading;
      sc.arbitration = config.arbitration;
      sc.seed = config.seed + static_cast<uint64_t>(rep);
      sc.record_trace = config.check_traces;
      auto r = simulate(net, workload, sc);
      std::optional<std::string> violation;
      if (r && config.check_traces) violation = check_trace(net, workload, sc, *r);
      std::lock_guard<std::mutex> lock(mu);
      if (!r) {
        if (!failure) failure = r.error();
      } else if (violation) {
        if (!failure) failure = Error{ErrorCode::kInternal, fmt::format("{} seed {}: {}", c.label(), sc.seed, *violation), {}, 0};
      } else {
        c.times[rep] = r->running_time;
        hops[i] = r->hops;
      }
      ++done;
      if (progress) progress(done, total);
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < config.jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (failure) return *failure;
  for (size_t ci = 0; ci < study.cases.size(); ++ci) {
    CaseStats& c = study.cases[ci];
    double sum = 0;
    for (uint32_t t : c.times) sum += t;
    c.mean = sum / config.reps;
    double sq = 0;
    for (uint32_t t : c.times) sq += (t - c.mean) * (t - c.mean);
    c.sd = std::sqrt(sq / (config.reps - 1));
    c.ci95 = t975(config.reps - 1) * c.sd / std::sqrt(static_cast<double>(config.reps));
    for (int rep = 0; rep < config.reps; ++rep) c.hops += hops[ci * config.reps + rep];
    study.hops += c.hops;
  }
  study.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return study;
}

namespace {

constexpr Routing kRoutings[] = {Routing::kStatic, Routing::kDynamic};
constexpr LinkKind kLinks[] = {LinkKind::kBidirectional, LinkKind::kUnidirectional};

Finding dynamic_faster(const StudyResult& s) {
  Finding f;
  f.statement = "Not surprisingly, dynamic routing performs better than static routing";
  f.tolerance = "mean(dynamic) < mean(static) for all 22 (links, scheme)";
  std::vector<std::string> slower;
  double worst = 0;
  for (LinkKind k : kLinks)
    for (char sc : kSchemes) {
      const double st = s.at(Routing::kStatic, k, sc).mean, dy = s.at(Routing::kDynamic, k, sc).mean;
      worst = std::max(worst, dy / st);
      // "for every scheme and link kind": one figure per case, so that over several studies each
      // case's ratio gets its own interval (the maximum of 22 noisy ratios is biased upwards).
      f.figures.push_back({fmt::format("ratio_dynamic_over_static {}/{}", to_string(k), sc), dy / st, -kNoBound, 1.0});
      if (!(dy < st)) slower.push_back(fmt::format("{}/{} ({:.1f} vs {:.1f})", to_string(k), sc, dy, st));
    }
  f.reproduced = slower.empty();
  f.detail = slower.empty() ? fmt::format("dynamic is faster in all 22; the closest ratio dynamic/static is {:.3f}", worst)
                            : fmt::format("dynamic is not faster in {} of 22: {}", slower.size(), fmt::join(slower, ", "));
  f.evidence = {{"not_faster", slower}, {"max_ratio_dynamic_over_static", worst}};
  return f;
}

Finding factor_two(const StudyResult& s) {
  Finding f;
  f.statement = "At best, the improvement is by a factor of two";
  f.tolerance = "max over 22 (links, scheme) of mean(static)/mean(dynamic) in [1.6, 2.4]";
  double best = 0;
  std::string where;
  for (LinkKind k : kLinks)
    for (char sc : kSchemes) {
      const double ratio = s.at(Routing::kStatic, k, sc).mean / s.at(Routing::kDynamic, k, sc).mean;
      if (ratio > best) {
        best = ratio;
        where = fmt::format("{}/{}", to_string(k), sc);
      }
    }
  f.reproduced = best >= 1.6 && best <= 2.4;
  f.detail = fmt::format("the largest improvement is {:.2f}x ({})", best, where);
  f.evidence = {{"max_ratio", best}, {"at", where}};
  f.figures = {{"max_ratio_static_over_dynamic", best, 1.6, 2.4}};
  return f;
}

Finding scheme_e_best(const StudyResult& s) {
  Finding f;
  f.statement = "the best results occur when priority is given to messages with the lowest sequence number (Scheme E). "
                "Results almost as good are obtained [...] (Scheme A) or [...] (Scheme C)";
  f.tolerance = "E within 1% of the fastest of the 44 cases; in that case's (routing, links) group, A and C within 10% of E";
  const CaseStats* fastest = &s.cases.front();
  for (const CaseStats& c : s.cases)
    if (c.mean < fastest->mean) fastest = &c;
  const double e = s.at(fastest->routing, fastest->links, 'E').mean;
  const double a = s.at(fastest->routing, fastest->links, 'A').mean;
  const double c = s.at(fastest->routing, fastest->links, 'C').mean;
  const bool e_best = e <= fastest->mean * 1.01;
  const bool close = a <= e * 1.10 && c <= e * 1.10;
  // The rank of E, A, C in the fastest case's group.
  std::vector<std::pair<double, char>> group;
  for (char sc : kSchemes) group.emplace_back(s.at(fastest->routing, fastest->links, sc).mean, sc);
  std::sort(group.begin(), group.end());
  std::string order;
  for (const auto& [mean, sc] : group) order += sc;
  f.reproduced = e_best && close;
  f.detail = fmt::format("fastest case {} ({:.1f}); in {}/{} E {:.1f}, A {:.1f} ({:+.1f}%), C {:.1f} ({:+.1f}%); schemes fastest first: {}",
                         fastest->label(), fastest->mean, to_string(fastest->routing), to_string(fastest->links), e, a,
                         100 * (a / e - 1), c, 100 * (c / e - 1), order);
  f.evidence = {{"fastest", fastest->label()}, {"E", e}, {"A", a}, {"C", c}, {"order", order}};
  f.figures = {{"E_above_fastest_pct", 100 * (e / fastest->mean - 1), -kNoBound, 1.0},
               {"A_C_above_E_pct", 100 * (std::max(a, c) / e - 1), -kNoBound, 10.0}};
  return f;
}

Finding uni_gain(const StudyResult& s) {
  Finding f;
  f.statement = "two unidirectional links [...] improve throughput [...] the improvement is rarely of the order of more "
                "than fifteen per cent, and is usually much smaller";
  f.tolerance = "gain = 100 (bi - uni) / bi over 22 (routing, scheme): all >= -1, at most 3 above 15, median below 7.5";
  std::vector<double> gains;
  nlohmann::json per = nlohmann::json::object();
  for (Routing r : kRoutings)
    for (char sc : kSchemes) {
      const double bi = s.at(r, LinkKind::kBidirectional, sc).mean, uni = s.at(r, LinkKind::kUnidirectional, sc).mean;
      const double g = 100 * (bi - uni) / bi;
      gains.push_back(g);
      per[fmt::format("{}/{}", to_string(r), sc)] = g;
      // "every gain >= -1" per case (the minimum of 22 noisy gains is biased downwards).
      f.figures.push_back({fmt::format("gain_pct {}/{}", to_string(r), sc), g, -1.0, kNoBound});
    }
  std::vector<double> sorted = gains;
  std::sort(sorted.begin(), sorted.end());
  const double median = (sorted[10] + sorted[11]) / 2;
  const long above = std::count_if(gains.begin(), gains.end(), [](double g) { return g > 15; });
  const double lowest = sorted.front();
  f.reproduced = lowest >= -1 && above <= 3 && median < 7.5;
  f.detail = fmt::format("gains from {:.1f}% to {:.1f}%, median {:.1f}%, {} of 22 above 15%", lowest, sorted.back(), median, above);
  f.evidence = {{"gains", per}, {"median", median}, {"above_15", above}, {"min", lowest}};
  f.figures.push_back({"gains_above_15pct", static_cast<double>(above), -kNoBound, 3.0});
  f.figures.push_back({"median_gain_pct", median, -kNoBound, 7.5});
  return f;
}

}  // namespace

Finding evaluate_finding(const std::string& name, const StudyResult& study) {
  Finding f;
  if (name == "dynamic_faster") f = dynamic_faster(study);
  else if (name == "factor_two") f = factor_two(study);
  else if (name == "scheme_e_best") f = scheme_e_best(study);
  else if (name == "uni_gain") f = uni_gain(study);
  else TC_CHECK(false, "unknown finding " + name);
  f.name = name;
  return f;
}

std::string FindingFigure::region() const {
  if (lo == -kNoBound && hi == kNoBound) return "any";
  if (lo == -kNoBound) return fmt::format("<= {:g}", hi);
  if (hi == kNoBound) return fmt::format(">= {:g}", lo);
  return fmt::format("in [{:g}, {:g}]", lo, hi);
}

std::string to_string(StudiesVerdict verdict) {
  switch (verdict) {
    case StudiesVerdict::kReproduced: return "reproduced";
    case StudiesVerdict::kNotReproduced: return "not reproduced";
    case StudiesVerdict::kInconclusive: return "inconclusive";
  }
  return "?";
}

FindingOverStudies decide_over_studies(const std::vector<Finding>& per_study) {
  TC_CHECK(per_study.size() >= 2, "a finding over studies needs at least two studies");
  FindingOverStudies out;
  const std::vector<FindingFigure>& first = per_study.front().figures;
  TC_CHECK(!first.empty(), "finding '" + per_study.front().name + "' names no figures");
  bool any_outside = false, all_inside = true;
  std::vector<std::string> words;
  // The inside figure nearest its threshold (relative to the interval's width), shown too.
  std::string closest_inside;
  double closest_margin = kNoBound;
  int inside = 0;
  for (size_t i = 0; i < first.size(); ++i) {
    FigureOverStudies fig;
    fig.name = first[i].name;
    fig.lo = first[i].lo;
    fig.hi = first[i].hi;
    fig.region = first[i].region();
    for (const Finding& f : per_study) {
      TC_CHECK(f.figures.size() == first.size() && f.figures[i].name == fig.name && f.figures[i].lo == fig.lo &&
                   f.figures[i].hi == fig.hi,
               "studies disagree on the figures of finding '" + f.name + "'");
      fig.values.push_back(f.figures[i].value);
    }
    fig.interval = mean_ci95(fig.values);
    fig.side = locate(fig.interval, fig.lo, fig.hi);
    any_outside = any_outside || fig.side == IntervalSide::kOutside;
    all_inside = all_inside && fig.side == IntervalSide::kInside;
    const std::string word = fmt::format("{} {:.3g} [{:.3g}, {:.3g}] vs {}: {}", fig.name, fig.interval.mean,
                                         fig.interval.lo(), fig.interval.hi(), fig.region, to_string(fig.side));
    if (fig.side != IntervalSide::kInside || first.size() <= 3) {
      words.push_back(word);
    } else {
      ++inside;
      const double margin = std::min(fig.interval.lo() - fig.lo, fig.hi - fig.interval.hi());
      if (margin < closest_margin) {
        closest_margin = margin;
        closest_inside = word;
      }
    }
    out.figures.push_back(std::move(fig));
  }
  out.verdict = any_outside ? StudiesVerdict::kNotReproduced
                : all_inside ? StudiesVerdict::kReproduced
                             : StudiesVerdict::kInconclusive;
  if (inside > 0)
    words.push_back(fmt::format("{} more figures inside, the closest to its threshold {}", inside, closest_inside));
  out.detail = fmt::format("{} (mean [95% Student t interval over {} studies])", fmt::join(words, "; "), per_study.size());
  return out;
}

nlohmann::json FindingOverStudies::to_json() const {
  nlohmann::json figs = nlohmann::json::array();
  for (const FigureOverStudies& f : figures)
    figs.push_back({{"name", f.name}, {"values", f.values}, {"mean", f.interval.mean}, {"sd", f.interval.sd},
                    {"ci95", {f.interval.lo(), f.interval.hi()}}, {"region", f.region}, {"side", to_string(f.side)}});
  return {{"verdict", to_string(verdict)}, {"test", "two-sided 95% Student t interval of the mean over studies"},
          {"figures", figs}};
}

std::vector<Finding> evaluate_findings(const StudyResult& study) {
  std::vector<Finding> out;
  for (const std::string& name : kFindingNames) out.push_back(evaluate_finding(name, study));
  return out;
}

std::string study_table(const StudyResult& s) {
  std::string out = fmt::format("{} on {}, {} messages, {} repetitions (seeds {}..{}), scheme reading '{}', arbitration '{}'\n",
                                s.workload, s.network, s.messages, s.config.reps, s.config.seed,
                                s.config.seed + s.config.reps - 1, to_string(s.config.reading),
                                to_string(s.config.arbitration));
  out += fmt::format("{:<7} {:>20} {:>20} {:>7} {:>20} {:>20} {:>7} {:>7} {:>7}\n", "scheme", "static bi", "dynamic bi",
                     "s/d bi", "static uni", "dynamic uni", "s/d uni", "gain st", "gain dy");
  for (char sc : kSchemes) {
    auto cell = [&](Routing r, LinkKind k) {
      const CaseStats& c = s.at(r, k, sc);
      return fmt::format("{:.1f} +- {:.1f}", c.mean, c.ci95);
    };
    auto ratio = [&](LinkKind k) { return s.at(Routing::kStatic, k, sc).mean / s.at(Routing::kDynamic, k, sc).mean; };
    auto gain = [&](Routing r) {
      const double bi = s.at(r, LinkKind::kBidirectional, sc).mean;
      return 100 * (bi - s.at(r, LinkKind::kUnidirectional, sc).mean) / bi;
    };
    out += fmt::format("{:<7} {:>20} {:>20} {:>7.2f} {:>20} {:>20} {:>7.2f} {:>6.1f}% {:>6.1f}%\n", sc,
                       cell(Routing::kStatic, LinkKind::kBidirectional), cell(Routing::kDynamic, LinkKind::kBidirectional),
                       ratio(LinkKind::kBidirectional), cell(Routing::kStatic, LinkKind::kUnidirectional),
                       cell(Routing::kDynamic, LinkKind::kUnidirectional), ratio(LinkKind::kUnidirectional),
                       gain(Routing::kStatic), gain(Routing::kDynamic));
  }
  out += "(mean running time in cycles +- half-width of the 95% confidence interval; s/d = static/dynamic; gain = "
         "improvement of two unidirectional links over one bidirectional link)\n";
  return out;
}

nlohmann::json to_json(const StudyResult& s) {
  nlohmann::json j;
  j["network"] = s.network;
  j["workload"] = s.workload;
  j["workload_generator"] = s.workload_generator;
  j["messages"] = s.messages;
  j["reps"] = s.config.reps;
  j["seeds"] = {s.config.seed, s.config.seed + s.config.reps - 1};
  j["scheme_reading"] = to_string(s.config.reading);
  j["arbitration"] = to_string(s.config.arbitration);
  j["hops"] = s.hops;
  j["seconds"] = s.seconds;
  j["cases"] = nlohmann::json::array();
  for (const CaseStats& c : s.cases)
    j["cases"].push_back({{"routing", to_string(c.routing)}, {"links", to_string(c.links)}, {"scheme", std::string(1, c.scheme)},
                          {"times", c.times}, {"mean", c.mean}, {"sd", c.sd}, {"ci95", c.ci95}, {"hops", c.hops}});
  j["findings"] = nlohmann::json::array();
  for (const Finding& f : evaluate_findings(s))
    j["findings"].push_back({{"name", f.name}, {"verdict", f.reproduced ? "reproduced" : "not reproduced"},
                             {"tolerance", f.tolerance}, {"detail", f.detail}, {"evidence", f.evidence}});
  return j;
}

std::string figure_svg(const StudyResult& s, int figure) {
  TC_CHECK(figure >= 3 && figure <= 5, "figures 3, 4 and 5 only");
  // Layout: one group of two bars (static, dynamic) per scheme A..K.
  const int group_w = 56, bar_w = 20, left = 70, top = 50, height = 300, bottom = 60;
  const int width = left + 11 * group_w + 30;
  struct Bar {
    double value, whisker;
  };
  std::vector<std::pair<Bar, Bar>> bars;
  for (char sc : kSchemes) {
    if (figure == 5) {
      auto gain = [&](Routing r) {
        const double bi = s.at(r, LinkKind::kBidirectional, sc).mean;
        return Bar{100 * (bi - s.at(r, LinkKind::kUnidirectional, sc).mean) / bi, 0};
      };
      bars.emplace_back(gain(Routing::kStatic), gain(Routing::kDynamic));
    } else {
      const LinkKind k = figure == 3 ? LinkKind::kBidirectional : LinkKind::kUnidirectional;
      const CaseStats& st = s.at(Routing::kStatic, k, sc);
      const CaseStats& dy = s.at(Routing::kDynamic, k, sc);
      bars.emplace_back(Bar{st.mean, st.ci95}, Bar{dy.mean, dy.ci95});
    }
  }
  double lo = 0, hi = 0;
  for (const auto& [a, b] : bars) {
    hi = std::max({hi, a.value + a.whisker, b.value + b.whisker});
    lo = std::min({lo, a.value, b.value});
  }
  if (hi <= lo) hi = lo + 1;
  hi *= 1.05;
  auto y = [&](double v) { return top + height * (hi - v) / (hi - lo); };
  const std::string title =
      figure == 3 ? "Figure 3: running time, single bidirectional link between nodes"
      : figure == 4 ? "Figure 4: running time, two unidirectional links between nodes"
                    : "Figure 5: percentage improvement in running time with two unidirectional links";
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"20\" font-size=\"14\">{}</text>\n"
      "<text x=\"{}\" y=\"36\" fill=\"#555\">{} on {}, {} messages, mean of {} runs{}</text>\n",
      width, top + height + bottom, title, left, title, left, s.workload, s.network, s.messages, s.config.reps,
      figure == 5 ? "" : "; whiskers: 95% confidence interval");
  // Axis with five ticks.
  out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n", left, top, left, top + height);
  for (int i = 0; i <= 4; ++i) {
    const double v = lo + (hi - lo) * i / 4;
    out += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>"
                       "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.0f}{}</text>\n",
                       left, y(v), width - 20, y(v), left - 6, y(v) + 4, v, figure == 5 ? "%" : "");
  }
  out += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"black\"/>\n", left, y(0), width - 20, y(0));
  const char* colours[2] = {"#7f7f7f", "#1f77b4"};
  for (size_t g = 0; g < bars.size(); ++g) {
    const int x0 = left + static_cast<int>(g) * group_w + 8;
    const Bar pair[2] = {bars[g].first, bars[g].second};
    for (int b = 0; b < 2; ++b) {
      const double v = pair[b].value;
      const double y_top = std::min(y(v), y(0)), h = std::abs(y(v) - y(0));
      const int x = x0 + b * bar_w;
      out += fmt::format("<rect x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{:.1f}\" fill=\"{}\"><title>{} {} {:.2f}</title></rect>\n",
                         x, y_top, bar_w - 2, h, colours[b], kSchemes[g], b == 0 ? "static" : "dynamic", v);
      if (pair[b].whisker > 0) {
        const double cx = x + (bar_w - 2) / 2.0;
        out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"black\"/>\n", cx,
                           y(v - pair[b].whisker), cx, y(v + pair[b].whisker));
      }
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x0 + bar_w, top + height + 18, kSchemes[g]);
  }
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">static</text>\n"
                     "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">dynamic</text>\n",
                     left, top + height + 32, colours[0], left + 16, top + height + 43, left + 80, top + height + 32,
                     colours[1], left + 96, top + height + 43);
  out += "</svg>\n";
  return out;
}

}  // namespace topocheck::routing
