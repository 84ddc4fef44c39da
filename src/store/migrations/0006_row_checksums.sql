-- Checksums of what a run, a variant, an instance and a metric hold (src/store/checksum.hpp),
-- computed when the row is written and verified by `benchguard db check`, so that a flipped bit
-- in a measurement, a label or a command is found. NULL on rows written before this migration.
-- runs: its columns, labels and artifacts; variants: its columns with its run's uuid and its
-- benchmark's name; instances: its columns, iterations and metric values with its variant's;
-- metrics: its name, unit and direction.
ALTER TABLE runs ADD COLUMN checksum INTEGER;
ALTER TABLE variants ADD COLUMN checksum INTEGER;
ALTER TABLE instances ADD COLUMN checksum INTEGER;
ALTER TABLE metrics ADD COLUMN checksum INTEGER;
