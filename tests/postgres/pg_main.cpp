// main() of the PostgreSQL tests: they skip (exit 77, ctest's SKIP_RETURN_CODE) and say why
// when there is no server to test against, instead of passing without testing anything.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "store/postgres/pg.hpp"

namespace {

bool server_binaries_present() {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec))
    if (std::filesystem::exists(entry.path() / "bin" / "initdb", ec)) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!server_binaries_present()) {
    std::fprintf(stderr,
                 "SKIP: no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb); install "
                 "Debian's postgresql package to run these tests\n");
    return 77;
  }
  const char* url = std::getenv("BENCHGUARD_TEST_PG");
  if (url == nullptr || *url == '\0') {
    std::fprintf(stderr,
                 "SKIP: BENCHGUARD_TEST_PG is not set; run these tests through ctest (-L "
                 "postgres), whose fixture starts a server and sets it\n");
    return 77;
  }
  // The fixture started a server: not reaching it is a failure, not a skip.
  auto conn = benchguard::store::postgres::Conn::connect(url);
  if (!conn.ok()) {
    std::fprintf(stderr, "FAIL: the test server is not reachable: %s\n",
                 conn.error().message.c_str());
    return 1;
  }
  return RUN_ALL_TESTS();
}
