-- An instance's counts beyond instructions and cycles (InstanceRecord::counts): simulated
-- cache misses and estimated cycles under Valgrind, branch and cache misses from hardware
-- counters. One row per instance and count, named through metrics, in the order measured
-- (position). Instance checksums (0006) cover them only where an instance has some, so older
-- checksums stay valid.
CREATE TABLE instance_counts (
  instance_id INTEGER NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
  metric_id INTEGER NOT NULL REFERENCES metrics(id),
  position INTEGER NOT NULL,
  value INTEGER NOT NULL,
  PRIMARY KEY (instance_id, metric_id)
) WITHOUT ROWID;
