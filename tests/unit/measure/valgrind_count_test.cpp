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
  auto n = parse_valgrind_summary(file);
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(*n, 1456014);
  // With cache simulation, Ir comes first.
  n = parse_valgrind_summary("events: Ir I1mr ILmr\nsummary: 99 3 2\n");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 99);
  EXPECT_EQ(parse_valgrind_summary("events: Ir\nfn=main\n3 10\n").error().message,
            "it has no summary line");
  EXPECT_EQ(parse_valgrind_summary("summary: many\n").error().message,
            "its summary line 'summary: many' holds no count");
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
