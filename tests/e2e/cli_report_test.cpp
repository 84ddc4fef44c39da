// report --html end to end: a store with history written by the library, the site written by
// the CLI, and what the pages say after `detect` and `ack`; and two runs of two variants, whose
// compare and run pages must say what `compare` says.
#include <gtest/gtest.h>

#include <cmath>
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
  const json changes = json::parse(r.out)["changes"];
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
  r = run_cli({"report", "--db", db_, "--html", dir_.file("s"), "--plan-run", "999"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("999"), std::string::npos) << r.err;
}

// A site goes into a new or empty folder, or over a site benchguard wrote: a folder of the
// user's own is refused, naming the file it would overwrite, and nothing in it changes;
// --force writes anyway.
TEST_F(CliReport, WritesOnlyIntoAnEmptyFolderOrItsOwnSiteUnlessForced) {
  namespace fs = std::filesystem;
  const std::string mine = dir_.file("mine");
  fs::create_directories(mine);
  testing::write_file(mine + "/index.html", "<h1>my page</h1>\n");
  auto r = run_cli({"report", "--db", db_, "--html", mine});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(mine + "/index.html"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--force"), std::string::npos) << r.err;
  EXPECT_EQ(testing::read_file(mine + "/index.html"), "<h1>my page</h1>\n");
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(mine)) ++entries;
  EXPECT_EQ(entries, 1);
  // Another file of the user's, not one the site writes, is named all the same.
  const std::string notes = dir_.file("notes");
  fs::create_directories(notes);
  testing::write_file(notes + "/todo.txt", "x\n");
  r = run_cli({"report", "--db", db_, "--html", notes});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("todo.txt"), std::string::npos) << r.err;
  // An empty folder, and then the site it holds, are written as before.
  const std::string empty = dir_.file("empty");
  fs::create_directories(empty);
  ASSERT_EQ(run_cli({"report", "--db", db_, "--html", empty}).exit_code, 0);
  r = run_cli({"report", "--db", db_, "--html", empty});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // --force writes over the user's page.
  r = run_cli({"report", "--db", db_, "--html", mine, "--force"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(testing::read_file(mine + "/index.html").find("id=\"bg-data\""), std::string::npos);
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

// Two runs of a suite with two variants per benchmark: `compare RUN RUN` compares each variant
// with its namesake and names it, says what it chose when the runs share no variant name, and
// the dashboard's compare page and run page show the numbers `compare --format json` gives.
// Five iterations a launch around $1 seconds (1% noise), reported through the protocol.
constexpr const char* kEmit =
    "#!/bin/sh\n"
    "awk -v base=\"$1\" -v seed=\"$$\" 'BEGIN { srand(seed); for (i = 0; i < 5; i++) "
    "printf \"{\\\"iteration\\\":%d,\\\"metrics\\\":{\\\"wall_time\\\":%.9g}}\\n\", i, "
    "base * (1 + 0.01 * rand()) }' >> \"$BENCHGUARD_RESULTS\"\n";

// A suite of benchmark "work" in two variants, each reporting around its base.
std::string variants_suite(const std::string& emit, const std::string& va, double a,
                           const std::string& vb, double b) {
  return "name: variants\ninstances: 4\niterations: 5\nbenchmarks:\n"
         "  - name: work\n    command: [sh, " +
         emit + ", \"" + std::to_string(a) + "\"]\n    variants:\n      " + va + ": {}\n      " +
         vb + ": {command: [sh, " + emit + ", \"" + std::to_string(b) + "\"]}\n";
}

// The JSON of a page's #bg-data element.
json variants_page_data(const std::string& html) {
  const std::string open = "id=\"bg-data\">";
  const auto from = html.find(open) + open.size();
  return json::parse(html.substr(from, html.find("</script>", from) - from));
}

json compare_json_of(const std::vector<std::string>& args) {
  const testing::CliResult r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json();
}

// Every row of `page` (as compare_json writes it) has its namesake in `cli`, with the same
// numbers.
void expect_same_rows(const json& page, const json& cli) {
  ASSERT_EQ(page["metrics"].size(), cli["metrics"].size());
  for (std::size_t m = 0; m < cli["metrics"].size(); ++m) {
    const auto& rows = cli["metrics"][m]["rows"];
    ASSERT_EQ(page["metrics"][m]["rows"].size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& p = page["metrics"][m]["rows"][i];
      const auto& c = rows[i];
      SCOPED_TRACE(c.dump());
      EXPECT_EQ(p["benchmark"], c["benchmark"]);
      EXPECT_EQ(p.value("variant", ""), c.value("variant", ""));
      for (const char* k : {"value_a", "value_b", "ratio", "p_value_bootstrap_holm"})
        EXPECT_DOUBLE_EQ(p[k].get<double>(), c[k].get<double>()) << k;
      EXPECT_DOUBLE_EQ(p["ci"][0].get<double>(), c["ci"][0].get<double>());
      EXPECT_DOUBLE_EQ(p["ci"][1].get<double>(), c["ci"][1].get<double>());
      EXPECT_EQ(p["verdict"], c["verdict"]);
    }
  }
}

TEST(CliCompareVariants, TwoRunsPairEachVariantWithItsNamesake) {
  TempDir dir;
  const std::string db = dir.file("v.db");
  const std::string emit = dir.file("emit.sh");
  testing::write_file(emit, kEmit);
  // Run 1: slow 50 ms, fast 40 ms. Run 2: slow the same, fast 48 ms.
  testing::write_file(dir.file("one.yml"), variants_suite(emit, "slow", 0.05, "fast", 0.04));
  testing::write_file(dir.file("two.yml"), variants_suite(emit, "slow", 0.05, "fast", 0.048));
  for (const char* suite : {"one.yml", "two.yml"}) {
    const testing::CliResult r = run_cli({"-q", "run", "--db", db, dir.file(suite)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  const json j = compare_json_of(
      {"compare", "--db", db, "1", "2", "--metric", "wall_time", "--format", "json"});
  ASSERT_EQ(j["metrics"].size(), 1u);
  const auto& rows = j["metrics"][0]["rows"];
  ASSERT_EQ(rows.size(), 2u) << j.dump();
  EXPECT_EQ(rows[0]["variant"], "slow");
  EXPECT_EQ(rows[1]["variant"], "fast");
  // Each side's value is its own variant's, in both runs.
  EXPECT_NEAR(rows[0]["value_a"].get<double>(), 0.05, 0.002);
  EXPECT_NEAR(rows[0]["value_b"].get<double>(), 0.05, 0.002);
  EXPECT_NEAR(rows[1]["value_a"].get<double>(), 0.04, 0.002);
  EXPECT_NEAR(rows[1]["value_b"].get<double>(), 0.048, 0.002);
  EXPECT_NEAR(rows[1]["ratio"].get<double>(), 1.2, 0.03);
  EXPECT_EQ(rows[1]["verdict"], "slower");
  EXPECT_TRUE(j["only_in_a"].empty() && j["only_in_b"].empty()) << j.dump();

  // The table names the variant.
  const testing::CliResult text =
      run_cli({"compare", "--db", db, "1", "2", "--metric", "wall_time"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("work [slow]"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("work [fast]"), std::string::npos) << text.out;

  // Named variants: one a side, as before, no variant named in the rows.
  const json named =
      compare_json_of({"compare", "--db", db, "1", "2", "--variant-a", "fast", "--variant-b",
                       "fast", "--metric", "wall_time", "--format", "json"});
  ASSERT_EQ(named["metrics"][0]["rows"].size(), 1u);
  EXPECT_FALSE(named["metrics"][0]["rows"][0].contains("variant"));
  EXPECT_NEAR(named["metrics"][0]["rows"][0]["ratio"].get<double>(), 1.2, 0.03);

  // The dashboard: its compare page (run 1 the baseline, run 2 the newest) and run 2's page
  // show what `compare` says.
  if (report::html::dashboard_available()) {
    const std::string site = dir.file("site");
    const testing::CliResult r = run_cli({"report", "--db", db, "--html", site});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json page = variants_page_data(testing::read_file(site + "/compare.html"));
    expect_same_rows(page["table"], j);
    // The heat map's newest column is the table's rows.
    ASSERT_EQ(page["rows"].size(), 2u) << page["rows"].dump();
    for (const auto& hr : page["rows"]) {
      const auto& cell = hr["cells"].back();
      for (const auto& row : rows) {
        if (row["variant"] == hr["variant"]) {
          EXPECT_DOUBLE_EQ(cell["ratio"].get<double>(), row["ratio"].get<double>()) << hr.dump();
        }
      }
    }
    const json run2 = variants_page_data(testing::read_file(site + "/run-2.html"));
    const json own =
        compare_json_of({"compare", "--db", db, "2", "--metric", "wall_time", "--format", "json"});
    ASSERT_TRUE(run2["ab"].is_object()) << run2.dump().substr(0, 300);
    expect_same_rows(run2["ab"], own);
    EXPECT_EQ(run2["ab"]["a"], "slow");
    EXPECT_EQ(run2["ab"]["b"], "fast");
  }

  // A run whose variants share no name with run 1's: the first of each, said in a note.
  testing::write_file(dir.file("three.yml"), variants_suite(emit, "left", 0.05, "right", 0.04));
  ASSERT_EQ(run_cli({"-q", "run", "--db", db, dir.file("three.yml")}).exit_code, 0);
  const json other = compare_json_of(
      {"compare", "--db", db, "1", "3", "--metric", "wall_time", "--format", "json"});
  ASSERT_EQ(other["metrics"][0]["rows"].size(), 1u);
  bool said = false;
  for (const auto& w : other["warnings"])
    said = said || w.get<std::string>().find("share no name") != std::string::npos;
  EXPECT_TRUE(said) << other["warnings"].dump();
}

}  // namespace
}  // namespace benchguard
