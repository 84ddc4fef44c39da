// plan on a stored A/A run, then run --plan with what it wrote.
#include <gtest/gtest.h>

#include "core/suite.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::TempDir;
using testing::write_file;

TEST(CliPlan, PlanWritesWhatRunPlanRuns) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  write_file(dir.file("aa.yml"), "instances: 12\niterations: 12\nbenchmarks:\n  - name: spin\n"
                                 "    command: [" +
                                     std::string(BG_EXAMPLES_DIR) +
                                     "/spin_bench, --work, \"100\"]\n");
  ASSERT_EQ(run_cli({"run", dir.file("aa.yml"), "--db", db, "-q"}).exit_code, 0);

  const std::string plan_file = dir.file("plan.yml");
  const auto plan = run_cli({"plan", "--db", db, "--experiments", "20", "--resamples", "200",
                             "--instances-grid", "3", "6", "--iterations-grid", "4", "8", "-o",
                             plan_file});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("spin"), std::string::npos) << plan.out;
  auto parsed = load_plan(plan_file);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->benchmarks.size(), 1u);
  const PlanEntry& e = parsed->benchmarks.begin()->second;
  ASSERT_TRUE(e.instances && e.iterations && e.burn_in) << testing::read_file(plan_file);
  EXPECT_TRUE(*e.instances == 3 || *e.instances == 6);
  EXPECT_TRUE(*e.iterations == 4 || *e.iterations == 8);

  // run --plan measures the counts the plan set.
  const auto run = run_cli({"run", dir.file("aa.yml"), "--plan", plan_file, "--db", db, "-q"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto store = store::open_store(db);
  ASSERT_TRUE(store.ok());
  auto latest = (*store)->load_run("latest");
  ASSERT_TRUE(latest.ok());
  const auto& instances = latest->variants.at(0).instances;
  EXPECT_EQ(static_cast<int>(instances.size()), *e.instances);
  EXPECT_EQ(static_cast<int>(instances.at(0).iterations.size()), *e.burn_in + *e.iterations);
}

TEST(CliPlan, TooLittleDataIsReportedNotViable) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  ASSERT_EQ(run_cli({"run", "--instances", "2", "--db", db, "-q", "--", "/bin/true"}).exit_code, 0);
  const auto plan = run_cli({"plan", "--db", db, "-o", dir.file("plan.yml")});
  EXPECT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("not viable: 2 instance(s)"), std::string::npos) << plan.out;
  // The plan names the benchmark but sets no counts: run --plan leaves its own alone.
  auto parsed = load_plan(dir.file("plan.yml"));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_FALSE(parsed->benchmarks.at("true").instances.has_value());
}

}  // namespace
}  // namespace benchguard
