#include "migration/migration.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace topocheck::migration {
namespace {

uint64_t bit(int i) { return uint64_t{1} << i; }

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t pos = text.find(sep, start);
    out.push_back(text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::optional<int> parse_int(std::string_view s) {
  s = trim(s);
  int value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return value;
}

// Appends `tail` reversed (it runs from its own start to the shared end node) to `head`, which
// ends at that shared node.
Path join_reversed(const Path& head, const Path& tail) {
  TC_CHECK(!head.empty() && !tail.empty() && head.back() == tail.back(), "join_reversed: ends differ");
  Path out = head;
  for (size_t k = tail.nodes.size() - 1; k-- > 0;) out.nodes.push_back(tail.nodes[k]);
  return out;
}

std::string hamming_failure(Node a, Node b) {
  return fmt::format("HAMMING-PATH {} -> {}: every Hamming path has a block link", a, b);
}

}  // namespace

int Instance::zeta() const { return std::popcount(C); }
int Instance::beta() const { return std::popcount(DSmT); }
int Instance::gamma() const { return std::popcount(DS & DT); }
bool Instance::overlap() const { return C == 0; }

Result<Instance> make_instance(const Subcube& S, const Subcube& T) {
  if (S.width != T.width)
    return invalid_argument(fmt::format("S and T have different lengths ({} and {})", S.width, T.width));
  if (S.width < 1 || S.width > kMaxN)
    return invalid_argument(fmt::format("n = {} is outside 1..{}", S.width, kMaxN));
  if (S.dimension() != T.dimension())
    return invalid_argument(
        fmt::format("S = {} and T = {} have different dimensions ({} and {})", S, T, S.dimension(), T.dimension()));
  Instance inst;
  inst.S = S;
  inst.T = T;
  inst.n = S.width;
  const uint64_t all = S.width == 64 ? ~uint64_t{0} : bit(S.width) - 1;
  inst.DS = S.free_mask;
  inst.DT = T.free_mask;
  inst.DSmT = inst.DS & ~inst.DT;
  inst.DTmS = inst.DT & ~inst.DS;
  const uint64_t both_fixed = all & ~inst.DS & ~inst.DT;
  inst.C = both_fixed & (S.values ^ T.values);
  inst.I = (both_fixed & ~inst.C) | (inst.DS & inst.DT);
  TC_CHECK((inst.I | inst.C | inst.DSmT | inst.DTmS) == all, "the four sets do not cover N");
  return inst;
}

Result<Instance> parse_instance(std::string_view S, std::string_view T) {
  auto s = parse_subcube(S);
  if (!s) return invalid_argument("--S: " + s.error().message);
  auto t = parse_subcube(T);
  if (!t) return invalid_argument("--T: " + t.error().message);
  return make_instance(*s, *t);
}

int Alpha::at(int j) const {
  for (const auto& [a, b] : map)
    if (a == j) return b;
  TC_CHECK(false, fmt::format("alpha is not defined at {}", j));
  return -1;
}

int Alpha::inverse(int i) const {
  for (const auto& [a, b] : map)
    if (b == i) return a;
  TC_CHECK(false, fmt::format("alpha^-1 is not defined at {}", i));
  return -1;
}

std::string Alpha::to_string() const {
  std::string out;
  for (const auto& [a, b] : map) out += fmt::format("{}{}:{}", out.empty() ? "" : ",", a, b);
  return out;
}

Result<Alpha> parse_alpha(const Instance& inst, std::string_view text) {
  Alpha alpha;
  text = trim(text);
  uint64_t domain = 0, range = 0;
  if (!text.empty()) {
    for (std::string_view item : split(text, ',')) {
      const auto parts = split(item, ':');
      if (parts.size() != 2)
        return invalid_argument(fmt::format("--alpha: '{}' is not j:alpha(j)", trim(item)));
      const auto j = parse_int(parts[0]);
      const auto i = parse_int(parts[1]);
      if (!j || !i || *j < 0 || *i < 0 || *j >= inst.n || *i >= inst.n)
        return invalid_argument(fmt::format("--alpha: '{}' is not two dimensions 0..{}", trim(item), inst.n - 1));
      if (!(inst.DSmT & bit(*j)))
        return invalid_argument(fmt::format("--alpha: {} is not in D(S)-D(T) = {}", *j, dims_to_string(inst.DSmT)));
      if (!(inst.DTmS & bit(*i)))
        return invalid_argument(fmt::format("--alpha: {} is not in D(T)-D(S) = {}", *i, dims_to_string(inst.DTmS)));
      if (domain & bit(*j)) return invalid_argument(fmt::format("--alpha: {} is mapped twice", *j));
      if (range & bit(*i)) return invalid_argument(fmt::format("--alpha: {} is an image twice", *i));
      domain |= bit(*j);
      range |= bit(*i);
      alpha.map.emplace_back(*j, *i);
    }
  }
  if (domain != inst.DSmT)
    return invalid_argument(fmt::format("--alpha: must map every dimension of D(S)-D(T) = {} (missing {})",
                                        dims_to_string(inst.DSmT), dims_to_string(inst.DSmT & ~domain)));
  std::sort(alpha.map.begin(), alpha.map.end());
  return alpha;
}

Alpha identity_alpha(const Instance& inst) {
  Alpha alpha;
  const auto from = dims_of(inst.DSmT), to = dims_of(inst.DTmS);
  for (size_t k = 0; k < from.size(); ++k) alpha.map.emplace_back(from[k], to[k]);
  return alpha;
}

std::vector<Alpha> all_alphas(const Instance& inst) {
  std::vector<Alpha> out;
  const auto from = dims_of(inst.DSmT);
  auto to = dims_of(inst.DTmS);
  do {
    Alpha alpha;
    for (size_t k = 0; k < from.size(); ++k) alpha.map.emplace_back(from[k], to[k]);
    out.push_back(std::move(alpha));
  } while (std::next_permutation(to.begin(), to.end()));
  return out;
}

std::string Bars::to_string() const {
  return fmt::format("f:{},g:{}", f_complements_on_equal ? "=" : "!=", g_complements_on_equal ? "=" : "!=");
}

std::string Bars::reading_name() const {
  if (*this == paper()) return "bars-fig2";
  return fmt::format("bars-f{}-g{}", f_complements_on_equal ? "eq" : "ne", g_complements_on_equal ? "eq" : "ne");
}

std::vector<Bars> all_bars() { return {Bars::paper(), {true, true}, {false, false}, {false, true}}; }

namespace {
// The shared shape of f and g: T on C u (D(S)-D(T)), u on I, and on D(T)-D(S) u[i] complemented
// when [u[a^-1(i)] = T[a^-1(i)]] equals `complement_on_equal`.
Node image(const Instance& inst, const Alpha& alpha, Node u, bool complement_on_equal) {
  uint64_t out = (u.bits & inst.I) | (inst.T.values & (inst.C | inst.DSmT)) | (u.bits & inst.DTmS);
  for (const auto& [j, i] : alpha.map) {
    const bool equal = ((u.bits >> j) & 1) == ((inst.T.values >> j) & 1);
    if (equal == complement_on_equal) out ^= bit(i);
  }
  return Node{out, u.width};
}
}  // namespace

Node f(const Instance& inst, const Alpha& alpha, Node u, Bars bars) {
  return image(inst, alpha, u, bars.f_complements_on_equal);
}
Node g(const Instance& inst, const Alpha& alpha, Node u, Bars bars) {
  return image(inst, alpha, u, bars.g_complements_on_equal);
}
Node h(const Instance& inst, Node v) { return Node{v.bits ^ inst.DTmS, v.width}; }

DSets d_sets(const Instance& inst, const Alpha& alpha, Node u, Bars bars) {
  const uint64_t df = u.bits ^ f(inst, alpha, u, bars).bits;
  const uint64_t dg = u.bits ^ g(inst, alpha, u, bars).bits;
  return {df & inst.DS, df & inst.DT, dg & inst.DS, dg & inst.DT};
}

std::vector<Node> nodes_of(const Subcube& cube) {
  std::vector<Node> out;
  const auto free = dims_of(cube.free_mask);
  for (uint64_t k = 0; k < (uint64_t{1} << free.size()); ++k) {
    uint64_t bits = cube.values;
    for (size_t d = 0; d < free.size(); ++d)
      if ((k >> d) & 1) bits |= bit(free[d]);
    out.push_back(Node{bits, cube.width});
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> dims_of(uint64_t mask) {
  std::vector<int> out;
  for (int i = 0; i < 64; ++i)
    if ((mask >> i) & 1) out.push_back(i);
  return out;
}

uint64_t mask_of(const std::vector<int>& dims) {
  uint64_t m = 0;
  for (int d : dims) m |= bit(d);
  return m;
}

std::string dims_to_string(uint64_t mask) {
  auto dims = dims_of(mask);
  std::reverse(dims.begin(), dims.end());
  return fmt::format("{{{}}}", fmt::join(dims, ", "));
}

std::vector<int> hop_dimensions(const Path& path) {
  std::vector<int> out;
  for (size_t k = 0; k + 1 < path.nodes.size(); ++k) {
    const uint64_t x = path.nodes[k].bits ^ path.nodes[k + 1].bits;
    out.push_back(std::popcount(x) == 1 && path.nodes[k].width == path.nodes[k + 1].width ? std::countr_zero(x) : -1);
  }
  return out;
}

bool is_hamming_path(const Path& path, Node a, Node b) {
  if (path.empty() || path.front() != a || path.back() != b) return false;
  uint64_t seen = 0;
  for (int d : hop_dimensions(path)) {
    if (d < 0 || (seen & bit(d))) return false;
    seen |= bit(d);
  }
  return seen == (a.bits ^ b.bits);
}

std::string to_string(RegularReading r) { return r == RegularReading::kF ? "D_f" : "D_g-as-printed"; }

namespace {
// All links along `first` precede all links along `second` on the path.
bool precede(const Path& path, uint64_t first, uint64_t second) {
  bool seen_second = false;
  for (int d : hop_dimensions(path)) {
    if (second & bit(d)) seen_second = true;
    if ((first & bit(d)) && seen_second) return false;
  }
  return true;
}
}  // namespace

bool is_regular(const Instance& inst, const Alpha& alpha, Bars bars, RegularReading reading, const Path& path, Node u) {
  if (!inst.S.contains(u) || !is_hamming_path(path, u, f(inst, alpha, u, bars))) return false;
  const DSets ds = d_sets(inst, alpha, u, bars);
  if (reading == RegularReading::kF) return precede(path, ds.f_T | inst.C, ds.f_S);
  return precede(path, ds.g_T | inst.C, ds.g_S);
}

bool is_aggressive(const Instance& inst, const Alpha& alpha, Bars bars, const Path& path, Node u) {
  if (!inst.S.contains(u) || !is_hamming_path(path, u, g(inst, alpha, u, bars))) return false;
  const DSets ds = d_sets(inst, alpha, u, bars);
  return precede(path, ds.g_T, inst.C | ds.g_S);
}

Path path_along(Node a, const std::vector<int>& dims) {
  Path p;
  p.nodes.push_back(a);
  for (int d : dims) p.nodes.push_back(p.nodes.back().flip(d));
  return p;
}

std::vector<Path> hamming_paths(Node a, Node b) {
  std::vector<Path> out;
  auto dims = dims_of(a.bits ^ b.bits);
  do out.push_back(path_along(a, dims));
  while (std::next_permutation(dims.begin(), dims.end()));
  return out;
}

std::optional<Error> validate_blocks(const Instance& inst, const Blocks& blocks) {
  for (size_t k = 0; k < blocks.size(); ++k) {
    const Subcube& b = blocks[k];
    if (b.width != inst.n)
      return invalid_argument(fmt::format("--blocks: block {} ({}) has {} symbols, not n = {}", k + 1, b, b.width, inst.n));
    auto meets = [](const Subcube& x, const Subcube& y) {
      const uint64_t fixed = ~x.free_mask & ~y.free_mask;
      return ((x.values ^ y.values) & fixed) == 0;
    };
    if (meets(b, inst.S)) return invalid_argument(fmt::format("--blocks: block {} ({}) meets S = {}", k + 1, b, inst.S));
    if (meets(b, inst.T)) return invalid_argument(fmt::format("--blocks: block {} ({}) meets T = {}", k + 1, b, inst.T));
    for (size_t l = 0; l < k; ++l)
      if (meets(b, blocks[l]))
        return invalid_argument(fmt::format("--blocks: blocks {} ({}) and {} ({}) share nodes", l + 1, blocks[l], k + 1, b));
  }
  return std::nullopt;
}

Result<Blocks> parse_blocks(const Instance& inst, std::string_view text) {
  Blocks blocks;
  text = trim(text);
  if (text.empty() || text == "none") return blocks;
  for (std::string_view item : split(text, ',')) {
    auto cube = parse_subcube(trim(item), inst.n);
    if (!cube) return invalid_argument(fmt::format("--blocks: '{}': {}", trim(item), cube.error().message));
    blocks.push_back(*cube);
  }
  if (auto error = validate_blocks(inst, blocks)) return *error;
  return blocks;
}

std::string blocks_to_string(const Blocks& blocks) {
  std::string out;
  for (const Subcube& b : blocks) {
    if (!out.empty()) out += ',';
    out += b.to_string();
  }
  return out;
}

bool is_block_link(const Blocks& blocks, Node a, Node b) {
  for (const Subcube& block : blocks)
    if (block.contains(a) && block.contains(b)) return true;
  return false;
}

bool is_link_of(const Subcube& cube, Node a, Node b) { return cube.contains(a) && cube.contains(b); }

std::string to_string(TieBreak t) { return t == TieBreak::kAscending ? "ascending" : "descending"; }

std::optional<TieBreak> parse_tie_break(std::string_view s) {
  if (s == "ascending") return TieBreak::kAscending;
  if (s == "descending") return TieBreak::kDescending;
  return std::nullopt;
}

std::optional<Path> hamming_path(Node a, Node b, const Blocks& blocks, TieBreak tie) {
  auto order = dims_of(a.bits ^ b.bits);
  if (tie == TieBreak::kDescending) std::reverse(order.begin(), order.end());
  std::unordered_set<uint64_t> dead;  // nodes from which no block-free Hamming path reaches b
  Path path;
  path.nodes.push_back(a);
  // Depth first; on a monotone walk the current node determines the dimensions still to cross.
  auto search = [&](auto&& self, Node cur) -> bool {
    if (cur == b) return true;
    const uint64_t left = cur.bits ^ b.bits;
    for (int d : order) {
      if (!(left & bit(d))) continue;
      const Node next = cur.flip(d);
      if (dead.count(next.bits) || is_block_link(blocks, cur, next)) continue;
      path.nodes.push_back(next);
      if (self(self, next)) return true;
      path.nodes.pop_back();
    }
    dead.insert(cur.bits);
    return false;
  };
  if (!search(search, a)) return std::nullopt;
  return path;
}

std::string to_string(PickP p) { return p == PickP::kFirst ? "first" : "last"; }
std::string to_string(XReading x) { return x == XReading::kDg ? "D_g(T|p)" : "D_f(T|p)"; }

Params default_params(const Instance& inst) {
  Params p;
  p.alpha = identity_alpha(inst);
  p.ext_sequence = dims_of(inst.DTmS);
  return p;
}

std::optional<Bars> parse_bars(std::string_view text) {
  for (Bars b : all_bars())
    if (b.to_string() == text) return b;
  return std::nullopt;
}

Result<Params> parse_params(const Instance& inst, const ParamsText& text) {
  Params p = default_params(inst);
  if (!text.alpha.empty() || inst.beta() == 0) {
    auto alpha = parse_alpha(inst, text.alpha);
    if (!alpha) return alpha.error();
    p.alpha = *alpha;
  }
  if (!text.sequence.empty()) {
    auto seq = parse_sequence(inst, text.sequence);
    if (!seq) return seq.error();
    p.ext_sequence = *seq;
  }
  if (!text.tie_break.empty()) {
    auto tie = parse_tie_break(text.tie_break);
    if (!tie) return invalid_argument(fmt::format("--tie-break: '{}' is not ascending or descending", text.tie_break));
    p.tie = *tie;
  }
  if (!text.k.empty() && text.k != "-1") {
    const auto k = parse_int(text.k);
    if (!k || *k < 0 || *k >= inst.n || !(inst.C & bit(*k)))
      return invalid_argument(fmt::format("--k: '{}' is not in C(S,T) = {}", text.k, dims_to_string(inst.C)));
    p.k = *k;
  }
  if (!text.pick_p.empty()) {
    if (text.pick_p != "first" && text.pick_p != "last") return invalid_argument("--pick-p: must be first or last");
    p.pick_p = text.pick_p == "first" ? PickP::kFirst : PickP::kLast;
  }
  if (!text.x.empty()) {
    if (text.x != "D_g" && text.x != "D_f") return invalid_argument("--x: must be D_g or D_f");
    p.x_reading = text.x == "D_g" ? XReading::kDg : XReading::kDf;
  }
  if (!text.bars.empty()) {
    auto bars = parse_bars(text.bars);
    if (!bars)
      return invalid_argument(fmt::format("--bars: '{}' is not f:=,g:!= / f:=,g:= / f:!=,g:!= / f:!=,g:=", text.bars));
    p.bars = *bars;
  }
  return p;
}

Result<std::vector<int>> parse_sequence(const Instance& inst, std::string_view text) {
  std::vector<int> out;
  uint64_t seen = 0;
  text = trim(text);
  if (!text.empty()) {
    for (std::string_view item : split(text, ',')) {
      const auto d = parse_int(item);
      if (!d || *d < 0 || *d >= inst.n || !(inst.DTmS & bit(*d)))
        return invalid_argument(
            fmt::format("--sequence: '{}' is not a dimension of D(T)-D(S) = {}", trim(item), dims_to_string(inst.DTmS)));
      if (seen & bit(*d)) return invalid_argument(fmt::format("--sequence: {} occurs twice", *d));
      seen |= bit(*d);
      out.push_back(*d);
    }
  }
  if (seen != inst.DTmS)
    return invalid_argument(fmt::format("--sequence: must list every dimension of D(T)-D(S) = {} once",
                                        dims_to_string(inst.DTmS)));
  return out;
}

uint64_t b_index(const Instance& inst, Node u) {
  uint64_t out = 0;
  int k = 0;
  for (int d : dims_of(inst.DS & inst.DT)) out |= ((u.bits >> d) & 1) << k++;
  return out;
}

std::vector<int> sequence_for(const Instance& inst, const Params& params, Node u) {
  if (!params.per_b_sequence.empty()) return params.per_b_sequence.at(b_index(inst, u));
  if (!params.ext_sequence.empty()) return params.ext_sequence;
  return dims_of(inst.DTmS);
}

std::string to_string(PathKind k) {
  switch (k) {
    case PathKind::kAggressive: return "aggressive";
    case PathKind::kRegularExtended: return "regular+extension";
    case PathKind::kCaseBLast: return "case-b-k-last";
    case PathKind::kCaseBFirst: return "case-b-k-first";
    case PathKind::kSingleLink: return "single-link";
    case PathKind::kSpecificSecond: return "specific-second";
  }
  return "?";
}

std::string to_string(NodeCase c) {
  switch (c) {
    case NodeCase::kSame: return "same";
    case NodeCase::kCaseA: return "case-a";
    case NodeCase::kCaseB: return "case-b";
    case NodeCase::kSpecific: return "specific";
  }
  return "?";
}

Plan migrate(const Instance& inst, const Blocks& blocks, const Params& params) {
  Plan plan = migrate_with(inst, params, [&](Node a, Node b) { return hamming_path(a, b, blocks, params.tie); });
  plan.blocks = blocks;
  return plan;
}

Plan migrate_with(const Instance& inst, const Params& params, const HammingPathFn& hamming_path_of) {
  TC_CHECK(params.alpha.map.size() == static_cast<size_t>(inst.beta()), "alpha is not a bijection of the instance");
  for (const auto& seq : params.per_b_sequence)
    TC_CHECK(mask_of(seq) == inst.DTmS && seq.size() == static_cast<size_t>(inst.beta()), "bad per-B sequence");
  TC_CHECK(params.ext_sequence.empty() || (mask_of(params.ext_sequence) == inst.DTmS &&
                                           params.ext_sequence.size() == static_cast<size_t>(inst.beta())),
           "bad extension sequence");
  Plan plan;
  plan.inst = inst;
  plan.params = params;
  plan.section_42 = inst.zeta() == 1;
  const Alpha& alpha = params.alpha;
  const Bars bars = params.bars;
  const int k = params.k >= 0 ? params.k : (inst.C ? std::countr_zero(inst.C) : -1);
  TC_CHECK(inst.C == 0 || (inst.C & bit(k)), "k is not in C(S,T)");

  // Case a: the aggressive path and the regular path to f(u) (extended below, once the
  // sequence is known).
  std::vector<std::optional<Path>> regular;
  for (const Node u : nodes_of(inst.S)) {
    NodePlan np;
    np.u = u;
    np.target = g(inst, alpha, u, bars);
    const DSets ds = d_sets(inst, alpha, u, bars);
    auto fail = [&](Node a, Node b) {
      np.hamming_failed = true;
      if (np.missing.empty()) np.missing = hamming_failure(a, b);
    };
    std::optional<Path> reg;
    if (ds.f_S != 0) {
      np.node_case = NodeCase::kCaseA;
      const Node w{u.bits ^ ds.g_T, u.width};
      auto p1 = hamming_path_of(u, w);
      if (!p1) fail(u, w);
      auto p2 = hamming_path_of(np.target, w);
      if (!p2) fail(np.target, w);
      if (p1 && p2) np.paths.push_back({PathKind::kAggressive, join_reversed(*p1, *p2), -1});
      const uint64_t xset = (params.x_set == RegularReading::kF ? ds.f_T : ds.g_T) | inst.C;
      const Node x{u.bits ^ xset, u.width};
      const Node fu = f(inst, alpha, u, bars);
      auto p3 = hamming_path_of(u, x);
      if (!p3) fail(u, x);
      auto p4 = hamming_path_of(fu, x);
      if (!p4) fail(fu, x);
      if (p3 && p4) reg = join_reversed(*p3, *p4);
    } else if (np.target == u) {
      np.node_case = NodeCase::kSame;
    } else if (inst.zeta() >= 2) {
      np.node_case = NodeCase::kCaseB;
      const Node w = np.target.flip(k);
      if (auto p = hamming_path_of(u, w)) {
        Path path = *p;
        path.nodes.push_back(np.target);
        np.paths.push_back({PathKind::kCaseBLast, std::move(path), -1});
      } else {
        fail(u, w);
      }
      const Node x = u.flip(k);
      if (auto p = hamming_path_of(np.target, x)) {
        Path head;
        head.nodes = {u, x};
        np.paths.push_back({PathKind::kCaseBFirst, join_reversed(head, *p), -1});
      } else {
        fail(np.target, x);
      }
    } else if (inst.zeta() == 1) {
      np.node_case = NodeCase::kSpecific;
      if (hamming(u, np.target) == 1) {
        Path path;
        path.nodes = {u, np.target};
        np.paths.push_back({PathKind::kSingleLink, std::move(path), -1});
      } else {
        np.missing = fmt::format("{} and g = {} are not adjacent: Section 4.2's single link does not exist", u,
                                 np.target);
      }
    } else {
      np.node_case = NodeCase::kSame;
      np.missing = fmt::format("no rule of the procedure applies: D_f(S|u) is empty, |C| = 0, yet g(u) = {} != u",
                               np.target);
    }
    regular.push_back(std::move(reg));
    plan.nodes.push_back(std::move(np));
  }

  auto index_of = [&](Node u) {
    const auto it = std::lower_bound(plan.nodes.begin(), plan.nodes.end(), u,
                                     [](const NodePlan& a, Node b) { return a.u < b; });
    TC_CHECK(it != plan.nodes.end() && it->u == u, "node not in S");
    return static_cast<size_t>(it - plan.nodes.begin());
  };

  // Section 4.2: each B's specific node q decides its second path and the sequence.
  if (plan.section_42) {
    std::vector<Node> qs;
    for (const NodePlan& np : plan.nodes)
      if (np.node_case == NodeCase::kSpecific) qs.push_back(np.u);
    for (const Node q : qs) {
      Plan::BInfo info;
      info.cube = Subcube{inst.DSmT, q.bits & ~inst.DSmT, inst.n};
      info.q = q;
      info.sequence = sequence_for(inst, params, q);
      std::vector<Node> eligible;
      for (const Node p : nodes_of(info.cube)) {
        if (p == q) continue;
        const NodePlan& pp = plan.nodes[index_of(p)];
        for (const MigrationPath& mp : pp.paths) {
          if (mp.kind != PathKind::kAggressive) continue;
          const auto dims = hop_dimensions(mp.path);
          if (!dims.empty() && dims.back() != k) eligible.push_back(p);
        }
      }
      NodePlan& qp = plan.nodes[index_of(q)];
      if (eligible.empty()) {
        qp.second_absent = true;
        if (qp.missing.empty())
          qp.missing = inst.beta() == 0 ? "Section 4.2: beta = 0, the second path is absent"
                                        : "Section 4.2: every aggressive path from B traverses link k last, the "
                                          "second path is absent";
      } else {
        const Node p = params.pick_p == PickP::kFirst ? eligible.front() : eligible.back();
        info.p = p;
        const DSets ds = d_sets(inst, alpha, p, bars);
        const uint64_t X = params.x_reading == XReading::kDg ? ds.g_T : ds.f_T;
        const Node qx{q.bits ^ X, q.width};
        if (auto first = hamming_path_of(q, qx)) {
          Path path = *first;
          path.nodes.push_back(qx.flip(k));
          const int ext_begin = static_cast<int>(path.nodes.size()) - 1;
          for (int d : info.sequence)
            if (X & bit(d)) path.nodes.push_back(path.nodes.back().flip(d));
          qp.paths.push_back({PathKind::kSpecificSecond, std::move(path), ext_begin});
        } else {
          qp.hamming_failed = true;
          if (qp.missing.empty()) qp.missing = hamming_failure(q, qx);
        }
      }
      plan.bs.push_back(std::move(info));
    }
  }

  // The h-extensions f(u) -> h(f(u)) along the node's sequence.
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    if (!regular[i]) continue;
    Path path = *regular[i];
    const int ext_begin = static_cast<int>(path.nodes.size()) - 1;
    for (int d : sequence_for(inst, params, plan.nodes[i].u)) path.nodes.push_back(path.nodes.back().flip(d));
    plan.nodes[i].paths.push_back({PathKind::kRegularExtended, std::move(path), ext_begin});
  }
  return plan;
}

nlohmann::json Plan::to_json() const {
  using nlohmann::json;
  json out = {{"n", inst.n},
              {"S", inst.S.to_string()},
              {"T", inst.T.to_string()},
              {"C", dims_of(inst.C)},
              {"DS_minus_DT", dims_of(inst.DSmT)},
              {"DT_minus_DS", dims_of(inst.DTmS)},
              {"situation", section_42 ? "4.2" : "4.1"},
              {"alpha", params.alpha.to_string()},
              {"bars", params.bars.to_string()},
              {"tie_break", to_string(params.tie)},
              {"sequence", params.ext_sequence},
              {"k", params.k >= 0 ? params.k : (inst.C ? std::countr_zero(inst.C) : -1)},
              {"blocks", blocks_to_string(blocks)},
              {"nodes", json::array()}};
  for (const NodePlan& np : nodes) {
    json node = {{"u", np.u.to_string()},
                 {"g", np.target.to_string()},
                 {"f", f(inst, params.alpha, np.u, params.bars).to_string()},
                 {"case", to_string(np.node_case)},
                 {"paths", json::array()}};
    for (const MigrationPath& mp : np.paths) {
      json p = {{"kind", to_string(mp.kind)}, {"path", path_to_json(mp.path)}, {"length", mp.path.length()}};
      if (mp.ext_begin >= 0) p["extension_from"] = mp.ext_begin;
      node["paths"].push_back(std::move(p));
    }
    if (!np.missing.empty()) node["missing"] = np.missing;
    out["nodes"].push_back(std::move(node));
  }
  if (section_42) {
    out["bs"] = json::array();
    for (const BInfo& b : bs) {
      json j = {{"B", b.cube.to_string()}, {"q", b.q.to_string()}, {"sequence", b.sequence}};
      if (b.p) j["p"] = b.p->to_string();
      out["bs"].push_back(std::move(j));
    }
  }
  return out;
}

std::string Plan::to_text() const {
  std::string out = fmt::format(
      "S = {}  T = {}  C = {}  D(S)-D(T) = {}  D(T)-D(S) = {}  (Section {})\nalpha {}  bars {}  tie-break {}  blocks {}\n",
      inst.S, inst.T, dims_to_string(inst.C), dims_to_string(inst.DSmT), dims_to_string(inst.DTmS),
      section_42 ? "4.2" : "4.1", params.alpha.to_string().empty() ? "-" : params.alpha.to_string(),
      params.bars.to_string(), to_string(params.tie), blocks.empty() ? "none" : blocks_to_string(blocks));
  for (const NodePlan& np : nodes) {
    out += fmt::format("{} -> {}  ({})\n", np.u, np.target, to_string(np.node_case));
    for (const MigrationPath& mp : np.paths)
      out += fmt::format("  {:<18} {} (length {})\n", to_string(mp.kind), mp.path, mp.path.length());
    if (!np.missing.empty()) out += fmt::format("  missing: {}\n", np.missing);
  }
  return out;
}

Latency latency(double M, double B, double X, int zeta, int beta, double startup) {
  Latency l;
  l.single = startup + (X / B) * (zeta + beta) + M / B;
  l.dual = startup + (X / B) * (zeta + 2 * beta) + M / (2 * B);
  return l;
}

}  // namespace topocheck::migration
