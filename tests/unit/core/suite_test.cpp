// What a valid suite resolves to: top-level settings, inheritance, timeouts, files, merge keys.
#include "core/suite.hpp"

#include <gtest/gtest.h>

#include "support/test_support.hpp"
#include "unit/core/suite_test_util.hpp"

namespace benchguard {
namespace {

using Argv = std::vector<std::string>;

using suite_test::env_of;
using suite_test::parse;

TEST(SuiteParse, MinimalSuiteGetsDefaults) {
  const Suite s = parse(
      "benchmarks:\n"
      "  - name: hello\n"
      "    command: [echo, hi]\n");
  EXPECT_EQ(s.path, "/proj/suite.yml");
  EXPECT_EQ(s.name, "suite");  // the file stem
  EXPECT_EQ(s.schedule, "interleaved");
  ASSERT_EQ(s.benchmarks.size(), 1u);
  const BenchmarkSpec& b = s.benchmarks[0];
  EXPECT_EQ(b.name, "hello");
  EXPECT_EQ(b.base_name, "hello");
  EXPECT_EQ(b.line, 2);
  EXPECT_EQ(b.instances, BenchmarkSpec{}.instances);
  EXPECT_EQ(b.iterations, BenchmarkSpec{}.iterations);
  EXPECT_EQ(b.max_failures, BenchmarkSpec{}.max_failures);
  EXPECT_EQ(b.timeout_s, 0);
  EXPECT_EQ(b.metrics, Argv{"wall_time"});
  ASSERT_EQ(b.variants.size(), 1u);
  EXPECT_EQ(b.variants[0].name, "default");
  EXPECT_EQ(b.variants[0].command, (Argv{"echo", "hi"}));
  EXPECT_EQ(b.variants[0].cwd, "/proj");
  EXPECT_TRUE(b.variants[0].env.empty());
}

TEST(SuiteParse, TopLevelDefaultsAreInheritedAndOverridden) {
  const Suite s = parse(
      "name: quickstart\n"
      "schedule: randomized\n"
      "instances: 7\n"
      "iterations: 10\n"
      "burn_in: 2\n"
      "warmup: 1\n"
      "timeout: 30s\n"
      "max_failures: 4\n"
      "metrics: [wall_time, rows_per_s]\n"
      "env: {OMP_NUM_THREADS: '1', LANG: C}\n"
      "benchmarks:\n"
      "  - name: inherits\n"
      "    command: [a]\n"
      "  - name: overrides\n"
      "    command: [b]\n"
      "    instances: 3\n"
      "    iterations: 1\n"
      "    burn_in: 0\n"
      "    warmup: 0\n"
      "    timeout: none\n"
      "    max_failures: 1\n"
      "    metrics: [cpu_time]\n"
      "    env: {LANG: en_US.UTF-8, EXTRA: x}\n");
  EXPECT_EQ(s.name, "quickstart");
  EXPECT_EQ(s.schedule, "randomized");
  ASSERT_EQ(s.benchmarks.size(), 2u);
  const auto& a = s.benchmarks[0];
  EXPECT_EQ(a.instances, 7);
  EXPECT_EQ(a.iterations, 10);
  EXPECT_EQ(a.burn_in, 2);
  EXPECT_EQ(a.warmup, 1);
  EXPECT_DOUBLE_EQ(a.timeout_s, 30);
  EXPECT_EQ(a.max_failures, 4);
  EXPECT_EQ(a.metrics, (Argv{"wall_time", "rows_per_s"}));
  EXPECT_EQ(a.variants[0].env, (KeyValues{{"OMP_NUM_THREADS", "1"}, {"LANG", "C"}}));
  const auto& b = s.benchmarks[1];
  EXPECT_EQ(b.instances, 3);
  EXPECT_EQ(b.iterations, 1);
  EXPECT_EQ(b.burn_in, 0);
  EXPECT_EQ(b.warmup, 0);
  EXPECT_EQ(b.timeout_s, 0);
  EXPECT_EQ(b.max_failures, 1);
  EXPECT_EQ(b.metrics, Argv{"cpu_time"});
  // Merged: the suite's names keep their place, the benchmark's values win, new names follow.
  EXPECT_EQ(b.variants[0].env,
            (KeyValues{{"OMP_NUM_THREADS", "1"}, {"LANG", "en_US.UTF-8"}, {"EXTRA", "x"}}));
}

TEST(SuiteParse, TimeoutUnits) {
  const std::pair<std::string, double> cases[] = {{"500ms", 0.5}, {"30s", 30},  {"2m", 120},
                                                  {"1h", 3600},   {"1.5", 1.5}, {"45", 45},
                                                  {"0", 0},       {"none", 0},  {"250us", 250e-6}};
  for (const auto& [text, seconds] : cases) {
    const Suite s = parse("timeout: " + text + "\nbenchmarks:\n  - {name: t, command: [x]}\n");
    ASSERT_EQ(s.benchmarks.size(), 1u) << text;
    EXPECT_DOUBLE_EQ(s.benchmarks[0].timeout_s, seconds) << text;
  }
}

TEST(SuiteParse, UntilDecidedIsAFlagOrABudget) {
  const std::string list = "benchmarks:\n  - {name: t, command: [x]}\n";
  EXPECT_FALSE(parse(list).until_decided.has_value());
  EXPECT_FALSE(parse("until_decided: false\n" + list).until_decided.has_value());
  const auto on = parse("until_decided: true\n" + list).until_decided;
  ASSERT_TRUE(on.has_value());
  EXPECT_EQ(on->max_instances, 0);
  const auto budget =
      parse("until_decided: {max_instances: 30, max_time: 10m, round: 2}\n" + list).until_decided;
  ASSERT_TRUE(budget.has_value());
  EXPECT_EQ(budget->max_instances, 30);
  EXPECT_DOUBLE_EQ(budget->max_time_s, 600);
  EXPECT_EQ(budget->round, 2);
}

TEST(SuiteParse, GateRequiresTheChannelsListed) {
  const std::string list = "benchmarks:\n  - {name: t, command: [x]}\n";
  EXPECT_TRUE(parse(list).gate_require.empty());
  EXPECT_EQ(parse("gate: {require: [instructions, wall_time]}\n" + list).gate_require,
            (std::vector<std::string>{"instructions", "wall_time"}));
}

TEST(SuiteParse, LoadSuiteReadsTheFile) {
  testing::TempDir dir;
  const std::string path = dir.file("nightly.yml");
  testing::write_file(path, "benchmarks:\n  - {name: a, command: [./build/a]}\n");
  auto s = load_suite(path);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->path, path);
  EXPECT_EQ(s->name, "nightly");
  EXPECT_EQ(s->benchmarks[0].variants[0].cwd, dir.path().string());
  EXPECT_EQ(s->benchmarks[0].variants[0].command, Argv{"./build/a"});
}

TEST(SuiteParse, MergeKeysShareSettingsThroughExtensionKeys) {
  const Suite s = parse(
      "x-heavy: &heavy {instances: 20, env: {BIG: '1'}}\n"
      "benchmarks:\n"
      "  - <<: *heavy\n"
      "    name: a\n"
      "    command: [a]\n"
      "  - <<: *heavy\n"
      "    name: b\n"
      "    command: [b]\n"
      "    instances: 3\n");
  EXPECT_EQ(s.benchmarks[0].instances, 20);
  EXPECT_EQ(env_of(s.benchmarks[0].variants[0], "BIG"), "1");
  EXPECT_EQ(s.benchmarks[1].instances, 3);  // written keys win over merged ones
}

TEST(SuiteParse, TheFormatExampleParses) {
  const Suite s = parse(
      "name: quickstart\n"
      "schedule: sequential\n"
      "instances: 5\n"
      "iterations: 10\n"
      "burn_in: 2\n"
      "warmup: 1\n"
      "timeout: 30s\n"
      "max_failures: 3\n"
      "metrics: [wall_time]\n"
      "env: {OMP_NUM_THREADS: \"1\"}\n"
      "cwd: .\n"
      "variants:\n"
      "  A: {}\n"
      "  B: {env: {FEATURE: \"on\"}}\n"
      "benchmarks:\n"
      "  - name: sort\n"
      "    command: [./build/examples/sort_bench, --n, \"{n}\"]\n"
      "    params: {n: [1000, 100000], algo: [std, radix]}\n"
      "    instances: 10\n"
      "    variants:\n"
      "      old: {command: [/opt/old/sort_bench, --n, \"{n}\"]}\n"
      "      new: {args: [--fast]}\n"
      "  - name: shell-pipeline\n"
      "    shell: true\n"
      "    command: \"seq 100000 | sort -n > /dev/null\"\n");
  ASSERT_EQ(s.benchmarks.size(), 5u);
  EXPECT_EQ(s.benchmarks[3].name, "sort/n=100000/algo=radix");
  EXPECT_EQ(s.benchmarks[3].instances, 10);
  EXPECT_EQ(s.benchmarks[3].variants[1].command,
            (Argv{"./build/examples/sort_bench", "--n", "100000", "--fast"}));
  const auto& pipe = s.benchmarks[4];
  EXPECT_EQ(pipe.instances, 5);
  ASSERT_EQ(pipe.variants.size(), 2u);
  EXPECT_EQ(pipe.variants[1].name, "B");
  EXPECT_EQ(env_of(pipe.variants[1], "FEATURE"), "on");
  EXPECT_EQ(env_of(pipe.variants[1], "OMP_NUM_THREADS"), "1");
}

TEST(SuiteParse, MixedPlanCountsAreInheritedAndOverridden) {
  const Suite s = parse(
      "schedule: duet\n"
      "duet_repetitions: 4\n"
      "benchmarks:\n"
      "  - name: a\n"
      "    command: [echo]\n"
      "  - name: b\n"
      "    command: [echo]\n"
      "    sync_repetitions: 2\n"
      "    sequential_repetitions: 3\n");
  EXPECT_EQ(s.schedule, "duet");
  ASSERT_EQ(s.benchmarks.size(), 2u);
  EXPECT_EQ(s.benchmarks[0].duet_repetitions, 4);
  EXPECT_EQ(s.benchmarks[0].sync_repetitions, 0);
  EXPECT_TRUE(s.benchmarks[0].mixed_plan());
  EXPECT_EQ(s.benchmarks[1].duet_repetitions, 4);
  EXPECT_EQ(s.benchmarks[1].sync_repetitions, 2);
  EXPECT_EQ(s.benchmarks[1].sequential_repetitions, 3);
  EXPECT_FALSE(parse("benchmarks:\n  - name: c\n    command: [echo]\n").benchmarks[0].mixed_plan());
}

TEST(SuiteParse, NegativeRepetitionsAreAnErrorAtTheirLine) {
  auto r = parse_suite("benchmarks:\n  - name: a\n    command: [echo]\n    duet_repetitions: -1\n",
                       "/proj/suite.yml");
  suite_test::expect_error_at(r, "/proj/suite.yml", 4, "duet_repetitions");
}

}  // namespace
}  // namespace benchguard
