-- The execution journal, found by call. Same file on SQLite and PostgreSQL.
--
-- A call's outcome is written to its own intent, named by run and call. A gateway run's stretch lasts as long as
-- its host stays connected, so its journal holds every call of the session: found by run alone, each outcome's
-- update read all of them.
CREATE INDEX call_intents_by_call ON call_intents (run_id, call_id);
