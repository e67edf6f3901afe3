// A_1, A_2 and A_f as explicit schedules (schedules.h; Masuyama & Masuyama, papers/004, Sections
// 3.1.1, 3.2.1, 3.3.1): the input checks (errors name the parameter), the frame (A_2 and A_f run
// in the canonical frame of the fault set by default, symmetry.h), and the partition each
// algorithm hands to its two phases (phases.h). The list scheduler is in list_scheduler.cc, the
// inner AAPC in inner_aapc.cc, the phases in phase1.cc and phase2.cc.
#include "aapc/schedules.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "aapc/phases.h"
#include "aapc/subcube_masks.h"
#include "aapc/symmetry.h"

namespace topocheck::aapc {
namespace {

Error bad(std::string message) { return invalid_argument(std::move(message)); }

}  // namespace

std::string to_string(Step1Scope scope) {
  return scope == Step1Scope::kBlockedData ? "blocked_data" : "whole_sources";
}
std::string to_string(FaultyInnerRoutes routes) {
  return routes == FaultyInnerRoutes::kShortestFaultFree ? "shortest_fault_free" : "via_nonfaulty_half";
}
std::string to_string(Rounds rounds) { return rounds == Rounds::kSequential ? "sequential" : "pipelined"; }

Result<Schedule> a1(const FaultSet& faults, int d, Model model, const ScheduleOptions& options) {
  const int n = faults.n();
  if (faults.faulty().size() != 1)
    return bad(fmt::format("faults: A_1 needs exactly one fault, got {}", faults.to_string()));
  if (n < 2) return bad(fmt::format("n: A_1 needs n >= 2, got {}", n));
  if (d < 0 || d >= n) return bad(fmt::format("d: {} is not a dimension of Q_{}", d, n));
  ListScheduler sched(faults, model);
  std::vector<Step> steps;
  Partition whole{bit(n) - 1, 0, [d](NodeId) { return d; }};
  phase1(sched, whole, 0, "", options, steps);
  return sched.take_schedule(std::move(steps));
}

Result<std::pair<NodeId, NodeId>> a2_special_nodes(const FaultSet& faults, int d) {
  const int n = faults.n();
  if (faults.faulty().size() != 2)
    return bad(fmt::format("faults: A_2 needs exactly two faults, got {}", faults.to_string()));
  if (n < 3) return bad(fmt::format("n: A_2 needs n >= 3 (A_1 in each half), got {}", n));
  if (d < 0 || d >= n) return bad(fmt::format("d: {} is not a dimension of Q_{}", d, n));
  NodeId f1 = faults.faulty()[0], f2 = faults.faulty()[1];
  if (((f1 ^ f2) & bit(d)) == 0)
    return bad(fmt::format("d: the faults are not in different halves (faults {} and {} agree in bit {})", f1, f2, d));
  if ((f1 ^ f2) == bit(d))
    return bad(fmt::format("d: the faults {} and {} are neighbours along d = {}, so n_1 and n_2 would be faulty",
                           f1, f2, d));
  if (f1 & bit(d)) std::swap(f1, f2);  // f1 in Q^1 (bit d = 0)
  return std::pair<NodeId, NodeId>{f2 ^ bit(d), f1 ^ bit(d)};
}

namespace {

// The preconditions of A_2 and A_f (errors name the parameter); they are invariant under every
// automorphism of Q_n, so checking them in the caller's labels is checking them in any frame.
std::optional<Error> a2_input_error(const FaultSet& faults, int d, int d1, int d2) {
  auto special = a2_special_nodes(faults, d);
  if (!special.ok()) return special.error();
  const int n = faults.n();
  if (d1 < 0 || d1 >= n || d1 == d)
    return bad(fmt::format("d1: {} is not a dimension of Q_{} other than d = {}", d1, n, d));
  if (d2 < 0 || d2 >= n || d2 == d)
    return bad(fmt::format("d2: {} is not a dimension of Q_{} other than d = {}", d2, n, d));
  return std::nullopt;
}

std::optional<Error> af_input_error(const FaultSet& faults, uint32_t D, int d) {
  const int n = faults.n();
  const int f = static_cast<int>(faults.faulty().size());
  if (d < 0 || d >= n) return bad(fmt::format("d: {} is not a dimension of Q_{}", d, n));
  if (D >= bit(n) || std::popcount(D) != f)
    return bad(fmt::format("D: mask {:#x} must name f = |faults| = {} dimensions of Q_{}", D, f, n));
  if (D & bit(d)) return bad(fmt::format("d: {} is one of the dividing dimensions D", d));
  const uint32_t outer = (bit(n) - 1) & ~(D | bit(d));
  for (size_t a = 0; a < faults.faulty().size(); ++a)
    for (size_t b = a + 1; b < faults.faulty().size(); ++b)
      if (((faults.faulty()[a] ^ faults.faulty()[b]) & outer) == 0)
        return bad(fmt::format("D: the faults {} and {} lie in one Q_{{f+1}} (coset of span(D + {{d}}))",
                               faults.faulty()[a], faults.faulty()[b]));
  return std::nullopt;
}

// A_2 and A_f in the labels they are given (Frame::kAbsolute); inputs already checked.
Schedule a2_absolute(const FaultSet& faults, int d, int d1, int d2, Model model, const ScheduleOptions& options) {
  const int n = faults.n();
  ListScheduler sched(faults, model);
  std::vector<Step> steps;
  // Q^1 is the half with bit d = 0 (it holds n_1), Q^2 the other.
  Partition halves{(bit(n) - 1) & ~bit(d), bit(d), [d, d1, d2](NodeId base) { return (base & bit(d)) ? d2 : d1; }};
  ScheduleOptions one_round = options;
  one_round.rounds = Rounds::kPipelined;  // a single round: one step "phase 2 step 2"
  const int end = phase1(sched, halves, 0, "phase 1 ", options, steps);
  phase2(sched, halves, end, one_round, steps);
  return sched.take_schedule(std::move(steps));
}

Schedule af_absolute(const FaultSet& faults, uint32_t D, int d, Model model, const ScheduleOptions& options) {
  const int n = faults.n();
  const uint32_t inner = D | bit(d);
  const uint32_t outer = (bit(n) - 1) & ~inner;
  ListScheduler sched(faults, model);
  std::vector<Step> steps;
  Partition part{inner, outer, [d](NodeId) { return d; }};
  const int end = phase1(sched, part, 0, "phase 1 ", options, steps);
  phase2(sched, part, end, options, steps);
  return sched.take_schedule(std::move(steps));
}

FaultSet image(const FaultSet& faults, const Automorphism& g) {
  std::vector<NodeId> mapped;
  for (NodeId x : faults.faulty()) mapped.push_back(g.apply(x));
  std::sort(mapped.begin(), mapped.end());
  return FaultSet(faults.n(), std::move(mapped));
}

}  // namespace

std::string to_string(Frame frame) { return frame == Frame::kCanonical ? "canonical" : "absolute"; }

Result<Frame> parse_frame(std::string_view text) {
  for (Frame f : {Frame::kCanonical, Frame::kAbsolute})
    if (to_string(f) == text) return f;
  return bad(fmt::format("--frame: '{}' is not canonical or absolute", text));
}

Result<Schedule> a2(const FaultSet& faults, int d, int d1, int d2, Model model, const ScheduleOptions& options) {
  if (auto e = a2_input_error(faults, d, d1, d2)) return *e;
  const Automorphism g = options.frame == Frame::kCanonical ? canonical_frame(faults) : Automorphism::identity(faults.n());
  if (g.is_identity()) return a2_absolute(faults, d, d1, d2, model, options);
  // In K = g(F), Q^1 (bit d = 0) becomes the half with bit sigma(d) = t_d: with t_d = 1 the halves
  // trade places, and so do the dimensions that divide them.
  const bool swapped = (g.t >> d) & 1u;
  const int k1 = g.dim(swapped ? d2 : d1), k2 = g.dim(swapped ? d1 : d2);
  return transform(a2_absolute(image(faults, g), g.dim(d), k1, k2, model, options), g.inverse());
}

Result<Schedule> af(const FaultSet& faults, uint32_t D, int d, Model model, const ScheduleOptions& options) {
  if (auto e = af_input_error(faults, D, d)) return *e;
  const Automorphism g = options.frame == Frame::kCanonical ? canonical_frame(faults) : Automorphism::identity(faults.n());
  if (g.is_identity()) return af_absolute(faults, D, d, model, options);
  return transform(af_absolute(image(faults, g), g.dims(D), g.dim(d), model, options), g.inverse());
}

}  // namespace topocheck::aapc
