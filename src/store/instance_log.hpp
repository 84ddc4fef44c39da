// The instance log: a file beside the database where a writer appends instances it has not
// committed yet, each with one write(2). Once write() returns, the record survives a killed
// process, as a SQLite commit under synchronous=NORMAL does; it costs a fraction of one. The
// writer moves the records into the database in batches and empties the log; the next
// read-write open moves what a killed writer left (replay). The writer holds an exclusive
// flock on its log for as long as it lives, so a live log is never replayed. The log's name
// carries the writer's process id: a child the writer launched holds a copy of the lock until
// it execs, and a replay that finds the writer gone waits for that moment (orphan_logs).
//
// Records: magic "BGIL", payload length (u32), FNV-1a 64 of the payload, payload (the variant
// id and every field of the InstanceRecord, little-endian). Reading stops at the first torn
// or damaged record: the tail a kill left half-written.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::store {

using LoggedInstance = std::pair<int64_t, InstanceRecord>;  // (variant id, instance)

std::string encode_logged_instance(int64_t variant_id, const InstanceRecord& instance);
// Decodes records from the start of `bytes` until its end or the first damaged record.
// `complete` (when given) is set false when bytes were left over.
std::vector<LoggedInstance> decode_logged_instances(const std::string& bytes,
                                                    bool* complete = nullptr);

// An open log file and its name: closed on destruction, deleted by remove().
class LogFile {
 public:
  LogFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  LogFile(LogFile&& other) noexcept;
  LogFile& operator=(LogFile&& other) noexcept;
  LogFile(const LogFile&) = delete;
  LogFile& operator=(const LogFile&) = delete;
  ~LogFile();

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  // Deletes the file and closes it.
  void remove();
  // Gives up the descriptor without closing it.
  int release();

 private:
  int fd_ = -1;
  std::string path_;
};

class InstanceLog {
 public:
  // Creates a locked, empty log beside `db_path` (named DB_PATH.pending-PID-XXXXXX).
  static Result<InstanceLog> create(const std::string& db_path);

  Status append(int64_t variant_id, const InstanceRecord& instance);
  // Empties the log once its records are in the database.
  Status clear();
  // Deletes the file and closes it; otherwise the file stays when the log is destroyed.
  void remove() { file_.remove(); }
  const std::string& path() const { return file_.path(); }

 private:
  explicit InstanceLog(LogFile file) : file_(std::move(file)) {}
  LogFile file_;
};

// A log left by a writer that is gone, locked for replay by this process.
class OrphanLog {
 public:
  const std::string& path() const { return file_.path(); }
  Result<std::vector<LoggedInstance>> read() const;
  // Deletes the file once its records are in the database.
  void remove() { file_.remove(); }

 private:
  friend Result<std::vector<OrphanLog>> orphan_logs(const std::string& db_path);
  explicit OrphanLog(LogFile file) : file_(std::move(file)) {}
  LogFile file_;
};

// Every instance log beside `db_path` (DB.pending-*, live writers' too), by path.
std::vector<std::string> instance_logs(const std::string& db_path);

// The logs beside `db_path` that no live writer holds, each locked by the returned object.
Result<std::vector<OrphanLog>> orphan_logs(const std::string& db_path);

}  // namespace benchguard::store
