// Sequential schedules on real processes: the stored timestamps show the promised order and
// no overlap; a seed reproduces a randomized order.
#include <gtest/gtest.h>

#include <algorithm>

#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::helper;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

// "A0 B0 A1 ..." in the order the instances started, after checking none overlapped.
std::string started_order(const std::string& schedule, const std::string& seed) {
  TempDir dir;
  write_file(dir.file("s.yml"),
             "schedule: " + schedule + "\ninstances: 4\nbenchmarks:\n  - name: x\n    command: [" +
                 helper("exit_code") + ", \"0\"]\n    variants:\n      A: {}\n      B: {}\n");
  const auto r = run_cli({"run", dir.file("s.yml"), "--db", dir.file("bg.db"), "--seed", seed});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto store = store::open_store(dir.file("bg.db"));
  EXPECT_TRUE(store.ok());
  auto run = (*store)->load_run("latest");
  EXPECT_TRUE(run.ok());
  if (!run.ok()) return "";
  std::vector<std::pair<const InstanceRecord*, std::string>> all;
  for (const auto& v : run->variants)
    for (const auto& in : v.instances) {
      EXPECT_EQ(in.schedule, schedule);
      all.emplace_back(&in, v.variant.name + std::to_string(in.index));
    }
  std::sort(all.begin(), all.end(),
            [](const auto& x, const auto& y) { return x.first->start_ns < y.first->start_ns; });
  std::string out;
  for (size_t i = 0; i < all.size(); ++i) {
    if (i > 0) {
      EXPECT_LE(all[i - 1].first->end_ns, all[i].first->start_ns) << "overlap";
      // The stored position agrees with the clock.
      EXPECT_LT(all[i - 1].first->order, all[i].first->order);
    }
    out += all[i].second + " ";
  }
  return out;
}

TEST(CliSchedule, SequentialRunsVariantAfterVariant) {
  EXPECT_EQ(started_order("sequential", "1"), "A0 A1 A2 A3 B0 B1 B2 B3 ");
}

TEST(CliSchedule, AlternateTakesTurns) {
  EXPECT_EQ(started_order("alternate", "1"), "A0 B0 A1 B1 A2 B2 A3 B3 ");
}

TEST(CliSchedule, RandomizedIsReproducedBySeed) {
  const std::string a = started_order("randomized", "11");
  EXPECT_EQ(started_order("randomized", "11"), a);
  EXPECT_NE(started_order("randomized", "12"), a);
  EXPECT_NE(a, "A0 A1 A2 A3 B0 B1 B2 B3 ");
  // Instance numbers follow execution order within each variant.
  EXPECT_LT(a.find("A0"), a.find("A1"));
  EXPECT_LT(a.find("B2"), a.find("B3"));
}

// The default: rounds of one A and one B, AB and BA equally often, in a seeded order.
TEST(CliSchedule, InterleavedIsTheDefaultAndRunsBalancedRounds) {
  const std::string a = started_order("interleaved", "5");
  ASSERT_EQ(a.size(), std::string("A0 B0 A1 B1 A2 B2 A3 B3 ").size());
  int ab = 0;
  for (int round = 0; round < 4; ++round) {
    const std::string pair = a.substr(static_cast<std::size_t>(6 * round), 6);
    const std::string i = std::to_string(round);
    EXPECT_TRUE(pair == "A" + i + " B" + i + " " || pair == "B" + i + " A" + i + " ") << a;
    ab += pair[0] == 'A';
  }
  EXPECT_EQ(ab, 2) << a;
  // A suite that names no schedule runs interleaved.
  TempDir dir;
  write_file(dir.file("s.yml"), "instances: 2\nbenchmarks:\n  - name: x\n    command: [" +
                                    helper("exit_code") +
                                    ", \"0\"]\n    variants:\n      A: {}\n      B: {}\n");
  ASSERT_EQ(run_cli({"run", dir.file("s.yml"), "--db", dir.file("bg.db")}).exit_code, 0);
  auto store = store::open_store(dir.file("bg.db"));
  ASSERT_TRUE(store.ok());
  auto run = (*store)->load_run("latest");
  ASSERT_TRUE(run.ok());
  for (const auto& v : run->variants)
    for (const auto& in : v.instances) EXPECT_EQ(in.schedule, "interleaved");
}

// `compare` says when the two sides ran in blocks, and only then.
TEST(CliSchedule, CompareWarnsWhenTheSidesRanInBlocks) {
  for (const char* schedule : {"sequential", "interleaved"}) {
    TempDir dir;
    write_file(dir.file("s.yml"), std::string("schedule: ") + schedule +
                                      "\ninstances: 3\nbenchmarks:\n  - name: x\n    command: [" +
                                      helper("exit_code") +
                                      ", \"0\"]\n    variants:\n      A: {}\n      B: {}\n");
    ASSERT_EQ(run_cli({"run", dir.file("s.yml"), "--db", dir.file("bg.db")}).exit_code, 0);
    const auto r = run_cli({"compare", "--db", dir.file("bg.db")});
    const bool warned = r.out.find("A and B ran in blocks") != std::string::npos;
    EXPECT_EQ(warned, std::string(schedule) == "sequential") << schedule << "\n" << r.out;
  }
}

}  // namespace
}  // namespace benchguard
