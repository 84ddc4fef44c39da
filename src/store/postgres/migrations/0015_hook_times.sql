-- Wall seconds of the prepare hook run before an instance and of the conclude hook run after
-- it (docs/suite.md, "Hooks"): beside the instance, never part of its times. 0: no hook.
ALTER TABLE instances ADD COLUMN prepare_s DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE instances ADD COLUMN conclude_s DOUBLE PRECISION NOT NULL DEFAULT 0;
