// A writer killed with SIGKILL at an arbitrary moment leaves an openable, consistent
// database holding every instance whose add_instance() had returned.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

using benchguard::testing::TempDir;
using namespace benchguard::store::testing;

// Child side: stores instances forever, reporting the count after each commit.
[[noreturn]] void write_until_killed(const std::string& path, int report_fd) {
  auto store = open_store(path);
  if (!store.ok()) _exit(2);
  auto run = (*store)->begin_run(sample_run("kill-" + std::to_string(getpid()), 1));
  if (!run.ok()) _exit(3);
  auto variant = (*store)->add_variant(*run, sample_variant("x", "default"));
  if (!variant.ok()) _exit(4);
  for (int64_t n = 1;; ++n) {
    if (!(*store)->add_instance(*variant, sample_instance(static_cast<int>(n), 3)).ok()) _exit(5);
    if (write(report_fd, &n, sizeof n) != sizeof n) _exit(6);
  }
}

// Kills a writer after it reported `after` commits; returns the last count it reported.
int64_t kill_writer_after(const std::string& path, int64_t after) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    write_until_killed(path, fds[1]);
  }
  close(fds[1]);
  int64_t last = 0, n = 0;
  while (last < after && read(fds[0], &n, sizeof n) == sizeof n) last = n;
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  while (read(fds[0], &n, sizeof n) == sizeof n) last = n;  // reported before it died
  close(fds[0]);
  EXPECT_TRUE(WIFSIGNALED(status)) << "writer exited early with " << WEXITSTATUS(status);
  return last;
}

TEST(SqliteDurability, KillNineKeepsEveryCommittedInstance) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  int64_t committed_total = 0;
  // Kill points spread out so some land inside a transaction and some between two.
  for (int64_t after : {1, 37, 250}) {
    const int64_t committed = kill_writer_after(path, after);
    ASSERT_GE(committed, after);
    committed_total += committed;

    auto store = open_store(path);
    ASSERT_TRUE(store.ok()) << store.error().message;
    auto data = (*store)->load_run("latest");
    ASSERT_TRUE(data.ok()) << data.error().message;
    ASSERT_EQ(data->variants.size(), 1u);
    const auto& instances = data->variants[0].instances;
    // The instance in flight may or may not have committed; none may be missing or partial.
    EXPECT_GE(static_cast<int64_t>(instances.size()), committed);
    EXPECT_LE(static_cast<int64_t>(instances.size()), committed + 1);
    for (size_t i = 0; i < instances.size(); ++i) {
      ASSERT_EQ(instances[i].index, static_cast<int>(i) + 1);
      ASSERT_EQ(instances[i].iterations.size(), 3u);
      for (const auto& it : instances[i].iterations) ASSERT_EQ(it.metrics.size(), 3u);
    }
  }
  auto db = raw_db(path);
  ASSERT_TRUE(db);
  auto check = db->prepare("PRAGMA integrity_check");
  ASSERT_TRUE(check.ok());
  ASSERT_TRUE(*check->step());
  EXPECT_EQ(check->text(0), "ok");
  EXPECT_GE(count_rows(*db, "instances"), committed_total);
}

}  // namespace
}  // namespace benchguard::store
