// The routing study of papers/001, Section 4: all 44 cases (static/dynamic routing x one
// bidirectional / two unidirectional links x the 11 priority schemes A-K), each repeated with
// different shuffling seeds on one workload, and the paper's four qualitative findings computed
// from the measured running times with a stated tolerance.
//
// Repetition r (0-based) of every case uses the simulator seed `seed + r`: the 44 cases see the
// same seeds (common random numbers), so differences between cases are not seed noise. The
// workload is generated once (the paper ran one input graph per figure).
// Statistics per case: mean running time, sample standard deviation, and the half-width of the
// 95% confidence interval of the mean, t_{0.975, reps-1} * sd / sqrt(reps) (Student's t; for
// reps > 31 the normal quantile 1.96).
//
// Findings (Section 4; each `reproduced` iff every condition holds):
//  - dynamic_faster: "dynamic routing performs better than static routing": for all 22
//    (links, scheme), mean(dynamic) < mean(static).
//  - factor_two: "At best, the improvement is by a factor of two": the largest ratio
//    mean(static) / mean(dynamic) over the 22 (links, scheme) lies in [1.6, 2.4] (two, +-20%).
//  - scheme_e_best: "the best results occur when priority is given to messages with the lowest
//    sequence number (Scheme E). Results almost as good [...] (Scheme A) or (Scheme C)": E's
//    mean is within 1% of the fastest of the 44 cases, and in the (routing, links) group of
//    that fastest case A and C are each within 10% of E.
//  - uni_gain: "two unidirectional links [...] improve throughput [...] the improvement is
//    rarely of the order of more than fifteen per cent, and is usually much smaller": with
//    gain = 100 * (mean(bi) - mean(uni)) / mean(bi) over the 22 (routing, scheme), every gain is
//    >= -1 (never clearly worse), at most 3 of 22 exceed 15, and the median is below 7.5.
// Each finding also names its figures: the numbers its conditions compare with thresholds
// (FindingFigure: the figure's value on this study and the region [lo, hi] the finding needs).
// A condition "for all 22 cases" gives one figure per case (dynamic_faster: each ratio
// dynamic/static <= 1; uni_gain: each gain >= -1), an aggregate one figure (factor_two: the
// largest ratio static/dynamic in [1.6, 2.4]; scheme_e_best: E's excess over the fastest case
// <= 1%, and A's and C's larger excess over E <= 10%; uni_gain: the number of gains above 15
// <= 3 and the median gain <= 7.5).
// Over several studies (workload instances, e.g. seeds 1..k), decide_over_studies judges each
// figure by the 95% Student t confidence interval of its per-study values (network/statistics.h):
// reproduced when every interval lies inside its region, not reproduced when some interval lies
// entirely outside, inconclusive otherwise.
// Cost: 44 * reps simulations; `jobs` threads share them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "network/network.h"
#include "network/statistics.h"
#include "routing/simulator.h"
#include "routing/workload.h"

namespace topocheck::routing {

struct StudyConfig {
  int reps = 10;
  uint64_t seed = 1;  // repetition r uses seed + r
  SchemeReading reading = SchemeReading::kList;
  Arbitration arbitration = Arbitration::kRounds;
  int jobs = 1;
  bool check_traces = false;  // judge every run with check_trace (slower)
};

struct CaseStats {
  Routing routing = Routing::kStatic;
  LinkKind links = LinkKind::kBidirectional;
  Scheme scheme = 'K';
  std::vector<uint32_t> times;  // running time per repetition
  double mean = 0, sd = 0, ci95 = 0;
  uint64_t hops = 0;            // over all repetitions
  std::string label() const;    // "static/bi/E"
};

struct StudyResult {
  std::string network;
  std::string workload;
  nlohmann::json workload_generator;
  uint64_t messages = 0;
  StudyConfig config;
  std::vector<CaseStats> cases;  // bi then uni; static then dynamic; A..K
  uint64_t hops = 0;             // simulated hops over all runs
  double seconds = 0;            // wall time

  const CaseStats& at(Routing r, LinkKind k, Scheme s) const;
};

using StudyProgress = std::function<void(int done, int total)>;
// Errors: reps outside 2..1000, jobs < 1, a run that fails or (check_traces) a trace violation.
Result<StudyResult> run_study(const Network& net, const Workload& workload, const StudyConfig& config,
                              const StudyProgress& progress = nullptr);

// One number a finding's condition compares with a threshold, and the region the finding needs
// it in (lo / hi: -kNoBound / kNoBound when open on that side; the ends count as inside).
struct FindingFigure {
  std::string name;  // "max_ratio_static_over_dynamic", ...
  double value = 0;
  double lo = -kNoBound, hi = kNoBound;
  std::string region() const;  // "in [1.6, 2.4]", "<= 1", ">= -1"
};

struct Finding {
  std::string name;       // "dynamic_faster", ...
  std::string statement;  // the paper's words
  std::string tolerance;  // the condition checked
  bool reproduced = false;
  std::string detail;     // the measured values behind the verdict
  nlohmann::json evidence = nlohmann::json::object();
  std::vector<FindingFigure> figures;  // every condition's number; `reproduced` iff all in region
};
inline const std::vector<std::string> kFindingNames = {"dynamic_faster", "factor_two", "scheme_e_best", "uni_gain"};
Finding evaluate_finding(const std::string& name, const StudyResult& study);  // aborts on an unknown name
std::vector<Finding> evaluate_findings(const StudyResult& study);

// A finding judged over several studies (one per workload instance): per figure, the 95% t
// interval of its per-study values and where it lies relative to the figure's region.
enum class StudiesVerdict { kReproduced, kNotReproduced, kInconclusive };
std::string to_string(StudiesVerdict verdict);  // "reproduced", "not reproduced", "inconclusive"
struct FigureOverStudies {
  std::string name;
  std::vector<double> values;  // per study, in the order given
  MeanInterval interval;
  double lo = -kNoBound, hi = kNoBound;
  std::string region;
  IntervalSide side = IntervalSide::kStraddles;
};
struct FindingOverStudies {
  StudiesVerdict verdict = StudiesVerdict::kInconclusive;
  std::vector<FigureOverStudies> figures;
  std::string detail;  // every figure: "name mean [lo, hi] vs region: side"
  nlohmann::json to_json() const;
};
// `per_study`: the same finding evaluated on each study (at least two; the same figures in the
// same order, else aborts). Not reproduced if some figure's interval is outside its region;
// reproduced if every one is inside; inconclusive otherwise.
FindingOverStudies decide_over_studies(const std::vector<Finding>& per_study);

// Forms: a table for people, JSON for machines, and the paper's three figures as SVG bar charts
// (3: bidirectional, static vs dynamic per scheme, with 95% whiskers; 4: unidirectional;
// 5: percentage improvement of two unidirectional links per scheme).
std::string study_table(const StudyResult& study);
nlohmann::json to_json(const StudyResult& study);
std::string figure_svg(const StudyResult& study, int figure);  // figure 3, 4 or 5

}  // namespace topocheck::routing
