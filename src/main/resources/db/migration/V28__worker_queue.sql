-- Workers take a decided run before any new run's first stretch. Same file on SQLite and PostgreSQL.
--
-- A person who approved a card waits for its call, while a new run has nobody waiting on it yet; oldest first, a
-- decision queued behind new runs waited for each of their first stretches. Decisions come only from pauses of
-- runs already started, so new runs still get their turn. A queued run with a paused state is a decision (or one
-- recovered from a worker that stopped); the claim orders by the same expression, so both databases read the
-- queue's head from this index.
DROP INDEX runs_queue;
CREATE INDEX runs_queue ON runs ((paused_state IS NULL), queued_at, id) WHERE status = 'queued';

-- A run queued for a worker moves a counter of its own, so that idle workers, which listen for it and for
-- decisions, are not woken by every pause and every end of every run on the store.
INSERT INTO change_counters (kind, counter) VALUES ('queue', 0);
