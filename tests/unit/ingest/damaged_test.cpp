// Every input, damaged three ways, is refused with one line that names the file.
#include <gtest/gtest.h>

#include "ingest/ingest.hpp"
#include "unit/ingest/damaged_inputs.hpp"

namespace benchguard::ingest {
namespace {

using testing::all_inputs;

void expect_refused(const Result<Imported>& r, const std::string& path, const std::string& what) {
  ASSERT_FALSE(r.ok()) << what << " of " << path << " was imported";
  const std::string& msg = r.error().message;
  EXPECT_TRUE(msg.starts_with(path + ":")) << what << ": " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << what << ": " << msg;
  EXPECT_EQ(r.error().code, ExitCode::kInput);
}

TEST(IngestDamaged, EveryInputImportsAsItsFormatWhenIntact) {
  for (const auto& f : all_inputs()) {
    auto r = import_file(f.path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->format, f.format) << f.path;
    EXPECT_GT(r->iterations() + r->summaries(), 0) << f.path;
  }
}

TEST(IngestDamaged, TruncatedInTheMiddle) {
  for (const auto& f : all_inputs()) {
    const auto text = testing::truncated(::benchguard::testing::read_file(f.path));
    expect_refused(import_text(f.path, text), f.path, "truncated copy");
    expect_refused(import_text(f.path, text, f.format), f.path, "truncated copy, format named");
  }
}

TEST(IngestDamaged, RequiredFieldOfTheWrongType) {
  for (const auto& f : all_inputs()) {
    const auto text = testing::wrong_type(f, ::benchguard::testing::read_file(f.path));
    ASSERT_NE(text, ::benchguard::testing::read_file(f.path)) << f.path;
    auto r = import_text(f.path, text);
    expect_refused(r, f.path, "wrong type");
    if (!r.ok()) {
      EXPECT_EQ(r.error().message.find("nothing to import"), std::string::npos)
          << r.error().message;
    }
  }
}

TEST(IngestDamaged, ANumberBeyondTheRangeOfADouble) {
  for (const auto& f : all_inputs()) {
    const auto text = testing::huge_number(f, ::benchguard::testing::read_file(f.path));
    ASSERT_NE(text.find("1e999"), std::string::npos) << f.path;
    expect_refused(import_text(f.path, text), f.path, "1e999");
    expect_refused(import_text(f.path, text, f.format), f.path, "1e999, format named");
  }
  auto r = import_text("x.json", "{\"benchmarks\": [\n{\"name\": \"a\", \"real_time\": 1e999}]}");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "x.json:2: malformed JSON: number 1e999 is beyond the range of a double");
}

TEST(IngestDamaged, GarbageBytes) {
  for (const auto& f : all_inputs()) {
    auto r = import_text(f.path, testing::garbage(::benchguard::testing::read_file(f.path)));
    expect_refused(r, f.path, "garbage");
    if (!r.ok()) {
      EXPECT_NE(r.error().message.find("is not text"), std::string::npos) << r.error().message;
    }
  }
}

TEST(IngestDamaged, MessagesSayWhereAndWhat) {
  const auto& files = all_inputs();
  auto gb =
      import_text(files[0].path,
                  testing::wrong_type(files[0], ::benchguard::testing::read_file(files[0].path)));
  ASSERT_FALSE(gb.ok());
  EXPECT_EQ(
      gb.error().message,
      files[0].path + ": benchmarks[0].real_time: expected a number, got the string \"fast\"");
  auto cut = import_text("x.json", "{\"benchmarks\": [\n{\"name\": \"a\",\n");
  ASSERT_FALSE(cut.ok());
  EXPECT_TRUE(cut.error().message.starts_with("x.json:3: malformed JSON: ")) << cut.error().message;
  auto bin = import_text("b.csv", std::string("a,b\nc,\x01\n", 8));
  ASSERT_FALSE(bin.ok());
  EXPECT_EQ(bin.error().message,
            "b.csv:2: byte 0x01 at column 3 is not text (binary or damaged file)");
}

}  // namespace
}  // namespace benchguard::ingest
