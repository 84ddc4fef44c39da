// Recognising a format from the content, and the errors when nothing fits.
#include <gtest/gtest.h>

#include "ingest/ingest.hpp"
#include "support/test_support.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

TEST(IngestDetect, FormatComesFromTheContentNotTheName) {
  // A hyperfine export saved as .csv is still hyperfine.
  auto r = import_text("results.csv", R"({"results": [{"command": "ls", "times": [0.1]}]})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->format, "hyperfine");
}

TEST(IngestDetect, NoMatchingFormatIsOneLineNamingTheFormatsTried) {
  auto r = import_text("notes.txt", "just some text\nwith lines\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "notes.txt: not a format benchguard imports (tried google-benchmark, hyperfine, jmh, "
            "renaissance, pytest-benchmark, hail-jsonl, duet-csv, go, otava-csv); name one with "
            "--input-format");
  EXPECT_EQ(r.error().code, ExitCode::kInput);
  auto json = import_text("other.json", R"({"some": "json"})");
  ASSERT_FALSE(json.ok());
  EXPECT_NE(json.error().message.find("not a format benchguard imports"), std::string::npos);
}

TEST(IngestDetect, NamedFormatThatDoesNotFitSaysWhy) {
  auto r = import_file(testing::data_file("hyperfine-two.json"), "jmh");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.error().message.ends_with(": expected an array, got an object"))
      << r.error().message;
  auto go = import_file(testing::data_file("go-test-bench.txt"), "google-benchmark");
  ASSERT_FALSE(go.ok());
  EXPECT_NE(go.error().message.find("go-test-bench.txt:1: malformed JSON"), std::string::npos)
      << go.error().message;
  auto unknown = import_text("x", "{}", "csv");
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(unknown.error().message.starts_with("unknown import format 'csv' (formats: "));
}

TEST(IngestDetect, UnreadableAndEmptyFiles) {
  ::benchguard::testing::TempDir dir;
  auto missing = import_file(dir.file("absent.json"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, dir.file("absent.json") + ": cannot read the file");
  auto directory = import_file(dir.path().string());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error().message, dir.path().string() + ": is a directory");
  ::benchguard::testing::write_file(dir.file("empty.json"), "  \n");
  auto empty = import_file(dir.file("empty.json"));
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, dir.file("empty.json") + ": the file is empty");
}

TEST(IngestDetect, RunWithoutTimeInTheFileStartsAtTheFallback) {
  auto r = import_text("h.json", R"({"results": [{"command": "ls", "times": [0.1]}]})", "auto",
                       1234567890);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->data.run.started_at, 1234567890);
  EXPECT_EQ(r->data.run.finished_at, 1234567890);
  EXPECT_EQ(r->data.run.suite_path, "h.json");
  EXPECT_EQ(r->data.run.suite, "hyperfine");
}

}  // namespace
}  // namespace benchguard::ingest
