-- Where an instance's mem_peak_bytes came from: 'cgroup2', 'cgroup1' (exact, the kernel's
-- peak of the instance's own memory cgroup), 'sampled', or '' (not recorded)
-- (docs/measurement.md).
ALTER TABLE instances ADD COLUMN mem_source TEXT NOT NULL DEFAULT '';
