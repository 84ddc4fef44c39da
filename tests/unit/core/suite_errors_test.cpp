// Every way a suite can be wrong, each reported as "FILE:LINE: message" with the key point.
#include <gtest/gtest.h>

#include "core/suite.hpp"
#include "support/test_support.hpp"
#include "unit/core/suite_test_util.hpp"

namespace benchguard {
namespace {

constexpr const char* kFile = "conf/suite.yml";

// `line` 0: the error names the file but no line.
void expect_error(const std::string& yaml, int line, const std::string& point) {
  SCOPED_TRACE(yaml);
  suite_test::expect_error_at(parse_suite(yaml, kFile), kFile, line, point);
}

// A valid benchmark list, for errors elsewhere in the file (3 lines).
const std::string kBenchmarks = "benchmarks:\n  - name: a\n    command: [x]\n";

TEST(SuiteErrors, MalformedYamlUsesTheParserPosition) {
  expect_error("benchmarks:\n  - name: a\n    command: [x, y\n", 4, "invalid YAML");
  expect_error("instances: 1\n  bad: indent\n", 2, "invalid YAML");
  expect_error("benchmarks:\n\t- name: a\n", 2,
               "(line 2 indents with a tab; YAML allows only spaces)");
}

TEST(SuiteErrors, AHookIsOneShellCommand) {
  expect_error("prepare: [reset, db]\n" + kBenchmarks, 1,
               "prepare must be a shell command (a string run by /bin/sh -c), got a list");
  expect_error("benchmarks:\n  - name: a\n    command: [x]\n    setup: {a: b}\n", 4,
               "setup must be a shell command");
  expect_error(
      "benchmarks:\n  - name: a\n    command: [x]\n    variants:\n      A: {cleanup: [x]}\n", 5,
      "cleanup must be a shell command");
  expect_error("benchmarks:\n  - name: a\n    command: [x]\n    prepar: sync\n", 4,
               "did you mean 'prepare'?");
}

TEST(SuiteErrors, UntilDecidedNamesTheBadSetting) {
  const std::string list = "benchmarks:\n  - {name: t, command: [x]}\n";
  expect_error("until_decided: {round: 0}\n" + list, 1, "round");
  expect_error("until_decided:\n  max_time: soon\n" + list, 2, "max_time must be a duration");
  expect_error("until_decided:\n  max_instances: 1\n" + list, 2, "max_instances");
  expect_error("until_decided: {rounds: 2}\n" + list, 1, "rounds");
  expect_error("until_decided: maybe\n" + list, 1, "until_decided");
}

TEST(SuiteErrors, GateRequireNamesTheBadChannel) {
  expect_error("gate: {require: []}\n" + kBenchmarks, 1, "gate require is empty");
  expect_error("gate:\n  require: wall_time\n" + kBenchmarks, 2,
               "gate require must be a list, got");
  expect_error("gate:\n  require:\n    - wall_time\n    - Wall Time\n" + kBenchmarks, 4,
               "metric name 'Wall Time' is invalid");
  expect_error("gate: {require: [wall_time, wall_time]}\n" + kBenchmarks, 1, "listed twice");
  expect_error("gate: {requires: [wall_time]}\n" + kBenchmarks, 1, "requires");
}

TEST(SuiteErrors, MeasureTakesInstructionsOrCachesOnly) {
  expect_error("measure: [instructions, cycles]\n" + kBenchmarks, 1,
               "measure takes instructions (Valgrind's count of executed instructions) or caches "
               "(the same with its cache simulation), not 'cycles'");
  expect_error("benchmarks:\n  - name: a\n    command: [x]\n    measure: {a: 1}\n", 4,
               "measure must be a list");
  const auto ok = parse_suite("measure: instructions\n" + kBenchmarks +
                                  "  - {name: b, command: [y], measure: [instructions]}\n",
                              kFile);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  for (const auto& b : ok->benchmarks) EXPECT_TRUE(b.counts_instructions()) << b.name;
  const auto none = parse_suite(kBenchmarks, kFile);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->benchmarks[0].counts_instructions());
}

TEST(SuiteErrors, LayoutIsNativeRandomizedOrFixed) {
  expect_error("layout: shuffled\n" + kBenchmarks, 1,
               "layout is native (the default), randomized or fixed, not 'shuffled'");
  const auto ok = parse_suite("layout: randomized\n" + kBenchmarks +
                                  "  - {name: b, command: [y], layout: fixed}\n"
                                  "  - {name: c, command: [z], layout: native}\n",
                              kFile);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  ASSERT_EQ(ok->benchmarks.size(), 3U);
  EXPECT_EQ(ok->benchmarks[0].layout, "randomized");  // inherited from the suite
  EXPECT_EQ(ok->benchmarks[1].layout, "fixed");
  EXPECT_EQ(ok->benchmarks[2].layout, "");  // native: as the kernel gives it
}

TEST(SuiteErrors, MissingFile) {
  testing::TempDir dir;
  auto r = load_suite(dir.file("nope.yml"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "cannot read " + dir.file("nope.yml") + ": No such file or directory");
}

TEST(SuiteErrors, NotASuite) {
  expect_error("", 0, "suite is empty");
  expect_error("- a\n- b\n", 1, "a suite must be a mapping, got a list");
  expect_error("name: x\n", 0, "suite has no 'benchmarks' list");
  expect_error("benchmarks: []\n", 1, "benchmarks is empty");
  expect_error("benchmarks: {a: 1}\n", 1, "benchmarks must be a list, got a mapping");
  expect_error("benchmarks:\n  - just-a-name\n", 2, "each benchmark must be a mapping");
  expect_error("? [a]\n: 1\n" + kBenchmarks, 1, "keys in a suite must be strings, got a list");
}

TEST(SuiteErrors, UnknownKeySuggestsTheClosest) {
  expect_error("instance: 5\n" + kBenchmarks, 1,
               "unknown key 'instance' (did you mean 'instances'?)");
  expect_error(kBenchmarks + "    iteration: 3\n", 4,
               "unknown key 'iteration' (did you mean 'iterations'?)");
  expect_error(kBenchmarks + "    burn-in: 3\n", 4, "(did you mean 'burn_in'?)");
  expect_error(kBenchmarks + "    runs: 3\n", 4, "(did you mean 'instances'?)");
  expect_error(kBenchmarks + "    variants:\n      A: {arg: [x]}\n", 5,
               "unknown key 'arg' (did you mean 'args'?)");
  expect_error(kBenchmarks + "    frobnicate: 3\n", 4,
               "unknown key 'frobnicate' (expected one of: name, command, params");
}

TEST(SuiteErrors, DuplicateKey) {
  expect_error("instances: 1\ninstances: 2\n" + kBenchmarks, 2,
               "duplicate key 'instances' (first at line 1)");
  expect_error(kBenchmarks + "    variants:\n      A: {}\n      A: {}\n", 6, "duplicate key 'A'");
}

TEST(SuiteErrors, WrongTypes) {
  expect_error("instances: five\n" + kBenchmarks, 1,
               "instances must be a positive integer, got 'five'");
  expect_error("instances: 1.5\n" + kBenchmarks, 1, "instances must be a positive integer");
  expect_error("instances: [1]\n" + kBenchmarks, 1,
               "instances must be a positive integer, got a list");
  expect_error(kBenchmarks + "    shell: maybe\n", 4, "shell must be true or false, got 'maybe'");
  expect_error(kBenchmarks + "    name: [a]\n", 4, "duplicate key 'name'");
  expect_error("benchmarks:\n  - name: [a]\n    command: [x]\n", 2,
               "name must be a string, got a list");
  expect_error("cwd: {a: 1}\n" + kBenchmarks, 1, "cwd must be a string, got a mapping");
  expect_error("env: [A]\n" + kBenchmarks, 1, "env must be a mapping, got a list");
  expect_error("env:\n  A:\n" + kBenchmarks, 2, "env A has no value");
  expect_error("env: {A: [1]}\n" + kBenchmarks, 1, "env A must be a string, got a list");
  expect_error(kBenchmarks + "    variants:\n      A: [x]\n", 5,
               "variant 'A' must be a mapping, got a list");
  expect_error(kBenchmarks + "    variants:\n      A: {args: --fast}\n", 5,
               "args must be a list, got '--fast'");
}

TEST(SuiteErrors, CountsOutOfRange) {
  expect_error("instances: 0\n" + kBenchmarks, 1, "instances must be a positive integer, got '0'");
  expect_error(kBenchmarks + "    iterations: 0\n", 4, "iterations must be a positive integer");
  expect_error(kBenchmarks + "    burn_in: -1\n", 4,
               "burn_in must be a non-negative integer, got '-1'");
  expect_error(kBenchmarks + "    warmup: -2\n", 4, "warmup must be a non-negative integer");
  expect_error(kBenchmarks + "    max_failures: 0\n", 4, "max_failures must be a positive integer");
  expect_error(kBenchmarks + "    instances: 99999999999\n", 4,
               "instances must be at most 1000000, got 99999999999");
}

TEST(SuiteErrors, BadTimeout) {
  for (const char* bad : {"3 weeks", "-1s", "5x", "[1]", "fast"}) {
    expect_error(std::string("timeout: ") + bad + "\n" + kBenchmarks, 1,
                 "timeout must be a duration such as 500ms, 30s, 2m or 1h");
  }
}

TEST(SuiteErrors, UnknownScheduleListsTheValidOnes) {
  expect_error(
      "schedule: duett\n" + kBenchmarks, 1,
      "unknown schedule 'duett' (did you mean 'duet'?); valid schedules: interleaved, sequential, "
      "alternate, randomized, duet, sync-duet");
  expect_error("schedule: random\n" + kBenchmarks, 1, "unknown schedule 'random'");
}

TEST(SuiteErrors, CommandShapes) {
  expect_error("benchmarks:\n  - name: a\n    command: ./x --n 1\n", 3,
               "command is a string; write it as a list, or set shell: true");
  expect_error("benchmarks:\n  - name: a\n    shell: true\n    command: [sh, x]\n", 4,
               "with shell: true, command must be a string");
  expect_error("benchmarks:\n  - name: a\n    command: []\n", 3, "command is empty");
  expect_error("benchmarks:\n  - name: a\n    shell: true\n    command: ''\n", 4,
               "command is empty");
  expect_error("benchmarks:\n  - name: a\n    command: {x: 1}\n", 3,
               "command must be a list of strings (or a string with shell: true), got a mapping");
  expect_error("benchmarks:\n  - name: a\n    command: [./x, {n}]\n", 3,
               "put placeholders in quotes: \"{n}\"");
  expect_error("benchmarks:\n  - name: a\n    command:\n      - ./x\n      - [y]\n", 5,
               "command items must be strings, got a list");
  // A suite-wide variant's string command only fits shell benchmarks.
  expect_error("variants:\n  A: {command: 'x y'}\n" + kBenchmarks, 2,
               "command is a string; write it as a list, or set shell: true (variant 'A' of "
               "benchmark 'a')");
}

TEST(SuiteErrors, MissingCommand) {
  expect_error("benchmarks:\n  - name: a\n  - name: b\n    command: [x]\n", 2,
               "benchmark 'a' has no command");
  expect_error(
      "benchmarks:\n  - name: a\n    variants:\n      old: {command: [x]}\n      new: {}\n", 5,
      "benchmark 'a' has no command and variant 'new' does not set one");
}

TEST(SuiteErrors, Names) {
  expect_error("benchmarks:\n  - command: [x]\n", 2, "benchmark has no name");
  expect_error("benchmarks:\n  - name: ''\n    command: [x]\n", 2, "name is empty");
  expect_error("benchmarks:\n  - name: my bench\n    command: [x]\n", 2,
               "name 'my bench' contains whitespace");
  expect_error("name: ''\n" + kBenchmarks, 1, "name is empty");
  expect_error(kBenchmarks + "    variants:\n      'fast one': {}\n", 5,
               "variant name 'fast one' contains whitespace");
  expect_error(kBenchmarks + "    variants:\n      '': {}\n", 5, "variant name is empty");
  expect_error(kBenchmarks + "    variants: {}\n", 4, "variants is empty");
}

TEST(SuiteErrors, NamesAreTextWithoutControlCharacters) {
  expect_error("benchmarks:\n  - name: \"a\\e[31m\"\n    command: [x]\n", 2,
               "name \"a\\x1b[31m\" contains the control character U+001B at offset 1");
  expect_error(kBenchmarks + "    variants:\n      \"v\\u202e\": {}\n", 5,
               "variant name \"v\\u{202e}\" contains the bidirectional control U+202E");
  // A parameter value becomes part of the benchmark's name: a newline would forge a row in
  // a Markdown table.
  expect_error(kBenchmarks + "    params:\n      n: [\"1\", \"2\\n| forged |\"]\n", 5,
               "param 'n' value \"2\\x0a| forged |\" contains the control character U+000A");
  // Expanded names are held to the name length limit.
  expect_error(kBenchmarks + "    params:\n      n: [\"" + std::string(4095, 'x') + "\"]\n", 2,
               "benchmark name \"a/n=xxx");
}

TEST(SuiteErrors, DuplicateNamesAfterExpansion) {
  expect_error(kBenchmarks + "  - name: a\n    command: [y]\n", 4,
               "duplicate benchmark name 'a' (first at line 2)");
  expect_error(
      "benchmarks:\n"
      "  - name: sort/n=1\n"
      "    command: [x]\n"
      "  - name: sort\n"
      "    command: [x]\n"
      "    params: {n: [2, 1]}\n",
      4, "duplicate benchmark name 'sort/n=1' (first at line 2)");
}

TEST(SuiteErrors, Params) {
  expect_error(kBenchmarks + "    params: {n: 1000}\n", 4,
               "param 'n' must be a list of values, got '1000'");
  expect_error(kBenchmarks + "    params:\n      n: []\n", 5, "param 'n' has no values");
  expect_error(kBenchmarks + "    params: [n]\n", 4, "params must be a mapping, got a list");
  expect_error(kBenchmarks + "    params: {}\n", 4, "params is empty");
  expect_error(kBenchmarks + "    params: {n: [1, {a: 1}]}\n", 4,
               "param 'n' items must be strings, got a mapping");
  expect_error(kBenchmarks + "    params:\n      n: [1, 2, 1]\n", 5, "param 'n' lists '1' twice");
  expect_error(kBenchmarks + "    params: {'a b': [1]}\n", 4, "param name 'a b' must be letters");
}

TEST(SuiteErrors, MetricNames) {
  expect_error("metrics: [wall_time, Wall-Time]\n" + kBenchmarks, 1,
               "metric name 'Wall-Time' is invalid");
  expect_error(kBenchmarks + "    metrics:\n      - 9lives\n", 5,
               "metric name '9lives' is invalid");
  expect_error("metrics: []\n" + kBenchmarks, 1, "metrics is empty");
  expect_error("metrics: wall_time\n" + kBenchmarks, 1, "metrics must be a list");
  expect_error("metrics: [cpu_time, cpu_time]\n" + kBenchmarks, 1,
               "metric 'cpu_time' is listed twice");
  // Custom metrics reported by benchmarks are fine.
  EXPECT_TRUE(parse_suite("metrics: [rows_per_s, gc.pause_ms, _x]\n" + kBenchmarks, kFile).ok());
}

TEST(SuiteErrors, MergeKeyMustMergeMappings) {
  expect_error("benchmarks:\n  - <<: 3\n    name: a\n    command: [x]\n", 2,
               "'<<' must merge a mapping or a list of mappings");
  // Unknown keys arriving through a merge point at the anchor that holds them.
  expect_error("x-d: &d {instance: 3}\nbenchmarks:\n  - <<: *d\n    name: a\n    command: [x]\n", 1,
               "unknown key 'instance'");
}

}  // namespace
}  // namespace benchguard

namespace benchguard {
namespace {

TEST(SuiteLimits, CountsAboveTheirLimitsNameTheLimit) {
  expect_error("instances: 2147483647\n" + kBenchmarks, 1,
               "instances must be at most 1000000, got 2147483647");
  // burn_in + iterations must fit an int: each is limited to 10^8.
  expect_error("benchmarks:\n  - name: a\n    command: [x]\n    burn_in: 2000000000\n", 4,
               "burn_in must be at most 100000000, got 2000000000");
  expect_error("benchmarks:\n  - name: a\n    command: [x]\n    iterations: 2147483647\n", 4,
               "iterations must be at most 100000000");
  expect_error("benchmarks:\n  - name: a\n    command: [x]\n    duet_repetitions: 1000001\n", 4,
               "duet_repetitions must be at most 1000000");
}

TEST(SuiteLimits, AParameterProductTooLargeIsRefusedBeforeItIsBuilt) {
  // 10^7 members: refused from the sizes alone, naming them.
  std::string yaml = "benchmarks:\n  - name: big\n    command: [x]\n    params:\n";
  for (char p = 'a'; p < 'a' + 7; ++p)
    yaml += std::string("      ") + p + ": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n";
  expect_error(yaml, 2,
               "params of 'big' make more than 100000 benchmarks (10 x 10 x 10 x 10 x 10 x 10 "
               "x 10), and a suite may have at most 100000");
}

TEST(SuiteLimits, CheckCountsCoversCountsSetAfterParsing) {
  BenchmarkSpec b;
  b.name = "x";
  EXPECT_TRUE(check_counts(b).ok());
  b.instances = kMaxInstances + 1;
  auto r = check_counts(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "benchmark 'x': instances 1000001 is above the limit of 1000000");
  b.instances = 1;
  b.burn_in = kMaxIterations + 1;
  EXPECT_FALSE(check_counts(b).ok());
}

}  // namespace
}  // namespace benchguard
