// PathBlock: a set of paths whose nodes all have one width, stored flat: the nodes' address bits,
// path after path, in one buffer. For the exhaustive sweeps that build and judge millions of path
// sets (Algorithm 4 of the Metacube): once the buffer has grown, building a set and judging it
// allocates nothing, and each node is 8 bytes (a Path's Node is 16), written once.
//
// The same paths as a std::vector<Path> through to_paths() (every node with the block's width);
// core's fast verdicts (sweep/fast_checks.h) take either form and say the same (fast_checks_test). A node of
// another width cannot be stored: from_paths() refuses a set that has one.
//
// Building: start_path() begins path size() (empty); push() appends a node to the path begun last.
// Raw form for branch-free writers: room(n) gives a pointer with room for n more nodes of the
// current path, commit(end) keeps the nodes written before `end` (end within that room).
// Cost: O(1) per node; path(i) and size() O(1).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/node.h"
#include "core/path.h"
#include "core/status.h"

namespace topocheck {

class PathBlock {
 public:
  // Empties the block (no paths) for nodes of `width` bits; keeps the buffers' capacity.
  void clear(int width) {
    width_ = width;
    used_ = 0;
    starts_.clear();
  }

  int width() const { return width_; }
  size_t size() const { return starts_.size(); }  // number of paths
  // Path i's nodes (address bits), first to last.
  std::span<const uint64_t> path(size_t i) const {
    TC_CHECK(i < starts_.size(), "PathBlock::path: no such path");
    // The next path's start, or the end of the nodes for the last path: both read, then one
    // chosen (a select, not a branch: the sweeps ask for each path in turn).
    const size_t next = starts_[std::min(i + 1, starts_.size() - 1)];
    const size_t end = i + 1 < starts_.size() ? next : used_;
    return {nodes_.data() + starts_[i], end - starts_[i]};
  }
  size_t node_count() const { return used_; }  // over all paths

  void start_path() { starts_.push_back(static_cast<uint32_t>(used_)); }
  void push(uint64_t bits) {
    TC_CHECK(!starts_.empty(), "PathBlock::push before start_path");
    if (used_ == nodes_.size()) grow(1);
    nodes_[used_++] = bits;
  }
  bool current_empty() const { return starts_.empty() || used_ == starts_.back(); }
  uint64_t back() const {
    TC_CHECK(!current_empty(), "PathBlock::back of an empty path");
    return nodes_[used_ - 1];
  }
  uint64_t* room(size_t n) {
    TC_CHECK(!starts_.empty(), "PathBlock::room before start_path");
    if (nodes_.size() - used_ < n) grow(n);
    return nodes_.data() + used_;
  }
  void commit(const uint64_t* end) {
    const size_t count = static_cast<size_t>(end - (nodes_.data() + used_));
    TC_CHECK(end >= nodes_.data() + used_ && count <= nodes_.size() - used_, "PathBlock::commit outside its room");
    used_ += count;
  }

  std::vector<Path> to_paths() const;
  // The same paths as a block; std::nullopt if two nodes differ in width. An empty set gets width 0.
  static std::optional<PathBlock> from_paths(std::span<const Path> paths);

 private:
  void grow(size_t n);

  int width_ = 0;
  std::vector<uint64_t> nodes_;  // nodes_[0 .. used_) hold the paths; the rest is room
  size_t used_ = 0;
  std::vector<uint32_t> starts_;  // first node of each path
};

}  // namespace topocheck
