#include "measure/exec_resolve.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "support/test_support.hpp"

namespace benchguard::measure {
namespace {

using benchguard::testing::TempDir;
using benchguard::testing::write_file;

TEST(MeasureResolve, FindsProgramsInPath) {
  auto r = resolve_executable("sh");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->front(), '/');
  auto abs = resolve_executable("/bin/sh");
  ASSERT_TRUE(abs.ok());
  EXPECT_EQ(*abs, "/bin/sh");
}

TEST(MeasureResolve, ExplainsWhyAProgramCannotRun) {
  EXPECT_EQ(resolve_executable("bg-no-such-program").error().message,
            "cannot run 'bg-no-such-program': not found in PATH");
  EXPECT_EQ(resolve_executable("./bg-no-such-program").error().message,
            "cannot run './bg-no-such-program': no such file");
  EXPECT_EQ(resolve_executable("/tmp").error().message, "cannot run '/tmp': is a directory");
  EXPECT_EQ(resolve_executable("").error().message, "cannot run an empty command");
}

TEST(MeasureResolve, SkipsUnexecutableFilesLikeExecvp) {
  TempDir a;
  TempDir b;
  write_file(a.file("tool"), "not executable");
  write_file(b.file("tool"), "#!/bin/sh\n");
  chmod(b.file("tool").c_str(), 0755);
  const std::string path = a.path().string() + ":" + b.path().string();
  auto r = resolve_executable("tool", path.c_str(), "");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, b.file("tool"));
  const std::string only_a = a.path().string();
  EXPECT_EQ(resolve_executable("tool", only_a.c_str(), "").error().message,
            "cannot run 'tool': not executable");
}

TEST(MeasureResolve, RelativeNamesAreCheckedInTheChildsDirectory) {
  TempDir dir;
  write_file(dir.file("run.sh"), "#!/bin/sh\n");
  chmod(dir.file("run.sh").c_str(), 0755);
  auto r = resolve_executable("./run.sh", "/bin", dir.path().string());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, "./run.sh");
}

}  // namespace
}  // namespace benchguard::measure
