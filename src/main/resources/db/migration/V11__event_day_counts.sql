-- Governance events counted by day (UTC) as well, from the hourly counts: over whole days the counts by reason,
-- rule and tool add up a fraction of the hourly rows (a 24th by the codes alone, about a sixth by every column).
-- The counts by day at other offsets still add up hours. The day is rounded down for hours before 1970 too.
CREATE TABLE governance_event_code_day_counts (
    event_day   BIGINT NOT NULL, -- whole days since the epoch, UTC
    event_type  TEXT   NOT NULL,
    reason_code TEXT   NOT NULL,
    rule_id     TEXT   NOT NULL,
    tool_name   TEXT   NOT NULL,
    event_count BIGINT NOT NULL,
    PRIMARY KEY (event_day, event_type, reason_code, rule_id, tool_name)
)${without_rowid};
CREATE TABLE governance_event_day_counts (
    event_day           BIGINT NOT NULL,
    event_type          TEXT   NOT NULL,
    reason_code         TEXT   NOT NULL,
    rule_id             TEXT   NOT NULL,
    tool_name           TEXT   NOT NULL,
    agent_configuration TEXT   NOT NULL,
    actor               TEXT   NOT NULL,
    model               TEXT   NOT NULL,
    event_count         BIGINT NOT NULL,
    PRIMARY KEY (event_day, event_type, reason_code, rule_id, tool_name, agent_configuration, actor, model)
)${without_rowid};

INSERT INTO governance_event_code_day_counts (event_day, event_type, reason_code, rule_id, tool_name, event_count)
SELECT (event_hour - (event_hour % 24 + 24) % 24) / 24, event_type, reason_code, rule_id, tool_name,
       SUM(event_count)
FROM governance_event_code_counts
GROUP BY 1, 2, 3, 4, 5;
INSERT INTO governance_event_day_counts (event_day, event_type, reason_code, rule_id, tool_name,
                                         agent_configuration, actor, model, event_count)
SELECT (event_hour - (event_hour % 24 + 24) % 24) / 24, event_type, reason_code, rule_id, tool_name,
       agent_configuration, actor, model, SUM(event_count)
FROM governance_event_counts
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
