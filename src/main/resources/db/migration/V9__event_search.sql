-- A free-text search of the denial browser answered from the hourly counts rather than from every event. The
-- search looks into the type, reason, rule, tool, agent configuration, actor, model and run id of an event; the
-- counts hold all of these but the run id once the larger table also counts by model, and the distinct values of
-- all eight, below, say which of them a text matches. The append adds the values it has not seen; the purge
-- leaves them, so the table may list values no event carries any more: a search only ever looks up their events.
DROP TABLE governance_event_counts;
CREATE TABLE governance_event_counts (
    event_hour          BIGINT NOT NULL,
    event_type          TEXT   NOT NULL,
    reason_code         TEXT   NOT NULL,
    rule_id             TEXT   NOT NULL,
    tool_name           TEXT   NOT NULL,
    agent_configuration TEXT   NOT NULL,
    actor               TEXT   NOT NULL,
    model               TEXT   NOT NULL,
    event_count         BIGINT NOT NULL,
    PRIMARY KEY (event_hour, event_type, reason_code, rule_id, tool_name, agent_configuration, actor, model)
)${without_rowid};
INSERT INTO governance_event_counts (event_hour, event_type, reason_code, rule_id, tool_name, agent_configuration,
                                     actor, model, event_count)
SELECT (event_time - (event_time % 3600000000000 + 3600000000000) % 3600000000000) / 3600000000000,
       event_type,
       CASE WHEN reason_code IS NULL THEN '' ELSE '=' || reason_code END,
       CASE WHEN rule_id IS NULL THEN '' ELSE '=' || rule_id END,
       CASE WHEN tool_name IS NULL THEN '' ELSE '=' || tool_name END,
       CASE WHEN agent_configuration IS NULL THEN '' ELSE '=' || agent_configuration END,
       CASE WHEN actor IS NULL THEN '' ELSE '=' || actor END,
       CASE WHEN model IS NULL THEN '' ELSE '=' || model END,
       COUNT(*)
FROM governance_events
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;

-- The values the events carry in the searched columns, by column; missing values are left out.
CREATE TABLE governance_event_names (
    event_column TEXT NOT NULL,
    name         TEXT NOT NULL,
    PRIMARY KEY (event_column, name)
)${without_rowid};
INSERT INTO governance_event_names (event_column, name)
SELECT DISTINCT 'event_type', event_type FROM governance_events;
INSERT INTO governance_event_names (event_column, name)
SELECT DISTINCT 'reason_code', reason_code FROM governance_events WHERE reason_code IS NOT NULL;
INSERT INTO governance_event_names (event_column, name)
SELECT DISTINCT 'rule_id', rule_id FROM governance_events WHERE rule_id IS NOT NULL;
INSERT INTO governance_event_names (event_column, name)
SELECT DISTINCT 'tool_name', tool_name FROM governance_events WHERE tool_name IS NOT NULL;
INSERT INTO governance_event_names (event_column, name)
SELECT DISTINCT 'agent_configuration', agent_configuration FROM governance_events
WHERE agent_configuration IS NOT NULL;
INSERT INTO governance_event_names (event_column, name)
SELECT DISTINCT 'actor', actor FROM governance_events WHERE actor IS NOT NULL;
INSERT INTO governance_event_names (event_column, name)
SELECT DISTINCT 'model', model FROM governance_events WHERE model IS NOT NULL;
INSERT INTO governance_event_names (event_column, name)
SELECT DISTINCT 'run_id', run_id FROM governance_events WHERE run_id IS NOT NULL;
