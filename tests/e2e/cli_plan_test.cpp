// `benchguard plan` end to end: A/A data (measured, or stored directly with known variance
// components), the plan it writes, and `run --plan` measuring the counts that plan set.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/suite.hpp"
#include "stats/simulate.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::helper;
using testing::read_file;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

// Stores one run labelled dataset=aa with a simulated benchmark per (name, instances,
// iterations): low noise (2% between instances, 2% within) and a 3x warm-up over the first 6
// iterations, so that plan has a burn-in to find.
void store_dataset(const std::string& db,
                   const std::vector<std::tuple<std::string, int, int>>& benchmarks) {
  auto store = store::open_store(db);
  ASSERT_TRUE(store.ok()) << store.error().message;
  RunRecord run;
  run.uuid = "aaaaaaaa-0000-4000-8000-000000000001";
  run.labels = {{"dataset", "aa"}};
  auto run_id = (*store)->begin_run(run);
  ASSERT_TRUE(run_id.ok());
  uint64_t stream = 0;
  for (const auto& [name, instances, iterations] : benchmarks) {
    VariantRecord v;
    v.benchmark = name;
    v.name = "A";
    auto vid = (*store)->add_variant(*run_id, v);
    ASSERT_TRUE(vid.ok());
    stats::SimulationOptions sim;
    sim.instances = static_cast<std::size_t>(instances);
    sim.warmup_iterations = 6;
    sim.iterations = static_cast<std::size_t>(iterations);
    sim.warmup_factor = 3.0;
    sim.mean = 0.01;
    const auto data = stats::simulate(sim, 7, stream++);
    for (std::size_t i = 0; i < data.instances(); ++i) {
      InstanceRecord in;
      in.index = static_cast<int>(i);
      in.exit_code = 0;
      for (const double x : data.instance(i)) {
        IterationRecord it;
        it.index = static_cast<int>(in.iterations.size());
        it.metrics = {{"wall_time", x}};
        in.iterations.push_back(it);
      }
      ASSERT_TRUE((*store)->add_instance(*vid, in).ok());
    }
  }
  ASSERT_TRUE((*store)->finish_run(*run_id, 1, "complete").ok());
}

const std::vector<std::string> kQuick = {"--instances-grid", "5,10", "--iterations-grid", "5,10",
                                         "--experiments",    "60",   "--resamples",       "300",
                                         "--target",         "20%"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// A measured A/A run, planned and then run with the plan.
TEST(CliPlan, PlanWritesWhatRunPlanRuns) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  write_file(dir.file("aa.yml"),
             "instances: 12\niterations: 12\nbenchmarks:\n  - name: spin\n"
             "    command: [" +
                 std::string(BG_EXAMPLES_DIR) + "/spin_bench, --work, \"100\"]\n");
  ASSERT_EQ(run_cli({"run", dir.file("aa.yml"), "--db", db, "-q"}).exit_code, 0);

  const std::string plan_file = dir.file("plan.yml");
  const auto plan =
      run_cli({"plan", "--db", db, "--experiments", "20", "--resamples", "200", "--instances-grid",
               "3", "6", "--iterations-grid", "4", "8", "-o", plan_file});
  // Exit 1 when the grid's most sensitive configuration misses the 5% target: said in the file.
  ASSERT_TRUE(plan.exit_code == 0 || plan.exit_code == 1) << plan.err;
  EXPECT_NE(plan.out.find("spin"), std::string::npos) << plan.out;
  auto parsed = load_plan(plan_file);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->benchmarks.size(), 1u);
  const PlanEntry& e = parsed->benchmarks.begin()->second;
  ASSERT_TRUE(e.instances && e.iterations && e.burn_in) << testing::read_file(plan_file);
  ASSERT_TRUE(e.reaches_target.has_value()) << testing::read_file(plan_file);
  EXPECT_EQ(*e.reaches_target, plan.exit_code == 0) << plan.err;
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

// `plan SUITE.yml` with no run measures the pilot its grid needs first, stores it (label
// plan=pilot), and plans from it.
TEST(CliPlan, ASuiteWithoutARunIsMeasuredFirstAsThePilotTheGridNeeds) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  write_file(dir.file("s.yml"),
             "instances: 2\niterations: 2\nbenchmarks:\n  - name: spin\n"
             "    command: [" +
                 std::string(BG_EXAMPLES_DIR) + "/spin_bench, --work, \"100\"]\n");
  const auto plan = run_cli({"plan", dir.file("s.yml"), "--db", db, "--experiments", "20",
                             "--resamples", "200", "--instances-grid", "3", "--iterations-grid",
                             "4", "--target", "50%", "-o", dir.file("plan.yml")});
  ASSERT_TRUE(plan.exit_code == 0 || plan.exit_code == 1) << plan.err;
  EXPECT_NE(plan.err.find("a pilot of"), std::string::npos) << plan.err;
  EXPECT_EQ(plan.out.find("not viable"), std::string::npos) << plan.out;
  auto store = store::open_store(db);
  ASSERT_TRUE(store.ok());
  auto pilot = (*store)->load_run("latest");
  ASSERT_TRUE(pilot.ok()) << pilot.error().message;
  EXPECT_EQ(pilot->run.labels, (KeyValues{{"plan", "pilot"}}));
  ASSERT_EQ(pilot->variants.size(), 1u);
  // Instance-based selection draws 2 x 3 distinct instances of 4 iterations; 2 more for burn-in.
  ASSERT_EQ(pilot->variants[0].instances.size(), 6u);
  EXPECT_EQ(pilot->variants[0].instances[0].iterations.size(), 6u);
  auto parsed = load_plan(dir.file("plan.yml"));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_TRUE(parsed->benchmarks.at("spin").instances.has_value());
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

// The tests below start from the same stored A/A dataset: a benchmark with enough data and one
// without.
class CliPlanStored : public ::testing::Test {
 protected:
  void SetUp() override { store_dataset(db, {{"inproc", 24, 20}, {"tiny", 3, 20}}); }
  TempDir dir;
  const std::string db = dir.file("aa.db");
};

TEST_F(CliPlanStored, PlanThenRunMeasuresThePlannedCounts) {
  const auto plan =
      run_cli(with({"plan", "dataset=aa", "--db", db, "-o", dir.file("plan.yml")}, kQuick));
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("inproc"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("tiny: not viable: 3 instance(s)"), std::string::npos) << plan.out;
  EXPECT_NE(plan.err.find("wrote the plan for 2 benchmark(s)"), std::string::npos) << plan.err;

  auto written = load_plan(dir.file("plan.yml"));
  ASSERT_TRUE(written.ok()) << written.error().message;
  const PlanEntry& e = written->benchmarks.at("inproc");
  ASSERT_TRUE(e.instances && e.iterations && e.burn_in) << read_file(dir.file("plan.yml"));
  EXPECT_GE(*e.burn_in, 3);  // of the 6 warm-up iterations
  EXPECT_LE(*e.burn_in, 8);
  EXPECT_LE(*e.fpr, 0.2);
  EXPECT_FALSE(written->benchmarks.at("tiny").instances);

  // The suite asks for 2 instances of 3 iterations; the plan overrides inproc's counts.
  write_file(dir.file("suite.yml"),
             "instances: 2\n"
             "iterations: 3\n"
             "benchmarks:\n"
             "  - name: inproc\n"
             "    command: [" +
                 helper("client_bench") +
                 ", \"3\", \"20\"]\n"
                 "  - name: tiny\n"
                 "    command: [" +
                 helper("client_bench") + ", \"3\", \"20\"]\n");
  const auto run = run_cli({"run", dir.file("suite.yml"), "--plan", dir.file("plan.yml"), "--db",
                            dir.file("run.db"), "-q"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto store = store::open_store(dir.file("run.db"));
  ASSERT_TRUE(store.ok());
  auto data = (*store)->load_run("latest");
  ASSERT_TRUE(data.ok()) << data.error().message;
  ASSERT_EQ(data->variants.size(), 2u);
  const auto& inproc = data->variants[0];
  ASSERT_EQ(inproc.variant.benchmark, "inproc");
  ASSERT_EQ(static_cast<int>(inproc.instances.size()), *e.instances);
  for (const auto& inst : inproc.instances) {
    ASSERT_EQ(static_cast<int>(inst.iterations.size()), *e.burn_in + *e.iterations);
    int flagged = 0;
    for (const auto& it : inst.iterations) flagged += it.burn_in ? 1 : 0;
    EXPECT_EQ(flagged, *e.burn_in);
  }
  const auto& tiny = data->variants[1];
  EXPECT_EQ(tiny.instances.size(), 2u);  // the suite's counts
  EXPECT_EQ(tiny.instances[0].iterations.size(), 3u);
}

TEST_F(CliPlanStored, JsonHoldsTheWholeGridAndMarkdownTheTable) {
  const auto json =
      run_cli(with({"plan", "--db", db, "--format", "json", "-o", dir.file("p.yml")}, kQuick));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(benchguard::testing::schema_problem(json.out), "");
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["benchmarks"].size(), 2u);
  EXPECT_EQ(j["benchmarks"][1]["viable"], false);
  const auto& b = j["benchmarks"][0];
  EXPECT_EQ(b["benchmark"], "inproc");
  ASSERT_EQ(b["grid"].size(), 8u);  // 2 x 2, instance- and trial-based
  EXPECT_EQ(b["grid"][0]["selection"], "instance");
  EXPECT_EQ(b["grid"][7]["selection"], "trial");
  EXPECT_EQ(b["grid"][0]["compare"]["detection"].size(), 8u);
  EXPECT_TRUE(b["grid"][0]["compare"]["detection"][0].contains("lower_bound"));
  EXPECT_TRUE(b["grid"][0]["compare"].contains("at_target"));
  EXPECT_FALSE(b["grid"][0].contains("ratio"));  // the bootstrap decisions: when asked for
  EXPECT_EQ(j["options"]["experiments"], 60);
  EXPECT_EQ(j["options"]["statistic"], "robust mean");
  EXPECT_EQ(j["options"]["threshold"], 0.01);
  EXPECT_EQ(j["options"]["family"], 2);  // both benchmarks of the run
  EXPECT_FALSE(b["recommendation"].is_null());
  EXPECT_TRUE(b["recommendation"].contains("detection_lower_bound"));

  // The bootstrap decisions, and compare's options from compare's flags.
  const auto ratio =
      run_cli(with({"plan", "--db", db, "--format", "json", "--decision", "ratio", "--statistic",
                    "mean", "--threshold", "2%", "--family", "1", "-o", dir.file("r.yml")},
                   kQuick));
  ASSERT_EQ(ratio.exit_code, 0) << ratio.err;
  const auto r = nlohmann::json::parse(ratio.out);
  EXPECT_EQ(r["benchmarks"][0]["grid"][0]["ratio"]["detection"].size(), 8u);
  EXPECT_TRUE(r["benchmarks"][0]["grid"][0]["overlap"].contains("mds"));
  EXPECT_EQ(r["options"]["statistic"], "mean");
  EXPECT_EQ(r["options"]["threshold"], 0.02);
  EXPECT_EQ(r["options"]["family"], 1);

  const auto md = run_cli(with({"plan", "--db", db, "--format", "md", "-v", "-o", "-"}, kQuick));
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.rfind("# written by benchguard plan", 0), 0u) << md.out;  // -o -: YAML only
  const auto table =
      run_cli(with({"plan", "--db", db, "--format", "md", "-v", "-o", dir.file("q.yml")}, kQuick));
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("| benchmark | instances |"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("(detection rate per slowdown)"), std::string::npos) << table.out;
}

// With this pilot the grid cannot reach a 0.1% target: the plan still sets the most
// sensitive counts, and says it falls short in the file and by exit status 1.
TEST_F(CliPlanStored, APlanShortOfItsTargetSaysSoInTheFileAndTheExitStatus) {
  const auto r = run_cli({"plan", "--db", db, "--instances-grid", "5", "--iterations-grid", "5",
                          "--experiments", "40", "--resamples", "300", "--target", "0.1%", "-o",
                          dir.file("short.yml")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // 40 experiments cannot show 95% power at all (40 of 40 has a lower bound of 0.928): said.
  EXPECT_NE(r.err.find("--experiments 40 cannot show a power of 0.95"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("give at least 59"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("does not reach the target for 1 of 2 benchmark(s) (inproc)"),
            std::string::npos)
      << r.err;
  const std::string text = read_file(dir.file("short.yml"));
  EXPECT_NE(text.find("# target not reached for 1 of 2 benchmark(s) (inproc)"), std::string::npos)
      << text;
  auto p = load_plan(dir.file("short.yml"));
  ASSERT_TRUE(p.ok()) << p.error().message;
  const PlanEntry& e = p->benchmarks.at("inproc");
  ASSERT_TRUE(e.reaches_target.has_value()) << text;
  EXPECT_FALSE(*e.reaches_target);
  EXPECT_EQ(e.instances, 5);
}

TEST_F(CliPlanStored, BudgetAndBadFlags) {
  // Each iteration takes about 10 ms: 5 instances of 5 iterations plus burn-in fit in 1 s.
  const auto r =
      run_cli(with({"plan", "--db", db, "--budget", "1s", "-o", dir.file("b.yml")}, kQuick));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto p = load_plan(dir.file("b.yml"));
  ASSERT_TRUE(p.ok());
  const PlanEntry& e = p->benchmarks.at("inproc");
  ASSERT_TRUE(e.instances && e.iterations && e.burn_in && e.mean);
  EXPECT_LE(*e.instances * (*e.burn_in + *e.iterations) * *e.mean, 1.0);

  const auto bad = run_cli({"plan", "--db", db, "--target", "five"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--target"), std::string::npos) << bad.err;
  const auto none = run_cli({"plan", "--db", db, "--variant", "Z"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no variant 'Z'"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace benchguard
