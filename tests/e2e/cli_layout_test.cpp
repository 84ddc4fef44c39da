// Memory layout per instance (docs/measurement.md, "Layout bias"): `--layout fixed` turns
// address randomization off and evens out benchguard's own variables, `--randomize-layout`
// gives every instance its own stack and heap offset. bg_layout_probe writes where its stack
// and heap start, one line a launch.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::TempDir;

const std::string kProbe = std::string(BG_HELPER_DIR) + "/bg_layout_probe";

struct Placement {
  uint64_t stack = 0, heap = 0;
};

std::vector<Placement> placements(const std::string& path) {
  std::vector<Placement> out;
  std::istringstream in(testing::read_file(path));
  std::string stack, heap;
  while (in >> stack >> heap) {
    Placement p;
    p.stack = std::stoull(stack.substr(stack.find('=') + 1));
    p.heap = std::stoull(heap.substr(heap.find('=') + 1));
    out.push_back(p);
  }
  return out;
}

std::string suite(const TempDir& dir, const std::string& layout) {
  const std::string path = dir.file("layout.yml");
  testing::write_file(path, "name: layout\ninstances: 6\nlayout: " + layout +
                                "\nbenchmarks:\n  - name: probe\n    command: [" + kProbe + ", " +
                                dir.file("seen.txt") +
                                "]\n    variants:\n      A: {}\n"
                                "      a_variant_with_a_longer_name: {}\n");
  return path;
}

// Fixed: every instance of both variants starts its stack at the same address, whatever the
// variant's name and the instance's number (benchguard's own variables take the same room).
TEST(CliLayout, FixedGivesEveryInstanceTheSameAddresses) {
  TempDir dir;
  const auto r = run_cli({"run", suite(dir, "fixed"), "--db", dir.file("l.db"), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto seen = placements(dir.file("seen.txt"));
  ASSERT_EQ(seen.size(), 12U);
  for (const auto& p : seen) {
    EXPECT_EQ(p.stack, seen[0].stack);
    EXPECT_EQ(p.heap, seen[0].heap);
  }
  const auto exported = run_cli({"export", "--format", "json", "--db", dir.file("l.db")});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const auto runs = nlohmann::json::parse(exported.out)["runs"];
  ASSERT_EQ(runs.size(), 1U);
  for (const auto& v : runs[0]["variants"])
    EXPECT_EQ(v["config"]["layout"], "fixed") << "the run's configuration records the layout";
}

// Randomized: stacks and heaps start at different offsets within a page; the heap's offset is
// the C++ client's doing, which native runs do not have.
TEST(CliLayout, RandomizedMovesStackAndHeapWithinAPage) {
  TempDir dir;
  const auto r = run_cli({"run", suite(dir, "native"), "--randomize-layout", "--instances", "10",
                          "--db", dir.file("l.db"), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto seen = placements(dir.file("seen.txt"));
  ASSERT_EQ(seen.size(), 20U);
  std::set<uint64_t> stacks, heaps;
  for (const auto& p : seen) {
    stacks.insert(p.stack % 4096);
    heaps.insert(p.heap % 4096);
  }
  EXPECT_GE(stacks.size(), 12U);
  EXPECT_GE(heaps.size(), 12U);

  // Natively the kernel moves the stack, but a heap's first allocation sits at the same
  // offset in its page every time.
  const auto native = run_cli({"run", suite(dir, "native"), "--db", dir.file("l.db"), "-q"});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  const auto all = placements(dir.file("seen.txt"));
  ASSERT_EQ(all.size(), 32U);
  for (std::size_t k = 21; k < all.size(); ++k) EXPECT_EQ(all[k].heap % 4096, all[20].heap % 4096);
}

// Two runs with different layouts: compare says so, as it does for a different governor.
TEST(CliLayout, CompareSaysWhenTheLayoutsDiffer) {
  TempDir dir;
  const std::string db = dir.file("l.db"), seen = dir.file("seen.txt");
  ASSERT_EQ(run_cli({"run", "--layout", "fixed", "--instances", "3", "--label", "side=a", "--db",
                     db, "-q", "--", kProbe, seen})
                .exit_code,
            0);
  ASSERT_EQ(run_cli({"run", "--randomize-layout", "--instances", "3", "--label", "side=b", "--db",
                     db, "-q", "--", kProbe, seen})
                .exit_code,
            0);
  const auto r = run_cli({"compare", "side=a", "side=b", "--db", db});
  EXPECT_NE((r.out + r.err).find("different conditions: layout fixed (A) vs randomized (B)"),
            std::string::npos)
      << r.out << r.err;
  const auto same = run_cli({"compare", "side=a", "side=a", "--db", db});
  EXPECT_EQ((same.out + same.err).find("different conditions"), std::string::npos)
      << same.out << same.err;
}

TEST(CliLayout, UnknownLayoutIsRefused) {
  TempDir dir;
  const auto r = run_cli({"run", "--layout", "shuffled", "--db", dir.file("l.db"), "--", kProbe,
                          dir.file("seen.txt")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("shuffled"), std::string::npos) << r.err;
  const auto both = run_cli({"run", "--layout", "fixed", "--randomize-layout", "--db",
                             dir.file("l.db"), "--", kProbe, dir.file("seen.txt")});
  EXPECT_NE(both.exit_code, 0) << both.err;
}

// calibrate --randomize-layout runs each repetition a second time with the layout fixed and
// reports both.
TEST(CliLayout, CalibrateReportsTheShareOfLayout) {
  TempDir dir;
  const std::string out = dir.file("cal.json");
  const auto r = run_cli({"calibrate", suite(dir, "native"), "--randomize-layout", "--repetitions",
                          "2", "--instances", "4", "--db", dir.file("l.db"), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("share of the spread from layout"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("stored 4 A/A run(s)"), std::string::npos) << r.err;
  const auto cal = nlohmann::json::parse(testing::read_file(out));
  EXPECT_EQ(cal["layout"], "randomized");
  ASSERT_FALSE(cal["entries"].empty());
  bool wall = false;
  for (const auto& e : cal["entries"]) {
    EXPECT_TRUE(e["layout"].contains("share")) << e;
    EXPECT_LE(e["layout"]["fixed_comparisons"], 2) << e;
    // Wall time is compared in every repetition; the probe's memory only where its tree lived
    // long enough to be sampled (docs/measurement.md, "The ru_maxrss floor").
    if (e["metric"] == "wall_time") {
      wall = true;
      EXPECT_EQ(e["layout"]["fixed_comparisons"], 2) << e;
    }
  }
  EXPECT_TRUE(wall) << cal.dump();
}

}  // namespace
}  // namespace benchguard
