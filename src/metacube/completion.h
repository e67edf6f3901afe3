// Completion of a partial set of internally node-disjoint s-t paths to `want` paths, by
// augmenting paths (Ford-Fulkerson on the node-split graph, every internal node of capacity 1),
// searched on the implicit metacube. Used by Algorithm 4's `repaired` reading (disjoint.h): the
// paths Algorithm 4 builds are kept where they are simple and mutually disjoint, and the missing
// ones are added by this search, which may reroute parts of the kept ones (that is what an
// augmenting path does).
//
// Algorithm (textbook max-flow; the metacube is used only through its neighbour and edge functions):
//  1. Seed: walk `seed` in index order; accept a path iff it is a valid s-t path (every hop an
//     edge), simple, and internally disjoint from the paths accepted before it. The accepted paths
//     are the initial flow.
//  2. Augment while fewer than `want` paths: search the residual graph from s to t. States are
//     (node, in|out); arcs: (v,out)->(w,in) for an edge v-w not carrying flow v->w; (v,in)->(v,out)
//     if v carries no flow; the reverse arcs (v,out)->(v,in) and (v,in)->(p,out) (p the flow
//     predecessor of v) where v carries flow. The search is A*: cost 1 per node-to-node arc, 0 for
//     the in/out arcs, heuristic `bound` (default H(v, t): each edge flips one address bit, so it is consistent),
//     ties to the deeper state, then to the lower dimension: deterministic, and invariant under
//     every automorphism that preserves dimensions and Hamming distance (the class-zero
//     translations of MC(k, m)), since it never compares addresses.
//  3. Decompose the flow into paths from s; each path goes to the index of its first hop's
//     dimension (P_i leaves s along dimension i, as in Algorithm 4).
// Result: `want` internally node-disjoint simple s-t paths if the search finds them within
// `max_states` expanded states per augmentation; otherwise the paths found so far plus the
// unfinished seed paths, and `complete` = false (the checkers then refute: never hidden).
// Cost: per augmentation, O(expanded states * degree * log); small when the missing paths are
// short detours around the kept ones, as they are for every metacube pair measured (README).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/path.h"
#include "metacube/metacube.h"

namespace topocheck::metacube {

struct CompletionResult {
  std::vector<Path> paths;  // indexed by the dimension of the first hop when complete
  int kept = 0;             // seed paths accepted unchanged as initial flow
  int augmentations = 0;    // augmenting paths found
  bool complete = false;
  std::string note;         // for show / construct output
};

// A lower bound on the distance from a node to t that changes by at most 1 along an edge
// (consistent), for A*. Default: the Hamming distance to t.
using DistanceBound = std::function<int(Node)>;

// Preconditions: s != t, both nodes of `mc`; want = k + m, the degree (TC_CHECK). Cost: the tables
// (flow, A* states) are thread-local and reused, so a completion allocates only its result.
CompletionResult complete_disjoint_paths(const Metacube& mc, Node s, Node t, const std::vector<Path>& seed,
                                         int want, const DistanceBound& bound = nullptr, long max_states = 1 << 21);

}  // namespace topocheck::metacube
