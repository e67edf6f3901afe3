#include "itm/enumerate.h"

#include <algorithm>
#include <cmath>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include <fmt/format.h>

// nauty last: it defines macros (TRUE, FALSE, MAX, MIN, ...) that no other header should see.
// Its include directories come from pkg-config, so the compiler treats it as a system header.
#include <nauty.h>

namespace topocheck::itm {

static_assert(WORDSIZE == kMaxEnumerationNodes, "one nauty set word per node");
// Several threads call densenauty at once (enumerate_itms_parallel, and callers that run parts on
// their own threads). That is safe only when nauty's static work arrays are thread-local: the
// header says so here, and Debian's libnauty.so.2 (2.8.6) has the matching TLS segment.
static_assert(HAVE_TLS == 1, "nauty was configured without thread-local storage (USE_TLS)");

uint64_t EnumerationCounts::total() const {
  uint64_t sum = 0;
  for (uint64_t c : per_n) sum += c;
  return sum;
}

namespace {

// nauty's set convention: node i is bit WORDSIZE-1-i of a set word (BITT[i]), so the first node of
// a set is its count of leading zeros and s & (s - 1) removes its last node.
constexpr setword node_bit(int i) { return setword{1} << (WORDSIZE - 1 - i); }
int first_node(setword s) { return std::countl_zero(s); }
int last_node(setword s) { return WORDSIZE - 1 - std::countr_zero(s); }
int degree_of(setword s) { return std::popcount(s); }

struct Edge {
  int x = 0, y = 0;
};

// One node of the generation tree: an ITM as adjacency rows (and, for kExterior, its exterior
// edges), with one usable edge per Aut-orbit once `augmentations` has been filled.
struct TreeNode {
  int n = 0;
  std::array<setword, kMaxEnumerationNodes> adj{};  // adj[u]: u's neighbours
  std::array<setword, kMaxEnumerationNodes> ext{};  // ext[u]: u's exterior edges (kExterior only)
  int num_augmentations = 0;
  std::array<Edge, 2 * kMaxEnumerationNodes> augmentations{};  // an ITM has 2n - 3 edges
};

// nauty reports automorphism generators through a plain function pointer without a user
// argument; the running thread's buffer is reached through this thread-local pointer.
thread_local std::vector<int>* t_generators = nullptr;

void collect_generator(int /*count*/, int* perm, int* /*orbits*/, int /*numorbits*/, int /*stabvertex*/, int n) {
  t_generators->insert(t_generators->end(), perm, perm + n);
}

// nauty's work arrays hang off thread-local pointers that nothing frees when a thread ends; each
// user of nauty here frees them when done (the next call allocates them again).
void free_nauty_arrays() {
  nauty_freedyn();
  nautil_freedyn();
  naugraph_freedyn();
}

void check_nauty_once(int n) {
  static std::once_flag once;
  // nauty_check exits the program with a message when the header and the library disagree on
  // the word size or the version.
  std::call_once(once, [n] { nauty_check(WORDSIZE, 1, n, NAUTYVERSIONID); });
}

// One enumerating thread: nauty's buffers, one scratch tree node per level, and the chain of
// Itm objects from the root of the current subtree (only when visiting).
class Worker {
 public:
  Worker(int n_min, int n_max, Rule rule, const ItmVisitor& visit)
      : n_min_(n_min), n_max_(n_max), rule_(rule), visit_(visit), scratch_(static_cast<size_t>(n_max) + 1),
        itms_(static_cast<size_t>(n_max) + 1) {
    counts_.per_n.assign(static_cast<size_t>(n_max) + 1, 0);
    generators_.reserve(static_cast<size_t>(kMaxEnumerationNodes) * kMaxEnumerationNodes);
    DEFAULTOPTIONS_GRAPH(defaults);
    options_ = defaults;
    options_.userautomproc = collect_generator;
    check_nauty_once(n_max);
  }
  ~Worker() { free_nauty_arrays(); }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  EnumerationCounts& counts() { return counts_; }

  // The triangle {0, 1, 2} with its augmentations filled in.
  TreeNode root() {
    TreeNode node;
    node.n = 3;
    for (int u = 0; u < 3; ++u)
      for (int w = 0; w < 3; ++w)
        if (u != w) node.adj[static_cast<size_t>(u)] |= node_bit(w);
    node.ext = node.adj;
    run_nauty(node, /*getcanon=*/false);
    fill_augmentations(node);
    return node;
  }

  // Calls on_child(child, edge) for each accepted child of `parent` (which must have its
  // augmentations), in the order of parent.augmentations. The child lives in a scratch slot
  // that the next child of a node on the same level overwrites; it has augmentations iff
  // child.n < n_max.
  template <class OnChild>
  void for_each_child(const TreeNode& parent, OnChild&& on_child) {
    TreeNode& child = scratch_[static_cast<size_t>(parent.n) + 1];
    for (int i = 0; i < parent.num_augmentations; ++i) {
      const Edge e = parent.augmentations[static_cast<size_t>(i)];
      if (make_child(parent, e, child)) on_child(child, e);
    }
  }

  // Visits `node` (whose Itm, when visiting, is itms_[node.n]) and its whole subtree.
  void enumerate_subtree(const TreeNode& node) {
    visit(node.n);
    if (node.n == n_max_) return;
    for_each_child(node, [&](const TreeNode& child, Edge e) {
      if (visit_) {
        itms_[static_cast<size_t>(child.n)] = itms_[static_cast<size_t>(node.n)];
        const auto added = itms_[static_cast<size_t>(child.n)]->add_node(e.x, e.y);
        TC_CHECK(added.ok(), added.error().message);
      }
      enumerate_subtree(child);
    });
  }

  // Counts the class on n nodes whose Itm is itms_[n] and calls visit on it (in range only).
  void visit(int n) {
    if (n < n_min_) return;
    ++counts_.per_n[static_cast<size_t>(n)];
    if (visit_) visit_(*itms_[static_cast<size_t>(n)]);
  }

  std::optional<Itm>& itm(int n) { return itms_[static_cast<size_t>(n)]; }

 private:
  // Forms parent + v at e in `child` and decides whether it is the canonical child. On
  // acceptance with child.n < n_max, also fills child's augmentations.
  bool make_child(const TreeNode& parent, Edge e, TreeNode& child) {
    ++counts_.candidates;
    const int n = parent.n + 1, v = parent.n;
    const size_t count = static_cast<size_t>(parent.n);
    std::copy_n(parent.adj.begin(), count, child.adj.begin());
    child.n = n;
    child.adj[static_cast<size_t>(v)] = node_bit(e.x) | node_bit(e.y);
    child.adj[static_cast<size_t>(e.x)] |= node_bit(v);
    child.adj[static_cast<size_t>(e.y)] |= node_bit(v);

    // Canonical deletion, step 1: the nodes of degree 2 with the largest invariant. If v is not
    // among them the child is rejected without calling nauty (the usual case).
    std::array<int, kMaxEnumerationNodes> degree;
    for (int u = 0; u < n; ++u) degree[static_cast<size_t>(u)] = degree_of(child.adj[static_cast<size_t>(u)]);
    const uint64_t v_key = deletion_invariant(child, degree, v);
    setword tied = node_bit(v);
    int num_tied = 1;
    for (int u = 0; u < v; ++u) {
      if (degree[static_cast<size_t>(u)] != 2) continue;
      const uint64_t key = deletion_invariant(child, degree, u);
      if (key > v_key) return false;
      if (key == v_key) {
        tied |= node_bit(u);
        ++num_tied;
      }
    }
    const bool expand = n < n_max_;
    if (num_tied == 1) {
      // v alone has the largest invariant: it is the canonical deletion, whatever nauty labels.
      if (!expand) return true;
      run_nauty(child, /*getcanon=*/false);
    } else {
      // Step 2: among the tied nodes, the one nauty's canonical labelling puts last (lab[i] is the
      // node placed at position i). Accept iff v is in its Aut(child)-orbit.
      run_nauty(child, /*getcanon=*/true);
      int chosen = -1;
      for (int i = n - 1; i >= 0; --i)
        if (tied & node_bit(lab_[static_cast<size_t>(i)])) {
          chosen = lab_[static_cast<size_t>(i)];
          break;
        }
      if (orbits_[static_cast<size_t>(chosen)] != orbits_[static_cast<size_t>(v)]) return false;
      if (!expand) return true;
    }
    if (rule_ == Rule::kExterior) {
      // The step's marking: (x, y) becomes interior, (v, x) and (v, y) are exterior.
      std::copy_n(parent.ext.begin(), count, child.ext.begin());
      child.ext[static_cast<size_t>(e.x)] &= ~node_bit(e.y);
      child.ext[static_cast<size_t>(e.y)] &= ~node_bit(e.x);
      child.ext[static_cast<size_t>(e.x)] |= node_bit(v);
      child.ext[static_cast<size_t>(e.y)] |= node_bit(v);
      child.ext[static_cast<size_t>(v)] = node_bit(e.x) | node_bit(e.y);
    }
    fill_augmentations(child);
    return true;
  }

  // An isomorphism invariant of a degree-2 node u with neighbours a, b: (deg a + deg b,
  // max(deg a, deg b), the sum of the degrees of a's and b's neighbours), compared
  // lexicographically. Only its isomorphism invariance matters for correctness; the finer it is,
  // the fewer children need a canonical labelling.
  static uint64_t deletion_invariant(const TreeNode& node, const std::array<int, kMaxEnumerationNodes>& degree,
                                     int u) {
    const setword nb = node.adj[static_cast<size_t>(u)];
    const int a = first_node(nb), b = first_node(nb & ~node_bit(a));
    const int da = degree[static_cast<size_t>(a)], db = degree[static_cast<size_t>(b)];
    uint64_t second = 0;
    for (int w : {a, b})
      for (setword s = node.adj[static_cast<size_t>(w)]; s != 0; s &= s - 1)  // clears the last node
        second += static_cast<uint64_t>(degree[static_cast<size_t>(last_node(s))]);
    return (static_cast<uint64_t>(da + db) << 40) | (static_cast<uint64_t>(std::max(da, db)) << 32) | second;
  }

  // densenauty on node's graph: orbits_, the generators of Aut in generators_ and, with getcanon,
  // the canonical labelling in lab_. The options are the same on every call, so canonical
  // labellings of isomorphic graphs agree.
  void run_nauty(TreeNode& node, bool getcanon) {
    generators_.clear();
    t_generators = &generators_;
    options_.getcanon = getcanon ? TRUE : FALSE;
    statsblk stats;
    densenauty(node.adj.data(), lab_.data(), ptn_.data(), orbits_.data(), &options_, &stats, 1, node.n,
               canon_.data());
    t_generators = nullptr;
  }

  // One usable edge per orbit of Aut(node) (generated by generators_ from the last run_nauty on
  // this node), in order of the smaller endpoint, then the larger.
  void fill_augmentations(TreeNode& node) {
    const int n = node.n;
    const auto& usable = rule_ == Rule::kExterior ? node.ext : node.adj;
    node.num_augmentations = 0;
    const size_t num_generators = generators_.size() / static_cast<size_t>(n);
    std::array<setword, kMaxEnumerationNodes> seen{};
    std::array<Edge, 2 * kMaxEnumerationNodes> stack;
    for (int x = 0; x < n; ++x) {
      // Neighbours y > x: the bits after x's position.
      const setword later = x + 1 < WORDSIZE ? (~setword{0} >> (x + 1)) : 0;
      for (setword s = usable[static_cast<size_t>(x)] & later; s != 0; s &= ~node_bit(first_node(s))) {
        const int y = first_node(s);
        if (seen[static_cast<size_t>(x)] & node_bit(y)) continue;
        node.augmentations[static_cast<size_t>(node.num_augmentations++)] = Edge{x, y};
        if (num_generators == 0) continue;  // trivial group: every edge is its own orbit
        // Mark the orbit of {x, y}: closure under the generators.
        int top = 0;
        stack[static_cast<size_t>(top++)] = Edge{x, y};
        seen[static_cast<size_t>(x)] |= node_bit(y);
        seen[static_cast<size_t>(y)] |= node_bit(x);
        while (top > 0) {
          const Edge f = stack[static_cast<size_t>(--top)];
          for (size_t g = 0; g < num_generators; ++g) {
            const int* perm = generators_.data() + g * static_cast<size_t>(n);
            const int gx = perm[f.x], gy = perm[f.y];
            if (seen[static_cast<size_t>(gx)] & node_bit(gy)) continue;
            seen[static_cast<size_t>(gx)] |= node_bit(gy);
            seen[static_cast<size_t>(gy)] |= node_bit(gx);
            stack[static_cast<size_t>(top++)] = Edge{gx, gy};
          }
        }
      }
    }
  }

  const int n_min_, n_max_;
  const Rule rule_;
  const ItmVisitor& visit_;
  EnumerationCounts counts_;
  std::vector<TreeNode> scratch_;       // scratch_[n]: the child being tested on level n
  std::vector<std::optional<Itm>> itms_;  // itms_[n]: the Itm of the current node on level n
  optionblk options_{};
  std::vector<int> generators_;
  std::array<int, kMaxEnumerationNodes> lab_{}, ptn_{}, orbits_{};
  std::array<setword, kMaxEnumerationNodes> canon_{};
};

// The generation tree down to the split level: its nodes (with their Itm when visiting) are the
// roots of the subtrees dealt to parts or threads.
struct Split {
  std::vector<TreeNode> roots;
  std::vector<std::optional<Itm>> root_itms;
};

// Expands the tree breadth-first until a level has at least min_roots nodes or is level n_max.
// When visit_above is set, the levels above the split level are visited (and counted) through
// `worker`.
Split split_tree(Worker& worker, int n_max, Rule rule, bool visiting, size_t min_roots, bool visit_above) {
  Split split;
  split.roots.push_back(worker.root());
  split.root_itms.emplace_back(visiting ? std::optional<Itm>(Itm::kernel(rule)) : std::nullopt);
  while (split.roots.size() < min_roots && split.roots.front().n < n_max) {
    Split next;
    for (size_t i = 0; i < split.roots.size(); ++i) {
      const TreeNode& node = split.roots[i];
      if (visit_above) {
        worker.itm(node.n) = split.root_itms[i];
        worker.visit(node.n);
      }
      worker.for_each_child(node, [&](const TreeNode& child, Edge e) {
        next.roots.push_back(child);
        next.root_itms.emplace_back(split.root_itms[i]);
        if (visiting) {
          const auto added = next.root_itms.back()->add_node(e.x, e.y);
          TC_CHECK(added.ok(), added.error().message);
        }
      });
    }
    split = std::move(next);
  }
  return split;
}

void check_range(int n_min, int n_max) {
  TC_CHECK(3 <= n_min && n_min <= n_max && n_max <= kMaxEnumerationNodes,
           fmt::format("enumerate_itms: need 3 <= n_min <= n_max <= {}, got {}..{}", kMaxEnumerationNodes, n_min,
                       n_max));
}

void add_counts(EnumerationCounts& into, const EnumerationCounts& from) {
  for (size_t k = 0; k < from.per_n.size(); ++k) into.per_n[k] += from.per_n[k];
  into.candidates += from.candidates;
}

}  // namespace

EnumerationCounts enumerate_itms(int n_min, int n_max, Rule rule, const ItmVisitor& visit, int part, int parts) {
  check_range(n_min, n_max);
  TC_CHECK(parts >= 1 && 0 <= part && part < parts,
           fmt::format("enumerate_itms: part {} of {} parts (0-based)", part, parts));
  Worker worker(n_min, n_max, rule, visit);
  const size_t min_roots = parts == 1 ? 1 : 128 * static_cast<size_t>(parts);
  Split split = split_tree(worker, n_max, rule, static_cast<bool>(visit), min_roots, part == 0);
  for (size_t i = static_cast<size_t>(part); i < split.roots.size(); i += static_cast<size_t>(parts)) {
    worker.itm(split.roots[i].n) = std::move(split.root_itms[i]);
    worker.enumerate_subtree(split.roots[i]);
  }
  return std::move(worker.counts());
}

std::vector<double> subtree_weights(int n, Rule rule, size_t min_roots, int lookahead, double growth) {
  check_range(n, n);
  const ItmVisitor none;
  Worker splitter(n, n, rule, none);
  const Split split = split_tree(splitter, n, rule, /*visiting=*/false, min_roots, /*visit_above=*/false);
  std::vector<double> out;
  out.reserve(split.roots.size());
  for (const TreeNode& root : split.roots) {
    const int level = std::min(n, root.n + lookahead);
    Worker counter(level, level, rule, none);
    counter.enumerate_subtree(root);
    out.push_back(static_cast<double>(counter.counts().per_n[static_cast<size_t>(level)]) *
                  std::pow(growth, n - level));
  }
  return out;
}

EnumerationCounts enumerate_subtrees(int n, Rule rule, const ItmVisitor& visit, size_t min_roots, uint64_t first,
                                     uint64_t last) {
  check_range(n, n);
  Worker worker(n, n, rule, visit);
  Split split = split_tree(worker, n, rule, static_cast<bool>(visit), min_roots, /*visit_above=*/false);
  TC_CHECK(first <= last && last <= split.roots.size(),
           fmt::format("enumerate_subtrees: roots [{}, {}) of {}", first, last, split.roots.size()));
  for (uint64_t i = first; i < last; ++i) {
    worker.itm(split.roots[i].n) = std::move(split.root_itms[i]);
    worker.enumerate_subtree(split.roots[i]);
  }
  return std::move(worker.counts());
}

EnumerationCounts enumerate_itms_parallel(int n_min, int n_max, Rule rule, const ItmVisitor& visit, int threads) {
  check_range(n_min, n_max);
  TC_CHECK(threads >= 1, fmt::format("enumerate_itms_parallel: {} threads", threads));
  if (threads == 1) return enumerate_itms(n_min, n_max, rule, visit);

  Worker splitter(n_min, n_max, rule, visit);
  Split split = split_tree(splitter, n_max, rule, static_cast<bool>(visit), 128 * static_cast<size_t>(threads),
                           /*visit_above=*/true);
  EnumerationCounts total = std::move(splitter.counts());

  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // guards total and first_error
  std::exception_ptr first_error;
  auto work = [&] {
    Worker worker(n_min, n_max, rule, visit);
    try {
      while (!stop.load(std::memory_order_relaxed)) {
        const size_t i = next.fetch_add(1);
        if (i >= split.roots.size()) break;
        worker.itm(split.roots[i].n) = std::move(split.root_itms[i]);
        worker.enumerate_subtree(split.roots[i]);
      }
    } catch (...) {  // carried to the calling thread and rethrown there
      stop = true;
      const std::lock_guard lock(mutex);
      if (!first_error) first_error = std::current_exception();
    }
    const std::lock_guard lock(mutex);
    add_counts(total, worker.counts());
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(work);
  for (auto& thread : pool) thread.join();
  if (first_error) std::rethrow_exception(first_error);
  return total;
}

std::string canonical_graph6(const Graph& g) {
  const int n = g.n();
  TC_CHECK(n >= 1 && n <= 258047, fmt::format("canonical_graph6: {} nodes", n));
  const int m = SETWORDSNEEDED(n);
  nauty_check(WORDSIZE, m, n, NAUTYVERSIONID);
  std::vector<setword> rows(static_cast<size_t>(m) * static_cast<size_t>(n), 0), canon(rows.size());
  std::vector<int> lab(static_cast<size_t>(n)), ptn(static_cast<size_t>(n)), orbits(static_cast<size_t>(n));
  for (int u = 0; u < n; ++u)
    for (int w : g.neighbors(u)) ADDELEMENT(rows.data() + static_cast<size_t>(m) * static_cast<size_t>(u), w);
  DEFAULTOPTIONS_GRAPH(options);
  options.getcanon = TRUE;
  statsblk stats;
  densenauty(rows.data(), lab.data(), ptn.data(), orbits.data(), &options, &stats, m, n, canon.data());
  free_nauty_arrays();

  // graph6: the size, then the upper triangle column by column ((0,1), (0,2), (1,2), (0,3), ...)
  // in groups of six bits, each group + 63, the first bit most significant.
  std::string out;
  if (n <= 62) {
    out += static_cast<char>(63 + n);
  } else {
    out += '~';
    for (int shift : {12, 6, 0}) out += static_cast<char>(63 + ((n >> shift) & 63));
  }
  int group = 0, bits = 0;
  for (int j = 1; j < n; ++j)
    for (int i = 0; i < j; ++i) {
      const bool edge = ISELEMENT(canon.data() + static_cast<size_t>(m) * static_cast<size_t>(i), j);
      group = (group << 1) | (edge ? 1 : 0);
      if (++bits == 6) {
        out += static_cast<char>(63 + group);
        group = bits = 0;
      }
    }
  if (bits > 0) out += static_cast<char>(63 + (group << (6 - bits)));
  return out;
}

}  // namespace topocheck::itm
