// Reading Valgrind's counts: the summary line of each process's file, summed over the tree.
#include "measure/valgrind_count.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "launch_test_util.hpp"
#include "measure/process.hpp"

namespace benchguard::measure {
namespace {

TEST(MeasureValgrindCount, TheSummaryLineHoldsTheCount) {
  const std::string file =
      "desc: I1 cache: 32768 B, 64 B, 8-way associative\ncmd: /bin/true\nevents: Ir\n"
      "fl=/x.c\nfn=main\n3 10\nsummary: 1456014\n";
  auto n = parse_valgrind_events(file);
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(*n, (std::vector<std::pair<std::string, int64_t>>{{"Ir", 1456014}}));
  // With cache simulation, Ir comes first.
  n = parse_valgrind_events("events: Ir I1mr ILmr\nsummary: 99 3 2\n");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->front(), (std::pair<std::string, int64_t>{"Ir", 99}));
  EXPECT_EQ(parse_valgrind_events("events: Ir\nfn=main\n3 10\n").error().message,
            "it has no summary line");
  EXPECT_EQ(parse_valgrind_events("events: Ir\nsummary: many\n").error().message,
            "its summary line 'summary: many' holds 'many', not a count");
}

// Every event by name, and the cache figures derived from them, checked against the sums and
// the model (L1 hits + 5 LL hits + 35 LL misses) worked out by hand on a real file's summary
// (gzip under callgrind --cache-sim=yes).
TEST(MeasureValgrindCount, CacheSimulationEventsGiveMissesAndEstimatedCycles) {
  const std::string file =
      "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
      "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nfn=main\n3 10 2 1\n"
      "summary: 1643246 356280 242862 1363 3872 2370 1337 1130 2221\n"
      "totals: 1643244 356280 242862 1362 3872 2370 1336 1130 2221\n";
  auto events = parse_valgrind_events(file);
  ASSERT_TRUE(events.ok()) << events.error().message;
  ASSERT_EQ(events->size(), 9u);
  EXPECT_EQ(events->front(), (std::pair<std::string, int64_t>{"Ir", 1643246}));
  EXPECT_EQ(events->back(), (std::pair<std::string, int64_t>{"DLmw", 2221}));
  // References 2,242,388; L1 misses 1,363 + 3,872 + 2,370 = 7,605; LL misses 1,337 + 1,130 +
  // 2,221 = 4,688; cycles (2,242,388 - 7,605) + 5 (7,605 - 4,688) + 35 x 4,688 = 2,413,448.
  const auto counts = cache_counts(*events);
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts[0], (std::pair<std::string, int64_t>{"l1_misses", 7605}));
  EXPECT_EQ(counts[1], (std::pair<std::string, int64_t>{"ll_misses", 4688}));
  EXPECT_EQ(counts[2], (std::pair<std::string, int64_t>{"estimated_cycles", 2413448}));
  // Without the simulation there is nothing to derive; figures a file leaves out are 0.
  auto plain = parse_valgrind_events("events: Ir\nsummary: 5\n");
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(cache_counts(*plain).empty());
  auto short_line = parse_valgrind_events("events: Ir Dr Dw\nsummary: 5\n");
  ASSERT_TRUE(short_line.ok());
  EXPECT_EQ(short_line->back(), (std::pair<std::string, int64_t>{"Dw", 0}));
  EXPECT_EQ(parse_valgrind_events("summary: 5\n").error().message,
            "its summary line comes before any events line");
  EXPECT_EQ(parse_valgrind_events("events: Ir\nsummary: 5 6\n").error().message,
            "its summary line 'summary: 5 6' holds more figures than events");
  EXPECT_EQ(parse_valgrind_events("events: Ir\nsummary: -5\n").error().message,
            "its summary line 'summary: -5' holds '-5', not a count");
}

// The cache simulation on a real program: its figures on every instance, the same each time
// (a fixed cache geometry, whatever the host's), instructions as without it. (Real Valgrind.)
TEST(MeasureValgrindCount, SimulatedCachesCountTheSameOnEveryRun) {
  LaunchSpec spec;
  spec.argv = {testing::helper("loop"), "100000"};
  spec.count_instructions = true;
  auto plain = launch(spec);
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_TRUE(plain->counts.empty());
  spec.simulate_caches = true;
  auto first = launch(spec);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_TRUE(first->measure_error.empty()) << first->measure_error;
  ASSERT_EQ(first->counts.size(), 3u);
  EXPECT_EQ(first->counts[0].first, "l1_misses");
  EXPECT_EQ(first->counts[1].first, "ll_misses");
  EXPECT_EQ(first->counts[2].first, "estimated_cycles");
  EXPECT_GT(first->counts[0].second, 0);
  EXPECT_LE(first->counts[1].second, first->counts[0].second);
  EXPECT_GE(first->counts[2].second, *first->instructions);
  // The same program: its instructions, but for the few its environment moves (the
  // directory benchguard names in BENCHGUARD_CALLGRIND_OUT is new for every instance).
  EXPECT_NEAR(static_cast<double>(*first->instructions), static_cast<double>(*plain->instructions),
              1e-4 * static_cast<double>(*plain->instructions));
  auto again = launch(spec);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->instructions, first->instructions);
  EXPECT_EQ(again->counts, first->counts);
}

// A shell that runs two programs: three processes, three files, one sum; the same on every
// run. (Real Valgrind.)
TEST(MeasureValgrindCount, ATreeCountsEveryProcessAndTheSameEachTime) {
  LaunchSpec spec;
  spec.argv = {"/bin/sh", "-c", "/bin/true; " + testing::helper("loop") + " 100000"};
  spec.count_instructions = true;
  auto first = launch(spec);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_TRUE(first->measure_error.empty()) << first->measure_error;
  ASSERT_TRUE(first->instructions.has_value());
  auto again = launch(spec);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->instructions, first->instructions);
  // The loop alone, and the shell around it, add up to more than the loop.
  spec.argv = {testing::helper("loop"), "100000"};
  auto loop = launch(spec);
  ASSERT_TRUE(loop.ok());
  ASSERT_TRUE(loop->instructions.has_value());
  EXPECT_GT(*first->instructions, *loop->instructions + 100000);
  EXPECT_FALSE(first->cycles.has_value());  // no hardware counters around Valgrind
}

// A program Valgrind cannot run leaves no count: the launch says so instead of a silent 0.
TEST(MeasureValgrindCount, NoCountIsAnError) {
  LaunchSpec spec;
  testing::TempDir dir;
  spec.argv = {dir.file("no-such-program")};
  spec.count_instructions = true;
  auto r = launch(spec);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->instructions.has_value());
  EXPECT_NE(r->exit_code, 0);
  EXPECT_NE(r->measure_error.find("valgrind wrote no instruction count"), std::string::npos)
      << r->measure_error;
}

}  // namespace
}  // namespace benchguard::measure
