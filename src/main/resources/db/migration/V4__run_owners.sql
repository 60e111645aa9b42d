-- Who drives a running run. Several processes share one store (consoles and workers on PostgreSQL, or two
-- programs on one SQLite file), so start-up reconciliation must touch only the runs of processes that stopped.

-- One row per open store: a process registers when it opens the store, beats every few seconds, and deletes
-- its row when it closes. A row whose process is gone (same host: the pid no longer runs, or runs another
-- program; another host: no beat for a while) marks that process's running runs as orphans.
CREATE TABLE store_sessions (
    id               TEXT   NOT NULL PRIMARY KEY,
    host             TEXT   NOT NULL,
    pid              BIGINT NOT NULL,
    process_started  BIGINT,          -- epoch milliseconds; tells the process from a later one given the same pid
    opened_at        BIGINT NOT NULL,
    heartbeat_at     BIGINT NOT NULL
);

-- The session that drives the run while it is running; NULL while it waits or after it ended. Every write of
-- a running run (the journal's intents, its outcome) checks it, so a process judged stopped cannot act on a
-- run another process took over.
ALTER TABLE runs ADD COLUMN owner TEXT;

-- The recent-runs list, newest first.
CREATE INDEX runs_by_update ON runs (updated_at, id);

-- A late decision on an old card is answered with the decision that was taken on it.
CREATE INDEX decisions_by_digest ON decisions (run_id, digest);
