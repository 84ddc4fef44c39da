-- Where an instance's mem_peak_bytes came from (docs/measurement.md): 'cgroup2' or 'cgroup1'
-- (the kernel's peak of a memory cgroup of the instance's own: exact however short the
-- instance), 'sampled' (the process tree sampled from /proc, and ru_maxrss above the launch
-- floor). '': not recorded (instances stored before this version, imports). Instance
-- checksums (0006) cover it only when it is not '', so older checksums stay valid.
ALTER TABLE instances ADD COLUMN mem_source TEXT NOT NULL DEFAULT '';
