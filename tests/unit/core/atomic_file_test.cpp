// Files written and removed so that no link planted in a shared folder is followed: a link at
// the target is replaced, never written through; a manifest's entry is removed only when it is
// a regular file reached through real folders.
#include "core/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::TempDir;
using testing::write_file;

TEST(AtomicFile, ALinkAtTheTargetIsReplacedNotWrittenThrough) {
  TempDir dir;
  write_file(dir.file("victim.txt"), "keep\n");
  fs::create_directory(dir.file("out"));
  fs::create_symlink("../victim.txt", dir.file("out/page.html"));
  ASSERT_TRUE(write_file_atomically(dir.file("out/page.html"), "<html>\n").ok());
  EXPECT_EQ(read_file(dir.file("victim.txt")), "keep\n");
  EXPECT_FALSE(fs::is_symlink(dir.file("out/page.html")));
  EXPECT_EQ(read_file(dir.file("out/page.html")), "<html>\n");
  // Nothing is left beside it.
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.file("out"))) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST(AtomicFile, TheModeIsTheUmasksAndAFailureLeavesTheTargetAsItWas) {
  TempDir dir;
  const mode_t old = ::umask(027);
  ASSERT_TRUE(write_file_atomically(dir.file("a"), "x").ok());
  ASSERT_TRUE(write_file_atomically(dir.file("b.sh"), "y", true).ok());
  ::umask(old);
  struct stat st {};
  ASSERT_EQ(::stat(dir.file("a").c_str(), &st), 0);
  // The mask is read once per process: the file has 0666 less the mask read then.
  EXPECT_EQ(st.st_mode & 0111, 0u);
  ASSERT_EQ(::stat(dir.file("b.sh").c_str(), &st), 0);
  EXPECT_NE(st.st_mode & 0100, 0u);
  const auto failed = write_file_atomically(dir.file("missing/a"), "x");
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().message.find(dir.file("missing/a")), std::string::npos);
}

TEST(AtomicFile, RemovesOnlyRegularFilesReachedThroughRealFolders) {
  TempDir dir;
  fs::create_directories(dir.file("site/sub"));
  fs::create_directories(dir.file("victimdir"));
  write_file(dir.file("victimdir/victim.txt"), "keep\n");
  write_file(dir.file("victim.txt"), "keep\n");
  fs::create_directory_symlink("../victimdir", dir.file("site/lnk"));
  fs::create_symlink("../victim.txt", dir.file("site/file-link"));
  write_file(dir.file("site/sub/old.html"), "old\n");
  const std::string site = dir.file("site");
  EXPECT_FALSE(remove_file_beneath(site, "lnk/victim.txt"));
  EXPECT_FALSE(remove_file_beneath(site, "../victim.txt"));
  EXPECT_FALSE(remove_file_beneath(site, "sub/../../victim.txt"));
  EXPECT_FALSE(remove_file_beneath(site, dir.file("victim.txt")));
  EXPECT_FALSE(remove_file_beneath(site, "sub"));  // a folder
  EXPECT_TRUE(fs::exists(dir.file("victimdir/victim.txt")));
  EXPECT_TRUE(fs::exists(dir.file("victim.txt")));
  // A link itself is left alone too (it is not the site's).
  EXPECT_FALSE(remove_file_beneath(site, "file-link"));
  EXPECT_TRUE(fs::is_symlink(dir.file("site/file-link")));
  EXPECT_TRUE(remove_file_beneath(site, "sub/old.html"));
  EXPECT_FALSE(fs::exists(dir.file("site/sub/old.html")));

  EXPECT_TRUE(check_real_folders(site, "sub").ok());
  EXPECT_TRUE(check_real_folders(site, "sub/not-yet/deeper").ok());
  EXPECT_TRUE(check_real_folders(site, "").ok());
  EXPECT_FALSE(check_real_folders(site, "lnk").ok());
  EXPECT_FALSE(check_real_folders(site, "lnk/data").ok());
  EXPECT_FALSE(check_real_folders(site, "../victimdir").ok());
}

}  // namespace
}  // namespace benchguard
