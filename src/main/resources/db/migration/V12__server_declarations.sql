-- A remote server's declaration becomes three-valued: approval-bound ('true'), not approval-bound ('false'), or
-- not declared (no row), whose tools run without approval. Until now no row meant approval-bound, so every
-- existing server record without a row gets 'true' written out: each keeps the declaration it had. Rows already
-- stored are left as they are. Same file on SQLite and PostgreSQL.
INSERT INTO tool_settings (setting_key, setting_value)
SELECT 'server_approval_bound:' || name, 'true'
FROM mcp_servers
WHERE NOT EXISTS (SELECT 1 FROM tool_settings WHERE setting_key = 'server_approval_bound:' || mcp_servers.name);
