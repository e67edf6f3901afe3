#include "core/sweep/path_block.h"

#include <algorithm>

namespace topocheck {

void PathBlock::grow(size_t n) {
  // Doubling, so that a sweep's block stops growing after its largest path set: resize zeroes
  // only the new room, once.
  nodes_.resize(std::max({nodes_.size() * 2, used_ + n, size_t{64}}));
}

std::vector<Path> PathBlock::to_paths() const {
  std::vector<Path> out(size());
  for (size_t i = 0; i < size(); ++i)
    for (const uint64_t bits : path(i)) out[i].nodes.push_back(Node{bits, width_});
  return out;
}

std::optional<PathBlock> PathBlock::from_paths(std::span<const Path> paths) {
  PathBlock block;
  int width = -1;
  for (const Path& p : paths)
    for (const Node& u : p.nodes) {
      if (width >= 0 && u.width != width) return std::nullopt;
      width = u.width;
    }
  block.clear(std::max(width, 0));
  for (const Path& p : paths) {
    block.start_path();
    for (const Node& u : p.nodes) block.push(u.bits);
  }
  return block;
}

}  // namespace topocheck
