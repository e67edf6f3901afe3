// The findings site's pieces: escaping, the claim status rule, and the folder contract of
// write_site (a foreign folder is never replaced; an old site is, whole).
#include "site/site.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "claims/ledger.h"
#include "registry/full_registry.h"
#include "site/html.h"

namespace topocheck::site {
namespace {

namespace fs = std::filesystem;
using claims::Outcome;
using claims::ReadingVerdict;

fs::path corpus_dir() { return fs::path(TOPOCHECK_SOURCE_DIR) / "corpus"; }

TEST(SiteHtml, EscapesTextAndAttributes) {
  EXPECT_EQ(escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  EXPECT_EQ(badge("error of the paper"), "<span class=\"status status-error-of-the-paper\">error of the paper</span>");
}

ReadingVerdict verdict(const std::string& claim, const std::string& reading, Outcome o, bool faithful = true) {
  ReadingVerdict v;
  v.claim = claim;
  v.reading = reading;
  v.outcome = o;
  v.faithful = faithful;
  return v;
}

TEST(SiteStatus, ClaimStatusFollowsTheFaithfulReadings) {
  claims::Claim c;
  c.id = "x.y.z";
  EXPECT_EQ(claim_status(c, {}), "not checked");
  EXPECT_EQ(claim_status(c, {verdict("x.y.z", "a", Outcome::kHolds)}), "holds");
  // A refuted reading that is not a reading of the text does not make the claim refuted.
  EXPECT_EQ(claim_status(c, {verdict("x.y.z", "a", Outcome::kHolds), verdict("x.y.z", "b", Outcome::kRefuted, false)}),
            "holds");
  EXPECT_EQ(claim_status(c, {verdict("x.y.z", "a", Outcome::kRefuted)}), "error of the paper");
  EXPECT_EQ(claim_status(c, {verdict("x.y.z", "a", Outcome::kRefuted), verdict("x.y.z", "b", Outcome::kHolds)}),
            "ambiguous");
  EXPECT_EQ(claim_status(c, {verdict("x.y.z", "a", Outcome::kHolds), verdict("x.y.z", "b", Outcome::kVacuous)}),
            "vacuous");
  EXPECT_EQ(claim_status(c, {verdict("x.y.z", "a", Outcome::kInconclusive)}), "inconclusive");
}

class SiteFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("site_test." + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    ledger_ = claims::load_ledger(corpus_dir() / "ledger.json", registry()).value();
  }
  void TearDown() override { fs::remove_all(root_); }
  static const claims::Registry& registry() {
    static const claims::Registry r = full_registry();
    return r;
  }
  SiteInput input() const {
    SiteInput in;
    in.registry = &registry();
    in.ledger = &ledger_;
    in.corpus_dir = corpus_dir();
    in.report = "a test";
    return in;
  }
  fs::path root_;
  claims::Ledger ledger_;
};

TEST_F(SiteFolder, AForeignFolderIsNeverReplaced) {
  const fs::path dir = root_ / "mine";
  fs::create_directories(dir);
  std::ofstream(dir / "notes.txt") << "keep me\n";
  auto written = write_site(input(), dir);
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().message.find("is not a topocheck site"), std::string::npos) << written.error().message;
  EXPECT_TRUE(fs::exists(dir / "notes.txt"));
  EXPECT_FALSE(fs::exists(dir / "index.html"));
}

TEST_F(SiteFolder, AnOldSiteIsReplacedWhole) {
  const fs::path dir = root_ / "site";
  ASSERT_TRUE(write_site(input(), dir).ok());
  std::ofstream(dir / "stale.html") << "from an older report\n";
  auto written = write_site(input(), dir);
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_FALSE(fs::exists(dir / "stale.html"));
  for (const Paper& p : papers()) EXPECT_TRUE(fs::exists(dir / ("paper-" + p.slug + ".html"))) << p.slug;
  EXPECT_TRUE(fs::exists(dir / "index.html"));
  // Nothing is left beside it: no temporary, no old copy.
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(root_)) entries += e.path().filename() != "site";
  EXPECT_EQ(entries, 0u);
}

}  // namespace
}  // namespace topocheck::site
