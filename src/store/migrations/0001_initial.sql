-- Core tables. Times are integers: *_at in unix epoch ns, *_ns in CLOCK_MONOTONIC ns.
-- Child rows go with their parent (ON DELETE CASCADE), so pruning a variant removes its
-- instances, iterations and metric values in one statement.

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
);

-- Labels and artifacts keep their insertion order through the rowid.
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

-- Benchmarks are global by name so that history can follow one across runs.
CREATE TABLE benchmarks (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

CREATE TABLE metrics (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  unit TEXT NOT NULL DEFAULT '',
  direction TEXT NOT NULL DEFAULT 'lower' CHECK (direction IN ('lower', 'higher'))
);

-- command: JSON array of strings; params, env: JSON objects.
CREATE TABLE variants (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  command TEXT NOT NULL DEFAULT '[]',
  params TEXT NOT NULL DEFAULT '{}',
  env TEXT NOT NULL DEFAULT '{}',
  config_json TEXT NOT NULL DEFAULT '',
  UNIQUE (run_id, benchmark_id, name)
);

-- instructions and cycles are NULL when counters were unavailable; failure is NULL on success.
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
);
CREATE INDEX instances_variant ON instances(variant_id);

CREATE TABLE iterations (
  id INTEGER PRIMARY KEY,
  instance_id INTEGER NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  burn_in INTEGER NOT NULL DEFAULT 0,
  timed_out INTEGER NOT NULL DEFAULT 0,
  failure TEXT
);
CREATE INDEX iterations_instance ON iterations(instance_id);

-- Long format: one row per (iteration, metric). value is NULL for NaN, which SQLite
-- cannot store as REAL.
CREATE TABLE metric_values (
  iteration_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,
  metric_id INTEGER NOT NULL REFERENCES metrics(id) ON DELETE CASCADE,
  value REAL
);
CREATE UNIQUE INDEX metric_values_iteration ON metric_values(iteration_id, metric_id);
