#include "core/sweep/fast_checks.h"

#include <algorithm>
#include <functional>
#include <vector>

namespace topocheck {
namespace {

// The scratch tables of the fast verdicts. Both are plain open-addressing hash tables (linear
// probing) of nodes, one per thread, reused from call to call: start() empties one by moving to a
// new generation (a slot of an older generation is empty), so a verdict allocates only while a
// table grows to the largest input seen and never clears more than it uses.
//  - NodeTable: every node seen so far in one verdict, with the paths it occurs in, summarized
//    (internally_node_disjoint_ok, simple_ok).
//  - NodeSet: the nodes seen so far, nothing else, in 16-byte slots, through a Session that keeps
//    the table's address, mask and generation in locals (internal_nodes_distinct_ok).

// Slots of type Slot (with a uint32_t `generation` member: the slot is in use iff it equals the
// table's), emptied by a new generation.
template <class Slot>
class GenerationSlots {
 public:
  // Empties the table and uses its first 2^log2 slots, growing it if needed.
  void start(int log2) {
    const size_t capacity = size_t{1} << log2;
    if (capacity > slots_.size()) {
      slots_.assign(capacity, Slot{});
      generation_ = 0;
    }
    if (++generation_ == 0) {  // wrapped: every old generation must read as empty again
      for (Slot& s : slots_) s.generation = 0;
      generation_ = 1;
    }
  }
  // The least log2 >= 4 with 2^log2 >= factor * count.
  static int log2_for(size_t count, size_t factor) {
    int log2 = 4;
    while ((size_t{1} << log2) < factor * count) ++log2;
    return log2;
  }
  Slot* data() { return slots_.data(); }
  uint32_t generation() const { return generation_; }
  void set_generation(uint32_t g) { generation_ = g; }  // detail::set_scratch_generation_for_test

 private:
  std::vector<Slot> slots_;
  uint32_t generation_ = 0;
};

class NodeTable {
 public:
  struct Slot {
    Node node;
    uint32_t generation = 0;  // the slot is in use iff generation == the table's
    uint32_t path = 0;        // the first path the node was seen in
    bool in_two_paths = false;
    bool internal = false;    // some occurrence is internal to its path
  };

  // Empties the table, with room for `count` nodes (at most a quarter full: fewer collisions, fewer
  // mispredicted probes).
  void start(size_t count) {
    const int log2 = GenerationSlots<Slot>::log2_for(count, 4);
    slots_.start(log2);
    mask_ = (size_t{1} << log2) - 1;
  }

  // The slot of u; `fresh` tells whether u was not in the table before (then the slot is new).
  Slot& find_or_add(Node u, bool& fresh) {
    const uint32_t generation = slots_.generation();
    size_t i = (std::hash<Node>()(u) * 0x9E3779B97F4A7C15ULL >> 32) & mask_;
    for (;; i = (i + 1) & mask_) {
      Slot& slot = slots_.data()[i];
      if (slot.generation != generation) {
        // Field by field: a whole-struct copy from a temporary compiles to overlapping stack
        // stores and loads that stall store forwarding (measured: most of the verdict's time).
        slot.node = u;
        slot.generation = generation;
        slot.path = 0;
        slot.in_two_paths = false;
        slot.internal = false;
        fresh = true;
        return slot;
      }
      if (slot.node == u) {
        fresh = false;
        return slot;
      }
    }
  }

  void set_generation(uint32_t g) { slots_.set_generation(g); }

 private:
  GenerationSlots<Slot> slots_;
  size_t mask_ = 0;
};

class NodeSet {
 public:
  struct Slot {
    uint64_t bits = 0;
    int width = 0;
    uint32_t generation = 0;  // the slot is in use iff generation == the set's
  };

  // The set emptied, with room for `count` nodes, as a handle that keeps the table's address, mask
  // and generation in locals (registers) while the caller inserts.
  class Session {
   public:
    // Adds u; false when u was in the set already.
    bool insert(Node u) {
      // Fibonacci hashing: the top bits of bits * (2^64 / golden ratio).
      for (uint64_t i = (u.bits * 0x9E3779B97F4A7C15ULL) >> shift_;; i = (i + 1) & mask_) {
        Slot& slot = slots_[i];
        if (slot.generation != generation_) {
          slot.bits = u.bits;
          slot.width = u.width;
          slot.generation = generation_;
          return true;
        }
        if (slot.bits == u.bits && slot.width == u.width) return false;
      }
    }

   private:
    friend class NodeSet;
    Slot* slots_;
    uint64_t mask_;
    int shift_;
    uint32_t generation_;
  };

  // At most a sixteenth full, so nearly every insertion finds an empty slot at its first probe.
  Session start(size_t count) {
    const int log2 = GenerationSlots<Slot>::log2_for(count, 16);
    slots_.start(log2);
    Session session;
    session.slots_ = slots_.data();
    session.mask_ = (uint64_t{1} << log2) - 1;
    session.shift_ = 64 - log2;
    session.generation_ = slots_.generation();
    return session;
  }

  void set_generation(uint32_t g) { slots_.set_generation(g); }

 private:
  GenerationSlots<Slot> slots_;
};

thread_local NodeTable scratch;
thread_local NodeSet node_set;

}  // namespace

void detail::set_scratch_generation_for_test(uint32_t g) {
  scratch.set_generation(g);
  node_set.set_generation(g);
}

detail::NodeStamps detail::start_node_stamps(uint64_t num_nodes) {
  TC_CHECK(num_nodes <= kMaxStampedNodes, "start_node_stamps: too many nodes");
  thread_local std::vector<uint16_t> stamps;
  thread_local uint16_t stamp = 0;
  if (stamps.size() < num_nodes) {
    stamps.assign(num_nodes, 0);
    stamp = 0;
  }
  if (++stamp == 0) {  // wrapped: every old stamp must read as unseen again
    std::fill(stamps.begin(), stamps.end(), uint16_t{0});
    stamp = 1;
  }
  return {stamps.data(), stamp};
}

bool endpoints_ok(const Path& path, Node s, Node t) {
  return !path.nodes.empty() && path.front() == s && path.back() == t;
}

bool simple_ok(const Path& path) {
  // As check_simple: every node (a closed path's last one left out) must be new when it is added.
  const bool closed = path.nodes.size() >= 2 && path.front() == path.back();
  const size_t last = closed ? path.nodes.size() - 1 : path.nodes.size();
  scratch.start(last);
  bool fresh = false;
  for (size_t k = 0; k < last; ++k) {
    scratch.find_or_add(path.nodes[k], fresh);
    if (!fresh) return false;
  }
  return true;
}

bool internally_node_disjoint_ok(std::span<const Path> paths) {
  // Per node: whether it occurs in two different paths and whether some occurrence is internal.
  // The set is disjoint iff no node has both: an internal occurrence in P_i and another path P_j
  // holding it is exactly the violation of the definition.
  size_t count = 0;
  for (const Path& p : paths) count += p.nodes.size();
  scratch.start(count);
  bool fresh = false;
  for (size_t i = 0; i < paths.size(); ++i) {
    const auto& nodes = paths[i].nodes;
    for (size_t k = 0; k < nodes.size(); ++k) {
      NodeTable::Slot& slot = scratch.find_or_add(nodes[k], fresh);
      if (fresh) slot.path = static_cast<uint32_t>(i);
      slot.in_two_paths = slot.in_two_paths || slot.path != i;
      slot.internal = slot.internal || (k > 0 && k + 1 < nodes.size());
      if (slot.in_two_paths && slot.internal) return false;
    }
  }
  return true;
}

bool internal_nodes_distinct_ok(std::span<const Path> paths, Node s, Node t) {
  // For paths that are valid and run from s to t, this is check_paths_valid_simple and
  // check_internally_node_disjoint together (disjoint_paths_ok):
  //  - A path is not simple iff a node repeats within it (a closed path's last node left out):
  //    two internal occurrences, or an internal one and an endpoint (position 0 holds s; the
  //    last position holds t, and in a closed path t = s). Two endpoints never repeat: they are
  //    the same node only in a closed path, whose last node is left out.
  //  - The set is not internally disjoint iff an internal node of P_i occurs in P_j, j != i:
  //    internally (two internal occurrences) or as an endpoint of P_j (it is s or t).
  // So one set of nodes is enough: every internal occurrence must be new and not s or t. The set
  // starts with s and t in it, so "not s or t" is "new" as well.
  size_t count = 2;
  for (const Path& p : paths) count += p.nodes.size();
  NodeSet::Session set = node_set.start(count);
  set.insert(s);
  set.insert(t);  // false when t = s: the set holds s (= t) either way
  for (const Path& path : paths) {
    const Node* nodes = path.nodes.data();
    for (size_t k = 1; k + 1 < path.nodes.size(); ++k)
      if (!set.insert(nodes[k])) return false;
  }
  return true;
}

bool endpoints_ok(std::span<const uint64_t> path, int width, Node s, Node t) {
  return !path.empty() && width == s.width && width == t.width && path.front() == s.bits && path.back() == t.bits;
}

bool simple_ok(std::span<const uint64_t> path, int width) {
  // As simple_ok on a Path.
  const bool closed = path.size() >= 2 && path.front() == path.back();
  const size_t last = closed ? path.size() - 1 : path.size();
  scratch.start(last);
  bool fresh = false;
  for (size_t k = 0; k < last; ++k) {
    scratch.find_or_add(Node{path[k], width}, fresh);
    if (!fresh) return false;
  }
  return true;
}

bool internal_nodes_distinct_ok(const PathBlock& block, Node s, Node t) {
  // As internal_nodes_distinct_ok on paths (which says why this is the disjointness of valid
  // paths from s to t).
  const int width = block.width();
  NodeSet::Session set = node_set.start(block.node_count() + 2);
  set.insert(s);
  set.insert(t);
  for (size_t i = 0; i < block.size(); ++i) {
    const auto p = block.path(i);
    for (size_t k = 1; k + 1 < p.size(); ++k)
      if (!set.insert(Node{p[k], width})) return false;
  }
  return true;
}

bool max_length_ok(const PathBlock& block, int bound) {
  for (size_t i = 0; i < block.size(); ++i) {
    const size_t nodes = block.path(i).size();
    const int length = nodes == 0 ? 0 : static_cast<int>(nodes) - 1;  // as Path::length
    if (length > bound) return false;
  }
  return true;
}

bool max_length_ok(std::span<const Path> paths, int bound) {
  for (const Path& p : paths)
    if (p.length() > bound) return false;
  return true;
}

}  // namespace topocheck
