// `benchguard pytest`: a pytest selection's benchmark tests collected and run as fresh pytest
// processes; what it says when pytest cannot collect the selection or finds no benchmark test.
// (Its verdicts rest on real timings: tests/timing/cli_pytest_ab_test.cpp.)
#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::run_program;
using testing::TempDir;
using testing::write_file;

bool has_pytest() {
  return run_program({"/usr/bin/python3", "-c", "import pytest"}, {}).exit_code == 0;
}

TEST(CliPytest, ACollectionErrorShowsPytestsOwnMessage) {
  if (!has_pytest()) GTEST_SKIP() << "no /usr/bin/python3 with pytest";
  TempDir dir;
  write_file(dir.file("test_broken.py"), "def test_x(benchmark_time)\n    pass\n");
  const auto r = run_cli(
      {"pytest", "--python", "/usr/bin/python3", "--db", dir.file("bg.db"), "--", "test_broken.py"},
      dir.path().string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("SyntaxError"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("benchguard: pytest could not collect test_broken.py with "
                       "/usr/bin/python3 (exit code 2; its output above)"),
            std::string::npos)
      << r.err;
}

TEST(CliPytest, ASelectionWithoutBenchmarkTestsIsAOneLineError) {
  if (!has_pytest()) GTEST_SKIP() << "no /usr/bin/python3 with pytest";
  TempDir dir;
  write_file(dir.file("test_plain.py"), "def test_x():\n    assert True\n");
  const auto r = run_cli(
      {"pytest", "--python", "/usr/bin/python3", "--db", dir.file("bg.db"), "--", "test_plain.py"},
      dir.path().string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("no test in 'test_plain.py' takes a benchmark fixture"), std::string::npos)
      << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
}

TEST(CliPytest, AnInterpreterWithoutPytestIsNamed) {
  TempDir dir;
  write_file(dir.file("nopython"), "#!/bin/sh\necho 'No module named pytest' >&2\nexit 1\n");
  ASSERT_EQ(run_program({"/bin/chmod", "+x", dir.file("nopython")}, {}).exit_code, 0);
  const auto r = run_cli({"pytest", "--python", dir.file("nopython"), "--db", dir.file("bg.db")},
                         dir.path().string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("could not run benchguard_pytest's collector (exit code 1"),
            std::string::npos)
      << r.err;
}

TEST(CliPytest, ArgumentsAreChecked) {
  TempDir dir;
  auto r = run_cli({"pytest", "tests/", "--db", dir.file("bg.db")}, dir.path().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("takes pytest's arguments after --, not 'tests/'"), std::string::npos)
      << r.err;
  r = run_cli({"pytest", "--python", "a", "--python", "b", "--null", "--db", dir.file("bg.db")},
              dir.path().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--null runs one interpreter against itself"), std::string::npos) << r.err;
  r = run_cli({"pytest", "--python", "a", "--python", "b", "--python", "c"}, dir.path().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("two interpreters at most"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace benchguard
