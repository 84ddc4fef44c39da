// Expansion of a valid suite: variants, params and substitution, shell commands, cwd.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "core/suite.hpp"
#include "core/suite_raw.hpp"
#include "unit/core/suite_test_util.hpp"

namespace benchguard {
namespace {

namespace fs = std::filesystem;
using Argv = std::vector<std::string>;

using suite_test::env_of;
using suite_test::parse;

TEST(SuiteExpand, SubstituteReplacesOnlyDeclaredParams) {
  using suite_detail::substitute;
  const KeyValues p = {{"n", "10"}, {"mode", "{n}"}};
  EXPECT_EQ(substitute("{n}-{n}", p), "10-10");
  EXPECT_EQ(substitute("{mode}", p), "{n}");  // values are not substituted again
  EXPECT_EQ(substitute("{m} {} {{n}} }{", p), "{m} {} {10} }{");
  EXPECT_EQ(substitute("{n", p), "{n");
  EXPECT_EQ(substitute("{n}", {}), "{n}");
}

TEST(SuiteExpand, HooksAreInheritedHookByHookAndTakeParamsAsShellWords) {
  const Suite s = parse(
      "setup: start-server\n"
      "prepare: sync\n"
      "cleanup: stop-server\n"
      "benchmarks:\n"
      "  - name: q\n"
      "    params: {db: [small, \"it's big\"]}\n"
      "    command: [query, '{db}']\n"
      "    prepare: reset {db}\n"
      "    conclude: check {db}\n"
      "    variants:\n"
      "      A:\n"
      "      B: {prepare: 'reset --fast {db}', cleanup: ''}\n"
      "  - name: plain\n"
      "    command: [x]\n");
  ASSERT_EQ(s.benchmarks.size(), 3u);
  const auto& small = s.benchmarks[0];
  ASSERT_EQ(small.variants.size(), 2u);
  const Hooks& a = small.variants[0].hooks;
  EXPECT_EQ(a.setup, "start-server");
  EXPECT_EQ(a.prepare, "reset small");
  EXPECT_EQ(a.conclude, "check small");
  EXPECT_EQ(a.cleanup, "stop-server");
  const Hooks& b = small.variants[1].hooks;
  EXPECT_EQ(b.prepare, "reset --fast small");
  EXPECT_EQ(b.conclude, "check small");
  EXPECT_EQ(b.cleanup, "");  // "" drops the inherited hook
  EXPECT_FALSE(Hooks{}.any());
  EXPECT_TRUE(b.any());
  // A value goes into the shell text as one word, as in a shell: true command.
  EXPECT_EQ(s.benchmarks[1].variants[0].hooks.prepare, "reset 'it'\\''s big'");
  const Hooks& plain = s.benchmarks[2].variants[0].hooks;
  EXPECT_EQ(plain.setup, "start-server");
  EXPECT_EQ(plain.prepare, "sync");
  EXPECT_EQ(plain.conclude, "");
}

TEST(SuiteExpand, SuiteWideVariantsApplyUnlessBenchmarkDeclaresItsOwn) {
  const Suite s = parse(
      "variants:\n"
      "  A: {}\n"
      "  B: {env: {FEATURE: 'on'}}\n"
      "benchmarks:\n"
      "  - name: shared\n"
      "    command: [run]\n"
      "  - name: own\n"
      "    command: [run]\n"
      "    variants:\n"
      "      only:\n");
  ASSERT_EQ(s.benchmarks.size(), 2u);
  const auto& shared = s.benchmarks[0].variants;
  ASSERT_EQ(shared.size(), 2u);
  EXPECT_EQ(shared[0].name, "A");
  EXPECT_EQ(shared[1].name, "B");
  EXPECT_EQ(env_of(shared[0], "FEATURE"), "<unset>");
  EXPECT_EQ(env_of(shared[1], "FEATURE"), "on");
  const auto& own = s.benchmarks[1].variants;
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own[0].name, "only");
  EXPECT_EQ(own[0].command, Argv{"run"});
}

TEST(SuiteExpand, VariantCommandReplacesArgsAppendEnvMergesCwdOverrides) {
  const Suite s = parse(
      "benchmarks:\n"
      "  - name: sort\n"
      "    command: [./sort_bench, --n, '10']\n"
      "    env: {MODE: base, KEEP: k}\n"
      "    cwd: build\n"
      "    variants:\n"
      "      old: {command: [/opt/old/sort_bench, --n, '10']}\n"
      "      new: {args: [--fast, --threads, 2], env: {MODE: fast, ADDED: a}}\n"
      "      both: {command: [other], args: [--x], cwd: /abs/dir}\n");
  const auto& v = s.benchmarks[0].variants;
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].command, (Argv{"/opt/old/sort_bench", "--n", "10"}));
  EXPECT_EQ(v[0].env, (KeyValues{{"MODE", "base"}, {"KEEP", "k"}}));
  EXPECT_EQ(v[0].cwd, "/proj/build");
  EXPECT_EQ(v[1].command, (Argv{"./sort_bench", "--n", "10", "--fast", "--threads", "2"}));
  EXPECT_EQ(v[1].env, (KeyValues{{"MODE", "fast"}, {"KEEP", "k"}, {"ADDED", "a"}}));
  EXPECT_EQ(v[2].command, (Argv{"other", "--x"}));
  EXPECT_EQ(v[2].cwd, "/abs/dir");
}

TEST(SuiteExpand, BenchmarkWithoutCommandWhenEveryVariantHasOne) {
  const Suite s = parse(
      "benchmarks:\n"
      "  - name: cmp\n"
      "    variants:\n"
      "      old: {command: [/opt/old/x]}\n"
      "      new: {command: [/opt/new/x]}\n");
  EXPECT_EQ(s.benchmarks[0].variants[0].command, Argv{"/opt/old/x"});
  EXPECT_EQ(s.benchmarks[0].variants[1].command, Argv{"/opt/new/x"});
}

TEST(SuiteExpand, ParamsExpandAsProductInDeclarationOrder) {
  const Suite s = parse(
      "benchmarks:\n"
      "  - name: sort\n"
      "    command: [./sort_bench, --n, '{n}', '--algo={algo}']\n"
      "    params: {n: [1000, 100000], algo: [std, radix]}\n"
      "    env: {SIZE: 'n={n}'}\n"
      "    cwd: 'out/{algo}'\n"
      "    variants: {A: {}, B: {args: ['--seed={n}']}}\n");
  ASSERT_EQ(s.benchmarks.size(), 4u);
  const Argv names = {s.benchmarks[0].name, s.benchmarks[1].name, s.benchmarks[2].name,
                      s.benchmarks[3].name};
  EXPECT_EQ(names, (Argv{"sort/n=1000/algo=std", "sort/n=1000/algo=radix", "sort/n=100000/algo=std",
                         "sort/n=100000/algo=radix"}));
  const auto& b = s.benchmarks[1];
  EXPECT_EQ(b.base_name, "sort");
  EXPECT_EQ(b.line, 2);
  EXPECT_EQ(b.params, (KeyValues{{"n", "1000"}, {"algo", "radix"}}));
  ASSERT_EQ(b.variants.size(), 2u);
  EXPECT_EQ(b.variants[0].command, (Argv{"./sort_bench", "--n", "1000", "--algo=radix"}));
  EXPECT_EQ(b.variants[1].command,
            (Argv{"./sort_bench", "--n", "1000", "--algo=radix", "--seed=1000"}));
  EXPECT_EQ(env_of(b.variants[0], "SIZE"), "n=1000");
  EXPECT_EQ(b.variants[0].cwd, "/proj/out/radix");
}

TEST(SuiteExpand, BracesThatNameNoParamAreLeftAlone) {
  const Suite s = parse(
      "benchmarks:\n"
      "  - name: awk\n"
      "    command: [awk, '{print $1} {n}', '{other}', '{', '}{n']\n"
      "    params: {n: [3]}\n");
  EXPECT_EQ(s.benchmarks[0].variants[0].command,
            (Argv{"awk", "{print $1} 3", "{other}", "{", "}{n"}));
}

TEST(SuiteExpand, ParamValuesKeepTheirYamlText) {
  const Suite s = parse(
      "benchmarks:\n"
      "  - name: p\n"
      "    command: [x, '{v}']\n"
      "    params: {v: [0.50, 1e3, '007', true, -1]}\n");
  Argv names;
  for (const auto& b : s.benchmarks) names.push_back(b.name);
  EXPECT_EQ(names, (Argv{"p/v=0.50", "p/v=1e3", "p/v=007", "p/v=true", "p/v=-1"}));
  EXPECT_EQ(s.benchmarks[0].variants[0].command, (Argv{"x", "0.50"}));
}

TEST(SuiteExpand, ShellStringRunsThroughBinSh) {
  const Suite s = parse(
      "benchmarks:\n"
      "  - name: shell-pipeline\n"
      "    shell: true\n"
      "    command: \"seq {n} | sort -n > /dev/null\"\n"
      "    params: {n: [100]}\n"
      "    variants:\n"
      "      plain:\n"
      "      reversed: {args: ['-r']}\n"
      "      awk: {command: \"seq 3 | awk '{print}'\"}\n");
  const auto& v = s.benchmarks[0].variants;
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].command, (Argv{"/bin/sh", "-c", "seq 100 | sort -n > /dev/null"}));
  EXPECT_EQ(v[1].command, (Argv{"/bin/sh", "-c", "seq 100 | sort -n > /dev/null -r"}));
  EXPECT_EQ(v[2].command, (Argv{"/bin/sh", "-c", "seq 3 | awk '{print}'"}));
}

TEST(SuiteExpand, ShellScriptsTakeParameterValuesAsSingleWords) {
  // Values that, pasted into the script, would run commands or split into words.
  const Suite s = parse(
      "benchmarks:\n"
      "  - name: p\n"
      "    shell: true\n"
      "    command: \"printf %s {v}\"\n"
      "    params: {v: ['plain-1.5', 'x;echo${IFS}injected', \"it's\", '$(echo injected)', "
      "'a|b', '']}\n");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"plain-1.5", "printf %s plain-1.5"},
      {"x;echo${IFS}injected", "printf %s 'x;echo${IFS}injected'"},
      {"it's", "printf %s 'it'\\''s'"},
      {"$(echo injected)", "printf %s '$(echo injected)'"},
      {"a|b", "printf %s 'a|b'"},
      {"", "printf %s ''"}};
  ASSERT_EQ(s.benchmarks.size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const auto& command = s.benchmarks[k].variants[0].command;
    ASSERT_EQ(command.size(), 3U);
    EXPECT_EQ(command[2], expected[k].second);
    // And /bin/sh reads each back as the one word it was.
    FILE* sh = popen(command[2].c_str(), "r");
    ASSERT_NE(sh, nullptr);
    std::string printed;
    char buf[256];
    while (const std::size_t n = std::fread(buf, 1, sizeof buf, sh)) printed.append(buf, n);
    EXPECT_EQ(pclose(sh), 0);
    EXPECT_EQ(printed, expected[k].first) << command[2];
  }
}

TEST(SuiteExpand, CwdResolvesAgainstTheSuiteDirectory) {
  const Suite s = parse(
      "cwd: work/./sub/\n"
      "benchmarks:\n"
      "  - {name: a, command: [x]}\n"
      "  - {name: b, command: [x], cwd: ..}\n"
      "  - {name: c, command: [x], cwd: /tmp}\n");
  EXPECT_EQ(s.benchmarks[0].variants[0].cwd, "/proj/work/sub");
  EXPECT_EQ(s.benchmarks[1].variants[0].cwd, "/");
  EXPECT_EQ(s.benchmarks[2].variants[0].cwd, "/tmp");
}

TEST(SuiteExpand, EmptyPathResolvesAgainstTheCurrentDirectory) {
  auto s = parse_suite("benchmarks:\n  - {name: a, command: [x], cwd: sub}\n", "");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->name, "suite");
  EXPECT_EQ(s->benchmarks[0].variants[0].cwd, (fs::current_path() / "sub").string());
}

}  // namespace
}  // namespace benchguard
