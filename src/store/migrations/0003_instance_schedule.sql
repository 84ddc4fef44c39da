-- Each instance records the schedule that launched it (sequential, alternate, randomized,
-- duet, sync-duet): a mixed plan runs duet and sequential repetitions in one run. Older
-- instances take the schedule their run recorded as an artifact.
ALTER TABLE instances ADD COLUMN schedule TEXT NOT NULL DEFAULT '';
-- 1: the instance's one iteration was timed from outside; its metrics are the instance's own
-- columns and are not repeated in metric_values.
ALTER TABLE instances ADD COLUMN timed_outside INTEGER NOT NULL DEFAULT 0;
UPDATE instances SET schedule = COALESCE(
  (SELECT a.value FROM artifacts a JOIN variants v ON v.run_id = a.run_id
   WHERE v.id = instances.variant_id AND a.key = 'schedule'), '');

-- Metric values keyed by (iteration, metric) in one b-tree: no rowid table beside the index,
-- which halves the pages written per stored iteration.
CREATE TABLE metric_values_keyed (
  iteration_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,
  metric_id INTEGER NOT NULL REFERENCES metrics(id) ON DELETE CASCADE,
  value REAL,
  PRIMARY KEY (iteration_id, metric_id)
) WITHOUT ROWID;
INSERT INTO metric_values_keyed(iteration_id, metric_id, value)
  SELECT iteration_id, metric_id, value FROM metric_values;
DROP TABLE metric_values;
ALTER TABLE metric_values_keyed RENAME TO metric_values;
