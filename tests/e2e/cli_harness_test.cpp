// examples/inprocess_bench (include/benchguard/benchguard.hpp) alone and under benchguard.
#include <gtest/gtest.h>

#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::TempDir;

std::string bench() {
  return std::string(BG_EXAMPLES_DIR) + "/inprocess_bench";
}

TEST(CliHarness, UnderBenchguardEachSampleIsAnIterationWithTheTimePerOperation) {
  TempDir dir;
  const auto r =
      run_cli({"run", "--instances", "2", "--iterations", "4", "--burn-in", "1", "--db",
               dir.file("bg.db"), "--", bench(), "--filter", "sum_1k", "--sample-time", "0.002"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto store = store::open_store(dir.file("bg.db"));
  ASSERT_TRUE(store.ok());
  auto run = (*store)->load_run("latest");
  ASSERT_TRUE(run.ok());
  ASSERT_EQ(run->variants.size(), 1u);
  const auto& instances = run->variants[0].instances;
  ASSERT_EQ(instances.size(), 2u);
  for (const auto& in : instances) {
    ASSERT_TRUE(in.ok()) << in.failure;
    ASSERT_EQ(in.iterations.size(), 5u);
    EXPECT_TRUE(in.iterations[0].burn_in);
    for (const auto& it : in.iterations) {
      const double per_op = *it.metric("wall_time");
      const double sample = static_cast<double>(it.end_ns - it.start_ns) * 1e-9;
      // Summing 1000 ints takes well under 100 us. A sample is calibrated to last 2 ms; a
      // later one can run faster than the calibration did, so hold it to half of that.
      EXPECT_LT(per_op, 1e-4);
      EXPECT_GE(sample, 0.001);
      EXPECT_GT(sample / per_op, 20.0);  // many operations per sample
    }
  }
}

TEST(CliHarness, UnderBenchguardSeveralSelectedBenchmarksFailTheInstanceClearly) {
  TempDir dir;
  const auto r = run_cli(
      {"run", "--instances", "1", "--max-failures", "1", "--db", dir.file("bg.db"), "--", bench()});
  EXPECT_NE(r.exit_code, 0);
  auto store = store::open_store(dir.file("bg.db"));
  ASSERT_TRUE(store.ok());
  auto run = (*store)->load_run("latest");
  ASSERT_TRUE(run.ok());
  ASSERT_EQ(run->variants[0].instances.size(), 1u);
  EXPECT_NE(run->variants[0].instances[0].failure.find("exit code 2"), std::string::npos)
      << run->variants[0].instances[0].failure;
}

}  // namespace
}  // namespace benchguard
