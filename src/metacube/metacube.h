// The Metacube MC(k, m) (Li, Peng, Chu, "Disjoint Paths in Metacube", Section 2) as an implicit
// topology, with its address fields and IDs.
//
// Address layout (READING.md, 003): n = m*2^k + k bits. The class field c (k bits) is leftmost
// (bits n-1 .. n-k), then the fields M[h-1] ... M[0] of m bits each, h = 2^k; M[i] occupies bits
// i*m .. i*m+m-1. Text form: the n bits, most significant first, exactly as the paper prints
// addresses (ten bits in MC(2,2), e.g. "0010110011"); the fielded form "(01, 111, 101, 110, 000)" (class, then
// M[h-1] ... M[0]) is accepted by parse_fields and printed by format_fields.
//
// Edges (dimension d of node u, u^(d)):
//   d in 0..k-1      cross-edge: flips class bit d (bit m*h + d);
//   d in k..k+m-1    cube-edge:  flips bit d-k of M[c_u] (bit c_u*m + d - k), the field selected
//                    by u's own class.
// So every node has k + m neighbours and MC(0, m) is Q_m.
//
// IDs (Section 2): classID(u) = c_u; nodeID(u) = M_u[c_u] * 2^(m*c_u); clusterID(u) = sum over
// i != c_u of M_u[i] * 2^(m*i). The printed "x 2^{c_u}" / "x 2^i" lost the factor m in OCR: only
// 2^(m*i) reproduces the paper's "node 56 of class 1" example (corpus/metacube/examples/node56.json)
// (with 2^i the same u would be node 16); metacube_test keeps that check.
//
// Example (MC(2,3), Section 2): the cluster neighbours of (01, 111, 101, 110, 000) are
// (01, 111, 101, 111, 000), (01, 111, 101, 100, 000), (01, 111, 101, 010, 000); its class-cube
// neighbours are (00, 111, 101, 110, 000) and (11, 111, 101, 110, 000).
//
// Preconditions: methods taking a Node require contains(u) (TC_CHECK aborts otherwise); user
// input goes through Metacube::make and parse_node(text, width()) / parse_fields first.
// Cost: every operation is O(1) except neighbors (O(k + m)). The per-hop operations (fields,
// neighbor, is_edge) are defined in this header so that Algorithm 4 and core's checkers, which call
// them once per node of every path, can inline them (the class is final: no virtual dispatch when
// the static type is Metacube).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/node.h"
#include "core/status.h"
#include "core/topology.h"

namespace topocheck::metacube {

class Metacube final : public Topology {
 public:
  // Errors (not aborts) unless k >= 0, m >= 1 and m*2^k + k <= 63.
  static Result<Metacube> make(int k, int m);

  int k() const { return k_; }
  int m() const { return m_; }
  int h() const { return 1 << k_; }  // number of classes
  int degree() const { return k_ + m_; }

  std::string name() const override;  // "MC(2,3)"
  int width() const override { return n_; }
  uint64_t num_nodes() const override { return uint64_t{1} << n_; }
  bool contains(Node u) const override { return (u.width == n_) & ((u.bits & outside_) == 0); }
  std::vector<Node> neighbors(Node u) const override;  // u^(0) ... u^(k+m-1)
  // = edge_dimension(u, v).has_value(), without branches (core's checkers ask it per hop).
  bool is_edge(Node u, Node v) const override;
  // A word that is zero exactly when contains(v) && is_edge(u, v), for any nodes u and v: the
  // defects of the hop u -> v OR-ed together (v not an address, u XOR v not one bit, or a bit a
  // hop from u may not flip). Core's fast verdicts OR these over a path and test once.
  uint64_t hop_defects(Node u, Node v) const;
  std::optional<int> edge_dimension(Node u, Node v) const override;
  uint64_t index_of(Node u) const override { return u.bits; }
  Node node_at(uint64_t index) const override { return Node{index, n_}; }

  // Fields.
  int class_of(Node u) const { return static_cast<int>(u.bits >> class_shift()); }
  uint64_t field(Node u, int i) const { return (u.bits >> (i * m_)) & field_mask(); }
  Node with_field(Node u, int i, uint64_t value) const;
  Node with_class(Node u, int c) const;
  // u^(d): the neighbour along dimension d (0 <= d < k + m).
  Node neighbor(Node u, int d) const;
  // The address bits of field M[c], and class c's value in the class field (c < h(); no check:
  // per-hop arithmetic of Algorithm 1's walks).
  uint64_t field_bits(int c) const { return field_bits_[static_cast<size_t>(c)]; }
  uint64_t class_value(int c) const { return class_value_[static_cast<size_t>(c)]; }
  // Bit position (in the address) that dimension d flips at node u.
  int bit_of_dimension(Node u, int d) const;

  uint64_t node_id(Node u) const;     // M_u[c_u] * 2^(m*c_u)
  uint64_t cluster_id(Node u) const;  // sum_{i != c_u} M_u[i] * 2^(m*i)
  // Same cluster: same class and same fields except M[class].
  bool same_cluster(Node u, Node v) const;

  // Hamming distances: H_k (class field), H_i (field M[i]), H (whole address).
  int class_distance(Node u, Node v) const;
  int field_distance(Node u, Node v, int i) const;

  std::string format_fields(Node u) const;  // "(01, 111, 101, 110, 000)"
  // Accepts the fielded form (spaces optional) or the plain bit string; errors name the field.
  Result<Node> parse_fields(std::string_view text) const;

 private:
  Metacube(int k, int m);
  int class_shift() const { return m_ * (1 << k_); }
  uint64_t field_mask() const { return (uint64_t{1} << m_) - 1; }
  int k_, m_, n_;
  // Precomputed for the per-hop checks (no shift by a variable amount there: without BMI2 each
  // costs extra moves): the bits that are not address bits (at n and above), and per class c the
  // address bits a hop from a node of class c flips: the class field, and M[c].
  uint64_t outside_;
  std::array<uint64_t, 32> hop_bits_{};
  std::array<uint64_t, 32> field_bits_{}, class_value_{};  // per class c: M[c]'s bits, c << class_shift
};

inline Node Metacube::with_field(Node u, int i, uint64_t value) const {
  TC_CHECK(contains(u) && i >= 0 && i < h() && value <= field_mask(), "with_field outside the topology");
  const uint64_t mask = field_mask() << (i * m_);
  return Node{(u.bits & ~mask) | (value << (i * m_)), n_};
}

inline Node Metacube::with_class(Node u, int c) const {
  TC_CHECK(contains(u) && c >= 0 && c < h(), "with_class outside the topology");
  const uint64_t low = u.bits & ((uint64_t{1} << class_shift()) - 1);
  return Node{low | (static_cast<uint64_t>(c) << class_shift()), n_};
}

inline int Metacube::bit_of_dimension(Node u, int d) const {
  TC_CHECK(contains(u) && d >= 0 && d < k_ + m_, "dimension outside the topology");
  return d < k_ ? class_shift() + d : class_of(u) * m_ + (d - k_);
}

inline Node Metacube::neighbor(Node u, int d) const { return u.flip(bit_of_dimension(u, d)); }

inline bool Metacube::is_edge(Node u, Node v) const {
  // Both are addresses (width n, no bit at n or above) and u XOR v is a single bit (nonzero, and
  // diff & (diff - 1), diff without its lowest bit, is zero) that a hop from u may flip: a bit of
  // the class field or of M[c_u] (hop_bits_[c_u]). The same edges as edge_dimension. c_u is
  // masked to k bits, so the index is in range even when u is not an address (it fails anyway).
  // Combined with & (no early exit, no branch): core's checkers ask this per hop of every path,
  // and on a sweep's valid paths every term holds.
  const uint64_t diff = u.bits ^ v.bits;
  const uint64_t hop = hop_bits_[(u.bits >> class_shift()) & static_cast<uint64_t>(h() - 1)];
  // (As unsigned: & of bools is what clang's -Wbitwise-instead-of-logical reports.)
  return (unsigned{contains(u)} & unsigned{contains(v)} & unsigned{((diff & (diff - 1)) | (diff & ~hop)) == 0} &
          unsigned{diff != 0}) != 0;
}

inline uint64_t Metacube::hop_defects(Node u, Node v) const {
  // As is_edge (which see) and contains(v); contains(u) is implied where it matters: is_edge(u, v)
  // with u XOR v one bit of the class field or of M[c_u] (both below bit n) and v an address
  // (width n, nothing at n or above) makes u an address too. c_u is masked to k bits, so the
  // index is in range for any u.
  // diff = 0 shows as bit 63 of diff - 1: no hop sets bit 63 (n <= 63, and diff & ~hop covers
  // any diff with bit 63).
  const uint64_t diff = u.bits ^ v.bits;
  const uint64_t below = diff - 1;
  const uint64_t hop = hop_bits_[(u.bits >> class_shift()) & static_cast<uint64_t>(h() - 1)];
  return (diff & below) | (diff & ~hop) | (v.bits & outside_) | (below >> 63) |
         static_cast<uint32_t>((u.width ^ n_) | (v.width ^ n_));
}

inline std::optional<int> Metacube::edge_dimension(Node u, Node v) const {
  if (!contains(u) || !contains(v)) return std::nullopt;
  const uint64_t diff = u.bits ^ v.bits;
  // Exactly one bit differs (diff is a power of two; no popcount: without -mpopcnt that is a
  // library call, measured at 5% of a sweep).
  if (diff == 0 || (diff & (diff - 1)) != 0) return std::nullopt;
  const int p = std::countr_zero(diff);
  if (p >= class_shift()) return p - class_shift();
  // A cube-edge flips a bit of the field selected by the (common) class: p / m = c_u, written
  // as c_u * m <= p < c_u * m + m (no division on the checkers' per-hop path).
  const int field_start = class_of(u) * m_;
  if (p < field_start || p >= field_start + m_) return std::nullopt;
  return k_ + (p - field_start);
}

}  // namespace topocheck::metacube
