// Every result file of the repository (tests/data/ingest), and the real result files of other
// harnesses kept beside a checkout in ../shared/fixtures (BG_FIXTURES_DIR) where there is one:
// each file, and cut and garbled copies of it, either imports or is refused with one line that
// names it; nothing crashes. A fresh clone has no ../shared: the test then runs on the
// repository's files alone, never skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "ingest/ingest.hpp"
#include "support/test_support.hpp"
#include "unit/ingest/damaged_inputs.hpp"

namespace benchguard::ingest {
namespace {

namespace fs = std::filesystem;

void expect_clean(const Result<Imported>& r, const std::string& path, const std::string& what) {
  if (r.ok()) {
    EXPECT_FALSE(r->format.empty()) << what << " of " << path;
    EXPECT_GT(r->iterations() + r->summaries(), 0) << what << " of " << path;
    return;
  }
  const std::string& msg = r.error().message;
  EXPECT_TRUE(msg.starts_with(path + ":")) << what << ": " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << what << ": " << msg;
  EXPECT_EQ(r.error().code, ExitCode::kInput) << what << ": " << msg;
}

TEST(IngestSharedCorpus, EveryFileImportsOrIsRefusedCleanly) {
  std::vector<fs::path> dirs = {fs::path(BG_SOURCE_DIR) / "tests" / "data" / "ingest"};
  std::error_code ec;
  if (fs::is_directory(BG_FIXTURES_DIR, ec)) dirs.emplace_back(BG_FIXTURES_DIR);

  std::vector<std::string> files;
  for (const auto& dir : dirs) {
    const size_t before = files.size();
    for (const auto& e : fs::recursive_directory_iterator(dir, ec))
      if (e.is_regular_file() && e.path().filename() != "README.md")
        files.push_back(e.path().string());
    ASSERT_GT(files.size(), before) << dir.string() << " is empty";
  }
  std::sort(files.begin(), files.end());

  int imported = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    auto r = import_file(path);
    expect_clean(r, path, "the file");
    if (r.ok()) ++imported;
    const std::string text = ::benchguard::testing::read_file(path);
    if (text.size() > 2)
      expect_clean(import_text(path, testing::truncated(text)), path, "a cut copy");
    auto garbled = import_text(path, testing::garbage(text));
    ASSERT_FALSE(garbled.ok()) << "a garbled copy of " << path << " was imported";
    EXPECT_NE(garbled.error().message.find("is not text"), std::string::npos)
        << garbled.error().message;
  }
  EXPECT_GT(imported, 0) << "no file imports";
}

}  // namespace
}  // namespace benchguard::ingest
