-- An instance's counts beyond instructions and cycles (InstanceRecord::counts): simulated
-- cache misses and estimated cycles under Valgrind, branch and cache misses from hardware
-- counters, in the order measured (position). Instance checksums cover them only where an
-- instance has some.
CREATE TABLE instance_counts (
  instance_id BIGINT NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
  metric_id BIGINT NOT NULL REFERENCES metrics(id),
  position INTEGER NOT NULL,
  value BIGINT NOT NULL,
  PRIMARY KEY (instance_id, metric_id)
);
