// The console reporter every benchmark here uses: Google Benchmark's console output as usual, and
// the items/s of each benchmark kept by name, so that main() can print ratios against a baseline
// measured in the same run (the numbers then do not depend on the machine).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace topocheck::bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      auto it = r.counters.find("items_per_second");
      if (it != r.counters.end() && !r.error_occurred) rate_[r.benchmark_name()] = it->second.value;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  // Items per second of the named benchmark ("BM_X/2/3"), 0 when it did not run or failed.
  double rate(const std::string& name) const {
    auto it = rate_.find(name);
    return it == rate_.end() ? 0 : it->second;
  }

 private:
  std::map<std::string, double> rate_;
};

// The start of every main() here: Google Benchmark's flags parsed, then every selected benchmark
// run through `reporter`. False (main returns 2) on an unrecognized argument, before any run.
inline bool run_benchmarks(int* argc, char** argv, benchmark::BenchmarkReporter& reporter) {
  benchmark::Initialize(argc, argv);
  if (benchmark::ReportUnrecognizedArguments(*argc, argv)) return false;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  return true;
}

}  // namespace topocheck::bench
