#include "network/statistics.h"

#include <cmath>

#include <fmt/format.h>

#include "core/status.h"

namespace topocheck::routing {

double t975(int df) {
  static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  TC_CHECK(df >= 1, "t975 needs df >= 1");
  return df <= 30 ? table[df - 1] : 1.96;
}

std::string MeanInterval::to_string() const {
  return fmt::format("{:.3g} [{:.3g}, {:.3g}] (95% t, {} values)", mean, lo(), hi(), count);
}

MeanInterval mean_ci95(const std::vector<double>& values) {
  TC_CHECK(values.size() >= 2, "a confidence interval needs at least two values");
  MeanInterval m;
  m.count = static_cast<int>(values.size());
  double sum = 0;
  for (double v : values) sum += v;
  m.mean = sum / m.count;
  double sq = 0;
  for (double v : values) sq += (v - m.mean) * (v - m.mean);
  m.sd = std::sqrt(sq / (m.count - 1));
  m.half = t975(m.count - 1) * m.sd / std::sqrt(static_cast<double>(m.count));
  return m;
}

IntervalSide locate(const MeanInterval& interval, double lo, double hi) {
  TC_CHECK(lo <= hi, "an empty region");
  if (interval.lo() >= lo && interval.hi() <= hi) return IntervalSide::kInside;
  if (interval.hi() < lo || interval.lo() > hi) return IntervalSide::kOutside;
  return IntervalSide::kStraddles;
}

std::string to_string(IntervalSide side) {
  switch (side) {
    case IntervalSide::kInside: return "inside";
    case IntervalSide::kOutside: return "outside";
    case IntervalSide::kStraddles: return "straddles";
  }
  return "?";
}

}  // namespace topocheck::routing
