#include "aapc/partition.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>

#include <fmt/format.h>

namespace topocheck::aapc {
namespace {

DimSet all_dims(int n) { return (DimSet{1} << n) - 1; }

void check_dims(int n, DimSet dims) {
  TC_CHECK(n >= 1 && n <= kMaxN, fmt::format("n = {} outside 1..{}", n, kMaxN));
  TC_CHECK((dims & ~all_dims(n)) == 0, fmt::format("dimension set {:#x} is not inside 0..{}", dims, n - 1));
}

// The nodes y with (y & mask) == (base & mask) (base's class when the bits in `mask` are fixed),
// ascending: base with the bits of the free set `free = ~mask` running over every value.
std::vector<NodeId> coset(int n, NodeId base, DimSet free) {
  std::vector<NodeId> out;
  out.reserve(size_t{1} << std::popcount(free));
  // Iterate the submasks s of `free` in ascending order: s' = ((s | ~free) + 1) & free carries
  // through the fixed bits, so it enumerates exactly the subsets of free, each once, ascending.
  const NodeId fixed = base & ~free & all_dims(n);
  for (NodeId s = 0;;) {
    out.push_back(fixed | s);
    if (s == free) break;
    s = ((s | ~free) + 1) & free;
  }
  return out;
}

// The classes of the nodes when the bits outside `free` are fixed, ordered by smallest node.
std::vector<std::vector<NodeId>> classes(int n, DimSet free) {
  std::vector<std::vector<NodeId>> out;
  const DimSet fixed = all_dims(n) & ~free;
  // The smallest node of a class has every free bit 0: the submasks of `fixed`, ascending.
  for (NodeId base = 0;;) {
    out.push_back(coset(n, base, free));
    if (base == fixed) break;
    base = ((base | ~fixed) + 1) & fixed;
  }
  return out;
}

}  // namespace

int num_dims(DimSet dims) { return std::popcount(dims); }

std::string dims_to_list(DimSet dims) {
  std::string out;
  for (int j = 0; j < 32; ++j)
    if ((dims >> j) & 1u) {
      if (!out.empty()) out.push_back(',');
      out.append(std::to_string(j));
    }
  return out;
}

std::string dims_to_string(DimSet dims) { return fmt::format("{{{}}}", dims_to_list(dims)); }

Result<DimSet> parse_dims(int n, std::string_view text, std::string_view field) {
  if (text.size() >= 2 && text.front() == '{' && text.back() == '}') text = text.substr(1, text.size() - 2);
  DimSet dims = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view item = text.substr(pos, comma - pos);
    int j = -1;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), j);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      return invalid_argument(fmt::format("{}: '{}' is not a dimension number", field, item));
    if (j < 0 || j >= n) return invalid_argument(fmt::format("{}: dimension {} is not in 0..{}", field, j, n - 1));
    if ((dims >> j) & 1u) return invalid_argument(fmt::format("{}: dimension {} is listed twice", field, j));
    dims |= DimSet{1} << j;
    if (comma + 1 == text.size()) return invalid_argument(fmt::format("{}: trailing comma", field));
    pos = comma + 1;
  }
  return dims;
}

std::vector<DimSet> dim_sets_of_size(int n, int k) {
  std::vector<DimSet> out;
  if (k < 0 || k > n) return out;
  for (DimSet s = 0; s <= all_dims(n); ++s)
    if (std::popcount(s) == k) out.push_back(s);
  return out;
}

NodeId adjacent_ps(NodeId ps, int j, DimSet dims) {
  TC_CHECK(((dims >> j) & 1u) == 0, fmt::format("dimension {} is a dividing dimension", j));
  return ps ^ (NodeId{1} << j);
}

std::vector<std::vector<NodeId>> partner_sets(int n, DimSet dims) {
  check_dims(n, dims);
  return classes(n, dims);  // a PS: the bits outside D fixed, those of D free
}

std::vector<std::vector<NodeId>> subcubes(int n, DimSet dims) {
  check_dims(n, dims);
  return classes(n, all_dims(n) & ~dims);  // a subcube: the bits of D fixed
}

std::vector<NodeId> ps_members(int n, NodeId ps, DimSet dims) {
  check_dims(n, dims);
  TC_CHECK(ps < (NodeId{1} << n) && ps_of(ps, dims) == ps, fmt::format("{} does not name a PS", ps));
  return coset(n, ps, dims);
}

std::vector<NodeId> faulty_pss(const FaultSet& faults, DimSet dims) {
  check_dims(faults.n(), dims);
  std::vector<NodeId> out;
  for (NodeId x : faults.faulty()) out.push_back(ps_of(x, dims));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool is_perfect_ps(const FaultSet& faults, NodeId ps, DimSet dims) {
  for (NodeId x : faults.faulty())
    if (ps_of(x, dims) == ps) return false;
  return true;
}

std::optional<std::pair<NodeId, NodeId>> shared_ps_pair(const FaultSet& faults, DimSet dims) {
  check_dims(faults.n(), dims);
  const auto& f = faults.faulty();
  for (size_t a = 0; a < f.size(); ++a)
    for (size_t b = a + 1; b < f.size(); ++b)
      if (((f[a] ^ f[b]) & ~dims) == 0) return std::pair{f[a], f[b]};  // they agree outside D
  return std::nullopt;
}

DimSet perfect_neighbour_dims(const FaultSet& faults, NodeId ps, DimSet dims) {
  check_dims(faults.n(), dims);
  DimSet out = 0;
  for (int j = 0; j < faults.n(); ++j)
    if (((dims >> j) & 1u) == 0 && is_perfect_ps(faults, adjacent_ps(ps, j, dims), dims)) out |= DimSet{1} << j;
  return out;
}

DimSet common_perfect_dims(const FaultSet& faults, DimSet dims) {
  DimSet out = all_dims(faults.n()) & ~dims;
  for (NodeId ps : faulty_pss(faults, dims)) out &= perfect_neighbour_dims(faults, ps, dims);
  return out;
}

std::optional<std::vector<NodeId>> distinct_perfect_partners(const FaultSet& faults, DimSet dims) {
  const std::vector<NodeId> faulty = faulty_pss(faults, dims);
  std::vector<std::vector<NodeId>> options(faulty.size());
  for (size_t i = 0; i < faulty.size(); ++i) {
    const DimSet js = perfect_neighbour_dims(faults, faulty[i], dims);
    for (int j = 0; j < faults.n(); ++j)
      if ((js >> j) & 1u) options[i].push_back(adjacent_ps(faulty[i], j, dims));
  }
  // Kuhn's algorithm over the perfect PSs that occur as options (numbered in `targets`):
  // match[t] = the faulty PS (index) holding target t; each faulty PS in turn looks for an
  // augmenting path. At most f faulty PSs with at most n options each: O(f^2 n) steps.
  std::vector<NodeId> targets;
  for (const auto& opts : options) targets.insert(targets.end(), opts.begin(), opts.end());
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  auto index_of = [&](NodeId p) {
    return static_cast<size_t>(std::lower_bound(targets.begin(), targets.end(), p) - targets.begin());
  };
  constexpr size_t kFree = SIZE_MAX;
  std::vector<size_t> match(targets.size(), kFree);
  std::vector<bool> visited;
  // Tries to give faulty PS i a target, moving earlier owners to other targets if needed.
  auto place = [&](auto&& self, size_t i) -> bool {
    for (NodeId p : options[i]) {
      const size_t t = index_of(p);
      if (visited[t]) continue;
      visited[t] = true;
      if (match[t] == kFree || self(self, match[t])) {
        match[t] = i;
        return true;
      }
    }
    return false;
  };
  for (size_t i = 0; i < faulty.size(); ++i) {
    visited.assign(targets.size(), false);
    if (!place(place, i)) return std::nullopt;
  }
  std::vector<NodeId> partner(faulty.size());
  for (size_t t = 0; t < targets.size(); ++t)
    if (match[t] != kFree) partner[match[t]] = targets[t];
  return partner;
}

DimSet separating_dimensions(const FaultSet& faults) {
  DimSet out = 0;
  for (int d = 0; d < faults.n(); ++d) {
    bool ok = true;
    for (NodeId x : faults.faulty())
      if (faults.is_faulty(corresponding_node(x, d))) { ok = false; break; }
    if (ok) out |= DimSet{1} << d;
  }
  return out;
}

std::string to_string(const AfPartition& p) { return fmt::format("D = {}, d = {}", dims_to_string(p.dims), p.d); }

std::optional<std::string> check_af_partition(const FaultSet& faults, const AfPartition& p) {
  const int n = faults.n();
  const int f = static_cast<int>(faults.faulty().size());
  if ((p.dims & ~all_dims(n)) != 0) return fmt::format("D = {} is not inside 0..{}", dims_to_string(p.dims), n - 1);
  if (num_dims(p.dims) != f) return fmt::format("|D| = {} but f = {}", num_dims(p.dims), f);
  if (p.d < 0 || p.d >= n) return fmt::format("d = {} is not in 0..{}", p.d, n - 1);
  if ((p.dims >> p.d) & 1u) return fmt::format("d = {} is in D = {}", p.d, dims_to_string(p.dims));
  if (auto pair = shared_ps_pair(faults, p.dims))
    return fmt::format("faults {} and {} share the PS {} of D = {}", pair->first, pair->second,
                       ps_of(pair->first, p.dims), dims_to_string(p.dims));
  for (NodeId ps : faulty_pss(faults, p.dims)) {
    const NodeId other = adjacent_ps(ps, p.d, p.dims);
    if (!is_perfect_ps(faults, other, p.dims))
      return fmt::format("the faulty PS {} has the faulty PS {} as its neighbour across d = {}", ps, other, p.d);
  }
  return std::nullopt;
}

std::vector<AfPartition> all_af_partitions(const FaultSet& faults) {
  const int n = faults.n();
  const int f = static_cast<int>(faults.faulty().size());
  std::vector<AfPartition> out;
  if (n < f + 1) return out;
  for (DimSet dims : dim_sets_of_size(n, f)) {
    if (!at_most_one_fault_per_ps(faults, dims)) continue;
    const DimSet ds = common_perfect_dims(faults, dims);
    for (int d = 0; d < n; ++d)
      if ((ds >> d) & 1u) out.push_back(AfPartition{dims, d});
  }
  return out;
}

std::optional<AfPartition> find_af_partition(const FaultSet& faults) {
  const int n = faults.n();
  const int f = static_cast<int>(faults.faulty().size());
  if (n < f + 1) return std::nullopt;
  for (DimSet dims : dim_sets_of_size(n, f)) {
    if (!at_most_one_fault_per_ps(faults, dims)) continue;
    if (const DimSet ds = common_perfect_dims(faults, dims); ds != 0) return AfPartition{dims, std::countr_zero(ds)};
  }
  return std::nullopt;
}

std::vector<std::vector<NodeId>> af_subcubes(int n, const AfPartition& p) {
  check_dims(n, p.dims);
  TC_CHECK(p.d >= 0 && p.d < n && ((p.dims >> p.d) & 1u) == 0, fmt::format("d = {} is not a dimension outside D", p.d));
  // A Q_{f+1}^j: the bits of D + {d} free, the others fixed (the union of PS P and P ^ e_d).
  return classes(n, p.dims | (DimSet{1} << p.d));
}

}  // namespace topocheck::aapc
