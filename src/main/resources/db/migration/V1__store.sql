-- The Countersign store, schema version 1. The same file runs on SQLite and PostgreSQL; the one dialect
-- difference, an auto-numbered key, comes in as the ${auto_key} placeholder.
-- Times are BIGINT nanoseconds since the epoch (UTC): exact for java.time.Instant and ordered the same on both.

-- Governance events: append-only. The columns are exactly the fields of GovernanceEvent; there is no place
-- for arguments, results, explanations or exception text.
CREATE TABLE governance_events (
    id                  TEXT   NOT NULL PRIMARY KEY,
    event_time          BIGINT NOT NULL,
    event_type          TEXT   NOT NULL,
    reason_code         TEXT,
    tool_name           TEXT,
    rule_id             TEXT,
    run_id              TEXT,
    agent_configuration TEXT,
    actor               TEXT,
    model               TEXT,
    detail              TEXT
);
-- Every filter column leads an index that ends in the keyset (event_time, id), so a filtered page newest
-- first is an index range scan that stops after one page.
CREATE INDEX governance_events_by_time ON governance_events (event_time, id);
CREATE INDEX governance_events_by_type ON governance_events (event_type, event_time, id);
CREATE INDEX governance_events_by_reason ON governance_events (reason_code, event_time, id);
CREATE INDEX governance_events_by_rule ON governance_events (rule_id, event_time, id);
CREATE INDEX governance_events_by_tool ON governance_events (tool_name, event_time, id);
CREATE INDEX governance_events_by_agent ON governance_events (agent_configuration, event_time, id);
CREATE INDEX governance_events_by_actor ON governance_events (actor, event_time, id);
CREATE INDEX governance_events_by_run ON governance_events (run_id, event_time, id);

-- Admin settings as key/value rows ("tool_enabled:web_fetch" = "false"); a missing row means the default.
CREATE TABLE tool_settings (
    setting_key   TEXT NOT NULL PRIMARY KEY,
    setting_value TEXT NOT NULL
);

-- Every admin change: settings, users and roles. Written in the same transaction as the change.
CREATE TABLE setting_changes (
    id          ${auto_key},
    changed_at  BIGINT NOT NULL,
    changed_by  TEXT   NOT NULL,
    setting_key TEXT   NOT NULL,
    old_value   TEXT,
    new_value   TEXT
);
CREATE INDEX setting_changes_by_key ON setting_changes (setting_key, id);

CREATE TABLE users (
    name TEXT NOT NULL PRIMARY KEY
);
CREATE TABLE user_roles (
    user_name TEXT NOT NULL REFERENCES users (name),
    role      TEXT NOT NULL,
    PRIMARY KEY (user_name, role)
);

CREATE TABLE model_configurations (
    name                TEXT NOT NULL PRIMARY KEY,
    provider            TEXT NOT NULL,
    model               TEXT NOT NULL,
    endpoint            TEXT,
    trust_zone          TEXT NOT NULL,
    temperature         DOUBLE PRECISION,
    max_tokens          INTEGER,
    api_key_environment TEXT,
    api_key_file        TEXT
);
CREATE TABLE agent_configurations (
    name               TEXT    NOT NULL PRIMARY KEY,
    system_prompt      TEXT    NOT NULL,
    model_name         TEXT    NOT NULL REFERENCES model_configurations (name),
    tool_groups        TEXT    NOT NULL, -- JSON array of strings
    allowed_tools      TEXT    NOT NULL, -- JSON array of strings
    workspace          TEXT,
    tool_call_policies TEXT    NOT NULL, -- JSON text exactly as the caller gave it
    max_rounds         INTEGER NOT NULL,
    four_eyes          BOOLEAN NOT NULL
);

-- One counter per kind of change; a change bumps its counter in its own transaction. Other processes poll
-- these (SQLite) or hear a NOTIFY (PostgreSQL). Bumping first also serialises admin changes on PostgreSQL.
CREATE TABLE change_counters (
    kind    TEXT   NOT NULL PRIMARY KEY,
    counter BIGINT NOT NULL
);
INSERT INTO change_counters (kind, counter) VALUES ('run', 0);
INSERT INTO change_counters (kind, counter) VALUES ('decision', 0);
INSERT INTO change_counters (kind, counter) VALUES ('settings', 0);
