-- Gateway runs. Same file on SQLite and PostgreSQL.
--
-- The store session (store_sessions.id) of the gateway process that holds the MCP host's connection of a gateway
-- run, for the run's whole life; NULL for every other run. Only that process can answer the host, so a decision on
-- the run is carried out there or nowhere: once that session is no longer live, the run ends instead of waiting for
-- nobody.
ALTER TABLE runs ADD COLUMN gateway_session TEXT;
