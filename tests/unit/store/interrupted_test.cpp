// Runs whose writer is gone read as `interrupted` and are marked so by the next write; a live
// writer's run, and a run written on another machine, never are.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "store/store.hpp"
#include "store/writer.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

namespace fs = std::filesystem;
using benchguard::testing::TempDir;
using namespace benchguard::store::testing;

constexpr OpenOptions kReadOnlyOpen{.create = false, .migrate = true, .read_only = true};

std::string stored_status(const std::string& path, int64_t run_id) {
  auto db = raw_db(path);
  if (!db) return "";
  auto stmt = db->prepare("SELECT status FROM runs WHERE id = ?");
  if (!stmt.ok()) return "";
  auto row = stmt->bind(1, run_id).step();
  return row.ok() && *row ? stmt->text(0) : "";
}

std::string status_read_only(const std::string& path) {
  auto store = open_store(path, kReadOnlyOpen);
  if (!store.ok()) return store.error().message;
  auto run = (*store)->load_run("latest");
  return run.ok() ? run->run.status : run.error().message;
}

// A writer that begins a run, stores `instances` instances and waits for a byte on `go`
// (or dies at once when go < 0) without ever finishing the run.
pid_t start_writer(const std::string& path, int instances, int ready_fd, int go_fd) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  auto store = open_store(path);
  if (!store.ok()) _exit(3);
  auto run = (*store)->begin_run(
      sample_run("20000000-0000-4000-8000-" + std::to_string(getpid()) + "00000000", 1000));
  if (!run.ok()) _exit(4);
  auto variant = (*store)->add_variant(*run, sample_variant("x", "default"));
  if (!variant.ok()) _exit(5);
  for (int i = 0; i < instances; ++i)
    if (!(*store)->add_instance(*variant, sample_instance(i, 2)).ok()) _exit(6);
  (void)!write(ready_fd, "r", 1);
  char byte = 0;
  if (go_fd >= 0) (void)!read(go_fd, &byte, 1);
  _exit(0);  // no destructors: the run stays `running`, as a killed writer leaves it
}

TEST(InterruptedRuns, AKilledWritersRunIsInterruptedWithItsInstances) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  int ready[2], go[2];
  ASSERT_EQ(pipe(ready), 0);
  ASSERT_EQ(pipe(go), 0);
  const pid_t writer = start_writer(path, 3, ready[1], go[0]);
  ASSERT_GT(writer, 0);
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);

  // Alive: running, for readers and writers alike.
  EXPECT_EQ(status_read_only(path), "running");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    auto runs = store->list_runs();
    ASSERT_TRUE(runs.ok());
    EXPECT_EQ(runs->at(0).status, "running");
  }
  EXPECT_EQ(stored_status(path, 1), "running");

  kill(writer, SIGKILL);
  int status = 0;
  waitpid(writer, &status, 0);
  close(go[1]);

  // Gone: readers show it interrupted without writing...
  EXPECT_EQ(status_read_only(path), "interrupted");
  EXPECT_EQ(stored_status(path, 1), "running");
  // ... and the next read-write open marks it, ended at its last instance.
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  EXPECT_EQ(stored_status(path, 1), "interrupted");
  auto run = store->load_run("latest");
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->run.status, "interrupted");
  EXPECT_EQ(run->run.finished_at, sample_instance(2).started_at + 123'456'789);
  ASSERT_EQ(run->variants.at(0).instances.size(), 3u);
  for (int i = 0; i < 3; ++i) expect_same(run->variants[0].instances[i], sample_instance(i, 2));
  auto check = check_store(path);
  ASSERT_TRUE(check.ok()) << check.error().message;
  EXPECT_TRUE(check->problems.empty()) << check->problems.front().text;
}

TEST(InterruptedRuns, AStoreClosedBeforeFinishingMarksItsRun) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    auto run = store->begin_run(sample_run("20000000-0000-4000-8000-0000000000e1", 1000));
    ASSERT_TRUE(run.ok());
    auto variant = store->add_variant(*run, sample_variant("x", "default"));
    ASSERT_TRUE(variant.ok());
    ASSERT_TRUE(store->add_instance(*variant, sample_instance(0)).ok());
    ASSERT_TRUE(store->add_instance_batched(*variant, sample_instance(1)).ok());
    // An error ends the writer here, before finish_run.
  }
  EXPECT_EQ(stored_status(path, 1), "interrupted");
  auto store = open_or_die(path, kReadOnlyOpen);
  ASSERT_TRUE(store);
  auto run = store->load_run("latest");
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->variants.at(0).instances.size(), 2u);
  EXPECT_EQ(run->run.finished_at, sample_instance(1).started_at + 123'456'789);
  // A finished run is left as it ended.
  {
    auto writer = open_or_die(path);
    ASSERT_TRUE(writer);
    store_run(*writer, "20000000-0000-4000-8000-0000000000e2", 2000, {"x"}, 1);
  }
  EXPECT_EQ(stored_status(path, 2), "complete");
}

// Writers recorded by hand, as another machine or an earlier boot would have.
int64_t run_with_writer(Store& store, const std::string& uuid, const WriterIdentity& w,
                        const std::string& path) {
  auto run = store.add_runs({RunData{0, sample_run(uuid, 1000), {}}}, {});
  EXPECT_TRUE(run.ok()) << run.error().message;
  const int64_t id = run.ok() ? run->at(0) : 0;
  auto db = raw_db(path);
  auto stmt = db->prepare(
      "INSERT INTO run_writers(run_id, hostname, machine_id, boot_id, pid_ns, pid, pid_start, "
      "lock) VALUES(?,?,?,?,?,?,?,?)");
  EXPECT_TRUE(stmt.ok());
  EXPECT_TRUE(
      stmt->bind_all(id, w.hostname, w.machine_id, w.boot_id, w.pid_ns, w.pid, w.pid_start, w.lock)
          .run()
          .ok());
  return id;
}

TEST(InterruptedRuns, OnlyWritersThisMachineCanJudgeAreJudged) {
  const WriterIdentity& me = this_writer();
  if (me.boot_id.empty()) GTEST_SKIP() << "no boot id on this system";
  TempDir dir;
  const std::string path = dir.file("bg.db");
  auto store = open_or_die(path);
  ASSERT_TRUE(store);

  // Another machine: left alone, whatever its pid says.
  WriterIdentity other = me;
  other.boot_id = "00000000-0000-4000-8000-000000000000";
  other.machine_id = "another-machine";
  other.hostname = "elsewhere";
  other.pid = 999999;
  const int64_t remote =
      run_with_writer(*store, "30000000-0000-4000-8000-000000000001", other, path);

  // Same machine name and id, another kernel: another machine too unless this one booted
  // after the run started (then it is this machine, rebooted).
  WriterIdentity rebooted = me;
  rebooted.boot_id = "00000000-0000-4000-8000-000000000001";
  const int64_t before_boot =
      run_with_writer(*store, "30000000-0000-4000-8000-000000000002", rebooted, path);

  // This kernel, no lock file: the pid decides; a reused pid (another start time) is gone.
  WriterIdentity reused = me;
  reused.lock = "";
  reused.pid_start = me.pid_start + 1;
  const int64_t pid_reused =
      run_with_writer(*store, "30000000-0000-4000-8000-000000000003", reused, path);
  WriterIdentity alive = me;
  alive.lock = "";
  const int64_t pid_alive =
      run_with_writer(*store, "30000000-0000-4000-8000-000000000004", alive, path);

  // This kernel, a lock file that is gone: the writer closed or was replayed.
  WriterIdentity unlocked = me;
  unlocked.lock = "1-nosuch";
  const int64_t no_log =
      run_with_writer(*store, "30000000-0000-4000-8000-000000000005", unlocked, path);

  // This kernel, another pid namespace (a container) and no lock: cannot tell.
  WriterIdentity contained = me;
  contained.lock = "";
  contained.pid_ns = "pid:[1]";
  contained.pid = 999999;
  const int64_t container =
      run_with_writer(*store, "30000000-0000-4000-8000-000000000006", contained, path);

  store.reset();
  auto reopened = open_or_die(path);  // marks what it may
  ASSERT_TRUE(reopened);
  EXPECT_EQ(stored_status(path, remote), "running");
  EXPECT_EQ(stored_status(path, before_boot), "interrupted");  // started at 1000 ns, long ago
  EXPECT_EQ(stored_status(path, pid_reused), "interrupted");
  EXPECT_EQ(stored_status(path, pid_alive), "running");
  EXPECT_EQ(stored_status(path, no_log), "interrupted");
  EXPECT_EQ(stored_status(path, container), "running");
}

TEST(InterruptedRuns, AMergeCarriesARunWhoseWriterIsGoneAsInterrupted) {
  TempDir dir;
  const std::string other = dir.file("job.db");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t writer = start_writer(other, 2, ready[1], -1);
  int status = 0;
  waitpid(writer, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  auto store = open_or_die(dir.file("all.db"));
  ASSERT_TRUE(store);
  auto merged = store->merge_from(other);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->runs_added, 1);
  auto run = store->load_run("latest");
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->run.status, "interrupted");
  EXPECT_EQ(run->variants.at(0).instances.size(), 2u);
  EXPECT_EQ(stored_status(other, 1), "running");  // the other database is only read
  auto check = check_store(dir.file("all.db"));
  ASSERT_TRUE(check.ok());
  EXPECT_TRUE(check->problems.empty()) << check->problems.front().text;
}

TEST(InterruptedRuns, ProcessAliveTellsReusedPids) {
  const WriterIdentity& me = this_writer();
  if (me.pid_start == 0) GTEST_SKIP() << "no /proc here";
  EXPECT_TRUE(process_alive(getpid(), me.pid_start));
  EXPECT_FALSE(process_alive(getpid(), me.pid_start + 1));
  const pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_FALSE(process_alive(child, 0));
}

}  // namespace
}  // namespace benchguard::store
