// Private to the wormhole study (wormhole_study.cc, wormhole_study_report.cc; include it
// nowhere else): the two numbers the experiment and its report must compute the same way, the
// offered load of load index k and the text of a saturation ratio.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

namespace topocheck::routing::wormhole_study_numbers {

// The load of index k, clamped so that k * step rounding just above max_load still runs.
inline double load_of(int k, double step) { return std::min(1.0, k * step); }

// A ratio sp/updown to three decimals; "inf" or "nan" as fmt prints them (x/0, 0/0).
inline std::string format_ratio(double r) { return std::isfinite(r) ? fmt::format("{:.3f}", r) : fmt::format("{}", r); }

}  // namespace topocheck::routing::wormhole_study_numbers
