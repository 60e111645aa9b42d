-- Runs, their decisions and the execution journal. Same file on SQLite and PostgreSQL.

-- One row per run. While a run waits, paused_state holds the JSON to resume from and digest the card's digest;
-- a claim for a decision flips status to 'running' and sets claimed_decision, keeping paused_state so that a
-- refused or crashed decision can put the run back.
CREATE TABLE runs (
    id                TEXT    NOT NULL PRIMARY KEY,
    agent             TEXT    NOT NULL,
    initiator         TEXT    NOT NULL,
    prompt            TEXT    NOT NULL,
    unattended        BOOLEAN NOT NULL,
    status            TEXT    NOT NULL,
    created_at        BIGINT  NOT NULL,
    updated_at        BIGINT  NOT NULL,
    waiting_since     BIGINT,
    pause_number      INTEGER NOT NULL,
    paused_state      TEXT,
    digest            TEXT,
    transcript        TEXT    NOT NULL,
    history           TEXT    NOT NULL,
    iterations        INTEGER NOT NULL,
    prompt_tokens     BIGINT  NOT NULL,
    completion_tokens BIGINT  NOT NULL,
    failure_reason    TEXT,
    failure_message   TEXT,
    claimed_decision  BIGINT,
    outcome_unknown   TEXT     -- JSON array of call ids, set after a restart found calls whose outcome is unknown
);
CREATE INDEX runs_by_status ON runs (status, waiting_since, id);

-- Every committed decision. At most one per pause: the unique key is what makes two deciders never both win.
CREATE TABLE decisions (
    id           ${auto_key},
    run_id       TEXT    NOT NULL REFERENCES runs (id),
    pause_number INTEGER NOT NULL,
    decided_by   TEXT    NOT NULL,
    decided_at   BIGINT  NOT NULL,
    kind         TEXT    NOT NULL,
    digest       TEXT    NOT NULL,
    summary      TEXT    NOT NULL,
    verdicts     TEXT    NOT NULL, -- JSON array of {index, approved, reason}
    input        TEXT,             -- JSON object of an input decision's values
    UNIQUE (run_id, pause_number)
);

-- The execution journal of the current stretch of each run: an intent before a call executes, its outcome
-- after. Cleared when the stretch's outcome is recorded. An intent without an outcome after a crash is a call
-- whose outcome nobody knows.
CREATE TABLE call_intents (
    id          ${auto_key},
    run_id      TEXT   NOT NULL REFERENCES runs (id),
    call_id     TEXT   NOT NULL,
    tool_name   TEXT   NOT NULL,
    started_at  BIGINT NOT NULL,
    outcome     TEXT,
    finished_at BIGINT
);
CREATE INDEX call_intents_by_run ON call_intents (run_id, id);
