-- The driving epoch of a run: it grows at every take-over (a claim, a worker's claim from the queue, a recovery, a
-- release back to waiting), and every write a driver makes for the run (a journal intent, the outcomes, the
-- transcript and the next state) holds only while the run still has the epoch the driver took it with, checked in
-- the same statement. A driver frozen past its lease, in another process or on another thread of the same one,
-- then has its next write refused and executes nothing more. Same file on SQLite and PostgreSQL.
ALTER TABLE runs ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
