-- Indexes for history queries: a benchmark's series over time, runs by commit, by label.
CREATE INDEX runs_started_at ON runs(started_at);
CREATE INDEX runs_git_commit ON runs(git_commit);
CREATE INDEX variants_benchmark ON variants(benchmark_id, run_id);
CREATE INDEX run_labels_key_value ON run_labels(key, value);
