// Fuzzes the verify report JSON that `merge` reads (read_json_file, claims::shard_report_from_json,
// then claims::merge_shards, as verify_cmd.cc does), and the outputs merge writes from it (the
// table, JSON, JUnit). A report that parses prints (verdicts_to_json) to a JSON that parses back
// and prints the same again. Errors are Error values naming the file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "claims/report.h"
#include "claims/runner.h"
#include "core/json_file.h"
#include "fuzz/fuzz_support.h"

using namespace topocheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = fuzz::input_file(data, size, ".report.json");
  auto j = read_json_file(file);
  if (!j) return 0;
  auto report = claims::shard_report_from_json(*j, file.string());
  if (!report) {
    TC_FUZZ_REQUIRE(!report.error().message.empty() && report.error().file == file.string(),
                    report.error().to_string());
    return 0;
  }
  const nlohmann::json printed =
      claims::verdicts_to_json(report->verdicts, report->budget, report->seed, 1, report->shard);
  auto again = claims::shard_report_from_json(printed, file.string());
  TC_FUZZ_REQUIRE(again.ok(), printed.dump() + ": " + (again.ok() ? "" : again.error().to_string()));
  const nlohmann::json reprinted =
      claims::verdicts_to_json(again->verdicts, again->budget, again->seed, 1, again->shard);
  TC_FUZZ_REQUIRE(reprinted == printed, printed.dump() + "\nreprinted as\n" + reprinted.dump());

  auto merged = claims::merge_shards({*report});
  if (!merged) {
    TC_FUZZ_REQUIRE(!merged.error().message.empty(), printed.dump());
    return 0;
  }
  (void)claims::render_table(merged->verdicts, false);
  (void)claims::render_claim_summaries(merged->verdicts);
  (void)claims::verdicts_to_junit(merged->verdicts, merged->budget);
  (void)claims::verdicts_to_json(merged->verdicts, merged->budget, merged->seed, 1, std::nullopt, merged->count);
  return 0;
}
