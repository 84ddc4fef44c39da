-- History over commits (docs/history.md): the change points `detect` found in each series, what
-- it needs to re-examine only new points next time, and the acknowledgements of `ack`.
-- A series is one benchmark variant, metric and machine class; series_key names it as
-- "benchmark|variant|metric|machine".
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
