-- The run queue: runs that wait for a worker, and the lease of the worker that executes one. Same file on SQLite
-- and PostgreSQL.
--
-- A queued run has status 'queued' and queued_at set: either a new run whose first stretch no one has started
-- (paused_state is NULL), or a run whose committed decision (claimed_decision) a worker is to carry out. A worker
-- claims one by setting status 'running', worker_id and lease_expires, and renews the lease while it works; a
-- run whose lease ran out belongs to a worker that stopped, and is put back in the queue or flagged as outcome
-- unknown, as its execution journal says.
ALTER TABLE runs ADD COLUMN queued_at BIGINT;
ALTER TABLE runs ADD COLUMN worker_id TEXT;
ALTER TABLE runs ADD COLUMN lease_expires BIGINT;
CREATE INDEX runs_queue ON runs (status, queued_at, id);
CREATE INDEX runs_by_worker ON runs (worker_id);
