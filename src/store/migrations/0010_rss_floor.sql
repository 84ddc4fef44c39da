-- benchguard's own ru_maxrss when an instance launched. The kernel folds the launcher's size
-- into the child's ru_maxrss, so a max_rss_bytes at or below it is only an upper bound
-- (docs/measurement.md). 0: not recorded (instances stored before this version, imports).
-- Instance checksums (0006) cover it only when it is not 0, so older checksums stay valid.
ALTER TABLE instances ADD COLUMN rss_floor_bytes INTEGER NOT NULL DEFAULT 0;
