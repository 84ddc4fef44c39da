// Suites and plans the fuzz targets (fuzz/, docs/dev/fuzzing.md) found to hang the YAML reader or
// not to survive format_plan.
#include <gtest/gtest.h>

#include <string>

#include "core/suite.hpp"

namespace benchguard {
namespace {

// A mapping that merges ('<<') ten aliases of a mapping that merges ten aliases of ... `levels`
// deep: 10^levels merges.
std::string merge_bomb(int levels) {
  std::string yaml = "x-a0: &a0 {k: v}\n";
  for (int i = 1; i <= levels; ++i) {
    std::string list;
    for (int k = 0; k < 10; ++k) list += (k ? ", *a" : "*a") + std::to_string(i - 1);
    yaml += "x-a" + std::to_string(i) + ": &a" + std::to_string(i) + " {<<: [" + list + "]}\n";
  }
  return yaml;
}

TEST(SuiteFuzzRegressions, MergeKeysRepeatingAliasesAreAnErrorNotAHang) {
  // 10^9 merges: the reader ran for hours.
  auto suite = parse_suite(merge_bomb(9) +
                               "benchmarks:\n"
                               "  - <<: *a9\n"
                               "    name: b\n"
                               "    command: [x]\n",
                           "s.yml");
  ASSERT_FALSE(suite.ok());
  EXPECT_NE(suite.error().message.find("merge keys ('<<') merge more than 1000 mappings"),
            std::string::npos)
      << suite.error().message;
  auto plan = parse_plan(merge_bomb(9) + "benchmarks:\n  b: {<<: *a9}\n", "p.yml");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().message.find("merge more than 1000 mappings"), std::string::npos)
      << plan.error().message;
}

TEST(SuiteFuzzRegressions, AFewMergesOfOneAliasStillWork) {
  auto suite = parse_suite(merge_bomb(2) +
                               "benchmarks:\n"
                               "  - <<: *a2\n"
                               "    name: b\n"
                               "    command: [x]\n",
                           "s.yml");
  ASSERT_FALSE(suite.ok());  // 'k' is not a benchmark key: the merge reached it
  EXPECT_NE(suite.error().message.find("unknown key 'k'"), std::string::npos)
      << suite.error().message;
}

TEST(PlanFuzzRegressions, EntryNameThatIsNotUtf8IsAnError) {
  // format_plan wrote the 0xff byte as U+FFFD: the plan read back named another benchmark.
  auto plan =
      parse_plan("benchmarks:\n  \xff\x13sort: {instances: 10}\n  sort: {instances: 8}\n", "p.yml");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().message.find("p.yml:2: plan entry"), std::string::npos)
      << plan.error().message;
  EXPECT_NE(plan.error().message.find("is not UTF-8"), std::string::npos) << plan.error().message;
}

TEST(PlanFuzzRegressions, EntryNameWithAControlCharacterIsAnError) {
  auto plan = parse_plan("benchmarks:\n  \"a\\x1b[2Jb\": {instances: 10}\n", "p.yml");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().message.find("control character"), std::string::npos)
      << plan.error().message;
}

TEST(PlanFuzzRegressions, FormattedPlanReadsBackWithTheSameNames) {
  auto plan = parse_plan(
      "benchmarks:\n  \"sort/n=1000 #2\": {instances: 10}\n  'x: y': {burn_in: 0}\n", "p.yml");
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  auto again = parse_plan(format_plan(*plan), "again.yml");
  ASSERT_TRUE(again.ok()) << again.error().message;
  ASSERT_EQ(again->benchmarks.size(), 2u);
  EXPECT_EQ(again->benchmarks.at("sort/n=1000 #2").instances, 10);
  EXPECT_EQ(again->benchmarks.at("x: y").burn_in, 0);
}

}  // namespace
}  // namespace benchguard
