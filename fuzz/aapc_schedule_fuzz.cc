// Fuzzes the AAPC schedule JSON that `simulate aapc --check FILE` reads (read_json_file, then
// aapc::schedule_from_json, then the schedule checker, as aapc_cmd.cc does). A schedule that
// parses prints (to_json) to a JSON that parses back to the same JSON, and the checker judges it
// without crashing: its counts are consistent (delivered <= data, the moves counted are the
// schedule's when it is valid). Errors are Error values.
#include <cstddef>
#include <cstdint>
#include <string>

#include "aapc/aapc.h"
#include "core/json_file.h"
#include "fuzz/fuzz_support.h"

using namespace topocheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto j = read_json_file(fuzz::input_file(data, size, ".schedule.json"));
  if (!j) {
    TC_FUZZ_REQUIRE(!j.error().message.empty(), "read_json_file");
    return 0;
  }
  auto in = aapc::schedule_from_json(*j);
  if (!in) {
    TC_FUZZ_REQUIRE(!in.error().message.empty(), j->dump());
    return 0;
  }
  const nlohmann::json printed = aapc::to_json(in->schedule, in->faults);
  auto again = aapc::schedule_from_json(printed);
  TC_FUZZ_REQUIRE(again.ok(), printed.dump() + ": " + (again.ok() ? "" : again.error().message));
  TC_FUZZ_REQUIRE(aapc::to_json(again->schedule, again->faults) == printed, printed.dump());

  for (const aapc::Model model : aapc::kModels) {
    const aapc::ScheduleCheck check = aapc::check_schedule(in->schedule, in->faults, model);
    TC_FUZZ_REQUIRE(check.ok == check.violation.empty(), printed.dump());
    TC_FUZZ_REQUIRE(check.delivered <= check.data, printed.dump());
    TC_FUZZ_REQUIRE(check.units == in->schedule.num_units(), printed.dump());
    if (check.ok) TC_FUZZ_REQUIRE(check.moves == in->schedule.num_moves() && check.delivered == check.data, printed.dump());
    (void)aapc::to_text(in->schedule);
  }
  return 0;
}
