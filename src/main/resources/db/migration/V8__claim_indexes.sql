-- Fewer index entries for a decision claim to write. Same file on SQLite and PostgreSQL.
--
-- A claim rewrites the run's row; PostgreSQL then adds an entry to every index of runs whose condition the new
-- row meets, and one to every index of decisions for the new decision.

-- Only queued runs are looked up by their place in the queue; a claim for a decision that the process carries
-- out itself (running) now adds nothing here. The query names the status as a literal, so that both databases
-- see it meets this condition.
DROP INDEX runs_queue;
CREATE INDEX runs_queue ON runs (queued_at, id) WHERE status = 'queued';

-- No query looks runs up by their worker: renewing a lease finds the run by its id.
DROP INDEX runs_by_worker;

-- A run has one decision per pause, a handful: the unique key (run_id, pause_number) finds the decision taken
-- on a card among them.
DROP INDEX decisions_by_digest;
