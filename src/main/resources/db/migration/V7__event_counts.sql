-- Governance events counted per hour, so that the denial browser's charts over months add up thousands of rows
-- rather than read millions of events. Two tables: one by the codes alone (type, reason, rule, tool), what most
-- filters and every chart ask about, and one also by agent configuration and actor, several times larger. The
-- append adds to both and the retention purge subtracts from both, each in its own transaction; the queries
-- count the partial hours at the edges of a range from the events themselves.
-- A text column holds '' for a missing value and '=' before a present one: a unique key sees NULLs as distinct
-- on both databases, and an empty text is a value an event may carry.
CREATE TABLE governance_event_code_counts (
    event_hour  BIGINT NOT NULL, -- event_time in whole hours since the epoch, rounded down
    event_type  TEXT   NOT NULL,
    reason_code TEXT   NOT NULL,
    rule_id     TEXT   NOT NULL,
    tool_name   TEXT   NOT NULL,
    event_count BIGINT NOT NULL,
    PRIMARY KEY (event_hour, event_type, reason_code, rule_id, tool_name)
)${without_rowid};
CREATE TABLE governance_event_counts (
    event_hour          BIGINT NOT NULL,
    event_type          TEXT   NOT NULL,
    reason_code         TEXT   NOT NULL,
    rule_id             TEXT   NOT NULL,
    tool_name           TEXT   NOT NULL,
    agent_configuration TEXT   NOT NULL,
    actor               TEXT   NOT NULL,
    event_count         BIGINT NOT NULL,
    PRIMARY KEY (event_hour, event_type, reason_code, rule_id, tool_name, agent_configuration, actor)
)${without_rowid};

-- The events stored so far. The hour is rounded down for times before 1970 too (/ rounds towards zero).
INSERT INTO governance_event_counts (event_hour, event_type, reason_code, rule_id, tool_name, agent_configuration,
                                     actor, event_count)
SELECT (event_time - (event_time % 3600000000000 + 3600000000000) % 3600000000000) / 3600000000000,
       event_type,
       CASE WHEN reason_code IS NULL THEN '' ELSE '=' || reason_code END,
       CASE WHEN rule_id IS NULL THEN '' ELSE '=' || rule_id END,
       CASE WHEN tool_name IS NULL THEN '' ELSE '=' || tool_name END,
       CASE WHEN agent_configuration IS NULL THEN '' ELSE '=' || agent_configuration END,
       CASE WHEN actor IS NULL THEN '' ELSE '=' || actor END,
       COUNT(*)
FROM governance_events
GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO governance_event_code_counts (event_hour, event_type, reason_code, rule_id, tool_name, event_count)
SELECT event_hour, event_type, reason_code, rule_id, tool_name, SUM(event_count)
FROM governance_event_counts
GROUP BY event_hour, event_type, reason_code, rule_id, tool_name;
