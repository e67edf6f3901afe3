// Statistics shared by the two simulation studies (routing/study.h: the 44-case study of
// papers/001; wormhole/wormhole_study.h: the throughput experiment on ITMs): the Student's t
// quantile of a 95% confidence interval of a mean, that interval over a sample, and the
// three-way decision of an empirical claim "the figure lies in [lo, hi]" from it.
#pragma once

#include <limits>
#include <string>
#include <vector>

namespace topocheck::routing {

// Student's t quantile t_{0.975, df} (df >= 1, else aborts; the normal 1.96 beyond df = 30),
// from the standard table. Cost: O(1).
double t975(int df);

// The two-sided 95% Student t confidence interval of the mean of `values` (the per-seed figures
// of a study): mean +- t975(k - 1) * sd / sqrt(k), sd the sample standard deviation (k - 1 in
// the denominator). Aborts with fewer than two values. Cost: O(k).
struct MeanInterval {
  int count = 0;
  double mean = 0, sd = 0, half = 0;
  double lo() const { return mean - half; }
  double hi() const { return mean + half; }
  std::string to_string() const;  // "1.78 [1.61, 1.95] (95% t, 5 values)"
};
MeanInterval mean_ci95(const std::vector<double>& values);

// Where an interval lies relative to the claim's region [lo, hi] (either end may be infinite):
//  kInside   the whole interval is in the region (the claim holds at 95%);
//  kOutside  the whole interval is on one side outside it (the claim fails at 95%);
//  kStraddles otherwise (the data cannot decide: inconclusive).
// The ends of the region count as inside.
enum class IntervalSide { kInside, kOutside, kStraddles };
IntervalSide locate(const MeanInterval& interval, double lo, double hi);
std::string to_string(IntervalSide side);  // "inside", "outside", "straddles"
inline constexpr double kNoBound = std::numeric_limits<double>::infinity();

}  // namespace topocheck::routing
