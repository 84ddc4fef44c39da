-- benchguard's own ru_maxrss when an instance launched: a max_rss_bytes at or below it is
-- only an upper bound (docs/measurement.md). 0: not recorded.
ALTER TABLE instances ADD COLUMN rss_floor_bytes BIGINT NOT NULL DEFAULT 0;
