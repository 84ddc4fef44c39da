// Plan YAML: parsing, its errors, and applying it to a suite.
#include <gtest/gtest.h>

#include <cmath>

#include "core/suite.hpp"
#include "support/test_support.hpp"
#include "unit/core/suite_test_util.hpp"

namespace benchguard {
namespace {

constexpr const char* kPlanFile = "plans/plan.yml";

void expect_plan_error(const std::string& yaml, int line, const std::string& point) {
  SCOPED_TRACE(yaml);
  suite_test::expect_error_at(parse_plan(yaml, kPlanFile), kPlanFile, line, point);
}

Suite sort_suite() {
  auto s = parse_suite(
      "instances: 5\n"
      "iterations: 2\n"
      "burn_in: 1\n"
      "benchmarks:\n"
      "  - name: sort\n"
      "    command: [x, '{n}']\n"
      "    params: {n: [1000, 2000]}\n"
      "  - name: hash\n"
      "    command: [y]\n",
      "/proj/suite.yml");
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? *s : Suite{};
}

Plan plan_of(const std::string& yaml) {
  auto p = parse_plan(yaml, kPlanFile);
  EXPECT_TRUE(p.ok()) << p.error().message;
  return p.ok() ? *p : Plan{};
}

TEST(PlanParse, ReadsEntries) {
  const Plan p = plan_of(
      "benchmarks:\n"
      "  sort/n=1000: {burn_in: 3, instances: 10, iterations: 20, mean: 0.0123, cv: 0.021, "
      "mds: 1.03, fpr: 0.01}\n"
      "  hash: {instances: 4}\n"
      "  never: {instances: null, mds: .inf}\n");
  EXPECT_EQ(p.path, kPlanFile);
  ASSERT_EQ(p.benchmarks.size(), 3u);
  const PlanEntry& e = p.benchmarks.at("sort/n=1000");
  EXPECT_EQ(e.burn_in, 3);
  EXPECT_EQ(e.instances, 10);
  EXPECT_EQ(e.iterations, 20);
  EXPECT_DOUBLE_EQ(*e.mean, 0.0123);
  EXPECT_DOUBLE_EQ(*e.cv, 0.021);
  EXPECT_DOUBLE_EQ(*e.mds, 1.03);
  EXPECT_DOUBLE_EQ(*e.fpr, 0.01);
  const PlanEntry& h = p.benchmarks.at("hash");
  EXPECT_EQ(h.instances, 4);
  EXPECT_FALSE(h.burn_in.has_value());
  EXPECT_FALSE(h.mean.has_value());
  // null: the planner found no configuration; .inf: no slowdown in the grid was detectable.
  EXPECT_FALSE(p.benchmarks.at("never").instances.has_value());
  EXPECT_TRUE(std::isinf(*p.benchmarks.at("never").mds));
}

TEST(PlanParse, LoadPlanReadsTheFile) {
  testing::TempDir dir;
  testing::write_file(dir.file("plan.yml"), "benchmarks:\n  sort: {instances: 9}\n");
  auto p = load_plan(dir.file("plan.yml"));
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->path, dir.file("plan.yml"));
  EXPECT_EQ(p->benchmarks.at("sort").instances, 9);

  auto missing = load_plan(dir.file("none.yml"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "cannot read " + dir.file("none.yml") + ": No such file or directory");
}

TEST(PlanErrors, Shape) {
  expect_plan_error("benchmarks: {a: {instances: 1}\n", 2, "invalid YAML");
  expect_plan_error("", 0, "plan is empty");
  expect_plan_error("target: 5%\n", 1, "unknown key 'target'");
  expect_plan_error("benchmark:\n  a: {instances: 1}\n", 1,
                    "unknown key 'benchmark' (did you mean 'benchmarks'?)");
  expect_plan_error("x-note: fine\n", 0, "plan has no 'benchmarks' mapping");
  expect_plan_error("benchmarks: [a]\n", 1, "benchmarks must be a mapping, got a list");
  expect_plan_error("benchmarks: {}\n", 1, "benchmarks is empty");
  expect_plan_error("benchmarks:\n  a: 3\n", 2, "plan entry 'a' must be a mapping, got '3'");
  expect_plan_error("benchmarks:\n  a:\n", 2, "plan entry 'a' is empty");
  expect_plan_error("benchmarks:\n  a: {instances: 1}\n  a: {instances: 2}\n", 3,
                    "duplicate key 'a' (first at line 2)");
}

TEST(PlanErrors, Values) {
  expect_plan_error("benchmarks:\n  a: {instance: 1}\n", 2,
                    "unknown key 'instance' (did you mean 'instances'?)");
  expect_plan_error("benchmarks:\n  a:\n    iterations: ten\n", 3,
                    "iterations must be a positive integer, got 'ten'");
  expect_plan_error("benchmarks:\n  a: {instances: 0}\n", 2,
                    "instances must be a positive integer");
  expect_plan_error("benchmarks:\n  a: {burn_in: -1}\n", 2,
                    "burn_in must be a non-negative integer");
  expect_plan_error("benchmarks:\n  a: {mean: fast}\n", 2, "mean must be a number, got 'fast'");
  expect_plan_error("benchmarks:\n  a: {cv: -0.1}\n", 2, "cv must be >= 0");
  expect_plan_error("benchmarks:\n  a: {fpr: 1.5}\n", 2, "fpr must be between 0 and 1");
}

TEST(PlanApply, ByNameThenBaseName) {
  Suite s = sort_suite();
  const Plan p = plan_of(
      "benchmarks:\n"
      "  sort: {instances: 7, iterations: 3}\n"
      "  sort/n=2000: {burn_in: 4, instances: 12}\n");
  apply_plan(p, s);
  ASSERT_EQ(s.benchmarks.size(), 3u);
  const auto& n1000 = s.benchmarks[0];  // base name "sort"
  EXPECT_EQ(n1000.instances, 7);
  EXPECT_EQ(n1000.iterations, 3);
  EXPECT_EQ(n1000.burn_in, 1);          // not in its entry: kept
  const auto& n2000 = s.benchmarks[1];  // exact name wins over base name, without mixing
  EXPECT_EQ(n2000.burn_in, 4);
  EXPECT_EQ(n2000.instances, 12);
  EXPECT_EQ(n2000.iterations, 2);
  const auto& hash = s.benchmarks[2];  // not in the plan: untouched
  EXPECT_EQ(hash.instances, 5);
  EXPECT_EQ(hash.iterations, 2);
  EXPECT_EQ(hash.burn_in, 1);
}

TEST(PlanApply, UnmatchedEntriesAreReported) {
  const Suite s = sort_suite();
  const Plan p = plan_of(
      "benchmarks:\n"
      "  sort/n=1000: {instances: 2}\n"
      "  sort: {instances: 2}\n"
      "  hash: {instances: 2}\n"
      "  sort/n=3000: {instances: 2}\n"
      "  renamed: {instances: 2}\n");
  EXPECT_EQ(unmatched_plan_entries(p, s), (std::vector<std::string>{"renamed", "sort/n=3000"}));
  EXPECT_TRUE(unmatched_plan_entries(plan_of("benchmarks: {hash: {}}\n"), s).empty());
}

}  // namespace
}  // namespace benchguard

namespace benchguard {
namespace {

TEST(PlanFormat, WritesWhatTheReaderReads) {
  const Plan p = plan_of(
      "benchmarks:\n"
      "  sort/n=1000: {burn_in: 3, instances: 10, iterations: 20, mean: 0.0123, cv: 0.021, "
      "mds: 1.03, fpr: 0.01}\n"
      "  'bench.py::test[a: b] #1': {mean: 2.5, mds: .inf}\n"  // names YAML must quote
      "  hash: {instances: 4}\n");
  const std::string text = format_plan(p, {"from a test"});
  EXPECT_EQ(text.rfind("# from a test\n", 0), 0u) << text;
  auto back = parse_plan(text, "p.yml");
  ASSERT_TRUE(back.ok()) << back.error().message << "\n" << text;
  ASSERT_EQ(back->benchmarks.size(), p.benchmarks.size());
  for (const auto& [name, e] : p.benchmarks) {
    SCOPED_TRACE(name);
    const PlanEntry& r = back->benchmarks.at(name);
    EXPECT_EQ(r.burn_in, e.burn_in);
    EXPECT_EQ(r.instances, e.instances);
    EXPECT_EQ(r.iterations, e.iterations);
    EXPECT_EQ(r.mean, e.mean);
    EXPECT_EQ(r.cv, e.cv);
    EXPECT_EQ(r.mds, e.mds);  // .inf included
    EXPECT_EQ(r.fpr, e.fpr);
  }
}

}  // namespace
}  // namespace benchguard
