#include "metacube/classify.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "metacube/metacube_checks.h"

namespace topocheck::metacube {

namespace {

using Key = std::tuple<int, std::string, std::string, std::string, std::string, std::string>;

std::string role(const Metacube& mc, int i) { return i < mc.k() ? "global" : "local"; }

// The step that wrote node q of path i ("s" for the source itself).
std::string step(const Alg4Result& r, int i, int q) { return alg4_step_of(r, i, q); }

struct Found {
  std::string kind, role_a, role_b, step_a, step_b, node;
  int path_a = 0, path_b = 0;
};

// The node a path repeats: its first visit's step and its repeat's. Only called when
// check_thm2_valid rejected the paths for a reason other than a bad hop or endpoint, which this
// description does not cover (it returns false then).
bool describe_repeat(const Metacube& mc, const Alg4Result& r, Found& f) {
  for (int i = 0; i < static_cast<int>(r.paths.size()); ++i) {
    const auto& nodes = r.paths[static_cast<size_t>(i)].nodes;
    std::unordered_map<uint64_t, int> first;
    for (int q = 0; q < static_cast<int>(nodes.size()); ++q) {
      auto [it, fresh] = first.emplace(nodes[static_cast<size_t>(q)].bits, q);
      if (fresh) continue;
      f = {"repeat", role(mc, i), role(mc, i), step(r, i, it->second), step(r, i, q),
           nodes[static_cast<size_t>(q)].to_string(), i, i};
      return true;
    }
  }
  return false;
}

// The first node (in path order, P_0 first) two paths share other than s and t.
bool describe_shared(const Metacube& mc, Node s, Node t, const Alg4Result& r, Found& f) {
  std::unordered_map<uint64_t, std::pair<int, int>> owner;  // node -> (path, index)
  for (int i = 0; i < static_cast<int>(r.paths.size()); ++i) {
    const auto& nodes = r.paths[static_cast<size_t>(i)].nodes;
    for (int q = 1; q + 1 < static_cast<int>(nodes.size()); ++q) {
      const Node u = nodes[static_cast<size_t>(q)];
      if (u == s || u == t) continue;
      auto [it, fresh] = owner.emplace(u.bits, std::pair{i, q});
      if (fresh || it->second.first == i) continue;
      const auto [j, p] = it->second;
      f = {"shared", role(mc, j), role(mc, i), step(r, j, p), step(r, i, q), u.to_string(), j, i};
      return true;
    }
  }
  return false;
}

}  // namespace

Classification classify_alg4(const Metacube& mc, const Alg4Options& options) {
  TC_CHECK(!options.repair, "classify_alg4: the repaired reading has no printed steps");
  Alg4Options o = options;
  o.record_steps = true;
  o.record_notes = false;
  Classification out;
  std::map<Key, size_t> index;
  const uint64_t fields = uint64_t{1} << (mc.m() << mc.k());  // s's M fields zero: s = class * fields
  auto add = [&](int case_number, const Found& f, Node s, Node t) {
    const Key key{case_number, f.kind, f.role_a, f.role_b, f.step_a, f.step_b};
    auto [it, fresh] = index.emplace(key, out.classes.size());
    if (fresh) {
      FailureClass c;
      c.case_number = case_number;
      c.kind = f.kind;
      c.role_a = f.role_a;
      c.role_b = f.role_b;
      c.step_a = f.step_a;
      c.step_b = f.step_b;
      c.s = s;
      c.t = t;
      c.path_a = f.path_a;
      c.path_b = f.path_b;
      c.node = f.node;
      out.classes.push_back(std::move(c));
    }
    ++out.classes[it->second].count;
  };
  for (uint64_t sb = 0; sb < mc.num_nodes(); sb += fields)
    for (uint64_t tb = 0; tb < mc.num_nodes(); ++tb) {
      if (tb == sb) continue;
      const Node s = mc.node_at(sb), t = mc.node_at(tb);
      ++out.pairs;
      const Alg4Result r = metacube_disjoint_paths(mc, s, t, o);
      bool failed = false;
      Found f;
      if (check_thm2_valid(mc, s, t, r.paths)) {
        failed = true;
        if (describe_repeat(mc, r, f)) add(r.case_number, f, s, t);
        else add(r.case_number, Found{"invalid", "", "", "", "", "", 0, 0}, s, t);
      } else if (check_thm2_disjoint(mc, s, t, r.paths)) {
        failed = true;
        if (describe_shared(mc, s, t, r, f)) add(r.case_number, f, s, t);
        else add(r.case_number, Found{"not-disjoint", "", "", "", "", "", 0, 0}, s, t);
      }
      if (check_thm2_length(mc, s, t, r.paths)) {
        failed = true;
        int longest = 0;
        for (int i = 1; i < static_cast<int>(r.paths.size()); ++i)
          if (r.paths[static_cast<size_t>(i)].length() > r.paths[static_cast<size_t>(longest)].length()) longest = i;
        const auto& p = r.paths[static_cast<size_t>(longest)];
        const int last = static_cast<int>(p.nodes.size()) - 1;
        add(r.case_number,
            Found{"length", role(mc, longest), role(mc, longest), step(r, longest, last), step(r, longest, last),
                  std::to_string(p.length()), longest, longest},
            s, t);
      }
      if (failed) ++out.failing;
    }
  std::stable_sort(out.classes.begin(), out.classes.end(), [](const FailureClass& a, const FailureClass& b) {
    if (a.count != b.count) return a.count > b.count;
    return std::tie(a.case_number, a.kind, a.step_a, a.step_b) < std::tie(b.case_number, b.kind, b.step_a, b.step_b);
  });
  return out;
}

Closeness compare_alg4(const Metacube& mc, const Alg4Options& a, const Alg4Options& b) {
  Alg4Options oa = a, ob = b;
  oa.record_notes = ob.record_notes = false;
  Closeness out;
  const uint64_t fields = uint64_t{1} << (mc.m() << mc.k());
  bool first = true;
  for (uint64_t sb = 0; sb < mc.num_nodes(); sb += fields)
    for (uint64_t tb = 0; tb < mc.num_nodes(); ++tb) {
      if (tb == sb) continue;
      const Node s = mc.node_at(sb), t = mc.node_at(tb);
      const Alg4Result ra = metacube_disjoint_paths(mc, s, t, oa), rb = metacube_disjoint_paths(mc, s, t, ob);
      ++out.pairs;
      bool all = ra.paths.size() == rb.paths.size();
      int longest_a = 0, longest_b = 0;
      for (const Path& p : ra.paths) longest_a = std::max(longest_a, p.length());
      for (const Path& p : rb.paths) longest_b = std::max(longest_b, p.length());
      for (size_t i = 0; i < ra.paths.size(); ++i) {
        ++out.paths;
        const bool same = i < rb.paths.size() && ra.paths[i].nodes == rb.paths[i].nodes;
        out.identical_paths += same;
        all = all && same;
      }
      out.identical_pairs += all;
      const int d = longest_a - longest_b;
      out.longest_difference_sum += d;
      out.longest_difference_min = first ? d : std::min(out.longest_difference_min, d);
      out.longest_difference_max = first ? d : std::max(out.longest_difference_max, d);
      first = false;
    }
  return out;
}

}  // namespace topocheck::metacube
