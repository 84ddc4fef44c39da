#include "cluster/shard.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace benchguard::cluster {
namespace {

Suite suite_of(std::vector<int> instances, int variants = 2) {
  Suite s;
  for (size_t k = 0; k < instances.size(); ++k) {
    BenchmarkSpec b;
    b.name = "b" + std::to_string(k);
    b.instances = instances[k];
    for (int v = 0; v < variants; ++v)
      b.variants.push_back(
          VariantSpec{std::string(1, static_cast<char>('A' + v)), {"/bin/true"}, "", {}, {}});
    s.benchmarks.push_back(b);
  }
  return s;
}

std::vector<Unit> units_of(const Suite& s, const std::string& schedule = "randomized",
                           uint64_t seed = 7) {
  auto units = suite_units(s, schedule, seed);
  EXPECT_TRUE(units.ok());
  return units.ok() ? units.value() : std::vector<Unit>{};
}

TEST(ShardTest, UnitsAreEveryMeasuredInstanceOnce) {
  Suite s = suite_of({5, 3});
  s.benchmarks[0].warmup = 2;
  const auto units = units_of(s);
  ASSERT_EQ(units.size(), 16u);  // (5 + 3) x 2 variants, no warmups
  std::set<std::tuple<int, int, int>> seen;
  for (const auto& u : units) {
    EXPECT_GE(u.instance, 0);
    EXPECT_EQ(u.task, -1);
    seen.insert({u.benchmark, u.variant, u.instance});
  }
  EXPECT_EQ(seen.size(), units.size());
}

TEST(ShardTest, SameSeedSameAssignmentOtherSeedOther) {
  const auto units = units_of(suite_of({10, 10, 10}));
  const auto a = assign_tasks(units, 8, 42);
  EXPECT_EQ(a, assign_tasks(units, 8, 42));
  EXPECT_NE(a, assign_tasks(units, 8, 43));
}

TEST(ShardTest, ARoundStaysOnOneTaskSoEachTaskHoldsAsManyAAsB) {
  const auto a = assign_tasks(units_of(suite_of({10, 7})), 8, 1);
  std::map<std::pair<int, int>, int> task_of;    // (benchmark, instance) -> task
  std::map<std::tuple<int, int, int>, int> per;  // (task, benchmark, variant) -> count
  for (const auto& u : a) {
    ASSERT_GE(u.task, 0);
    ASSERT_LT(u.task, 8);
    auto [it, fresh] = task_of.emplace(std::pair{u.benchmark, u.instance}, u.task);
    if (!fresh) {
      EXPECT_EQ(it->second, u.task) << "round split over tasks";
    }
    ++per[{u.task, u.benchmark, u.variant}];
  }
  for (int t = 0; t < 8; ++t)
    for (int b = 0; b < 2; ++b) EXPECT_EQ((per[{t, b, 0}]), (per[{t, b, 1}]));
}

TEST(ShardTest, BalancedPerBenchmarkAndOverall) {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const auto a = assign_tasks(units_of(suite_of({10, 7, 3}), "alternate", seed), 4, seed);
    std::map<int, int> total;
    std::map<std::pair<int, int>, int> per;  // (benchmark, task) -> rounds x variants
    for (const auto& u : a) {
      ++total[u.task];
      ++per[{u.benchmark, u.task}];
    }
    int lo = 1 << 30, hi = 0;
    for (int t = 0; t < 4; ++t) {
      lo = std::min(lo, total[t]);
      hi = std::max(hi, total[t]);
    }
    EXPECT_LE(hi - lo, 2) << "seed " << seed;  // one round of two variants
    for (int b = 0; b < 3; ++b) {
      int blo = 1 << 30, bhi = 0;
      for (int t = 0; t < 4; ++t) {
        blo = std::min(blo, per[{b, t}]);
        bhi = std::max(bhi, per[{b, t}]);
      }
      EXPECT_LE(bhi - blo, 2) << "benchmark " << b << " seed " << seed;
    }
  }
}

TEST(ShardTest, RandomizedOverSeeds) {
  // Which task gets instance 0 of b0 varies with the seed.
  const auto units = units_of(suite_of({8}));
  std::set<int> tasks;
  for (uint64_t seed = 0; seed < 30; ++seed)
    for (const auto& u : assign_tasks(units, 8, seed))
      if (u.instance == 0 && u.variant == 0) tasks.insert(u.task);
  EXPECT_GE(tasks.size(), 4u);
}

TEST(ShardTest, DuetPairsStayTogether) {
  auto s = sharded_suite(suite_of({6}, 1), "duet");
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->benchmarks[0].variants.size(), 2u);  // A/A: A and B
  const auto a = assign_tasks(units_of(*s, "duet"), 3, 5);
  ASSERT_EQ(a.size(), 12u);
  std::map<int, std::set<int>> tasks_of_instance;
  for (const auto& u : a) tasks_of_instance[u.instance].insert(u.task);
  for (const auto& [i, t] : tasks_of_instance) EXPECT_EQ(t.size(), 1u) << "instance " << i;
}

TEST(ShardTest, UsefulTasksAreAtMostTheRounds) {
  const auto units = units_of(suite_of({2, 1}));
  EXPECT_EQ(useful_tasks(units, 8), 3);
  EXPECT_EQ(useful_tasks(units, 2), 2);
  EXPECT_EQ(useful_tasks({}, 8), 1);
  for (const auto& u : assign_tasks(units, 3, 9)) EXPECT_LT(u.task, 3);
}

}  // namespace
}  // namespace benchguard::cluster
