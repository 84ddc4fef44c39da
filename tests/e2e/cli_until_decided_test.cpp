// `run --until-decided`: A and B in rounds, each benchmark ending once its verdict is known, the
// looks stored with the run and `compare` judging the run by the look that stopped it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/sequential.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::TempDir;
using testing::write_file;

std::string spin(int work) {
  return "[" + std::string(BG_EXAMPLES_DIR) + "/spin_bench, --work, \"" + std::to_string(work) +
         "\"]";
}

// A 10-instance suite whose B does half as much work again: decided long before the budget.
std::string ab_suite(int work_b, const std::string& extra = "") {
  return "instances: 10\niterations: 5\nschedule: alternate\n" + extra +
         "benchmarks:\n  - name: spin\n    command: " + spin(100) +
         "\n    variants:\n      A: {}\n      B: {command: " + spin(work_b) + "}\n";
}

analysis::SequentialRecord record_of(const std::string& db) {
  auto store = store::open_store(db);
  EXPECT_TRUE(store.ok());
  auto run = (*store)->load_run("latest");
  EXPECT_TRUE(run.ok());
  auto rec = analysis::read_sequential_record(run->run);
  EXPECT_TRUE(rec.ok());
  EXPECT_TRUE(rec->has_value()) << "the run records no sequential plan";
  return rec->value_or(analysis::SequentialRecord{});
}

TEST(CliUntilDecided, ALargeSlowdownStopsEarlyAndIsStoredWithItsLooks) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  write_file(dir.file("ab.yml"), ab_suite(150));
  const auto r = run_cli({"run", dir.file("ab.yml"), "--until-decided", "--db", db, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("spin: slower after"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("saved against the fixed 10 a side"), std::string::npos) << r.err;

  const auto rec = record_of(db);
  const auto* o = rec.find("spin");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->look.decision, stats::SequentialDecision::kSlower);
  EXPECT_EQ(o->max_instances, 20U);  // twice the suite's instances
  EXPECT_LT(o->look.instances_a, 10U);
  EXPECT_GT(o->look.ci.lower, 1.0);
  ASSERT_FALSE(o->looks.empty());
  EXPECT_EQ(o->looks.back().look, o->look.look);
  auto store = store::open_store(db);
  ASSERT_TRUE(store.ok());
  auto run = (*store)->load_run("latest");
  ASSERT_TRUE(run.ok());
  for (const auto& v : run->variants) EXPECT_EQ(v.instances.size(), o->look.instances_a);

  // compare judges the run by the look that stopped it, and says so.
  const auto c = run_cli({"compare", "--db", db, "--format", "json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto j = nlohmann::json::parse(c.out);
  const auto& row = j["metrics"][0]["rows"][0];
  EXPECT_EQ(row["verdict"], "slower");
  EXPECT_NEAR(row["ci"][0].get<double>(), o->look.ci.lower, 1e-9);
  EXPECT_NE(row["warnings"].dump().find("sequential run"), std::string::npos) << row.dump();
  // Its p is the look's repeated p-value: at least the fixed one, and below 1 - confidence
  // where the look decided.
  EXPECT_GE(o->look.p_value, o->look.p_fixed);
  EXPECT_LT(o->look.p_value, 0.05);
  EXPECT_NEAR(row["p_value_bootstrap"].get<double>(), o->look.p_value, 1e-12);
}

// Two benchmarks in one run: each decides at 1 - 0.05 / 2, so that a false alarm in either
// stays within 5%, and the run says so.
TEST(CliUntilDecided, TheRunsConfidenceIsSplitOverItsBenchmarks) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  std::string suite = ab_suite(150);
  suite += "  - name: spin2\n    command: " + spin(100) +
           "\n    variants:\n      A: {}\n"
           "      B: {command: " +
           spin(150) + "}\n";
  write_file(dir.file("ab.yml"), suite);
  const auto r = run_cli({"run", dir.file("ab.yml"), "--until-decided", "--db", db, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("2 benchmarks, each decided at 97.5% confidence"), std::string::npos)
      << r.err;
  const auto rec = record_of(db);
  EXPECT_EQ(rec.family, 2U);
  EXPECT_DOUBLE_EQ(rec.benchmark_confidence, 0.975);
  EXPECT_DOUBLE_EQ(rec.setup.plan.confidence, 0.95);
  for (const char* name : {"spin", "spin2"}) {
    const auto* o = rec.find(name);
    ASSERT_NE(o, nullptr) << name;
    auto plan = rec.setup.plan;
    plan.confidence = 0.975;
    plan.max_instances = o->max_instances;
    const auto design = stats::make_design(plan);
    ASSERT_GE(design.levels.size(), o->look.look);
    EXPECT_DOUBLE_EQ(o->look.level, design.levels[o->look.look - 1]) << name;
  }
}

// A and B report the same 10 ms, each with its own +-1% of seeded noise: the same values on a
// busy machine as on a quiet one, so the A/A run ends the same way every time. (How often a
// noisy A/A run ends in a false alarm is stats/sequential's simulation, not this test's.)
std::string aa_suite() {
  return R"SUITE(instances: 10
iterations: 5
schedule: alternate
benchmarks:
  - name: spin
    shell: true
    command: >-
      awk -v s="$SEED$BENCHGUARD_INSTANCE" -v n="$BENCHGUARD_ITERATIONS" 'BEGIN { srand(s);
      for (i = 0; i < n; i++) printf "{\"metrics\": {\"wall_time\": %.9f}}\n",
      0.01 * (1 + 0.02 * (rand() - 0.5)) }' >> "$BENCHGUARD_RESULTS"
    variants:
      A: {env: {SEED: "1"}}
      B: {env: {SEED: "2"}}
)SUITE";
}

TEST(CliUntilDecided, AnAARunEndsEquivalent) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  write_file(dir.file("aa.yml"), aa_suite());
  const auto r = run_cli(
      {"run", dir.file("aa.yml"), "--until-decided", "--threshold", "5%", "--db", db, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("spin: equivalent after"), std::string::npos) << r.err;
  const auto record = record_of(db);
  const auto* o = record.find("spin");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->look.decision, stats::SequentialDecision::kEquivalent);
  EXPECT_GE(o->look.ci.lower, 0.95);
  EXPECT_LE(o->look.ci.upper, 1.05);
}

// The budget ends an undecidable comparison: inconclusive at the last look, all instances run.
TEST(CliUntilDecided, TheBudgetEndsItInconclusive) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  // 0.1% threshold: no equivalence in 4 instances; 2% more work: no verdict either, mostly.
  write_file(dir.file("ab.yml"), ab_suite(100, "until_decided: {max_instances: 4, round: 1}\n"));
  const auto r = run_cli({"run", dir.file("ab.yml"), "--threshold", "0.1%", "--db", db, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto record = record_of(db);
  const auto* o = record.find("spin");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->max_instances, 4U);  // from the suite
  EXPECT_NE(o->look.decision, stats::SequentialDecision::kContinue);
  if (o->look.decision == stats::SequentialDecision::kInconclusive) {
    EXPECT_EQ(o->look.instances_a, 4U);
    EXPECT_NE(r.err.find("inconclusive after 4 of at most 4"), std::string::npos) << r.err;
  }
}

TEST(CliUntilDecided, ABenchmarkWithoutTwoVariantsIsAOneLineError) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  write_file(dir.file("one.yml"),
             "instances: 3\nbenchmarks:\n  - name: spin\n    command: " + spin(100) + "\n");
  const auto r = run_cli({"run", dir.file("one.yml"), "--until-decided", "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("benchmark 'spin' has 1 variant(s)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--null"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  write_file(dir.file("bad.yml"), ab_suite(100, "until_decided: {round: 0}\n"));
  const auto bad = run_cli({"run", dir.file("bad.yml"), "--db", db});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("bad.yml:4"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace benchguard
