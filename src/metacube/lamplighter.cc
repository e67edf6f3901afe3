#include "metacube/lamplighter.h"

#include <algorithm>
#include <bit>
#include <optional>

#include "core/status.h"

namespace topocheck::metacube::lamplighter {

namespace {

bool has(uint64_t set, uint32_t v) { return (set >> v) & 1u; }
uint64_t one(uint32_t v) { return uint64_t{1} << v; }
int popcount(uint32_t x) { return std::popcount(x); }

uint32_t gray(uint32_t i) { return i ^ (i >> 1); }

// The standard path 0 -> c in Q_k with first dimension j, as its classes (0 first).
std::vector<uint32_t> std_path(int k, uint32_t c, int j) {
  std::vector<int> order;
  if ((c >> j) & 1u) {
    for (int step = 0; step < k; ++step) {
      const int d = (j + step) % k;
      if ((c >> d) & 1u) order.push_back(d);
    }
  } else {
    order.push_back(j);
    for (int d = 0; d < k; ++d)
      if ((c >> d) & 1u) order.push_back(d);
    order.push_back(j);
  }
  std::vector<uint32_t> out{0};
  uint32_t x = 0;
  for (int d : order) out.push_back(x ^= 1u << d);
  return out;
}

// A path under construction in the normalized frame: its current node (x, L) and its moves.
class Walk {
 public:
  explicit Walk(int k) : k_(k), h_(1u << k) {}

  uint32_t x() const { return x_; }
  uint64_t lamps() const { return L_; }
  Moves take() { return std::move(moves_); }

  Walk& tog() {
    L_ ^= one(x_);
    moves_.push_back(kToggle);
    return *this;
  }
  // Cross edges through `classes` (each adjacent to the one before).
  Walk& along(std::initializer_list<uint32_t> classes) {
    for (uint32_t v : classes) step_to(v);
    return *this;
  }
  // Follows P (a class path) from the current class to `to`.
  Walk& along_path(const std::vector<uint32_t>& P, uint32_t to) {
    const auto from = std::find(P.begin(), P.end(), x_), end = std::find(P.begin(), P.end(), to);
    TC_CHECK(from != P.end() && end != P.end() && from <= end, "lamplighter: along_path off its path");
    for (auto it = from + 1; it <= end; ++it) step_to(*it);
    return *this;
  }
  // Cross edges to class g, lowest dimension first.
  Walk& asc(uint32_t g) {
    for (int d = 0; d < k_; ++d)
      if (((x_ ^ g) >> d) & 1u) step_to(x_ ^ (1u << d));
    return *this;
  }
  // Cross edges from the current class x (|x| >= 2) to e_0: bit 0 first if it is clear, then the
  // other bits cleared lowest first; every class passed has weight >= 2.
  Walk& to_e0() {
    if (!(x_ & 1u)) step_to(x_ ^ 1u);
    for (int d = 1; d < k_; ++d)
      if ((x_ >> d) & 1u) step_to(x_ ^ (1u << d));
    return *this;
  }
  // Tag the current class a, walk the Gray cycle translated to a once around toggling each class of
  // W at its first pass, untag at a. Nothing when W is empty.
  Walk& tagged_lap(uint64_t W) {
    if (W == 0) return *this;
    const uint32_t a = x_;
    tog();
    for (uint32_t i = 1; i < h_; ++i) {
      const uint32_t v = a ^ gray(i);
      step_to(v);
      if (has(W, v)) tog();
    }
    step_to(a);
    return tog();
  }
  // Walk the Gray cycle forward from the current class, toggling each class of W at its first pass;
  // stop after the last.
  Walk& mono_lap(uint64_t W) {
    uint32_t i0 = 0;
    while (gray(i0) != x_) ++i0;
    for (uint32_t s = 1; W != 0; ++s) {
      TC_CHECK(s < h_, "lamplighter: a monotone lap longer than the cycle");
      const uint32_t v = gray((i0 + s) % h_);
      step_to(v);
      if (has(W, v)) {
        tog();
        W &= ~one(v);
      }
    }
    return *this;
  }

 private:
  void step_to(uint32_t v) {
    const uint32_t d = x_ ^ v;
    TC_CHECK(std::popcount(d) == 1, "lamplighter: a step between classes that are not adjacent");
    moves_.push_back(static_cast<uint8_t>(std::countr_zero(d)));
    x_ = v;
  }

  int k_;
  uint32_t h_;
  uint32_t x_ = 0;
  uint64_t L_ = 0;
  Moves moves_;
};

// The rules (Builder::paths); the numbering of docs/findings/metacube.md.
class Builder {
 public:
  Builder(int k, uint32_t c, uint64_t D) : k_(k), h_(1u << k), c_(c), D_(D) {}

  std::vector<Moves> paths(int depth = 0) const {
    TC_CHECK(depth < 3, "lamplighter: the mirror rule recursed");
    const int weight = popcount(c_);
    if (c_ != 0 && D_ == 1 && weight >= 2) return mirror(depth);  // D = {0}: the mirror of D = {c}
    if (c_ == 0) return paths_c0();
    if (weight == 1) return paths_c1(depth);
    if (weight == 2) return paths_c2();
    std::vector<Moves> out;
    for (int j = 0; j < k_; ++j) out.push_back(path_j(j));
    if (D_ == 0) out.push_back(path_k_empty());
    else if (D_ == one(c_)) out.push_back(path_k_Dc());
    else out.push_back(path_k());
    return out;
  }

 private:
  Walk walk() const { return Walk(k_); }
  bool in_D(uint32_t v) const { return has(D_, v); }

  // The instance mirrored by psi(x, L) = (x XOR c, L XOR D moved by c), built and every path
  // reversed: psi keeps each move's kind and dimension, swaps s and t.
  std::vector<Moves> mirror(int depth) const {
    uint64_t shifted = 0;
    for (uint32_t y = 0; y < h_; ++y)
      if (in_D(y)) shifted |= one(y ^ c_);
    std::vector<Moves> out = Builder(k_, c_, shifted).paths(depth + 1);
    for (Moves& p : out) std::reverse(p.begin(), p.end());
    return out;
  }

  // From class 0 to c along P_m, m the lowest j whose e_j (which = 'e') or b_j ('b') is not in D.
  void walk_std(Walk& w, char which) const {
    if (popcount(c_) == 1) {
      w.along({c_});
      return;
    }
    int m = 0;
    for (int j = 0; j < k_; ++j) {
      const auto P = std_path(k_, c_, j);
      if (!in_D(which == 'e' ? P[1] : P[P.size() - 2])) {
        m = j;
        break;
      }
    }
    w.along_path(std_path(k_, c_, m), c_);
  }

  Moves path_k() const {
    const bool c_in = in_D(c_), zero_in = in_D(0);
    Walk w = walk();
    if (!c_in && !zero_in) {
      w.tagged_lap(D_ | one(c_)).asc(c_).tog();
    } else if (!c_in && zero_in) {
      w.tog();
      walk_std(w, 'b');
      w.tagged_lap(D_ & ~uint64_t{1});
    } else if (c_in && !zero_in) {
      w.tagged_lap(D_ & ~one(c_));
      walk_std(w, 'e');
      w.tog();
    } else {
      w.tog().mono_lap(D_ & ~one(c_) & ~uint64_t{1}).asc(c_).tog();
    }
    return w.take();
  }

  // D = {c}: the layers {0}, {0, y}, {y}, then (y, {}) -> (c, {}) -> t.
  Moves path_k_Dc() const {
    uint32_t m = 0;
    if (popcount(c_) >= 3) {
      m = c_ & (~c_ + 1);
    } else {
      for (int d = 0; d < k_; ++d)
        if (!((c_ >> d) & 1u)) {
          m = 1u << d;
          break;
        }
    }
    const uint32_t y = c_ ^ m;
    Walk w = walk();
    w.tog().asc(y).tog().asc(0).tog().asc(y).tog().along({c_}).tog();
    return w.take();
  }

  // D = {}: the layers {0}, {0, c}, {c}.
  Moves path_k_empty() const {
    Walk w = walk();
    w.tog().asc(c_).tog().asc(0).tog().asc(c_).tog();
    return w.take();
  }

  Moves path_j(int j) const {
    const auto P = std_path(k_, c_, j);
    const uint32_t e = 1u << j, b = P[P.size() - 2];
    TC_CHECK(!(e == b && in_D(e)), "lamplighter: path_j with e_j = b_j in D (handled by its case)");
    Walk w = walk();
    w.along({e});
    if (!in_D(e) && !in_D(b)) {
      w.tagged_lap(D_).along_path(P, b);
    } else if (!in_D(e) && in_D(b)) {
      w.tagged_lap(D_ & ~one(b)).along_path(P, b).tog();
    } else if (in_D(e) && in_D(b)) {
      w.tog().mono_lap(D_ & ~one(b) & ~one(e)).asc(b).tog();
    } else {
      w.tog().along_path(P, b).tagged_lap(D_ & ~one(e));
    }
    w.along({c_});
    return w.take();
  }

  Moves swap_k(uint32_t e) const {
    Walk w = walk();
    if (!in_D(0)) w.tagged_lap(D_ & ~one(e)).asc(e).tog();
    else w.tog().mono_lap(D_ & ~one(e) & ~uint64_t{1}).asc(e).tog();
    w.along({c_});
    return w.take();
  }

  Moves swap_j(uint32_t e) const {
    Walk w = walk();
    w.along({e}).tog();
    if (in_D(c_)) w.mono_lap(D_ & ~one(e) & ~one(c_)).asc(c_).tog();
    else w.asc(c_).tagged_lap(D_ & ~one(e));
    return w.take();
  }

  // Entry rotation over start classes v_0 < ... < v_(r-1), each in D: the path whose start is v_i
  // switches v_i on first (path k at class 0; path j after its hop to e_j), runs the monotone lap
  // with D - v_i - v_(i+1), walks to v_(i+1) lowest dimension first, toggles it and hops to c (no
  // hop when v_(i+1) = c: that toggle enters t). The paths in the order of `starts`.
  std::vector<Moves> rotate(const std::vector<uint32_t>& starts) const {
    std::vector<Moves> out;
    for (size_t i = 0; i < starts.size(); ++i) {
      const uint32_t v = starts[i], b = starts[(i + 1) % starts.size()];
      Walk w = walk();
      if (v != 0) w.along({v});
      w.tog().mono_lap(D_ & ~one(b) & ~one(v)).asc(b).tog();
      if (b != c_) w.along({c_});
      out.push_back(w.take());
    }
    return out;
  }

  static std::vector<Moves> unwrap(std::vector<std::optional<Moves>>& out) {
    std::vector<Moves> paths;
    for (auto& p : out) {
      TC_CHECK(p.has_value(), "lamplighter: a path was not built");
      paths.push_back(std::move(*p));
    }
    return paths;
  }

  std::vector<Moves> paths_c2() const {
    std::vector<int> sup, eqs;
    for (int d = 0; d < k_; ++d)
      if ((c_ >> d) & 1u) sup.push_back(d);
    for (int j : sup)
      if (in_D(1u << j) && D_ != one(1u << j)) eqs.push_back(j);
    std::vector<std::optional<Moves>> out(static_cast<size_t>(k_));
    for (int j = 0; j < k_; ++j)
      if (!((c_ >> j) & 1u)) out[static_cast<size_t>(j)] = path_j(j);
    for (int j : sup) {
      if (D_ == one(1u << j)) {
        Walk w = walk();
        w.along({1u << j}).tog().along({c_});
        out[static_cast<size_t>(j)] = w.take();
      } else if (std::find(eqs.begin(), eqs.end(), j) == eqs.end()) {
        out[static_cast<size_t>(j)] = path_j(j);
      }
    }
    if (eqs.size() == 2) {
      auto rotated = rotate({1u << eqs[0], 1u << eqs[1]});
      for (size_t i = 0; i < eqs.size(); ++i) out[static_cast<size_t>(eqs[i])] = std::move(rotated[i]);
    } else if (eqs.size() == 1) {
      const uint32_t e = 1u << eqs[0];
      out[static_cast<size_t>(eqs[0])] = swap_j(e);
      out.push_back(swap_k(e));
      return unwrap(out);
    }
    if (D_ == 0) {
      out.push_back(path_k_empty());
    } else if (D_ == one(c_) && k_ == 2) {
      const uint32_t ep = 1u << sup[0], eq = 1u << sup[1];
      Walk p = walk(), q = walk(), last = walk();
      p.along({ep, c_}).tog();
      q.along({eq}).tog().along({c_}).tog().along({eq}).tog().along({c_});
      last.tog().asc(c_).tog().asc(0).tog().along({ep, c_});
      out[static_cast<size_t>(sup[0])] = p.take();
      out[static_cast<size_t>(sup[1])] = q.take();
      out.push_back(last.take());
    } else if (D_ == one(c_)) {
      out.push_back(path_k_Dc());
    } else {
      out.push_back(path_k());
    }
    return unwrap(out);
  }

  std::vector<Moves> paths_c0() const {
    std::vector<std::optional<Moves>> out(static_cast<size_t>(k_));
    std::vector<int> eqs;  // EQ: e_j in D, D != {e_j}
    for (int j = 0; j < k_; ++j)
      if (in_D(1u << j) && D_ != one(1u << j)) eqs.push_back(j);
    for (int j = 0; j < k_; ++j) {
      const uint32_t e = 1u << j;
      Walk w = walk();
      if (!in_D(e)) {
        w.along({e}).tagged_lap(D_).along({0});
        out[static_cast<size_t>(j)] = w.take();
      } else if (D_ == one(e)) {
        w.along({e}).tog().along({0});
        out[static_cast<size_t>(j)] = w.take();
      }
    }
    if (in_D(0) && D_ != 1) {
      if (!eqs.empty()) {
        // ROTATE over 0 and the EQ classes: path k is the member that starts at 0.
        std::vector<uint32_t> starts{0};
        for (int j : eqs) starts.push_back(1u << j);
        auto rotated = rotate(starts);
        for (size_t i = 0; i < eqs.size(); ++i) out[static_cast<size_t>(eqs[i])] = std::move(rotated[i + 1]);
        out.push_back(std::move(rotated[0]));
      } else {
        // Z-SWAP: P_0 enters t by the lamp edge (tagged lap at e_0 without lamp 0, hop to 0, toggle
        // 0); path k takes e_0's entry (monotone lap from 0, then to e_0 in layer D through classes
        // of weight >= 2, hop to 0).
        Walk p = walk(), last = walk();
        p.along({1}).tagged_lap(D_ & ~uint64_t{1}).along({0}).tog();
        last.tog().mono_lap(D_ & ~uint64_t{1}).to_e0().along({0});
        out[0] = p.take();
        out.push_back(last.take());
      }
      return unwrap(out);
    }
    if (D_ == 1) {
      Walk w = walk();
      w.tog();
      out.push_back(w.take());
      return unwrap(out);
    }
    if (eqs.size() >= 2) {
      std::vector<uint32_t> starts;
      for (int j : eqs) starts.push_back(1u << j);
      auto rotated = rotate(starts);
      for (size_t i = 0; i < eqs.size(); ++i) out[static_cast<size_t>(eqs[i])] = std::move(rotated[i]);
    } else if (eqs.size() == 1) {
      // W: a step in layer {} to w = e_j + e_(j+1 mod k), a lap there without lamp e_j, back to e_j in
      // layer D - e_j, toggle e_j, hop to 0.
      const int j = eqs[0];
      const uint32_t e = 1u << j, wv = e | (1u << ((j + 1) % k_));
      Walk w = walk();
      w.along({e, wv});
      if (!in_D(wv)) w.tagged_lap(D_ & ~one(e)).along({e}).tog();
      else w.tog().mono_lap(D_ & ~one(e) & ~one(wv)).asc(e).tog();
      w.along({0});
      out[static_cast<size_t>(j)] = w.take();
    }
    Walk w = walk();
    w.tagged_lap(D_);  // 0 not in D: its untag is the lamp edge into t
    out.push_back(w.take());
    return unwrap(out);
  }

  // The first dimension i != m such that not (e_i in D and c + e_i not in D); nullopt if none.
  std::optional<int> free_dimension(int m) const {
    for (int d = 0; d < k_; ++d)
      if (d != m && !(in_D(1u << d) && !in_D(c_ | (1u << d)))) return d;
    return std::nullopt;
  }

  std::vector<Moves> paths_c1(int depth) const {
    const int m = std::countr_zero(c_);
    std::vector<std::optional<Moves>> out(static_cast<size_t>(k_));
    for (int d = 0; d < k_; ++d)
      if (d != m) out[static_cast<size_t>(d)] = path_j(d);
    if (D_ == 0) {
      Walk w = walk();
      w.along({c_});
      out[static_cast<size_t>(m)] = w.take();
      out.push_back(path_k_empty());
      return unwrap(out);
    }
    const bool c_in = in_D(c_), zero_in = in_D(0);
    if (!c_in && !zero_in) {
      Walk a = walk(), b = walk();
      a.along({c_}).tagged_lap(D_);
      b.tagged_lap(D_).along({c_});
      out[static_cast<size_t>(m)] = a.take();
      out.push_back(b.take());
    } else if (c_in && zero_in) {
      out[static_cast<size_t>(m)] = path_j(m);
      out.push_back(path_k());
    } else if (!c_in) {
      if (D_ == 1) return mirror(depth);
      out.push_back(path_k());
      const auto i = free_dimension(m);
      if (!i) return mirror(depth);
      const uint32_t u = c_ | (1u << *i);
      Walk w = walk();
      w.along({c_, u});
      if (!in_D(u)) w.tagged_lap(D_ & ~uint64_t{1}).asc(0).tog();
      else w.tog().mono_lap(D_ & ~uint64_t{1} & ~one(u)).asc(0).tog();
      w.along({c_});
      out[static_cast<size_t>(m)] = w.take();
    } else {
      if (D_ == one(c_)) {
        Walk a = walk(), b = walk();
        a.along({c_}).tog();
        b.tagged_lap(D_).along({c_});
        out[static_cast<size_t>(m)] = a.take();
        out.push_back(b.take());
        return unwrap(out);
      }
      const auto i = free_dimension(m);
      if (!i) return mirror(depth);
      Walk b = walk();
      b.tagged_lap(D_).along({c_});
      out.push_back(b.take());
      const uint32_t u = c_ | (1u << *i);
      Walk w = walk();
      w.along({c_, u});
      if (!in_D(u)) w.tagged_lap(D_ & ~one(c_)).asc(c_).tog();
      else w.tog().mono_lap(D_ & ~one(c_) & ~one(u)).asc(c_).tog();
      out[static_cast<size_t>(m)] = w.take();
    }
    return unwrap(out);
  }

  int k_;
  uint32_t h_;
  uint32_t c_;
  uint64_t D_;
};

}  // namespace

std::vector<Moves> paths(int k, uint32_t c, uint64_t D) {
  TC_CHECK(k >= 1 && k <= 6 && c < (1u << k), "lamplighter::paths: k or c out of range");
  TC_CHECK(c != 0 || D != 0, "lamplighter::paths: s == t");
  std::vector<Moves> out = Builder(k, c, D).paths();
  // Number the paths by their first move, as Algorithm 4 does: cross edges 0 .. k-1, then the cube
  // edge (the k + 1 first moves of disjoint paths are the k + 1 edges at s).
  std::sort(out.begin(), out.end(), [](const Moves& a, const Moves& b) {
    return (a.empty() ? 256 : a.front() == kToggle ? 255 : a.front()) <
           (b.empty() ? 256 : b.front() == kToggle ? 255 : b.front());
  });
  return out;
}

}  // namespace topocheck::metacube::lamplighter
