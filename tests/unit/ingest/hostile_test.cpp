// Files written to mislead: duplicate entries, names that would inject into terminals or
// Markdown, values no measurement can have, and files too large or endless.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "ingest/ingest.hpp"
#include "support/test_support.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using nlohmann::json;
using testing::data_file;
using testing::find_variant;

json load(const std::string& name) {
  std::ifstream in(data_file(name));
  return json::parse(in);
}

std::string error_of(const Result<Imported>& r) {
  return r.ok() ? "ok" : r.error().message;
}

TEST(IngestHostile, TwoHyperfineResultsOfOneCommandStayApart) {
  json doc = load("hyperfine-one.json");
  json second = doc["results"][0];
  second["times"] = {1.0, 2.0};
  second.erase("exit_codes");
  doc["results"].push_back(second);
  auto r = import_text("h.json", doc.dump());
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->data.variants.size(), 2u);
  const auto* first = find_variant(r->data, "sleep 0.005");
  const auto* again = find_variant(r->data, "sleep 0.005 #2");
  ASSERT_NE(first, nullptr);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(first->instances.size(), 8u);
  EXPECT_EQ(again->instances.size(), 2u);
  EXPECT_EQ(again->variant.command, (std::vector<std::string>{"sleep 0.005"}));
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "'sleep 0.005' appears again: kept apart as 'sleep 0.005 #2', not "
            "merged");
}

TEST(IngestHostile, DuplicateJmhEntriesStayApart) {
  json doc = load("jmh-throughput.json");
  const size_t entries = doc.size();
  doc.push_back(doc[0]);
  doc.push_back(doc[0]);
  auto r = import_text("j.json", doc.dump());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::string name = r->data.variants[0].variant.benchmark;
  EXPECT_EQ(r->data.variants.size(), entries + 2);
  ASSERT_NE(find_variant(r->data, name + " #2"), nullptr);
  ASSERT_NE(find_variant(r->data, name + " #3"), nullptr);
  EXPECT_EQ(find_variant(r->data, name)->instances.size(),
            find_variant(r->data, name + " #3")->instances.size());
  EXPECT_EQ(r->warnings.size(), 2u);
}

TEST(IngestHostile, ControlCharactersInNamesAreRefusedWithTheFile) {
  json doc = load("hyperfine-one.json");
  doc["results"][0]["command"] = "sleep 1\x1b]0;owned\x07";
  EXPECT_EQ(error_of(import_text("h.json", doc.dump())),
            "h.json: benchmark name \"sleep 1\\x1b]0;owned\\x07\" contains the control character "
            "U+001B at offset 7");

  doc = load("hyperfine-one.json");
  doc["results"][0]["command"] = "a\n| forged | row |";
  EXPECT_NE(error_of(import_text("h.json", doc.dump())).find("U+000A"), std::string::npos);

  doc = load("hyperfine-scan.json");
  doc["results"][0]["parameters"] = {{"n", "1\u202e"}};
  EXPECT_NE(error_of(import_text("h.json", doc.dump())).find("parameter 'n' value"),
            std::string::npos);

  // C1 controls are refused in the text itself (U+009B is a CSI on some terminals).
  EXPECT_NE(error_of(import_text("g.txt", "BenchmarkX\xC2\x9B-8 10 5 ns/op\n"))
                .find("g.txt:1: byte 0xc2 at column 11 is not text"),
            std::string::npos);
}

TEST(IngestHostile, ValuesNoMeasurementCanHaveAreRefused) {
  json doc = load("hyperfine-one.json");
  doc["results"][0]["times"][2] = -0.5;
  EXPECT_EQ(error_of(import_text("h.json", doc.dump())),
            "h.json: benchmark 'sleep 0.005' variant 'default' instance 3: iteration 1: metric "
            "wall_time is negative (-0.5 s)");
  // Per-run CPU times below zero.
  json per_run = load("hyperfine-one.json");
  const size_t n = per_run["results"][0]["times"].size();
  per_run["results"][0]["user"] = json::array();
  for (size_t i = 0; i < n; ++i) per_run["results"][0]["user"].push_back(i == 1 ? -0.01 : 0.01);
  EXPECT_NE(error_of(import_text("h.json", per_run.dump())).find("CPU time is negative"),
            std::string::npos);

  EXPECT_NE(error_of(import_text("g.txt", "BenchmarkX-8 10 -5 ns/op\n")).find("negative"),
            std::string::npos);
}

TEST(IngestHostile, EndlessAndHugeFilesAreRefusedQuickly) {
  // /dev/zero never ends: the first block shows it is not text.
  EXPECT_EQ(error_of(import_file("/dev/zero")),
            "/dev/zero:1: byte 0x00 at column 1 is not text (binary or damaged file)");
  // A sparse file above the limit: refused by its size, without reading it.
  benchguard::testing::TempDir dir;
  const std::string big = dir.file("big.json");
  std::ofstream(big).put('{');
  ASSERT_EQ(truncate(big.c_str(), static_cast<off_t>(kMaxImportBytes) + 1), 0);
  EXPECT_EQ(error_of(import_file(big)), big +
                                            ": larger than the import limit of 1024 MiB; "
                                            "split the file");
}

}  // namespace
}  // namespace benchguard::ingest
