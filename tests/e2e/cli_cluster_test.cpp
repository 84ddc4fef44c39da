// submit, task, status and collect without Slurm: the job folder written with --dry-run and
// its tasks run by hand, as the array tasks would run them (tests/cluster/ does it on Slurm).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::helper;
using testing::read_file;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

std::string ab_suite() {
  return "name: cluster\n"
         "schedule: randomized\n"
         "instances: 4\n"
         "benchmarks:\n"
         "  - name: spin\n"
         "    command: [" +
         helper("spin") +
         ", \"2\"]\n"
         "    variants:\n"
         "      A: {}\n"
         "      B: {command: [" +
         helper("spin") + ", \"4\"]}\n";
}

struct Job {
  std::string dir;
  nlohmann::json manifest;
};

Job submit_dry(const TempDir& dir, const std::vector<std::string>& extra = {}) {
  write_file(dir.file("s.yml"), ab_suite());
  std::vector<std::string> args = {
      "submit", dir.file("s.yml"), "--slurm", "--dry-run", "--tasks",
      "3",      "--seed",          "5",       "--job-dir", dir.file("job")};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, dir.file("job") + "\n");
  return {dir.file("job"), nlohmann::json::parse(read_file(dir.file("job/job.json")))};
}

// Units stored in the database's only run: (benchmark/variant, instance) -> count.
std::map<std::pair<std::string, int>, int> stored_units(const std::string& db, size_t runs = 1) {
  std::map<std::pair<std::string, int>, int> out;
  auto store = store::open_store(db);
  EXPECT_TRUE(store.ok());
  if (!store.ok()) return out;
  auto list = (*store)->list_runs();
  EXPECT_EQ(list->size(), runs);
  auto run = (*store)->load_run("latest");
  EXPECT_TRUE(run.ok());
  if (!run.ok()) return out;
  for (const auto& v : run->variants)
    for (const auto& i : v.instances) ++out[{v.variant.benchmark + "/" + v.variant.name, i.index}];
  return out;
}

TEST(CliCluster, TasksRunByHandAreCollectedIntoOneRunOnce) {
  TempDir dir;
  const Job job = submit_dry(dir);
  EXPECT_NE(read_file(dir.file("job/attempt-1/job.sh")).find("#SBATCH --array=0-2\n"),
            std::string::npos);
  ASSERT_EQ(job.manifest["units"].size(), 8u);  // 4 instances x 2 variants
  for (int t = 0; t < 3; ++t) {
    const auto r = run_cli({"task", job.dir, "--task", std::to_string(t)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto status = run_cli({"status", job.dir, "--format", "json"});
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_EQ(benchguard::testing::schema_problem(status.out), "");
  const auto s = nlohmann::json::parse(status.out);
  EXPECT_EQ(s["stored"], 8);
  EXPECT_TRUE(s["missing"].empty());
  for (const auto& t : s["tasks"]) EXPECT_EQ(t["state"], "done") << t.dump();

  const std::string db = dir.file("bg.db");
  const auto c = run_cli({"--db", db, "collect", job.dir});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  auto units = stored_units(db);
  EXPECT_EQ(units.size(), 8u);
  for (const auto& [unit, n] : units) EXPECT_EQ(n, 1) << unit.first << "#" << unit.second;

  const auto again = run_cli({"--db", db, "collect", job.dir});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("nothing stored"), std::string::npos) << again.err;
  EXPECT_EQ(stored_units(db), units);

  const auto cmp = run_cli({"--db", db, "compare", "--format", "csv"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_NE(cmp.out.find("spin,"), std::string::npos) << cmp.out;
}

TEST(CliCluster, MissingUnitsAreNamedAndResubmittedAlone) {
  TempDir dir;
  const Job job = submit_dry(dir);
  std::set<std::tuple<int, int, int>> of_task2;
  for (const auto& u : job.manifest["attempts"][0]["units"])
    if (u[3].get<int>() == 2) of_task2.insert({u[0].get<int>(), u[1].get<int>(), u[2].get<int>()});
  ASSERT_FALSE(of_task2.empty());
  for (int t = 0; t < 2; ++t)
    ASSERT_EQ(run_cli({"task", job.dir, "--task", std::to_string(t)}).exit_code, 0);

  const auto status = run_cli({"status", job.dir, "--format", "json"});
  const auto s = nlohmann::json::parse(status.out);
  EXPECT_EQ(s["missing"].size(), of_task2.size());
  const auto c = run_cli({"--db", dir.file("bg.db"), "collect", job.dir});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("units are not stored yet"), std::string::npos) << c.err;

  const auto re = run_cli({"submit", "--resubmit", job.dir, "--dry-run", "--tasks", "1"});
  ASSERT_EQ(re.exit_code, 0) << re.err;
  const auto manifest = nlohmann::json::parse(read_file(dir.file("job/job.json")));
  ASSERT_EQ(manifest["attempts"].size(), 2u);
  std::set<std::tuple<int, int, int>> second;
  for (const auto& u : manifest["attempts"][1]["units"])
    second.insert({u[0].get<int>(), u[1].get<int>(), u[2].get<int>()});
  EXPECT_EQ(second, of_task2);
  ASSERT_EQ(run_cli({"task", job.dir, "--attempt", "2", "--task", "0"}).exit_code, 0);
  const auto done = run_cli({"--db", dir.file("bg.db"), "collect", job.dir});
  ASSERT_EQ(done.exit_code, 0) << done.err;
  const auto units = stored_units(dir.file("bg.db"));
  EXPECT_EQ(units.size(), 8u);
  for (const auto& [unit, n] : units) EXPECT_EQ(n, 1);
}

// A task stopped by Slurm (scancel, time limit): SIGTERM reaches the benchmark too. What it cut
// short is not stored, so that a resubmission measures it again.
TEST(CliCluster, AUnitCutShortBySigtermIsMissingNotFailed) {
  TempDir dir;
  write_file(dir.file("s.yml"),
             "name: cut\n"
             "instances: 2\n"
             "benchmarks:\n"
             "  - name: term\n"
             "    command: [" +
                 helper("kill_self") + ", \"15\"]\n");
  const auto r = run_cli({"submit", dir.file("s.yml"), "--slurm", "--dry-run", "--tasks", "1",
                          "--job-dir", dir.file("job")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto t = run_cli({"task", dir.file("job"), "--task", "0"});
  EXPECT_EQ(t.exit_code, 130) << t.err;
  const auto status = run_cli({"status", dir.file("job"), "--format", "json"});
  const auto s = nlohmann::json::parse(status.out);
  EXPECT_EQ(s["stored"], 0);
  EXPECT_EQ(s["missing"].size(), 2u);
  EXPECT_EQ(s["tasks"][0]["state"], "failed");
  EXPECT_EQ(s["tasks"][0]["note"], "exit 130");
}

TEST(CliCluster, APlanSetsTheCountsOfEveryTask) {
  TempDir dir;
  write_file(dir.file("plan.yml"),
             "benchmarks:\n  spin: {burn_in: ~, instances: 3, iterations: ~}\n"
             "  gone: {burn_in: ~, instances: 9, iterations: ~}\n");
  write_file(dir.file("s.yml"), ab_suite());
  const auto r = run_cli({"submit", dir.file("s.yml"), "--slurm", "--dry-run", "--plan",
                          dir.file("plan.yml"), "--job-dir", dir.file("job")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("plan entry 'gone' matches no benchmark"), std::string::npos) << r.err;
  const auto manifest = nlohmann::json::parse(read_file(dir.file("job/job.json")));
  EXPECT_EQ(manifest["units"].size(), 6u);  // 3 instances x 2 variants
  const int tasks = manifest["attempts"][0]["tasks"].get<int>();
  EXPECT_EQ(tasks, 3);  // one a round
  for (int t = 0; t < tasks; ++t)
    ASSERT_EQ(run_cli({"task", dir.file("job"), "--task", std::to_string(t)}).exit_code, 0);
  ASSERT_EQ(run_cli({"--db", dir.file("bg.db"), "collect", dir.file("job")}).exit_code, 0);
  EXPECT_EQ(stored_units(dir.file("bg.db")).size(), 6u);
}

TEST(CliCluster, SameSeedSameAssignment) {
  TempDir a, b;
  EXPECT_EQ(submit_dry(a).manifest["attempts"][0]["units"],
            submit_dry(b).manifest["attempts"][0]["units"]);
}

TEST(CliCluster, BadInputIsOneLineAndExit2) {
  TempDir dir;
  write_file(dir.file("s.yml"), ab_suite());
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"submit", dir.file("s.yml")}, "needs --slurm"},
      {{"submit", "--slurm"}, "give the suite file"},
      {{"submit", dir.file("nope.yml"), "--slurm"}, "cannot read"},
      {{"submit", dir.file("s.yml"), "--slurm", "--sbatch-arg", "time=3"}, "one sbatch option"},
      {{"submit", dir.file("s.yml"), "--slurm", "--schedule", "zigzag"}, "unknown schedule"},
      {{"--db", "postgresql://u:secret@db.example.com/bench", "submit", dir.file("s.yml"),
        "--slurm"},
       "holds a password"},
      // A line break in a value of the job script would add a line of the caller's to it.
      {{"submit", dir.file("s.yml"), "--slurm", "--dry-run", "--partition",
        "debug\ntouch " + dir.file("injected")},
       "--partition 'debug\\ntouch"},
      {{"submit", dir.file("s.yml"), "--slurm", "--dry-run", "--partition", "debug\rx"},
       "holds a line break"},
      {{"submit", dir.file("s.yml"), "--slurm", "--dry-run", "--job-dir", dir.file("j\nk")},
       "holds a line break"},
      {{"submit", dir.file("s.yml"), "--slurm", "--dry-run", "--sbatch-arg", "--time=3\nid"},
       "holds a line break"},
      {{"status", dir.file("nope")}, "not a job folder"},
      {{"collect", dir.file("nope")}, "not a job folder"},
      {{"submit", "--resubmit", dir.file("nope")}, "not a job folder"},
  };
  for (const auto& c : cases) {
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args.back() << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("injected")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("job")));
  const Job job = submit_dry(dir);
  const auto t = run_cli({"task", job.dir, "--task", "7"});
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_NE(t.err.find("has tasks 0 to 2"), std::string::npos) << t.err;
  const auto u = run_cli({"task", job.dir, "--attempt", "4", "--task", "0"});
  EXPECT_EQ(u.exit_code, 2);
  EXPECT_NE(u.err.find("no attempt 4"), std::string::npos) << u.err;
}

}  // namespace
}  // namespace benchguard
