// report --html end to end: a store with history written by the library, the site written by
// the CLI, and what the pages say after `detect` and `ack`.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "report/html/site.hpp"
#include "store/store.hpp"
#include "support/history_fixture.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using nlohmann::json;
using testing::run_cli;
using testing::TempDir;

// The JSON of a page's #bg-data element.
json page_data(const std::string& html) {
  const std::string open = "id=\"bg-data\">";
  const auto from = html.find(open) + open.size();
  return json::parse(html.substr(from, html.find("</script>", from) - from));
}

class CliReport : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!report::html::dashboard_available()) GTEST_SKIP() << "built with BENCHGUARD_DASHBOARD=OFF";
    db_ = dir_.file("h.db");
    auto store = store::open_store(db_);
    ASSERT_TRUE(store) << store.error().message;
    std::vector<RunData> runs;
    for (int k = 0; k < 30; ++k) runs.push_back(testing::history_run(k, 30, 3, 4, 5, false));
    ASSERT_TRUE((*store)->add_runs(runs, {}));
  }
  std::string status_of(const std::string& site, const std::string& benchmark) {
    const json data = page_data(testing::read_file(site + "/index.html"));
    for (const auto& s : data["series"])
      if (s["benchmark"] == benchmark) return s["status"];
    return "";
  }
  TempDir dir_;
  std::string db_;
};

TEST_F(CliReport, WritesTheSiteReadOnlyAndShowsAcknowledgements) {
  const auto before = std::filesystem::last_write_time(db_);
  const std::string site = dir_.file("site");
  auto r = run_cli({"report", "--db", db_, "--html", site, "--run-pages", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("written to"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(site + "/run-30.html"));
  EXPECT_TRUE(std::filesystem::exists(site + "/run-29.html"));
  EXPECT_FALSE(std::filesystem::exists(site + "/run-28.html"));
  EXPECT_EQ(std::filesystem::last_write_time(db_), before);
  EXPECT_EQ(status_of(site, "bench/0000"), "regression");
  EXPECT_EQ(status_of(site, "bench/0001"), "ok");

  // detect stores the change; ack it, and the pages say so.
  r = run_cli({"detect", "--db", db_, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json changes = json::parse(r.out);
  ASSERT_EQ(changes.size(), 1u) << r.out;
  const std::string id = changes[0]["id"];
  ASSERT_EQ(run_cli({"ack", id, "--db", db_, "--reason", "<b>expected</b>"}).exit_code, 0);
  r = run_cli({"report", "--db", db_, "--html", site});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(status_of(site, "bench/0000"), "acknowledged");
  const json regressions = page_data(testing::read_file(site + "/regressions.html"));
  ASSERT_EQ(regressions["changes"].size(), 1u);
  EXPECT_EQ(regressions["changes"][0]["id"], id);
  EXPECT_EQ(regressions["changes"][0]["ack"], "<b>expected</b>");
  EXPECT_EQ(testing::read_file(site + "/regressions.html").find("<b>"), std::string::npos);
}

TEST_F(CliReport, ErrorsNameWhatIsWrong) {
  auto r = run_cli({"report", "--db", db_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--html"), std::string::npos) << r.err;
  r = run_cli({"report", "--db", dir_.file("missing.db"), "--html", dir_.file("s")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir_.file("missing.db")));
  r = run_cli({"report", "--db", db_, "--html", dir_.file("s"), "--plan", "999"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("999"), std::string::npos) << r.err;
}

// A site folder may be shared, or come from a pull request's checkout: links planted in it
// are replaced or refused, never written through, and the manifest it holds deletes only the
// site's own regular files.
TEST_F(CliReport, LinksPlantedInTheSiteFolderAreNeverFollowed) {
  namespace fs = std::filesystem;
  const std::string site = dir_.file("site");
  fs::create_directories(site);
  fs::create_directories(dir_.file("victimdir"));
  testing::write_file(dir_.file("victim.txt"), "keep\n");
  testing::write_file(dir_.file("victimdir/victim.txt"), "keep\n");
  fs::create_symlink("../victim.txt", site + "/index.html");
  fs::create_directory_symlink("../victimdir", site + "/lnk");
  testing::write_file(site + "/.benchguard-site", "lnk/victim.txt\n../victim.txt\n");
  auto r = run_cli({"report", "--db", db_, "--html", site});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(dir_.file("victim.txt")), "keep\n");
  EXPECT_EQ(testing::read_file(dir_.file("victimdir/victim.txt")), "keep\n");
  EXPECT_FALSE(fs::is_symlink(site + "/index.html"));
  EXPECT_NE(testing::read_file(site + "/index.html").find("id=\"bg-data\""), std::string::npos);

  // A folder of the site planted as a link is refused before anything is written into it.
  fs::remove_all(site + "/data");
  fs::create_directory_symlink("../victimdir", site + "/data");
  r = run_cli({"report", "--db", db_, "--html", site});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is a link"), std::string::npos) << r.err;
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_.file("victimdir"))) ++entries;
  EXPECT_EQ(entries, 1);
}

// export -o writes beside its target and renames: a link planted at the target or at a
// temporary name beside it is never written through.
TEST_F(CliReport, ExportNeverWritesThroughALinkBesideItsTarget) {
  namespace fs = std::filesystem;
  testing::write_file(dir_.file("victim.txt"), "keep\n");
  const std::string out = dir_.file("runs.json");
  fs::create_symlink(dir_.file("victim.txt"), out + ".tmp");
  auto r = run_cli({"export", "--all", "--format", "json", "--db", db_, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(dir_.file("victim.txt")), "keep\n");
  EXPECT_TRUE(json::parse(testing::read_file(out)).is_object() ||
              json::parse(testing::read_file(out)).is_array());
  fs::remove(out);
  fs::create_symlink(dir_.file("victim.txt"), out);
  r = run_cli({"export", "--all", "--format", "csv", "--db", db_, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(dir_.file("victim.txt")), "keep\n");
  EXPECT_FALSE(fs::is_symlink(out));
}

}  // namespace
}  // namespace benchguard
