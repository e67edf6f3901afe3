// The papers' statement graphs (catalog/statements.h) against the full registry: every claim the
// papers make sits under exactly one statement of its paper, every use names a statement of the
// same paper with its quote, the graphs are acyclic, ids are unique. Negative controls: small
// hand-made lists breaking one rule each are rejected by the same validate_statements, naming
// what is wrong, and the unbroken list is accepted.
#include <string>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "catalog/statements.h"
#include "registry/full_registry.h"

namespace topocheck::claims {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(PaperStatements, SatisfyEveryPlacementRuleAgainstTheFullRegistry) {
  const Registry registry = full_registry();
  EXPECT_THAT(validate_statements(paper_statements(), registry), IsEmpty());
}

// The site colours a statement by its claims' verdicts; a claim beyond the paper (a dropped
// proviso, a negative control) answers another question, so the data places none.
TEST(PaperStatements, NameNoClaimBeyondThePaper) {
  const Registry registry = full_registry();
  for (const PaperStatements& paper : paper_statements())
    for (const Statement& s : paper.statements)
      for (const std::string& id : s.claims) {
        const Claim* claim = registry.find(id);
        ASSERT_NE(claim, nullptr) << id;
        EXPECT_FALSE(claim->beyond_paper) << s.id << " names " << id;
      }
}

TEST(PaperStatements, AreFoundByPaperFile) {
  ASSERT_EQ(paper_statements().size(), 5u);
  for (const PaperStatements& paper : paper_statements()) {
    EXPECT_EQ(statements_of_paper(paper.paper), &paper.statements) << paper.paper;
    EXPECT_FALSE(paper.statements.empty()) << paper.paper;
  }
  EXPECT_EQ(statements_of_paper("005_none.txt"), nullptr);
  const std::vector<Statement>* metacube = statements_of_paper("003_870397c57c58895c.txt");
  ASSERT_NE(metacube, nullptr);
  bool found = false;
  for (const Statement& s : *metacube) found = found || s.id == "metacube.theorem2";
  EXPECT_TRUE(found);
}

// A registry of four claims over two papers, one of them beyond the paper, and statements
// placing the three the papers make: valid until a test breaks one rule.
class StatementValidation : public ::testing::Test {
 protected:
  StatementValidation() {
    for (const auto& [paper, id, location] : {std::tuple{"p.txt", "x.a", "Section 1"},
                                              std::tuple{"p.txt", "x.b", "Section 2"},
                                              std::tuple{"p.txt", "x.beyond", "Section 2 (beyond the paper)"},
                                              std::tuple{"q.txt", "y.c", "Section 1"}}) {
      Reading reading;
      reading.name = "literal";
      registry_.add(Claim::make(paper, id, location, "a statement", {reading}));
    }
    papers_ = {
        {"p.txt",
         {{"x.lemma1", "Lemma 1", "Section 1", "a lemma", {}, {}, {"x.a"}},
          {"x.theorem1", "Theorem 1", "Section 2", "a theorem", {"x.lemma1"}, {"by Lemma 1"}, {"x.b"}}}},
        {"q.txt", {{"y.lemma1", "Lemma 1", "Section 1", "a lemma", {}, {}, {"y.c"}}}},
    };
  }
  Statement& lemma() { return papers_[0].statements[0]; }
  Statement& theorem() { return papers_[0].statements[1]; }
  std::vector<std::string> problems() const { return validate_statements(papers_, registry_); }

  Registry registry_;
  std::vector<PaperStatements> papers_;
};

TEST_F(StatementValidation, AcceptsTheUnbrokenList) { EXPECT_THAT(problems(), IsEmpty()); }

TEST_F(StatementValidation, AcceptsAClaimBeyondThePaperUnderOneStatement) {
  theorem().claims.push_back("x.beyond");
  EXPECT_THAT(problems(), IsEmpty());
}

TEST_F(StatementValidation, RejectsACycle) {
  lemma().uses = {"x.theorem1"};
  lemma().evidence = {"by Theorem 1"};
  EXPECT_THAT(problems(), Contains(HasSubstr("p.txt: the uses form a cycle through x.lemma1, x.theorem1")));
}

TEST_F(StatementValidation, RejectsAStatementUsingItself) {
  lemma().uses = {"x.lemma1"};
  lemma().evidence = {"by Lemma 1"};
  EXPECT_THAT(problems(), Contains(HasSubstr("x.lemma1: uses itself")));
}

TEST_F(StatementValidation, RejectsAnUnknownClaim) {
  lemma().claims.push_back("x.nope");
  EXPECT_THAT(problems(), Contains(HasSubstr("x.lemma1: names unknown claim x.nope")));
}

TEST_F(StatementValidation, RejectsAClaimOfThePaperUnderNoStatement) {
  theorem().claims.clear();
  EXPECT_THAT(problems(), Contains(HasSubstr("claim x.b (p.txt) is under no statement")));
}

TEST_F(StatementValidation, RejectsAClaimUnderTwoStatements) {
  theorem().claims.push_back("x.a");
  EXPECT_THAT(problems(), Contains(HasSubstr("claim x.a is named by both x.lemma1 and x.theorem1")));
}

TEST_F(StatementValidation, RejectsAClaimOfAnotherPaper) {
  papers_[1].statements[0].claims.push_back("x.beyond");
  EXPECT_THAT(problems(), Contains(HasSubstr("y.lemma1: names claim x.beyond of another paper (p.txt)")));
}

TEST_F(StatementValidation, RejectsAnUnknownUse) {
  theorem().uses = {"x.lemma9"};
  EXPECT_THAT(problems(), Contains(HasSubstr("x.theorem1: uses unknown statement x.lemma9")));
}

TEST_F(StatementValidation, RejectsAUseFromAnotherPaper) {
  theorem().uses = {"y.lemma1"};
  EXPECT_THAT(problems(), Contains(HasSubstr("x.theorem1: uses y.lemma1, a statement of another paper (q.txt)")));
}

TEST_F(StatementValidation, RejectsAUseWithoutItsQuote) {
  theorem().evidence.clear();
  EXPECT_THAT(problems(), Contains(HasSubstr("x.theorem1: 1 uses but 0 evidence quotes")));
}

TEST_F(StatementValidation, RejectsADuplicateId) {
  papers_[1].statements[0].id = "x.lemma1";
  EXPECT_THAT(problems(), Contains(HasSubstr("x.lemma1: statement id used twice")));
}

}  // namespace
}  // namespace topocheck::claims
