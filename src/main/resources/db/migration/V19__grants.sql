-- Standing approvals (grants). Same file on SQLite and PostgreSQL.
--
-- A grant a person made from a card: the agent may make calls of the tool within the scope without a pause until
-- the grant expires (expires_at) or is revoked. The scope is the exact canonical arguments (scope_kind 'arguments')
-- or a folder of the workspace (scope_kind 'folder'); a grant for the rest of a run names it (run_id) and has no
-- expiry. uses counts the calls it approved. Grants are the run's data, like its transcript: no governance event
-- holds their arguments.
CREATE TABLE grants (
    id          TEXT    NOT NULL PRIMARY KEY,
    agent       TEXT    NOT NULL,
    tool        TEXT    NOT NULL,
    scope_kind  TEXT    NOT NULL,
    scope_value TEXT    NOT NULL,
    span        TEXT    NOT NULL,
    run_id      TEXT,
    granted_by  TEXT    NOT NULL,
    granted_at  BIGINT  NOT NULL,
    expires_at  BIGINT,
    uses        INTEGER NOT NULL DEFAULT 0,
    revoked_by  TEXT,
    revoked_at  BIGINT
);
-- The approval scan asks for the live grants of one agent and tool.
CREATE INDEX grants_by_agent_tool ON grants (agent, tool, granted_at);

-- An agent whose grants an admin switched off: its calls pause whatever grants exist. No row: grants apply.
CREATE TABLE agent_grant_switches (
    agent      TEXT   NOT NULL PRIMARY KEY,
    changed_by TEXT   NOT NULL,
    changed_at BIGINT NOT NULL
);
