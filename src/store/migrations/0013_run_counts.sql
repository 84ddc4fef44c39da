-- Each ended run's counts as list_runs shows them (docs/store.md): its benchmarks that measured
-- something (an instance or a summary) and its instances, written when the run ends, when it
-- is added whole (import, merge) and again by prune for the runs it touches. A write that
-- adds to a run afterwards removes its row; a run without one (running, or so touched) is
-- counted from its rows when listed. `db check` compares every row with its run's rows.
CREATE TABLE run_counts (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  benchmarks INTEGER NOT NULL,
  instances INTEGER NOT NULL
);
INSERT INTO run_counts(run_id, benchmarks, instances)
SELECT r.id,
       (SELECT COUNT(DISTINCT v.benchmark_id) FROM variants v WHERE v.run_id = r.id AND
          (EXISTS (SELECT 1 FROM instances i WHERE i.variant_id = v.id) OR
           EXISTS (SELECT 1 FROM summaries s WHERE s.variant_id = v.id))),
       (SELECT COUNT(*) FROM instances i JOIN variants v ON v.id = i.variant_id
          WHERE v.run_id = r.id)
FROM runs r WHERE r.status <> 'running';
-- Migrations are recorded as applied at a whole second from now on; the earlier records too, so
-- that `db check` finds a flipped bit in any of them (no whole second differs from another by
-- one bit).
UPDATE schema_migrations SET applied_at = applied_at - applied_at % 1000000000;
