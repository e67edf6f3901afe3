#include "metacube/routing.h"

#include <algorithm>
#include <bit>

#include "hypercube/hypercube.h"

namespace topocheck::metacube {

void hamiltonian_cycle_into(std::span<int> out, int k, int start, int first_dim, CycleOrder order) {
  TC_CHECK(k >= 0 && start >= 0 && start < (1 << k), "hamiltonian_cycle: bad class");
  TC_CHECK(out.size() >= (k == 0 ? size_t{1} : (size_t{1} << k) + 1), "hamiltonian_cycle: output too small");
  out[0] = start;
  if (k == 0) return;
  TC_CHECK(first_dim >= 0 && first_dim < k, "hamiltonian_cycle: bad first dimension");
  const int steps = 1 << k;
  int c = start;
  for (int t = 1; t <= steps; ++t) {
    const int d = t == steps ? k - 1 : std::countr_zero(static_cast<unsigned>(t));
    const int dim = order == CycleOrder::kRotate ? (first_dim + d) % k : ((first_dim - d) % k + k) % k;
    c ^= 1 << dim;
    out[static_cast<size_t>(t)] = c;
  }
}

std::vector<int> hamiltonian_cycle(int k, int start, int first_dim, CycleOrder order) {
  TC_CHECK(k >= 0 && k < 31, "hamiltonian_cycle: bad class");
  std::vector<int> out(k == 0 ? 1 : (size_t{1} << k) + 1);
  hamiltonian_cycle_into(out, k, start, first_dim, order);
  return out;
}

namespace {

// A Hamiltonian path from a to b in the subcube of classes that agree with a outside `dims`
// (a and b differ in an odd number of those dimensions and nowhere else).
void ham_path(int a, int b, std::vector<int> dims, std::vector<int>& out) {
  if (dims.size() == 1) {
    out.push_back(a);
    out.push_back(b);
    return;
  }
  int d = -1;
  for (int x : dims)
    if (((a ^ b) >> x) & 1) {
      d = x;
      break;
    }
  TC_CHECK(d >= 0, "ham_path: a and b do not differ");
  std::vector<int> rest;
  for (int x : dims)
    if (x != d) rest.push_back(x);
  const int c = a ^ (1 << rest.front());  // a neighbour of a in a's half, never b's projection
  ham_path(a, c, rest, out);
  std::vector<int> second;
  ham_path(c ^ (1 << d), b, rest, second);
  out.insert(out.end(), second.begin(), second.end());
}

}  // namespace

std::vector<int> weak_hamiltonian_path(int k, int a, int b, int first_dim) {
  if (a == b) return hamiltonian_cycle(k, a, first_dim);
  std::vector<int> dims(static_cast<size_t>(k));
  for (int d = 0; d < k; ++d) dims[static_cast<size_t>(d)] = d;
  std::vector<int> out;
  if (std::popcount(static_cast<unsigned>(a ^ b)) % 2 == 1) {
    ham_path(a, b, dims, out);
  } else {
    const int b1 = b ^ 1;  // b's neighbour across dimension 0 (odd distance from a, so != a)
    ham_path(a, b1, dims, out);
    out.push_back(b);
  }
  return out;
}

std::vector<int> follow_cycle(const std::vector<int>& cycle, int start) {
  TC_CHECK(!cycle.empty(), "follow_cycle: empty cycle");
  if (cycle.size() == 1) return {start};
  const size_t len = cycle.size() - 1;  // closed: last == first
  const auto it = std::find(cycle.begin(), cycle.begin() + static_cast<long>(len), start);
  TC_CHECK(it != cycle.begin() + static_cast<long>(len), "follow_cycle: start is not on the cycle");
  const size_t p = static_cast<size_t>(it - cycle.begin());
  std::vector<int> out;
  for (size_t q = 0; q <= 2 * len; ++q) out.push_back(cycle[(p + q) % len]);
  return out;
}

void ClassCycle::assign(int k, int start, int first_dim, CycleOrder order) {
  TC_CHECK(k >= 0 && k <= kMaxClassDim, "ClassCycle: class dimension out of range");
  const size_t len = size_t{1} << k;  // classes on the cycle (k = 0: the single class, no step)
  if (k == 0) {
    twice_[0] = start;
    position_[static_cast<size_t>(start)] = 0;
    cycle_size_ = walk_size_ = 1;  // as hamiltonian_cycle and follow_cycle: (start)
    return;
  }
  hamiltonian_cycle_into(std::span<int>(twice_).first(len + 1), k, start, first_dim, order);
  for (size_t q = len; q < 3 * len; ++q) twice_[q] = twice_[q - len];
  for (size_t q = 0; q < len; ++q) position_[static_cast<size_t>(twice_[q])] = static_cast<int>(q);
  cycle_size_ = len + 1;
  walk_size_ = 2 * len + 1;
}

namespace {

// The walk of append_p1_walk from v on, written at out (room made by the caller); returns the end
// of what it wrote. M: the field width m when it is a compile-time constant (the inner loop
// unrolled), 0 for any m (then mc.m()). Every class of the walk must be a class of mc (the callers
// check).
template <int M>
uint64_t* walk_fields(uint64_t* out, uint64_t v, uint64_t t, std::span<const int> walk, const Metacube& mc) {
  const int m = M > 0 ? M : mc.m();
  const uint64_t below_class = (uint64_t{1} << (mc.m() * mc.h())) - 1;
  for (size_t pos = 0; pos < walk.size(); ++pos) {
    // At class u the node's class is u, so its cube-edge v^(k+b) flips address bit u*m + b.
    // M_v[u] -> M_t[u] by ascending routing: the differing bits of the field, lowest first
    // (diff & -diff is the lowest set bit of diff, zero once none is left). Every candidate node
    // is stored and the pointer advances only past the real ones, so the number of differing
    // bits of a field (which varies from class to class) is never a branch to mispredict.
    uint64_t diff = (v ^ t) & mc.field_bits(walk[pos]);
    for (int b = 0; b < m; ++b) {
      const uint64_t lowest = diff & (~diff + 1);
      diff ^= lowest;
      v ^= lowest;
      *out = v;
      out += lowest != 0;
    }
    if (v == t) break;
    if (pos + 1 == walk.size()) break;  // walk exhausted: the path stops short of t
    // Crossing to the next class replaces the class field (the bits above the fields).
    v = (v & below_class) | mc.class_value(walk[pos + 1]);
    *out++ = v;
  }
  return out;
}

// append_p1_walk once the walk's classes are known to be classes of mc.
void append_walk(PathBlock& path, const Metacube& mc, Node s, Node t, std::span<const int> walk) {
  TC_CHECK(mc.contains(s) && mc.contains(t), "p1_walk: node outside the topology");
  TC_CHECK(!walk.empty() && walk.front() == mc.class_of(s), "p1_walk: the walk must start at s's class");
  append(path, s.bits);
  // Written through a pointer into room made beforehand (PathBlock::room: no zeroing once the
  // block has grown) and committed up to what was written. Room: at most one cross-edge per class
  // of the walk, and at most min(m per class, m * 2^k in all: a field bit once equal to t's stays
  // so) cube-edges; a candidate is stored at the position of the next real node, so it fits too.
  const size_t m = static_cast<size_t>(mc.m());
  const size_t room = walk.size() + std::min(walk.size() * m, m * static_cast<size_t>(mc.h()));
  uint64_t* const out = path.room(room);
  uint64_t* end = nullptr;
  switch (mc.m()) {  // the sweeps' field widths with the inner loop unrolled
    case 1: end = walk_fields<1>(out, s.bits, t.bits, walk, mc); break;
    case 2: end = walk_fields<2>(out, s.bits, t.bits, walk, mc); break;
    case 3: end = walk_fields<3>(out, s.bits, t.bits, walk, mc); break;
    default: end = walk_fields<0>(out, s.bits, t.bits, walk, mc); break;
  }
  path.commit(end);
}

}  // namespace

void append_p1_walk(PathBlock& path, const Metacube& mc, Node s, Node t, std::span<const int> walk) {
  for (const int c : walk) TC_CHECK(c >= 0 && c < mc.h(), "p1_walk: a class of the walk is outside the class cube");
  append_walk(path, mc, s, t, walk);
}

void append_p1_walk(PathBlock& path, const Metacube& mc, Node s, Node t, const ClassCycle& cycle) {
  // A ClassCycle's classes are classes of the k-cube it was assigned for (assign checks k): of
  // mc's when its length is mc's 2^k + 1.
  TC_CHECK(cycle.cycle().size() == (mc.k() == 0 ? size_t{1} : static_cast<size_t>(mc.h()) + 1),
           "p1_walk: the cycle is not one of the class cube of mc");
  append_walk(path, mc, s, t, cycle.walk_from(mc.class_of(s)));
}

namespace {

// The one path of a block, as a Path.
Path only_path(const PathBlock& block) {
  Path p;
  for (const uint64_t bits : block.path(0)) p.nodes.push_back(Node{bits, block.width()});
  return p;
}

// A block for one piece, empty, with its one path started.
PathBlock& piece_block(const Metacube& mc) {
  thread_local PathBlock block;
  block.clear(mc.width());
  block.start_path();
  return block;
}

}  // namespace

Path p1_walk(const Metacube& mc, Node s, Node t, const std::vector<int>& walk) {
  PathBlock& block = piece_block(mc);
  append_p1_walk(block, mc, s, t, walk);
  return only_path(block);
}

Path p1(const Metacube& mc, Node s, Node t, int first_dim) {
  return p1_walk(mc, s, t, weak_hamiltonian_path(mc.k(), mc.class_of(s), mc.class_of(t), first_dim));
}

void append_p3_cluster(PathBlock& path, const Metacube& mc, int n, int i, Node u, Node v) {
  TC_CHECK(mc.contains(u) && mc.contains(v), "p3_cluster: node outside the topology");
  append(path, u.bits);
  if (n <= 0) return;
  const int c = mc.class_of(u);
  const uint64_t diff = mc.field(u, c) ^ mc.field(v, c);
  // The cube-edges of a node of class c flip bits of M[c] (address bit c*m + b for dimension
  // k + b), and they keep the class: every node of the piece has class c. diff has no bit >= m.
  path.commit(hypercube::p3_walk(u.bits, diff, n, i, c * mc.m(), path.room(static_cast<size_t>(n))));
}

Path p3_cluster(const Metacube& mc, int n, int i, Node u, Node v) {
  PathBlock& block = piece_block(mc);
  append_p3_cluster(block, mc, n, i, u, v);
  return only_path(block);
}

void append_p3_class(PathBlock& path, const Metacube& mc, int i, Node u, Node v) {
  TC_CHECK(mc.contains(u) && mc.contains(v), "p3_class: node outside the topology");
  append(path, u.bits);
  const int k = mc.k();
  if (k == 0) return;
  const uint64_t diff = static_cast<uint64_t>(mc.class_of(u) ^ mc.class_of(v));
  // Cross-edge d flips address bit class_shift + d, class_shift = m * h.
  path.commit(hypercube::p3_walk(u.bits, diff, k, i, mc.m() * mc.h(), path.room(static_cast<size_t>(k))));
}

Path p3_class(const Metacube& mc, int i, Node u, Node v) {
  PathBlock& block = piece_block(mc);
  append_p3_class(block, mc, i, u, v);
  return only_path(block);
}

void append(Path& path, const Path& tail) {
  size_t from = 0;
  if (!path.nodes.empty() && !tail.nodes.empty() && tail.nodes.front() == path.nodes.back()) from = 1;
  path.nodes.insert(path.nodes.end(), tail.nodes.begin() + static_cast<long>(from), tail.nodes.end());
}

}  // namespace topocheck::metacube
