// The instance log: records round-trip, a torn tail is skipped, batched instances reach the
// database in order, and what a killed writer logged is replayed exactly once.
#include "store/instance_log.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "store/location.hpp"
#include "support/test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

using benchguard::testing::TempDir;
using namespace benchguard::store::testing;
namespace fs = std::filesystem;

std::vector<std::string> pending_files(const TempDir& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir.path()))
    if (e.path().filename().string().find(".pending-") != std::string::npos)
      out.push_back(e.path().string());
  return out;
}

int64_t stored_instances(const std::string& path) {
  auto db = raw_db(path);
  return db ? count_rows(*db, "instances") : -1;
}

struct Declared {
  int64_t run = 0;
  int64_t variant = 0;
};

Declared declare(Store& store, const std::string& uuid) {
  Declared d;
  auto run = store.begin_run(sample_run(uuid, 1000));
  EXPECT_TRUE(run.ok());
  d.run = run.ok() ? *run : 0;
  auto variant = store.add_variant(d.run, sample_variant("b", "default"));
  EXPECT_TRUE(variant.ok());
  d.variant = variant.ok() ? *variant : 0;
  return d;
}

TEST(InstanceLog, RecordsRoundTripEveryField) {
  std::string bytes;
  std::vector<InstanceRecord> written;
  for (int i = 0; i < 4; ++i) {
    written.push_back(sample_instance(i, i));  // 0..3 iterations, odd ones failed
    bytes += encode_logged_instance(40 + i, written.back());
  }
  bool complete = false;
  const auto read = decode_logged_instances(bytes, &complete);
  EXPECT_TRUE(complete);
  ASSERT_EQ(read.size(), written.size());
  for (size_t i = 0; i < read.size(); ++i) {
    EXPECT_EQ(read[i].first, 40 + static_cast<int64_t>(i));
    expect_same(read[i].second, written[i]);
  }
}

TEST(InstanceLog, ATornOrDamagedTailIsLeftOut) {
  const std::string first = encode_logged_instance(1, sample_instance(0, 2));
  const std::string second = encode_logged_instance(1, sample_instance(1, 2));
  const std::string both = first + second;
  // Every cut inside the second record keeps exactly the first.
  for (size_t cut = first.size() + 1; cut < both.size(); ++cut) {
    bool complete = true;
    const auto read = decode_logged_instances(both.substr(0, cut), &complete);
    ASSERT_EQ(read.size(), 1u) << "cut at " << cut;
    EXPECT_FALSE(complete);
  }
  // A flipped byte in the second record's payload fails its checksum.
  std::string damaged = both;
  damaged[first.size() + 30] ^= 0x5a;
  EXPECT_EQ(decode_logged_instances(damaged).size(), 1u);
  EXPECT_TRUE(decode_logged_instances("not a log").empty());
}

TEST(InstanceLog, BatchedInstancesAreCommittedInOrderAndTheLogGoes) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  const Declared d = declare(*store, "10000000-0000-4000-8000-000000000001");
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(store->add_instance_batched(d.variant, sample_instance(i, 1)).ok());
  EXPECT_EQ(pending_files(dir).size(), 1u);
  EXPECT_EQ(stored_instances(path), 0);  // logged, not committed yet
  // A plain add commits what is pending first, so ids follow the order of the calls.
  ASSERT_TRUE(store->add_instance(d.variant, sample_instance(3, 1)).ok());
  EXPECT_EQ(stored_instances(path), 4);
  ASSERT_TRUE(store->add_instance_batched(d.variant, sample_instance(4, 0)).ok());
  ASSERT_TRUE(store->finish_run(d.run, 2000, "complete").ok());
  store.reset();
  EXPECT_TRUE(pending_files(dir).empty());
  store = open_or_die(path);
  auto data = store->load_run("latest");
  ASSERT_TRUE(data.ok()) << data.error().message;
  const auto& instances = data->variants.at(0).instances;
  ASSERT_EQ(instances.size(), 5u);
  for (int i = 0; i < 5; ++i) expect_same(instances[i], sample_instance(i, i == 4 ? 0 : 1));
}

TEST(InstanceLog, ABatchIsCommittedWhenFull) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  const Declared d = declare(*store, "10000000-0000-4000-8000-000000000002");
  for (size_t i = 0; i < Store::kBatchSize; ++i)
    ASSERT_TRUE(
        store->add_instance_batched(d.variant, sample_instance(static_cast<int>(i), 0)).ok());
  EXPECT_EQ(stored_instances(path), static_cast<int64_t>(Store::kBatchSize));
}

TEST(InstanceLog, ABatchIsCommittedWhenItsOldestInstanceIsOld) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  const Declared d = declare(*store, "10000000-0000-4000-8000-000000000006");
  ASSERT_TRUE(store->add_instance_batched(d.variant, sample_instance(0, 0)).ok());
  EXPECT_EQ(stored_instances(path), 0);
  std::this_thread::sleep_for(std::chrono::nanoseconds(Store::kBatchAgeNs + 20'000'000));
  ASSERT_TRUE(store->add_instance_batched(d.variant, sample_instance(1, 0)).ok());
  EXPECT_EQ(stored_instances(path), 2);
}

// Logs instances in a child process that then exits without closing its store, as a killed
// benchguard would.
void log_and_die(const std::string& path, const std::string& uuid, int count) {
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto store = open_store(path);
    if (!store.ok()) _exit(3);
    const Declared d = declare(**store, uuid);
    for (int i = 0; i < count; ++i)
      if (!(*store)->add_instance_batched(d.variant, sample_instance(i, 1)).ok()) _exit(4);
    _exit(0);  // no destructors: nothing flushed
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
}

TEST(InstanceLog, WhatAKilledWriterLoggedIsReplayedOnce) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  ASSERT_NO_FATAL_FAILURE(log_and_die(path, "10000000-0000-4000-8000-000000000003", 7));
  ASSERT_EQ(pending_files(dir).size(), 1u);
  EXPECT_EQ(stored_instances(path), 0);

  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  EXPECT_TRUE(pending_files(dir).empty());
  auto data = store->load_run("latest");
  ASSERT_TRUE(data.ok()) << data.error().message;
  const auto& instances = data->variants.at(0).instances;
  ASSERT_EQ(instances.size(), 7u);
  for (int i = 0; i < 7; ++i) expect_same(instances[i], sample_instance(i, 1));
  store.reset();
  store = open_or_die(path);  // nothing left to replay
  EXPECT_EQ(stored_instances(path), 7);
}

TEST(InstanceLog, MergeTakesWhatAKilledWriterOfTheOtherDatabaseLogged) {
  TempDir dir;
  const std::string other = dir.file("job.db");
  ASSERT_NO_FATAL_FAILURE(log_and_die(other, "10000000-0000-4000-8000-000000000007", 4));
  auto store = open_or_die(dir.file("all.db"));
  ASSERT_TRUE(store);
  auto merged = store->merge_from(other);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->runs_added, 1);
  EXPECT_EQ(merged->instances_added, 4);
  auto data = store->load_run("latest");
  ASSERT_TRUE(data.ok()) << data.error().message;
  ASSERT_EQ(data->variants.at(0).instances.size(), 4u);
  for (int i = 0; i < 4; ++i) expect_same(data->variants[0].instances[i], sample_instance(i, 1));
  // The other database is only read: its log stays for its own next open.
  EXPECT_EQ(stored_instances(other), 0);
  EXPECT_EQ(pending_files(dir).size(), 1u);
}

TEST(InstanceLog, AnInstanceAlreadyCommittedIsNotReplayedAgain) {
  // Killed after a flush committed but before it emptied the log.
  TempDir dir;
  const std::string path = dir.file("bg.db");
  Declared d;
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    d = declare(*store, "10000000-0000-4000-8000-000000000004");
    for (int i = 0; i < 2; ++i)
      ASSERT_TRUE(store->add_instance(d.variant, sample_instance(i, 1)).ok());
  }
  std::string log;
  for (int i = 0; i < 3; ++i) log += encode_logged_instance(d.variant, sample_instance(i, 1));
  log += encode_logged_instance(d.variant + 99, sample_instance(9, 1));  // variant pruned since
  benchguard::testing::write_file(path + ".pending-abc123", log);
  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  EXPECT_EQ(stored_instances(path), 3);
  EXPECT_TRUE(pending_files(dir).empty());
}

TEST(InstanceLog, ALogIsNamedAfterItsWritersProcess) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  auto writer = open_or_die(path);
  ASSERT_TRUE(writer);
  const Declared d = declare(*writer, "10000000-0000-4000-8000-000000000008");
  ASSERT_TRUE(writer->add_instance_batched(d.variant, sample_instance(0, 1)).ok());
  const auto logs = pending_files(dir);
  ASSERT_EQ(logs.size(), 1u);
  const std::string name = fs::path(logs[0]).filename().string();
  EXPECT_TRUE(name.starts_with("bg.db.pending-" + std::to_string(getpid()) + "-")) << name;
}

TEST(InstanceLog, OnlyThisDatabasesLogsAreFoundInACrowdedFolder) {
  TempDir dir;
  for (int i = 0; i < 300; ++i)
    benchguard::testing::write_file(dir.file("other-" + std::to_string(i)), "x");
  // Another database's log, one whose name only contains ours, one still being made.
  benchguard::testing::write_file(dir.file("bg.db2.pending-1-a"), "x");
  benchguard::testing::write_file(dir.file("old-bg.db.pending-1-a"), "x");
  benchguard::testing::write_file(dir.file("bg.db.new-pending-3-c"), "x");
  benchguard::testing::write_file(dir.file("bg.db.pending-1-a"), "x");
  benchguard::testing::write_file(dir.file("bg.db.pending-2-b"), "x");
  auto logs = instance_logs(dir.file("bg.db"));
  std::sort(logs.begin(), logs.end());
  EXPECT_EQ(logs, (std::vector<std::string>{dir.file("bg.db.pending-1-a"),
                                            dir.file("bg.db.pending-2-b")}));
  EXPECT_TRUE(instance_logs(dir.file("missing/bg.db")).empty());
  EXPECT_EQ(folder_of("bg.db"), ".");
  EXPECT_EQ(folder_of("/bg.db"), "/");
  EXPECT_EQ(folder_of("a/b/bg.db"), "a/b");
  EXPECT_TRUE(names_beginning_with(dir.file("missing"), "bg").empty());
}

TEST(InstanceLog, AKilledWritersLogIsReplayedWhileAChildStillHoldsItsLock) {
  // A writer launches benchmarks; a child it launched holds a copy of the log's descriptor
  // (and so of its lock) until it execs. Killed in that window, the writer is gone but its
  // log still looks locked: the next open must wait for the child, not leave the log behind.
  TempDir dir;
  const std::string path = dir.file("bg.db");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t writer = fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    auto store = open_store(path);
    if (!store.ok()) _exit(3);
    const Declared d = declare(**store, "10000000-0000-4000-8000-000000000009");
    for (int i = 0; i < 3; ++i)
      if (!(*store)->add_instance_batched(d.variant, sample_instance(i, 1)).ok()) _exit(4);
    if (fork() == 0) {  // the launched child, slow to exec: holds every descriptor meanwhile
      close(ready[0]);
      (void)!write(ready[1], "x", 1);
      usleep(300'000);
      _exit(0);
    }
    _exit(0);  // killed: nothing flushed
  }
  close(ready[1]);
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);  // the child is alive and holds the lock
  close(ready[0]);
  int status = 0;
  waitpid(writer, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  ASSERT_EQ(pending_files(dir).size(), 1u);

  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  EXPECT_TRUE(pending_files(dir).empty());
  EXPECT_EQ(stored_instances(path), 3);
}

TEST(InstanceLog, ALiveWritersLogIsLeftAlone) {
  TempDir dir;
  const std::string path = dir.file("bg.db");
  auto writer = open_or_die(path);
  ASSERT_TRUE(writer);
  const Declared d = declare(*writer, "10000000-0000-4000-8000-000000000005");
  ASSERT_TRUE(writer->add_instance_batched(d.variant, sample_instance(0, 1)).ok());
  // Another connection (another process, as far as the lock goes) opens meanwhile.
  auto reader = open_or_die(path);
  ASSERT_TRUE(reader);
  EXPECT_EQ(pending_files(dir).size(), 1u);
  EXPECT_EQ(stored_instances(path), 0);
  ASSERT_TRUE(writer->flush().ok());
  EXPECT_EQ(stored_instances(path), 1);
  auto data = reader->load_run("latest");
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->variants.at(0).instances.size(), 1u);
}

}  // namespace
}  // namespace benchguard::store
