-- The operator's MCP server records. Same file on SQLite and PostgreSQL.
--
-- A record holds no secret: an environment or header value is either plain or a reference env:NAME, resolved
-- when the server is connected. The declaration that judges the server's tools (approval-bound, the default) is
-- not a column here: it stays the setting server_approval_bound:NAME in tool_settings, the one place both the
-- approval rule and the admin commands read and change, each change recorded in setting_changes.
CREATE TABLE mcp_servers (
    name                  TEXT    NOT NULL PRIMARY KEY,
    transport             TEXT    NOT NULL, -- 'stdio' or 'streamable_http'
    command               TEXT,             -- stdio: the program to start
    arguments             TEXT,             -- stdio: JSON array of strings
    environment           TEXT,             -- stdio: JSON object of variable to value or reference
    url                   TEXT,             -- streamable_http: the endpoint
    headers               TEXT,             -- streamable_http: JSON object of header to value or reference
    enabled               BOOLEAN NOT NULL,
    tool_group            TEXT    NOT NULL,
    data_class            TEXT    NOT NULL,
    call_timeout_nanos    BIGINT  NOT NULL,
    connect_timeout_nanos BIGINT  NOT NULL
);
