#include "measure/protocol.hpp"

#include <gtest/gtest.h>

#include "launch_test_util.hpp"
#include "measure/process.hpp"

namespace benchguard::measure {
namespace {

using benchguard::testing::helper;
using benchguard::testing::TempDir;
using benchguard::testing::write_file;

TEST(ProtocolParse, ReadsFieldsAndDefaultsWallTime) {
  auto r = parse_protocol(
      "{\"iteration\":0,\"start_ns\":1000,\"end_ns\":3000,\"burn_in\":true,\"metrics\":{}}\n"
      "\n"
      "  \n"
      "{\"iteration\":1,\"start_ns\":5000,\"end_ns\":6000,\"metrics\":{\"wall_time\":0.5,"
      "\"items\":42},\"timed_out\":true,\"failure\":\"bad result\"}\r\n",
      "results.jsonl");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  const IterationRecord& a = (*r)[0];
  EXPECT_EQ(a.index, 0);
  EXPECT_EQ(a.start_ns, 1000);
  EXPECT_EQ(a.end_ns, 3000);
  EXPECT_TRUE(a.burn_in);
  EXPECT_FALSE(a.timed_out);
  EXPECT_TRUE(a.failure.empty());
  EXPECT_DOUBLE_EQ(*a.metric("wall_time"), 2e-6);
  const IterationRecord& b = (*r)[1];
  EXPECT_EQ(b.index, 1);
  EXPECT_FALSE(b.burn_in);
  EXPECT_TRUE(b.timed_out);
  EXPECT_EQ(b.failure, "bad result");
  ASSERT_EQ(b.metrics.size(), 2u);
  EXPECT_EQ(b.metrics[0].first, "wall_time");  // as written, not recomputed
  EXPECT_DOUBLE_EQ(b.metrics[0].second, 0.5);
  EXPECT_EQ(b.metrics[1].first, "items");
  EXPECT_DOUBLE_EQ(b.metrics[1].second, 42);
}

TEST(ProtocolParse, IterationDefaultsToPositionAndWallTimeAloneSuffices) {
  auto r =
      parse_protocol("{\"metrics\":{\"wall_time\":1.5}}\n{\"metrics\":{\"wall_time\":2}}\n", "f");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[1].index, 1);
  EXPECT_DOUBLE_EQ(*(*r)[1].metric("wall_time"), 2);
}

TEST(ProtocolParse, MalformedLineNamesFileAndLine) {
  auto r = parse_protocol(
      "{\"iteration\":0,\"start_ns\":1,\"end_ns\":2}\n{\"iteration\":1,\"start_ns\":}\n"
      "{\"iteration\":2,\"start_ns\":1,\"end_ns\":2}\n",
      "out/results.jsonl");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind("out/results.jsonl:2: invalid JSON at column", 0), 0u)
      << r.error().message;
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
}

TEST(ProtocolParse, ANumberBeyondADoubleIsAnErrorNotAnAbort) {
  for (const char* line :
       {"{\"iteration\":0,\"start_ns\":1,\"end_ns\":2,\"metrics\":{\"x\":1e999}}\n",
        "{\"iteration\":0,\"start_ns\":1,\"end_ns\":2,\"metrics\":{\"x\":-1e999}}\n"}) {
    auto r = parse_protocol(line, "results.jsonl");
    ASSERT_FALSE(r.ok()) << line;
    EXPECT_NE(r.error().message.find("results.jsonl:1: invalid JSON: number "), std::string::npos)
        << r.error().message;
    EXPECT_NE(r.error().message.find("is beyond the range of a double"), std::string::npos)
        << r.error().message;
  }
}

TEST(ProtocolParse, FieldErrorsAreSpecific) {
  const auto err = [](const std::string& line) {
    auto r = parse_protocol(line + "\n", "f");
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(err("[1,2]"), "f:1: expected a JSON object per line");
  EXPECT_EQ(err("{\"start_ns\":\"1\",\"end_ns\":2}"), "f:1: 'start_ns' must be an integer");
  EXPECT_EQ(err("{\"start_ns\":5,\"end_ns\":2}"), "f:1: 'end_ns' is before 'start_ns'");
  EXPECT_EQ(err("{\"start_ns\":5}"), "f:1: 'start_ns' and 'end_ns' come together");
  EXPECT_EQ(err("{\"iteration\":-1,\"metrics\":{\"wall_time\":1}}"),
            "f:1: 'iteration' must be a non-negative integer");
  EXPECT_EQ(err("{\"start_ns\":1,\"end_ns\":2,\"burn_in\":1}"),
            "f:1: 'burn_in' must be true or false");
  EXPECT_EQ(err("{\"start_ns\":1,\"end_ns\":2,\"metrics\":{\"x\":\"fast\"}}"),
            "f:1: metric 'x' must be a number");
  EXPECT_EQ(err("{\"iteration\":0}"),
            "f:1: needs 'start_ns' and 'end_ns', or a 'wall_time' metric");
  EXPECT_EQ(err("{\"start_ns\":1,\"end_ns\":2,\"burnin\":true}")
                .rfind("f:1: unknown field 'burnin' (known: ", 0),
            0u);
}

TEST(ProtocolParse, MetricNamesAndValuesAreChecked) {
  const auto err = [](const std::string& line) {
    auto r = parse_protocol(line + "\n", "f");
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(err(R"({"metrics":{"wall_time":1,"bytes\u001b[2J":3}})"),
            "f:1: metric name \"bytes\\x1b[2J\" contains the control character U+001B at "
            "offset 5");
  EXPECT_EQ(err(R"({"metrics":{"wall_time":-0.5}})"), "f:1: metric wall_time is negative (-0.5 s)");
  EXPECT_EQ(err(R"({"metrics":{"wall_time":1,"max_rss":-1}})"),
            "f:1: metric max_rss is negative (-1 B)");
  EXPECT_EQ(err(R"({"metrics":{"wall_time":1,"score_delta":-1}})"), "ok");  // unknown unit
  EXPECT_EQ(err(R"({"metrics":{"wall_time":1,"":2}})"), "f:1: metric name is empty");
}

// A line with "metric" declares a unit and direction, anywhere in the file; it is no
// iteration, and the iterations' values of that metric are checked against its unit.
TEST(ProtocolParse, MetricDeclarationsAreReadAndChecked) {
  std::vector<MetricInfo> declared;
  auto r = parse_protocol(R"({"metrics":{"wall_time":1,"spilled":3,"tasks_per_s":9}}
{"metric":"spilled","unit":"B"}
{"metric":"tasks_per_s","unit":"1/s","better":"higher"}
{"metric":"spilled","unit":"B","better":"lower"}
{"metric":"wall_time","unit":"s"}
{"metrics":{"wall_time":2,"spilled":4,"tasks_per_s":8}}
)",
                          "f", &declared);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[1].index, 1);
  ASSERT_EQ(declared.size(), 2u);
  EXPECT_EQ(declared[0].name, "spilled");
  EXPECT_EQ(declared[0].unit, "B");
  EXPECT_EQ(declared[0].direction, Direction::kLowerIsBetter);
  EXPECT_EQ(declared[1].name, "tasks_per_s");
  EXPECT_EQ(declared[1].direction, Direction::kHigherIsBetter);

  const auto err = [](const std::string& text) {
    auto got = parse_protocol(text, "f");
    return got.ok() ? std::string("ok") : got.error().message;
  };
  EXPECT_EQ(err("{\"metric\":\"x\",\"unit\":\"B\"}\n{\"metric\":\"x\",\"unit\":\"s\"}\n"),
            "f:2: metric 'x' declared again differently (unit \"s\", lower is better; before: "
            "\"B\", lower is better)");
  EXPECT_EQ(err("{\"metric\":\"wall_time\",\"better\":\"higher\",\"unit\":\"s\"}\n"),
            "f:1: 'wall_time' is built in, with unit \"s\" and lower is better: declare it so or "
            "not at all");
  EXPECT_EQ(err("{\"metric\":\"x\",\"better\":\"up\"}\n"),
            "f:1: 'better' must be \"lower\" or \"higher\"");
  EXPECT_EQ(err("{\"metric\":\"x\",\"units\":\"B\"}\n"),
            "f:1: unknown field 'units' in a metric declaration (known: metric, unit, better)");
  EXPECT_EQ(err("{\"metric\":3}\n"), "f:1: 'metric' must be the metric's name");
  // A size cannot be negative once declared in bytes.
  EXPECT_EQ(err("{\"metric\":\"x\",\"unit\":\"B\"}\n{\"metrics\":{\"wall_time\":1,\"x\":-1}}\n"),
            "f: iteration 0: metric x is negative (-1 B)");
}

TEST(ProtocolParse, TruncatedFinalLineIsDropped) {
  auto r = parse_protocol(
      "{\"iteration\":0,\"start_ns\":1,\"end_ns\":2}\n{\"iteration\":1,\"start_ns\":3,\"en", "f");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->size(), 1u);
  // A complete final line without its newline still counts.
  auto whole = parse_protocol("{\"iteration\":0,\"start_ns\":1,\"end_ns\":2}", "f");
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->size(), 1u);
}

TEST(ProtocolFile, MissingOrEmptyFileHasNoIterations) {
  TempDir dir;
  auto missing = read_protocol_file(dir.file("none.jsonl"));
  ASSERT_TRUE(missing.ok()) << missing.error().message;
  EXPECT_TRUE(missing->empty());
  write_file(dir.file("empty.jsonl"), "");
  auto empty = read_protocol_file(dir.file("empty.jsonl"));
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  auto directory = read_protocol_file(dir.path().string());
  EXPECT_FALSE(directory.ok());
}

TEST(ProtocolFile, ReadsWhatABenchmarkWrote) {
  TempDir dir;
  const std::string results = dir.file("results.jsonl");
  LaunchSpec spec;
  spec.argv = {helper("protocol_writer"), "25"};
  spec.env = {{"BENCHGUARD_RESULTS", results}};
  auto run = launch(spec);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->exit_code, 0);
  auto r = read_protocol_file(results);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 25u);
  for (int i = 0; i < 25; ++i) {
    const IterationRecord& it = (*r)[i];
    EXPECT_EQ(it.index, i);
    EXPECT_EQ(it.burn_in, i == 0);
    EXPECT_GE(it.start_ns, run->start_ns);  // same clock as the launch
    EXPECT_LE(it.end_ns, run->end_ns);
    EXPECT_DOUBLE_EQ(*it.metric("items"), i * 10);
    EXPECT_GT(*it.metric("wall_time"), 0);
  }
}

TEST(ProtocolFile, BenchmarkKilledMidLineKeepsCompleteLines) {
  TempDir dir;
  const std::string results = dir.file("results.jsonl");
  LaunchSpec spec;
  spec.argv = {helper("protocol_writer"), "4", "--truncate"};
  spec.env = {{"BENCHGUARD_RESULTS", results}};
  auto run = launch(spec);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->signal, SIGKILL);
  auto r = read_protocol_file(results);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->size(), 4u);
}

}  // namespace
}  // namespace benchguard::measure
