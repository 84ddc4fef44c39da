-- Iterations stored by column: an instance's iterations are one iteration_blocks row of packed
-- arrays, each metric they report one iteration_values row (encodings:
-- src/store/sqlite/iteration_columns.hpp). A stored iteration of one metric takes 24 bytes
-- instead of two rows; reading and writing a million of them is a few rows.
--
-- The migration's own step (migrate.cpp) then packs the rows of iterations and metric_values
-- into these tables, one instance at a time, and drops the two tables. Instance checksums
-- (0006) cover what an instance holds, not how it is laid out, and stay valid.
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
