-- The SQLite schema at the latest migration, as sqlite_master holds it after every migration in
-- src/store/migrations has run: a new database is made from this in one step (ALTER TABLE
-- would re-read the whole schema each time). StoreMigration.ANewDatabaseMadeFromTheLatestSchema-
-- EqualsOneMigratedStepByStep fails when it differs and writes what it should be.
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  started_at INTEGER NOT NULL,
  finished_at INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  suite TEXT NOT NULL DEFAULT '',
  suite_path TEXT NOT NULL DEFAULT '',
  hostname TEXT NOT NULL DEFAULT '',
  git_commit TEXT NOT NULL DEFAULT '',
  git_branch TEXT NOT NULL DEFAULT '',
  git_dirty INTEGER NOT NULL DEFAULT 0,
  command_line TEXT NOT NULL DEFAULT ''
, checksum INTEGER);
CREATE TABLE run_labels (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL
);
CREATE INDEX run_labels_run ON run_labels(run_id);
CREATE TABLE artifacts (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL
);
CREATE INDEX artifacts_run ON artifacts(run_id);
CREATE TABLE benchmarks (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE metrics (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  unit TEXT NOT NULL DEFAULT '',
  direction TEXT NOT NULL DEFAULT 'lower' CHECK (direction IN ('lower', 'higher'))
, checksum INTEGER);
CREATE TABLE variants (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  command TEXT NOT NULL DEFAULT '[]',
  params TEXT NOT NULL DEFAULT '{}',
  env TEXT NOT NULL DEFAULT '{}',
  config_json TEXT NOT NULL DEFAULT '', checksum INTEGER,
  UNIQUE (run_id, benchmark_id, name)
);
CREATE TABLE instances (
  id INTEGER PRIMARY KEY,
  variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  schedule_order INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  exit_code INTEGER NOT NULL,
  signal INTEGER NOT NULL DEFAULT 0,
  timed_out INTEGER NOT NULL DEFAULT 0,
  failure TEXT,
  user_s REAL NOT NULL DEFAULT 0,
  sys_s REAL NOT NULL DEFAULT 0,
  max_rss_bytes INTEGER NOT NULL DEFAULT 0,
  mem_peak_bytes INTEGER NOT NULL DEFAULT 0,
  mem_avg_bytes REAL NOT NULL DEFAULT 0,
  mem_samples INTEGER NOT NULL DEFAULT 0,
  instructions INTEGER,
  cycles INTEGER,
  cpus TEXT NOT NULL DEFAULT '',
  schedule_tag TEXT NOT NULL DEFAULT ''
, schedule TEXT NOT NULL DEFAULT '', timed_outside INTEGER NOT NULL DEFAULT 0, checksum INTEGER, rss_floor_bytes INTEGER NOT NULL DEFAULT 0, mem_source TEXT NOT NULL DEFAULT '', prepare_s REAL NOT NULL DEFAULT 0, conclude_s REAL NOT NULL DEFAULT 0);
CREATE INDEX instances_variant ON instances(variant_id);
CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL);
CREATE INDEX runs_started_at ON runs(started_at);
CREATE INDEX runs_git_commit ON runs(git_commit);
CREATE INDEX variants_benchmark ON variants(benchmark_id, run_id);
CREATE INDEX run_labels_key_value ON run_labels(key, value);
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
CREATE TABLE history_series (
  series_key TEXT PRIMARY KEY,
  settings TEXT NOT NULL,        -- method and options the change points were found with
  points INTEGER NOT NULL,       -- how many points were examined
  digest TEXT NOT NULL,          -- of those points (commits and centres), to notice a changed past
  updated_at INTEGER NOT NULL    -- unix ns
);
CREATE TABLE change_points (
  id INTEGER PRIMARY KEY,
  change_id TEXT NOT NULL UNIQUE,  -- stable: from series_key and the first point after the change
  series_key TEXT NOT NULL REFERENCES history_series(series_key) ON DELETE CASCADE,
  benchmark TEXT NOT NULL,
  variant TEXT NOT NULL,
  metric TEXT NOT NULL,
  machine TEXT NOT NULL,
  method TEXT NOT NULL,
  last_good TEXT NOT NULL,          -- commit (or run uuid) of the last point before the change
  first_bad TEXT NOT NULL,          -- ... and of the first point after it
  first_bad_time INTEGER NOT NULL,  -- unix ns
  point_index INTEGER NOT NULL,     -- of first_bad in the series
  segment_start INTEGER NOT NULL,   -- the segments compared: [segment_start, point_index) and
  segment_end INTEGER NOT NULL,     -- [point_index, segment_end)
  before REAL,                      -- mean of the points before, and after
  after REAL,
  change REAL,                      -- after / before - 1 (NULL when before is 0), its 95% interval
  change_lower REAL,
  change_upper REAL,
  p_value REAL,
  kind TEXT NOT NULL,    -- regression | improvement (by the metric's better direction)
  status TEXT NOT NULL,  -- confirmed (by the A/B comparison of the instances) | suspected
  detected_at INTEGER NOT NULL
);
CREATE INDEX change_points_series ON change_points(series_key);
CREATE TABLE change_acks (
  change_id TEXT PRIMARY KEY,  -- may outlive the change point it names (detected again later)
  reason TEXT NOT NULL DEFAULT '',
  acked_at INTEGER NOT NULL
);
CREATE TABLE summaries (
  id INTEGER PRIMARY KEY,
  variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
  metric_id INTEGER NOT NULL REFERENCES metrics(id) ON DELETE CASCADE,
  count INTEGER NOT NULL DEFAULT 0,
  mean REAL,
  stddev REAL,
  median REAL,
  min REAL,
  max REAL,
  checksum INTEGER,
  UNIQUE (variant_id, metric_id)
);
CREATE TABLE iteration_blocks (
  instance_id INTEGER PRIMARY KEY REFERENCES instances(id) ON DELETE CASCADE,
  count INTEGER NOT NULL,
  idx BLOB,
  start_ns BLOB NOT NULL,
  end_ns BLOB NOT NULL,
  flags BLOB,
  failures TEXT
);
CREATE TABLE iteration_values (
  instance_id INTEGER NOT NULL REFERENCES iteration_blocks(instance_id) ON DELETE CASCADE,
  metric_id INTEGER NOT NULL REFERENCES metrics(id) ON DELETE CASCADE,
  present BLOB,
  data BLOB NOT NULL,
  PRIMARY KEY (instance_id, metric_id)
);
CREATE TABLE series_cache (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  data BLOB NOT NULL,
  checksum INTEGER NOT NULL,
  UNIQUE (run_id, key)
);
CREATE TABLE instance_counts (
  instance_id INTEGER NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
  metric_id INTEGER NOT NULL REFERENCES metrics(id),
  position INTEGER NOT NULL,
  value INTEGER NOT NULL,
  PRIMARY KEY (instance_id, metric_id)
) WITHOUT ROWID;
CREATE TABLE run_counts (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  benchmarks INTEGER NOT NULL,
  instances INTEGER NOT NULL
);
