// Unit tests for src/cli/progress.cpp: the lines a log gets without a terminal, when they come
// (on a clock the test moves), and that the bar and -q are what they were.
#include "cli/progress.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace benchguard {
namespace {

using cli::Progress;
using cli::ProgressMode;
using std::chrono::milliseconds;
using std::chrono::seconds;

// A clock that moves only when told.
struct ProgressClock {
  std::chrono::steady_clock::time_point t{};
  void advance(std::chrono::milliseconds d) { t += d; }
};

std::vector<std::string> progress_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

struct ProgressSuite {
  BenchmarkSpec first, second;
  VariantSpec a;
  ProgressSuite() {
    first.name = "parse";
    second.name = "print";
    a.name = "new";
  }
  // Before instance `instance` of benchmark `b` (0 or 1) of two, 3 instances each, `done` of 6
  // done.
  schedule::ProgressEvent at(int b, int instance, int done) const {
    return {done, 6, b == 0 ? &first : &second, &a, instance, false, b, 2, 3};
  }
};

TEST(ProgressLine, SaysWhatHowFarHowLongAndWhatIsLeft) {
  cli::ProgressState s;
  s.command = "run";
  s.running = true;
  s.done = 13;
  s.total = 60;
  s.benchmark = 1;
  s.benchmarks = 3;
  s.benchmark_name = "parse";
  s.variant = "new";
  s.instance = 3;
  s.instances = 10;
  s.elapsed_s = 65.4;
  s.left_s = 219.2;
  EXPECT_EQ(cli::progress_line(s),
            "benchguard: run: benchmark 2/3 parse, variant new, instance 4/10 (13/60 instances "
            "done); 1:05 elapsed, about 3:40 left");
  s.instance = -1;
  s.left_s = -1;
  s.step = "step 2 of about 5: 1a2b3c4d5e6f measuring";
  EXPECT_EQ(cli::progress_line(s),
            "benchguard: run: step 2 of about 5: 1a2b3c4d5e6f measuring: benchmark 2/3 parse, "
            "variant new, warmup (13/60 instances done); 1:05 elapsed");
  s.running = false;
  EXPECT_EQ(cli::progress_line(s),
            "benchguard: run: step 2 of about 5: 1a2b3c4d5e6f measuring; 1:05 elapsed");
  // Names from a suite cannot move the cursor or break the line.
  s.step = "a\rb\033[2Kc\nd";
  const std::string line = cli::progress_line(s);
  EXPECT_EQ(line.find_first_of("\r\n\033"), std::string::npos) << line;
  EXPECT_EQ(cli::clock_text(0.9), "0:00");
  EXPECT_EQ(cli::clock_text(3725), "1:02:05");
}

TEST(ProgressLines, NoneBeforeTheIntervalThenAtEachBenchmarkAndEveryInterval) {
  ProgressClock clock;
  std::ostringstream err;
  const ProgressSuite suite;
  {
    Progress p(err, ProgressMode::kLines, {"run", seconds(30), false, [&] { return clock.t; }});
    p(suite.at(0, 0, 0));
    clock.advance(seconds(20));
    p.tick();
    p(suite.at(0, 1, 1));
    EXPECT_EQ(err.str(), "") << "work shorter than the interval says nothing";

    clock.advance(seconds(10));  // 0:30: long work, and an interval without a line
    p.tick();
    auto lines = progress_lines(err.str());
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0],
              "benchguard: run: benchmark 1/2 parse, variant new, instance 2/3 (1/6 instances "
              "done); 0:30 elapsed, about 2:30 left");

    // One instance that lasts minutes: a line every interval all the same.
    clock.advance(seconds(29));
    p.tick();
    EXPECT_EQ(progress_lines(err.str()).size(), 1u);
    clock.advance(seconds(1));
    p.tick();
    clock.advance(seconds(30));
    p.tick();
    lines = progress_lines(err.str());
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_NE(lines[1].find("; 1:00 elapsed"), std::string::npos) << lines[1];
    EXPECT_NE(lines[2].find("; 1:30 elapsed"), std::string::npos) << lines[2];

    // The next instance of the same benchmark: no line of its own; the next benchmark's first
    // instance: one at once.
    clock.advance(seconds(1));
    p(suite.at(0, 2, 2));
    EXPECT_EQ(progress_lines(err.str()).size(), 3u);
    clock.advance(seconds(1));
    p(suite.at(1, 0, 3));
    lines = progress_lines(err.str());
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_NE(lines[3].find("benchmark 2/2 print, variant new, instance 1/3 (3/6 instances done); "
                            "1:32 elapsed, about 1:32 left"),
              std::string::npos)
        << lines[3];

    // A step (a commit built) is a boundary too, and the run after it estimates afresh.
    clock.advance(seconds(5));
    p.step("B = main (0123456789ab): checking out and building");
    lines = progress_lines(err.str());
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[4],
              "benchguard: run: B = main (0123456789ab): checking out and building; 1:37 elapsed");
    p({.finished = true});
  }
  EXPECT_EQ(err.str().find_first_of("\r\033"), std::string::npos) << err.str();
}

TEST(ProgressLines, QuietSaysNothingAndTheTerminalKeepsItsBar) {
  ProgressClock clock;
  const ProgressSuite suite;
  std::ostringstream quiet, bar;
  {
    Progress off(quiet, ProgressMode::kOff,
                 {"run", milliseconds(1), false, [&] { return clock.t; }});
    Progress drawn(bar, ProgressMode::kBar,
                   {"run", milliseconds(1), false, [&] { return clock.t; }});
    for (int k = 0; k < 3; ++k) {
      clock.advance(seconds(40));
      off(suite.at(0, k, k));
      off.tick();
      off.step("building");
      drawn(suite.at(0, k, k));
      drawn.tick();
    }
  }
  EXPECT_EQ(quiet.str(), "");
  // Redrawn in place, never a line of its own; cleared when the work ends.
  EXPECT_EQ(bar.str().find('\n'), std::string::npos);
  EXPECT_NE(bar.str().find("\r\033[K[########................] 2/6 parse new instance 3"),
            std::string::npos)
      << bar.str();
  EXPECT_TRUE(bar.str().ends_with("\r\033[K"));
}

TEST(ProgressLines, TheIntervalComesFromTheEnvironment) {
  const char* old = std::getenv("BENCHGUARD_PROGRESS_INTERVAL");
  const std::string kept = old != nullptr ? old : "";
  unsetenv("BENCHGUARD_PROGRESS_INTERVAL");
  EXPECT_EQ(cli::progress_interval(), seconds(30));
  setenv("BENCHGUARD_PROGRESS_INTERVAL", "250ms", 1);
  EXPECT_EQ(cli::progress_interval(), milliseconds(250));
  setenv("BENCHGUARD_PROGRESS_INTERVAL", "2", 1);
  EXPECT_EQ(cli::progress_interval(), seconds(2));
  for (const char* bad : {"0", "-1", "soon"}) {
    setenv("BENCHGUARD_PROGRESS_INTERVAL", bad, 1);
    EXPECT_EQ(cli::progress_interval(), seconds(30)) << bad;
  }
  if (old != nullptr)
    setenv("BENCHGUARD_PROGRESS_INTERVAL", kept.c_str(), 1);
  else
    unsetenv("BENCHGUARD_PROGRESS_INTERVAL");
}

// With the thread on, lines come while nothing else happens (an instance, a build).
TEST(ProgressLines, TheHeartbeatWritesWhileNothingElseDoes) {
  std::ostringstream err;
  {
    Progress p(err, ProgressMode::kLines, {"ab", milliseconds(20), true, {}});
    p.step("A = main (0123456789ab): checking out and building");
    std::this_thread::sleep_for(milliseconds(150));
  }
  const auto lines = progress_lines(err.str());
  EXPECT_GE(lines.size(), 2u) << err.str();
  for (const auto& l : lines)
    EXPECT_TRUE(
        l.starts_with("benchguard: ab: A = main (0123456789ab): checking out and building; "))
        << l;
}

}  // namespace
}  // namespace benchguard
