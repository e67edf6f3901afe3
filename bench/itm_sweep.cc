// The end-to-end targets for the ITM sweeps, measured as they run: every any-edge ITM of
// n nodes through Theorem 2's naive check, and every exterior ITM of n nodes through Theorem 5's
// (circular order + check_contention_free, paper reading), enumeration included, on every core
// (enumerate_itms_parallel). Prints ITMs, wall seconds, ITMs/s and the projection to 10 minutes.
// Usage: itm_sweep [THM2_N [THM5_N]]   (defaults 16 and 18, the targets; the smoke test
// runs 9 and 10). Exit 1 if a check fails (the claims hold on these sizes: that would be a bug).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "itm/enumerate.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"

namespace {

using topocheck::itm::Itm;
using topocheck::itm::Rule;

struct Sweep {
  uint64_t itms = 0, failures = 0;
  double seconds = 0;
};

template <class Check>
Sweep sweep(int n, Rule rule, Check check, int threads) {
  std::atomic<uint64_t> itms{0}, failures{0};
  const auto start = std::chrono::steady_clock::now();
  topocheck::itm::enumerate_itms_parallel(n, n, rule, [&](const Itm& g) {
    ++itms;
    if (check(g)) ++failures;
  }, threads);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return Sweep{itms.load(), failures.load(), elapsed.count()};
}

void report(const char* what, int n, const Sweep& s, int threads) {
  std::printf("%s, n = %d: %llu ITMs in %.1f s on %d threads (%.0f ITMs/s), %llu failures; target 10 min: %s\n", what,
              n, static_cast<unsigned long long>(s.itms), s.seconds, threads,
              s.seconds > 0 ? static_cast<double>(s.itms) / s.seconds : 0.0,
              static_cast<unsigned long long>(s.failures), s.seconds < 600 ? "met" : "NOT met");
}

}  // namespace

int main(int argc, char** argv) {
  const int thm2_n = argc > 1 ? std::atoi(argv[1]) : 16;
  const int thm5_n = argc > 2 ? std::atoi(argv[2]) : 18;
  if (thm2_n < 3 || thm2_n > 20 || thm5_n < 3 || thm5_n > 24) {
    std::fprintf(stderr, "itm_sweep: error: node counts must be 3..20 (Theorem 2) and 3..24 (Theorem 5)\n");
    return 2;
  }
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const Sweep t2 = sweep(thm2_n, Rule::kAnyEdge, [](const Itm& g) {
    return topocheck::itm::check_deadlock_free(g.graph()).has_value();
  }, threads);
  report("Theorem 2 (any-edge)", thm2_n, t2, threads);
  const Sweep t5 = sweep(thm5_n, Rule::kExterior, [](const Itm& g) {
    auto order = topocheck::itm::circular_order(g);
    return !order || topocheck::itm::check_contention_free(g.graph(), *order, topocheck::itm::Contention::kPaper);
  }, threads);
  report("Theorem 5 (exterior)", thm5_n, t5, threads);
  return t2.failures + t5.failures == 0 ? 0 : 1;
}
