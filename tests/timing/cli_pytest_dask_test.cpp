// `benchguard pytest` on real Dask (Debian's python3-dask and python3-distributed): two
// environments that differ in one Dask setting, from one command. B's array.chunk-size of 64 KiB
// cuts an array reduction into some 500 tasks instead of one: slower. B's block holds 50 MB
// more: more memory, by the block's own memory while the interpreter's imports do not count.
// The cluster test's task metrics are stored and compared; an A/A of one environment calls no
// change.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::run_program;
using testing::TempDir;
using testing::write_file;

// pytest's node ids are relative to its rootdir: without a configuration file, the common
// ancestor of the folder it runs in and the tests, which under /tmp (a checkout beside the
// temporary folders) is /tmp. --rootdir keeps them "test_dask_ab.py::..." wherever it is.
const std::string kDaskDir = std::string(BG_SOURCE_DIR) + "/tests/data/pytest_dask";
const std::string kDaskTests = kDaskDir + "/test_dask_ab.py";

bool dask_here() {
  return run_program({"/usr/bin/python3", "-c", "import pytest, dask, distributed, pandas"}, {})
             .exit_code == 0;
}

void write_interpreter(const TempDir& dir, const std::string& name, const std::string& env) {
  write_file(dir.file(name), "#!/bin/sh\n" + env + " exec /usr/bin/python3 \"$@\"\n");
  ASSERT_EQ(run_program({"/bin/chmod", "+x", dir.file(name)}, {}).exit_code, 0);
}

const nlohmann::json* dask_row(const nlohmann::json& j, const std::string& metric,
                               const std::string& test) {
  for (const auto& m : j["metrics"])
    if (m["metric"] == metric)
      for (const auto& r : m["rows"])
        if (r["benchmark"] == "test_dask_ab.py::" + test) return &r;
  return nullptr;
}

TEST(CliPytestDask, OneDaskSettingFromOneCommandToAVerdict) {
  if (!dask_here()) GTEST_SKIP() << "no /usr/bin/python3 with pytest, dask and distributed";
  TempDir dir;
  write_interpreter(dir, "py_a", "");
  write_interpreter(dir, "py_b", "DASK_ARRAY__CHUNK_SIZE=64KiB BG_EXTRA_MB=50");
  const auto r =
      run_cli({"--format", "json", "pytest", "--python", dir.file("py_a"), "--python",
               dir.file("py_b"), "--instances", "4", "--iterations", "3", "--db", dir.file("bg.db"),
               "--", kDaskTests, "--rootdir", kDaskDir, "-W", "ignore::DeprecationWarning"},
              dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const auto* sum = dask_row(j, "wall_time", "test_array_sum");
  ASSERT_NE(sum, nullptr) << r.out;
  EXPECT_EQ((*sum)["verdict"], "slower") << sum->dump();
  const auto* block = dask_row(j, "rss_above_start_bytes", "test_block_memory");
  ASSERT_NE(block, nullptr) << r.out;
  EXPECT_EQ((*block)["says"], "more memory") << block->dump();
  EXPECT_GT((*block)["ratio"].get<double>(), 3.0) << block->dump();  // 60 MB against 10
  // The cluster's task times were recorded and compared.
  EXPECT_NE(dask_row(j, "dask_compute_time", "test_bag_fold"), nullptr) << r.out;
  EXPECT_NE(dask_row(j, "dask_worker_peak_bytes", "test_bag_fold"), nullptr) << r.out;
}

// A 2 ms Dask reduction's instance means fall on two levels some 40% apart on a 2-core machine,
// each instance on one or the other at random: with 4 instances a side, all of A low and all of B
// high happens in about 1 run of 100, and a t interval on 4 tight means then excludes 1 at any
// level. 6 instances and a 99.9% level make an A/A that calls a change rare enough for a test
// (about 2 in 1,000 runs by simulation of that mixture), while the 95% default stays the one users
// get.
TEST(CliPytestDask, AnAAOfOneEnvironmentCallsNoChange) {
  if (!dask_here()) GTEST_SKIP() << "no /usr/bin/python3 with pytest, dask and distributed";
  TempDir dir;
  write_interpreter(dir, "py_a", "");
  const auto r = run_cli({"--format",
                          "json",
                          "pytest",
                          "--python",
                          dir.file("py_a"),
                          "--null",
                          "--instances",
                          "6",
                          "--confidence",
                          "99.9%",
                          "--iterations",
                          "3",
                          "--db",
                          dir.file("bg.db"),
                          "--",
                          kDaskTests,
                          "--rootdir",
                          kDaskDir,
                          "-k",
                          "array_sum or groupby",
                          "-W",
                          "ignore::DeprecationWarning"},
                         dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  int rows = 0;
  for (const auto& m : j["metrics"])
    for (const auto& row : m["rows"]) {
      ++rows;
      EXPECT_NE(row["verdict"], "slower") << m["metric"] << " " << row.dump();
      EXPECT_NE(row["verdict"], "faster") << m["metric"] << " " << row.dump();
    }
  EXPECT_GE(rows, 4);  // two tests, wall time and memory at least
}

}  // namespace
}  // namespace benchguard
