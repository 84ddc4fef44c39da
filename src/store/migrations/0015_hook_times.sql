-- Wall seconds of the prepare hook run before an instance and of the conclude hook run after
-- it (docs/suite.md, "Hooks"): beside the instance, never part of its times. 0: no hook (and
-- instances stored before this version, imports). Instance checksums (0006) cover them only
-- when one is not 0, so older checksums stay valid.
ALTER TABLE instances ADD COLUMN prepare_s REAL NOT NULL DEFAULT 0;
ALTER TABLE instances ADD COLUMN conclude_s REAL NOT NULL DEFAULT 0;
