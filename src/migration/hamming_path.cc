// Blocks and HAMMING-PATH (Chen and Tzeng, paper 000, Section 4; the algorithm is cited from
// Chen-Lai, not given in the paper): the active subcubes other than S (validated: width n,
// pairwise disjoint, disjoint from S and T), block links, and a shortest path with no block link,
// the first in the tie-break's order of dimension sequences (depth-first with a dead-node memo:
// at most 2^H(a, b) nodes expanded, each O(H(a, b) * blocks)). Errors name --blocks.
#include "migration/migration.h"

#include <algorithm>
#include <unordered_set>

#include <fmt/format.h>

#include "migration/flag_text.h"

namespace topocheck::migration {
namespace {

uint64_t bit(int i) { return uint64_t{1} << i; }

}  // namespace

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

}  // namespace topocheck::migration
