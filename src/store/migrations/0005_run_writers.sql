-- The process writing a run, one row per run begun by `benchguard run` (not for imported or
-- merged runs). A run still `running` whose writer is gone (killed, out of disk, its machine
-- rebooted) is shown as `interrupted`, and marked so by the next write (src/store/writer.hpp).
-- lock: the suffix of the writer's instance log DB.pending-SUFFIX, on which the writer holds an
-- exclusive flock for as long as it lives; boot_id and pid_ns say which kernel and which process
-- ids the lock and pid belong to, so that a run written on another machine is never judged here.
CREATE TABLE run_writers (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  hostname TEXT NOT NULL DEFAULT '',
  machine_id TEXT NOT NULL DEFAULT '',
  boot_id TEXT NOT NULL DEFAULT '',
  pid_ns TEXT NOT NULL DEFAULT '',
  pid INTEGER NOT NULL DEFAULT 0,
  pid_start INTEGER NOT NULL DEFAULT 0,
  lock TEXT NOT NULL DEFAULT '',
  checksum INTEGER  -- over these columns and the run's uuid (src/store/checksum.hpp)
);
