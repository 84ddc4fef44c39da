// Duet schedules on real processes: overlap, start order, synchronized iterations, pinning.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "measure/affinity.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::helper;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

RunData run_and_load(const TempDir& dir, const std::string& suite_text,
                     const std::vector<std::string>& extra = {}) {
  write_file(dir.file("duet.yml"), suite_text);
  std::vector<std::string> args = {"run", dir.file("duet.yml"), "--db", dir.file("bg.db")};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto store = store::open_store(dir.file("bg.db"));
  EXPECT_TRUE(store.ok());
  auto run = (*store)->load_run("latest");
  EXPECT_TRUE(run.ok()) << run.error().message;
  return run.ok() ? *run : RunData{};
}

std::string suite(const std::string& schedule, int instances, int iterations,
                  const std::string& extra = "") {
  return "schedule: " + schedule + "\ninstances: " + std::to_string(instances) +
         "\niterations: " + std::to_string(iterations) + "\n" + extra +
         "benchmarks:\n  - name: side\n    command: [" + helper("duet_side") + ", \"2000\"]\n";
}

const VariantData& variant(const RunData& run, const std::string& name) {
  for (const auto& v : run.variants)
    if (v.variant.name == name) return v;
  ADD_FAILURE() << "no variant " << name;
  return run.variants.front();
}

TEST(CliDuet, PairsRunTogetherOnTheirOwnCpusInBothStartOrders) {
  const std::vector<int> cpus = measure::usable_cpus();
  ASSERT_GE(cpus.size(), 2u) << "a duet needs two CPUs";
  // How well the pairs overlapped, and how many iterations compare paired, depend on the
  // machine being otherwise quiet; a burst of outside load spoils one run, so up to three
  // independent runs get the chance to show it. Everything else is checked on the last.
  std::unique_ptr<TempDir> holder;
  RunData run;
  double median_share = 0;
  nlohmann::json row;
  for (int attempt = 0; attempt < 3; ++attempt) {
    holder = std::make_unique<TempDir>();
    run = run_and_load(*holder, suite("duet", 12, 10), {"--seed", "5"});
    if (run.variants.size() != 2) break;
    std::vector<double> shares;
    for (size_t i = 0; i < variant(run, "A").instances.size(); ++i) {
      const InstanceRecord& x = variant(run, "A").instances[i];
      const InstanceRecord& y = variant(run, "B").instances.at(i);
      shares.push_back(
          static_cast<double>(std::min(x.end_ns, y.end_ns) - std::max(x.start_ns, y.start_ns)) /
          static_cast<double>(std::max(x.end_ns, y.end_ns) - std::min(x.start_ns, y.start_ns)));
    }
    std::sort(shares.begin(), shares.end());
    median_share = shares.empty() ? 0 : shares[shares.size() / 2];
    const auto cmp = run_cli({"compare", "--db", holder->file("bg.db"), "--format", "json"});
    if (cmp.exit_code != 0) continue;
    row = nlohmann::json::parse(cmp.out)["metrics"][0]["rows"][0];
    if (median_share > 0.5 && row["duet"]["paired"].get<int>() >= 12) break;
  }
  const TempDir& dir = *holder;
  ASSERT_EQ(run.variants.size(), 2u);  // A/A: one declared variant runs against itself
  const auto& a = variant(run, "A");
  const auto& b = variant(run, "B");
  ASSERT_EQ(a.instances.size(), 12u);
  ASSERT_EQ(b.instances.size(), 12u);
  std::map<std::string, int> orders;
  std::map<std::string, int> designs;  // start order x the CPU A had
  for (size_t i = 0; i < 12; ++i) {
    const InstanceRecord& x = a.instances[i];
    const InstanceRecord& y = b.instances[i];
    EXPECT_TRUE(x.ok()) << x.failure;
    EXPECT_EQ(x.schedule, "duet");
    EXPECT_EQ(x.order, y.order);
    EXPECT_EQ(x.schedule_tag, y.schedule_tag);
    ++orders[x.schedule_tag];
    // Started together: each began before the other ended.
    const int64_t overlap = std::min(x.end_ns, y.end_ns) - std::max(x.start_ns, y.start_ns);
    EXPECT_GT(overlap, 0);
    // The tag is the true start order.
    const int64_t first = x.schedule_tag == "AB" ? x.start_ns : y.start_ns;
    const int64_t second = x.schedule_tag == "AB" ? y.start_ns : x.start_ns;
    EXPECT_LE(first, second) << x.schedule_tag;
    // Pinned apart, each to one of the two CPUs, and the child saw its pinning.
    const std::string c0 = std::to_string(cpus[0]), c1 = std::to_string(cpus[1]);
    EXPECT_TRUE((x.cpus == c0 && y.cpus == c1) || (x.cpus == c1 && y.cpus == c0))
        << x.cpus << " " << y.cpus;
    ++designs[x.schedule_tag + " A on " + x.cpus];
    for (const auto* in : {&x, &y})
      for (const auto& it : in->iterations)
        EXPECT_EQ(it.metric("affinity"), static_cast<double>(int64_t{1} << std::stoi(in->cpus)));
  }
  // Balanced: each (start order, CPU of A) combination in 3 of the 12 pairs.
  ASSERT_EQ(designs.size(), 4u);
  for (const auto& [design, n] : designs) EXPECT_EQ(n, 3) << design;
  // Most pairs share most of their time (process start-up on a busy machine can delay one
  // side by milliseconds now and then).
  EXPECT_GT(median_share, 0.5);
  // seed 5 draws both start orders among 12 pairs (the same seed gives the same draws).
  EXPECT_GT(orders["AB"], 0);
  EXPECT_GT(orders["BA"], 0);

  // compare finds the concurrent pairs and pairs their overlapping iterations.
  ASSERT_FALSE(row.is_null());
  EXPECT_EQ(row["method"], "duet");
  EXPECT_EQ(row["duet"]["runs"], 12);
  EXPECT_GE(row["duet"]["paired"].get<int>(), 12);
  const auto plain =
      run_cli({"compare", "--db", dir.file("bg.db"), "--format", "json", "--no-duet"});
  EXPECT_EQ(nlohmann::json::parse(plain.out)["metrics"][0]["rows"][0]["method"], "instances");

  // The same seed gives the same start orders.
  TempDir again;
  const RunData rerun = run_and_load(again, suite("duet", 12, 1), {"--seed", "5"});
  for (size_t i = 0; i < 12; ++i)
    EXPECT_EQ(variant(rerun, "A").instances[i].schedule_tag, a.instances[i].schedule_tag);
}

// The gaps between the starts of the iterations of each sync-duet pair, sorted.
std::vector<int64_t> sync_start_gaps() {
  TempDir dir;
  const RunData run = run_and_load(dir, suite("sync-duet", 4, 20));
  const auto& a = variant(run, "A");
  const auto& b = variant(run, "B");
  std::vector<int64_t> gaps;
  EXPECT_EQ(a.instances.size(), 4u);
  for (size_t i = 0; i < a.instances.size() && i < b.instances.size(); ++i) {
    const auto& x = a.instances[i].iterations;
    const auto& y = b.instances[i].iterations;
    EXPECT_EQ(x.size(), 20u);
    EXPECT_EQ(y.size(), 20u);
    EXPECT_EQ(a.instances[i].schedule, "sync-duet");
    for (size_t k = 0; k < x.size() && k < y.size(); ++k)
      gaps.push_back(std::abs(x[k].start_ns - y[k].start_ns));
  }
  std::sort(gaps.begin(), gaps.end());
  return gaps;
}

TEST(CliDuet, SyncDuetIterationsStartWithinAMillisecond) {
  // Within 1 ms; a side preempted on a busy machine can still be late now and then, so the
  // bound is held by 95% of the iterations, and a burst of load from elsewhere that spoils
  // one run gets up to two more, independent, chances.
  auto p95 = [](const std::vector<int64_t>& gaps) { return gaps[gaps.size() * 95 / 100]; };
  std::vector<int64_t> gaps = sync_start_gaps();
  for (int attempt = 1; attempt < 3 && !gaps.empty() && p95(gaps) >= 1'000'000; ++attempt)
    gaps = sync_start_gaps();
  ASSERT_FALSE(gaps.empty());
  RecordProperty("median_start_gap_ns", std::to_string(gaps[gaps.size() / 2]));
  RecordProperty("p95_start_gap_ns", std::to_string(p95(gaps)));
  RecordProperty("worst_start_gap_ns", std::to_string(gaps.back()));
  EXPECT_LT(p95(gaps), 1'000'000) << "95% of sync-duet iterations started within " << p95(gaps)
                                  << " ns";
}

TEST(CliDuet, MixedPlanRecordsEachPairsKind) {
  TempDir dir;
  const std::string text =
      "instances: 1\niterations: 2\nbenchmarks:\n  - name: side\n    command: [" +
      helper("duet_side") +
      ", \"500\"]\n    duet_repetitions: 2\n    sync_repetitions: 1\n"
      "    sequential_repetitions: 2\n    variants:\n      A: {}\n      B: {args: [\"x\"]}\n";
  const RunData run = run_and_load(dir, text);
  const auto& a = variant(run, "A");
  const auto& b = variant(run, "B");
  ASSERT_EQ(a.instances.size(), 5u);
  std::map<std::string, int> kinds;
  for (size_t i = 0; i < 5; ++i) {
    const auto& x = a.instances[i];
    const auto& y = b.instances[i];
    EXPECT_EQ(x.schedule, y.schedule);
    EXPECT_EQ(x.order, y.order);
    ++kinds[x.schedule];
    const int64_t overlap = std::min(x.end_ns, y.end_ns) - std::max(x.start_ns, y.start_ns);
    if (x.schedule == "sequential") {
      EXPECT_LE(overlap, 0) << "sequential pair overlapped";
      EXPECT_EQ(x.cpus, "");
    } else {
      EXPECT_GT(overlap, 0) << x.schedule << " pair did not overlap";
    }
  }
  EXPECT_EQ(kinds, (std::map<std::string, int>{{"duet", 2}, {"sequential", 2}, {"sync-duet", 1}}));
}

TEST(CliDuet, DuetOnOneCpuIsAClearError) {
  TempDir dir;
  write_file(dir.file("duet.yml"), suite("duet", 1, 1));
  const auto r = run_cli({"run", dir.file("duet.yml"), "--db", dir.file("bg.db"), "--cpus", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("at least two CPUs"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace benchguard
