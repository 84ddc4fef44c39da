// One grammar of run references (store/run_ref.hpp) for every command that takes a run: show,
// summary, export and plan find the same run as compare for latest, an id, a uuid prefix, a
// KEY=VALUE label, a git commit, a branch or tag, and a database file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::CliResult;
using testing::git_commit_all;
using testing::git_init;
using testing::run_cli;
using testing::sh;
using testing::TempDir;
using testing::write_file;

// The uuid of the one run `export --format json REF` writes.
std::string exported_uuid(const std::string& db, const std::string& ref, const std::string& cwd) {
  const CliResult r = run_cli({"export", "--format", "json", "--db", db, ref}, cwd);
  EXPECT_EQ(r.exit_code, 0) << ref << ": " << r.err;
  if (r.exit_code != 0) return "";
  const auto j = nlohmann::json::parse(r.out);
  const auto& runs = j.is_array() ? j : j["runs"];
  EXPECT_EQ(runs.size(), 1u) << r.out.substr(0, 200);
  return runs.empty() ? "" : runs[0]["uuid"].get<std::string>();
}

TEST(CliRunRefs, ShowSummaryExportAndPlanTakeEveryReferenceCompareTakes) {
  TempDir dir;
  const std::string repo = dir.file("repo");
  const std::string db = dir.file("bg.db");
  git_init(repo);
  // Two commits, a run at each, labelled; the first commit tagged v1.
  std::vector<std::string> commits;
  for (const std::string& side : {std::string("a"), std::string("b")}) {
    write_file(repo + "/side.txt", side + "\n");
    git_commit_all(repo, side == "a" ? 1 : 2);
    if (side == "a") sh("git -C " + repo + " tag v1");
    const CliResult r = run_cli({"-q", "run", "--db", db, "--instances", "12", "--label",
                                 "side=" + side, "--name", "t", "--", "/bin/true"},
                                repo);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const CliResult head = run_cli({"export", "--format", "json", "--db", db}, repo);
    commits.push_back(
        nlohmann::json::parse(head.out)["runs"][0]["git"]["commit"].get<std::string>());
  }
  ASSERT_EQ(commits[0].size(), 40u);
  // A second database, whose newest run is a third.
  const std::string other = dir.file("other.db");
  ASSERT_EQ(
      run_cli({"-q", "run", "--db", other, "--instances", "12", "--name", "t", "--", "/bin/true"})
          .exit_code,
      0);

  const std::string uuid_a = exported_uuid(db, "side=a", repo);
  const std::string uuid_b = exported_uuid(db, "side=b", repo);
  const std::string uuid_other = exported_uuid(other, "latest", repo);
  ASSERT_FALSE(uuid_a.empty());
  ASSERT_NE(uuid_a, uuid_b);
  const std::vector<std::pair<std::string, std::string>> refs = {{"latest", uuid_b},
                                                                 {"1", uuid_a},
                                                                 {uuid_a.substr(0, 8), uuid_a},
                                                                 {"side=a", uuid_a},
                                                                 {commits[0].substr(0, 10), uuid_a},
                                                                 {"v1", uuid_a},
                                                                 {"main", uuid_b},
                                                                 {"HEAD~1", uuid_a},
                                                                 {other, uuid_other}};
  for (const auto& [ref, uuid] : refs) {
    SCOPED_TRACE(ref);
    EXPECT_EQ(exported_uuid(db, ref, repo), uuid);
    for (const std::vector<std::string>& cmd :
         {std::vector<std::string>{"show"},
          {"summary"},
          {"plan", "--experiments", "50", "--budget", "1h"}}) {
      std::vector<std::string> args = cmd;
      args.insert(args.end(), {"--db", db, "--format", "json", ref});
      const CliResult r = run_cli(args, repo);
      EXPECT_EQ(r.exit_code, 0) << cmd[0] << " " << ref << ": " << r.err;
      EXPECT_NE(r.out.find(uuid), std::string::npos)
          << cmd[0] << " " << ref << " does not name run " << uuid << ": " << r.out.substr(0, 300);
    }
  }
  // What names nothing is one line that says what a reference may be.
  for (const char* cmd : {"show", "summary", "export", "plan"}) {
    const CliResult r = run_cli({cmd, "--db", db, "nosuchrun"}, repo);
    EXPECT_EQ(r.exit_code, 2) << cmd;
    EXPECT_NE(r.err.find("KEY=VALUE label"), std::string::npos) << cmd << ": " << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  }
  const CliResult label = run_cli({"show", "--db", db, "side=c"}, repo);
  EXPECT_EQ(label.exit_code, 2);
  EXPECT_NE(label.err.find("no run labelled side=c"), std::string::npos) << label.err;
}

}  // namespace
}  // namespace benchguard
