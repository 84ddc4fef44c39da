// `benchguard pytest` from one command to a verdict: two "environments" (the same python3
// behind two wrapper scripts, B's making the test sleep twice as long) give `slower` on the
// changed test and not on the unchanged one; --null is an A/A; the packages are recorded, and
// the one B has more (a distribution on its PYTHONPATH) is named by pytest and by compare.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::run_program;
using testing::TempDir;
using testing::write_file;

bool pytest_here() {
  return run_program({"/usr/bin/python3", "-c", "import pytest"}, {}).exit_code == 0;
}

// A test that sleeps $BG_SLEEP_MS in its block, one that does not read it, and a plain test.
void write_tests(const TempDir& dir) {
  write_file(dir.file("test_ab.py"), R"PY(import os
import time

def test_changed(benchmark_time):
    with benchmark_time:
        time.sleep(float(os.environ.get("BG_SLEEP_MS", "4")) / 1000)

def test_same(benchmark_time):
    for _ in range(benchmark_time.iterations):
        with benchmark_time:
            time.sleep(0.004)

def test_not_a_benchmark():
    assert True
)PY");
  std::filesystem::create_directories(dir.file("site/fakepkg-1.0.dist-info"));
  write_file(dir.file("site/fakepkg-1.0.dist-info/METADATA"),
             "Metadata-Version: 2.1\nName: fakepkg\nVersion: 1.0\n");
  write_file(dir.file("py_a"), "#!/bin/sh\nBG_SLEEP_MS=4 exec /usr/bin/python3 \"$@\"\n");
  write_file(dir.file("py_b"), "#!/bin/sh\nPYTHONPATH=\"" + dir.file("site") +
                                   ":$PYTHONPATH\" BG_SLEEP_MS=8 exec /usr/bin/python3 \"$@\"\n");
  for (const char* name : {"py_a", "py_b"})
    EXPECT_EQ(run_program({"/bin/chmod", "+x", dir.file(name)}, {}).exit_code, 0);
}

const nlohmann::json* row_of(const nlohmann::json& j, const std::string& benchmark) {
  for (const auto& m : j["metrics"])
    if (m["metric"] == "wall_time")
      for (const auto& r : m["rows"])
        if (r["benchmark"] == benchmark) return &r;
  return nullptr;
}

TEST(CliPytestAB, TwoInterpretersFromOneCommandToAVerdict) {
  if (!pytest_here()) GTEST_SKIP() << "no /usr/bin/python3 with pytest";
  TempDir dir;
  write_tests(dir);
  const std::string db = dir.file("bg.db");
  const auto r = run_cli({"--format", "json", "pytest", "--python", dir.file("py_a"), "--python",
                          dir.file("py_b"), "--instances", "4", "--db", db, "--", "test_ab.py"},
                         dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The plan is said first: tests, schedule, instances, warm-up and measured iterations.
  EXPECT_NE(r.err.find("2 test(s), A and B, interleaved: 4 instance(s) each"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("1 warm-up iteration(s) (burn-in) then 5 measured"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("packages that differ between A and B: fakepkg (only in B, 1.0)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(testing::schema_problem(r.out), "");
  const auto j = nlohmann::json::parse(r.out);
  const auto* changed = row_of(j, "test_ab.py::test_changed");
  const auto* same = row_of(j, "test_ab.py::test_same");
  ASSERT_NE(changed, nullptr) << r.out;
  ASSERT_NE(same, nullptr) << r.out;
  EXPECT_EQ((*changed)["verdict"], "slower") << changed->dump();
  EXPECT_GT((*changed)["ratio"].get<double>(), 1.5);
  EXPECT_NE((*same)["verdict"], "slower") << same->dump();
  EXPECT_NE((*same)["verdict"], "faster") << same->dump();
  EXPECT_EQ(j["packages_changed"], nlohmann::json::array({"fakepkg (only in B, 1.0)"}));

  auto store = store::open_store(db);
  ASSERT_TRUE(store.ok());
  auto run = (*store)->load_run("latest");
  ASSERT_TRUE(run.ok());
  const std::string* packages = find_value(run->run.artifacts, "python_packages");
  ASSERT_NE(packages, nullptr);
  const auto p = nlohmann::json::parse(*packages);
  EXPECT_TRUE(p["A"].contains("pytest")) << *packages;
  EXPECT_FALSE(p["A"].contains("fakepkg"));
  EXPECT_EQ(p["B"]["fakepkg"], "1.0");
  // compare of the stored run names the difference among its notes.
  const auto c = run_cli({"compare", "--db", db});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("packages that differ between A and B: fakepkg (only in B, 1.0)"),
            std::string::npos)
      << c.out;
  // Every test instance measured its block, not the interpreter's start: 4 instances a side
  // of 2 tests, each with 6 iterations (the first flagged burn-in).
  ASSERT_EQ(run->variants.size(), 4u);
  for (const auto& v : run->variants) {
    ASSERT_EQ(v.instances.size(), 4u) << v.variant.benchmark;
    for (const auto& in : v.instances) EXPECT_EQ(in.iterations.size(), 6u) << v.variant.benchmark;
  }
}

TEST(CliPytestAB, NullIsAnAAOfOneInterpreter) {
  if (!pytest_here()) GTEST_SKIP() << "no /usr/bin/python3 with pytest";
  TempDir dir;
  write_tests(dir);
  const auto r = run_cli({"--format", "json", "pytest", "--python", dir.file("py_b"), "--null",
                          "--instances", "4", "--db", dir.file("bg.db"), "--", "test_ab.py"},
                         dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* name : {"test_ab.py::test_changed", "test_ab.py::test_same"}) {
    const auto* row = row_of(j, name);
    ASSERT_NE(row, nullptr) << name;
    EXPECT_NE((*row)["verdict"], "slower") << row->dump();
    EXPECT_NE((*row)["verdict"], "faster") << row->dump();
  }
}

}  // namespace
}  // namespace benchguard
