// The dependency graph of each paper's statements: the data the findings site draws per paper.
//
// A Statement is one node: a numbered statement of the paper (lemma, theorem, property,
// definition, equation, algorithm whose correctness is claimed, printed example), or, where a
// claim checks a statement the paper makes outside any numbered one, the section's statement
// ("Section 5.1 (circuit switching)"). Its `uses` are the statements its proof or construction
// uses *as the text says* ("according to Lemma 2", "by calling Algorithm 1", "Using algorithm
// A_1"), each with the quote of the paper that says so (`evidence`, OCR errors kept, whitespace
// runs collapsed to one space, " ... " where the quote skips text). No edge is inferred from
// what a proof would need: a lemma whose proof the paper omits uses only what the text builds it
// from (paper 000's Lemmas use the path kinds of Definitions 1-2 and h). Its `claims` are the
// registry's claims that check it; the site colours the node by their verdicts. Statements the
// paper makes but topocheck does not check are nodes too (empty `claims`), so the graph shows
// the paper's structure.
//
// Placement rules (checked by validate_statements):
//  - every claim of the registry that the paper makes (Claim::beyond_paper false) is under
//    exactly one statement of its own paper; a claim beyond the paper may be under one at most.
//    The data places none of those: their verdicts answer questions the paper does not pose
//    (a dropped proviso, a negative control) and would miscolour the statement they are about;
//  - `uses` name statements of the same paper, one evidence quote each, and the graph of every
//    paper is acyclic (Boost.Graph's topological_sort);
//  - statement ids (`<family>.<name>`, the family of the paper's main claims) are unique.
//
// Papers are grouped by file name (Claim::paper), not by family: paper 002 holds the itm and
// wormhole claims, the hypercube claims split between 001 (e-cube routing) and 003
// (Algorithms 2-3).
//
// Example: metacube.theorem2 ("Theorem 2", Section 3) uses metacube.algorithm4 with the evidence
// "Following the algorithm, the proof is divided into three cases." and is checked by
// metacube.thm2.valid, .disjoint, .length, .optimality and metacube.connectivity.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "claims/claim.h"

namespace topocheck::claims {

struct Statement {
  std::string id;        // "metacube.theorem2"
  std::string label;     // "Theorem 2"
  std::string location;  // "Section 3"
  std::string summary;   // one line in words
  std::vector<std::string> uses;      // ids of statements its proof or construction uses, as the text says
  std::vector<std::string> evidence;  // for each use, the quote of the paper that says so
  std::vector<std::string> claims;    // ids of the registry's claims that check it
};

// One paper's statements, in the order the paper states them.
struct PaperStatements {
  std::string paper;  // file under papers/, as in Claim::paper
  std::vector<Statement> statements;
};

// Every paper's statements, papers in file order (000 ... 004). Built on first call; cost: a few
// hundred short strings.
const std::vector<PaperStatements>& paper_statements();

// The statements of one paper file; nullptr for a file with none.
const std::vector<Statement>* statements_of_paper(std::string_view paper);

// Every broken placement rule above, one line each naming the statement, claim or paper at
// fault; empty when `papers` satisfy them all against `registry`.
std::vector<std::string> validate_statements(const std::vector<PaperStatements>& papers,
                                             const Registry& registry);

}  // namespace topocheck::claims
