-- An instance timed from outside (timed_outside = 1) has one iteration, and every field of it
-- is the instance's own: index 0, its start and end, not burn-in, its timed_out and failure.
-- That row is no longer stored, which halves the pages written per such instance; the store
-- rebuilds the iteration when it reads the instance.
DELETE FROM iterations
WHERE instance_id IN (SELECT id FROM instances WHERE timed_outside = 1)
  AND idx = 0 AND burn_in = 0
  AND start_ns = (SELECT start_ns FROM instances WHERE id = iterations.instance_id)
  AND end_ns = (SELECT end_ns FROM instances WHERE id = iterations.instance_id)
  AND timed_out = (SELECT timed_out FROM instances WHERE id = iterations.instance_id)
  AND failure IS (SELECT failure FROM instances WHERE id = iterations.instance_id)
  AND NOT EXISTS (SELECT 1 FROM metric_values WHERE iteration_id = iterations.id)
  AND (SELECT COUNT(*) FROM iterations o WHERE o.instance_id = iterations.instance_id) = 1;
