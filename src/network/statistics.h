// Statistics shared by the two simulation studies (routing/study.h: the 44-case study of
// papers/001; wormhole/wormhole_study.h: the throughput experiment on ITMs): the Student's t
// quantile of a 95% confidence interval of a mean.
#pragma once

namespace topocheck::routing {

// Student's t quantile t_{0.975, df} (df >= 1, else aborts; the normal 1.96 beyond df = 30),
// from the standard table. Cost: O(1).
double t975(int df);

}  // namespace topocheck::routing
