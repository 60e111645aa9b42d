-- Outgoing webhooks and their outbox. Same file on SQLite and PostgreSQL.
--
-- An admin's webhook. The secret is a reference (env:NAME or file:PATH) read when an event is sent, never the
-- value. events lists the subscribed event types between commas, as in ',waiting,decided,', so that one LIKE finds
-- the hooks of a type.
CREATE TABLE webhooks (
    id         TEXT    NOT NULL PRIMARY KEY,
    url        TEXT    NOT NULL,
    events     TEXT    NOT NULL,
    secret     TEXT    NOT NULL,
    slack      BOOLEAN NOT NULL,
    created_by TEXT    NOT NULL,
    created_at BIGINT  NOT NULL  -- nanoseconds since the epoch, UTC, as every time here
);

-- The outbox: one row per event and subscribed webhook, inserted in the transaction of the change it reports, with
-- what the event says copied from the run's row then (codes, names and times only, never arguments or results).
-- event_id is the CloudEvent id, the same for every hook and every attempt. A process claims due rows until
-- claimed_until; a row is done when delivered_at or gave_up_at is set.
CREATE TABLE webhook_outbox (
    id            ${auto_key},
    event_id      TEXT    NOT NULL,
    hook_id       TEXT    NOT NULL,
    type          TEXT    NOT NULL,  -- waiting, decided, expired, escalated
    run_id        TEXT    NOT NULL,
    agent         TEXT,
    started_by    TEXT,
    tools         TEXT,              -- the waiting calls' tool names, one per line
    waiting_for   TEXT,              -- approval or input: what the card waits for
    actor         TEXT,              -- who decided; deadline for a fallback
    outcome       TEXT,              -- decided: the summary; expired: deny or cancel; escalated: the role
    deadline      BIGINT,
    occurred_at   BIGINT  NOT NULL,
    attempts      INTEGER NOT NULL,
    next_attempt  BIGINT  NOT NULL,
    claimed_until BIGINT,
    last_attempt  BIGINT,
    last_status   INTEGER,
    last_error    TEXT,
    delivered_at  BIGINT,
    gave_up_at    BIGINT
);

-- The delivery loop finds the due rows with one range scan, however many were delivered before.
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt, id)
    WHERE delivered_at IS NULL AND gave_up_at IS NULL;
-- The webhooks list reads each hook's last attempt.
CREATE INDEX webhook_outbox_by_hook ON webhook_outbox (hook_id, last_attempt);
