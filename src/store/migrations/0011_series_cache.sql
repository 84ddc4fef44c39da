-- The series cache (docs/store.md): what history derives from a finished run (each benchmark
-- variant's metrics, their steady-state values per instance), kept beside the run so that
-- history, detect and report read it instead of the run's instances. `key` names the encoding
-- and the settings it was derived with; `data` is opaque to the store. An entry goes with its
-- run (ON DELETE CASCADE); prune removes those of the runs it touches. checksum: FNV-1a 64 over
-- the run's uuid, the key and the data, verified by `db check`.
CREATE TABLE series_cache (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  data BLOB NOT NULL,
  checksum INTEGER NOT NULL,
  UNIQUE (run_id, key)
);
