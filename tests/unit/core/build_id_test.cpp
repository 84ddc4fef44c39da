#include "core/build_id.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace benchguard {
namespace {

// The id is the note the linker wrote into this test binary, as `readelf -n` reads it.
TEST(BuildId, IsTheLinkersNoteOfThisBinary) {
  const std::string& id = build_id();
  ASSERT_FALSE(id.empty()) << "linked without --build-id";
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
  EXPECT_GE(id.size(), 16u);
  EXPECT_EQ(&build_id(), &id);
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(
      popen(("readelf -n '" + self + "' 2>/dev/null").c_str(), "r"), pclose);
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  while (const std::size_t n = fread(buf, 1, sizeof buf, pipe.get())) out.append(buf, n);
  const auto at = out.find("Build ID: ");
  if (at == std::string::npos) GTEST_SKIP() << "readelf (binutils) is not installed";
  EXPECT_EQ(out.substr(at + 10, id.size()), id);
}

}  // namespace
}  // namespace benchguard
