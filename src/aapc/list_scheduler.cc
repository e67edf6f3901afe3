// ListScheduler (schedules.h): the greedy store-and-forward list scheduler every generator of
// Section 3 (papers/004) places its hops with. One bit per (resource, unit): a hop costs
// O(units / 64) word operations at worst. Valid under the model by construction; check_schedule
// still judges every schedule.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "aapc/schedules.h"

namespace topocheck::aapc {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();  // no resource (the model has no port limit)

}  // namespace

ListScheduler::ListScheduler(const FaultSet& faults, Model model) : faults_(faults), model_(model) {
  busy_.resize(size_t{faults.num_nodes()} * (faults.n() + 2));
}

void ListScheduler::occupy(uint32_t resource, int unit) {
  auto& words = busy_[resource];
  const size_t w = static_cast<size_t>(unit) / 64;
  if (words.size() <= w) words.resize(w + 1, 0);
  words[w] |= uint64_t{1} << (unit % 64);
}

int ListScheduler::earliest_free(int unit, uint32_t link, uint32_t receiver, uint32_t sender) const {
  auto word = [&](uint32_t r, size_t w) -> uint64_t {
    if (r == kNone || w >= busy_[r].size()) return 0;
    return busy_[r][w];
  };
  for (size_t w = static_cast<size_t>(unit) / 64;; ++w) {
    uint64_t taken = word(link, w) | word(receiver, w) | word(sender, w);
    if (w == static_cast<size_t>(unit) / 64) taken |= (uint64_t{1} << (unit % 64)) - 1;  // units < unit
    if (~taken != 0) return static_cast<int>(w * 64) + std::countr_zero(~taken);
  }
}

uint32_t ListScheduler::link_of(NodeId from, NodeId to) const {
  return from * static_cast<uint32_t>(faults_.n()) + static_cast<uint32_t>(std::countr_zero(from ^ to));
}
uint32_t ListScheduler::receiver_of(NodeId to) const {
  return model_ == Model::kAllPort ? kNone : faults_.num_nodes() * static_cast<uint32_t>(faults_.n()) + to;
}
uint32_t ListScheduler::sender_of(NodeId from) const {
  return model_ == Model::kOnePort ? faults_.num_nodes() * static_cast<uint32_t>(faults_.n() + 1) + from : kNone;
}

void ListScheduler::time_hops(std::span<const NodeId> route, int release, std::span<const int> not_before,
                              std::vector<int>& units) const {
  TC_CHECK(!route.empty(), "empty route");
  TC_CHECK(not_before.empty() || not_before.size() + 1 == route.size(), "one not_before per hop");
  const uint32_t N = faults_.num_nodes();
  TC_CHECK(route[0] < N && !faults_.is_faulty(route[0]), "route starts at a faulty node");
  units.clear();
  int unit = release;
  for (size_t k = 0; k + 1 < route.size(); ++k) {
    const NodeId from = route[k], to = route[k + 1];
    TC_CHECK(to < N && std::has_single_bit(from ^ to), fmt::format("{} -> {} is not a link", from, to));
    TC_CHECK(!faults_.is_faulty(to), fmt::format("route through faulty node {}", to));
    if (!not_before.empty()) unit = std::max(unit, not_before[k]);
    const int u = earliest_free(unit, link_of(from, to), receiver_of(to), sender_of(from));
    units.push_back(u);
    unit = u + 1;
  }
}

int ListScheduler::probe(std::span<const NodeId> route, int release, std::span<const int> not_before) const {
  time_hops(route, release, not_before, scratch_);
  return scratch_.empty() ? release : scratch_.back() + 1;
}

int ListScheduler::place(Datum datum, std::span<const NodeId> route, int release, std::span<const int> not_before) {
  std::vector<int>& units = scratch_;
  time_hops(route, release, not_before, units);
  for (size_t k = 0; k < units.size(); ++k) {
    const NodeId from = route[k], to = route[k + 1];
    TC_CHECK(from != datum.dest, fmt::format("route of {} goes on from its destination", datum.to_string()));
    const int u = units[k];
    occupy(link_of(from, to), u);
    if (receiver_of(to) != kNone) occupy(receiver_of(to), u);
    if (sender_of(from) != kNone) occupy(sender_of(from), u);
    if (units_.size() <= static_cast<size_t>(u)) units_.resize(u + 1);
    units_[u].push_back(Move{datum, from, to});
  }
  return units.empty() ? release : units.back() + 1;
}

Schedule ListScheduler::take_schedule(std::vector<Step> steps) {
  Schedule s;
  s.n = faults_.n();
  s.units = std::move(units_);
  units_.clear();
  for (auto& words : busy_) words.clear();
  s.steps = std::move(steps);
  return s;
}

}  // namespace topocheck::aapc
