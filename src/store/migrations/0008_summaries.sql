-- Summary statistics of a metric from a source that kept no measurements (SummaryRecord in
-- src/core/model.hpp): pytest-benchmark without stats.data, Google Benchmark aggregates only,
-- Otava's CSV layout. One row per variant and metric, apart from instances, so that nothing
-- instance-level is computed from them. count is 0 when the source does not say; the
-- statistics are NULL when not given (mean is NULL only for a NaN).
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
