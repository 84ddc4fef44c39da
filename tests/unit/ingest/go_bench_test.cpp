// Go benchmark text: every result line is one instance.
#include <gtest/gtest.h>

#include "ingest/ingest.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using testing::artifact;
using testing::data_file;
using testing::expect_counts;
using testing::find_variant;
using testing::metric;

TEST(IngestGoBench, ResultLinesAreInstances) {
  auto r = import_file(data_file("go-test-bench.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "go", 3, 8, 8);
  const auto* atoi = find_variant(r->data, "BenchmarkAtoi-8");
  ASSERT_NE(atoi, nullptr);
  ASSERT_EQ(atoi->instances.size(), 3u);
  const auto& first = atoi->instances[0].iterations.at(0);
  EXPECT_DOUBLE_EQ(metric(first, "wall_time"), 28.71e-9);
  EXPECT_DOUBLE_EQ(metric(first, "B/op"), 0.0);
  EXPECT_DOUBLE_EQ(metric(first, "allocs/op"), 0.0);
  EXPECT_DOUBLE_EQ(metric(atoi->instances[2].iterations.at(0), "wall_time"), 28.94e-9);

  const auto* encode = find_variant(r->data, "BenchmarkEncode/size=1024-8");
  ASSERT_NE(encode, nullptr);
  ASSERT_EQ(encode->instances.size(), 2u);
  const auto& e = encode->instances[1].iterations.at(0);
  EXPECT_DOUBLE_EQ(metric(e, "wall_time"), 2387e-9);
  EXPECT_DOUBLE_EQ(metric(e, "MB/s"), 428.99);
  EXPECT_DOUBLE_EQ(metric(e, "B/op"), 1024);

  // Units other than ns/op keep their name; rates are higher-is-better.
  ASSERT_EQ(r->metrics.size(), 3u);
  for (const auto& m : r->metrics) {
    if (m.name == "MB/s") {
      EXPECT_EQ(m.direction, Direction::kHigherIsBetter);
    }
    if (m.name == "B/op") {
      EXPECT_EQ(m.direction, Direction::kLowerIsBetter);
      EXPECT_EQ(m.unit, "B");
    }
  }
  EXPECT_EQ(r->data.run.suite, "go");
  EXPECT_EQ(artifact(r->data, "goos"), "linux");
  EXPECT_EQ(artifact(r->data, "goarch"), "amd64");
  EXPECT_EQ(artifact(r->data, "pkg"), "example.com/codec");
  EXPECT_EQ(artifact(r->data, "cpu"), "Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz");
}

TEST(IngestGoBench, OtherLinesAreIgnoredAndBadResultLinesAreErrors) {
  auto r = import_text("v.txt",
                       "=== RUN   TestX\n"
                       "BenchmarkSlow\n"  // `go test -v` names it before the result
                       "    slow_test.go:12: warming up\n"
                       "BenchmarkSlow-4   \t      10\t 104857600 ns/op\n"
                       "Benchmarking is fun: not a result\n"
                       "PASS\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->instances(), 1);
  EXPECT_DOUBLE_EQ(metric(r->data.variants.at(0).instances.at(0).iterations.at(0), "wall_time"),
                   0.1048576);

  auto bad = import_text("bad.txt", "BenchmarkX-8  100  12 ns/op\nBenchmarkX-8  1x0  12 ns/op\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "bad.txt:2: BenchmarkX-8: the iteration count \"1x0\" is not a whole number");
  auto unit = import_text("unit.txt", "BenchmarkX-8  100  12 ns/op  7\n");
  ASSERT_FALSE(unit.ok());
  EXPECT_EQ(unit.error().message,
            "unit.txt:1: BenchmarkX-8: expected value-unit pairs after the iteration count");
  auto cut = import_text("cut.txt", "BenchmarkX-8  100  12 ns/op\nBenchmarkX-8  100  12 ns/o");
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error().message, "cut.txt:2: the last line has no end (truncated file?)");
}

}  // namespace
}  // namespace benchguard::ingest
