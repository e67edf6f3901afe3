// Subcubes of Q_n as dimension masks, for the schedule generators (inner_aapc.cc, phase1.cc,
// phase2.cc, schedules.cc): the subcube base + span(mask), its nodes, and the local offsets of
// its nodes (pext / pdep over the mask). Private to src/aapc; other folders use schedules.h.
// Cost O(|mask|) each; subcube_nodes O(2^|mask|).
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "aapc/aapc.h"

namespace topocheck::aapc {

// 2^d: the mask of dimension d.
constexpr uint32_t bit(int d) { return uint32_t{1} << d; }

// The dimensions of mask, ascending.
inline std::vector<int> dims_of(uint32_t mask) {
  std::vector<int> out;
  for (; mask != 0; mask &= mask - 1) out.push_back(std::countr_zero(mask));
  return out;
}

// The nodes base + span(mask), ascending (the bits of base inside mask are ignored).
inline std::vector<NodeId> subcube_nodes(NodeId base, uint32_t mask) {
  std::vector<NodeId> out;
  base &= ~mask;
  uint32_t s = 0;
  do {  // s runs over the submasks of mask in ascending order: s' = (s - mask) & mask
    out.push_back(base | s);
    s = (s - mask) & mask;
  } while (s != 0);
  return out;
}

// pext: the bits of x at the positions of mask, packed to the low end (a local offset).
inline uint32_t compress(uint32_t x, uint32_t mask) {
  uint32_t out = 0;
  int k = 0;
  for (; mask != 0; mask &= mask - 1, ++k)
    if (x & mask & (~mask + 1)) out |= bit(k);  // mask & -mask: the lowest bit of mask
  return out;
}

// pdep: local offset t spread over the positions of mask.
inline uint32_t expand(uint32_t t, uint32_t mask) {
  uint32_t out = 0;
  for (int k = 0; mask != 0; mask &= mask - 1, ++k)
    if (t & bit(k)) out |= mask & (~mask + 1);
  return out;
}

}  // namespace topocheck::aapc
