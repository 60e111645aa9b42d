-- Two-person approval. Same file on SQLite and PostgreSQL.
--
-- How many distinct people must approve an agent's cards: approvals for every card, tool_approvals the counts that
-- replace it for some tools' calls (a JSON object of tool names; NULL when there are none).
ALTER TABLE agent_configurations ADD COLUMN approvals INTEGER NOT NULL DEFAULT 1;
ALTER TABLE agent_configurations ADD COLUMN tool_approvals TEXT;

-- The approvals a card has collected before the last one: one row per person and card (its digest), written under
-- the run's locked row while the run waits on that card. The last approval is the decision itself (decisions), so a
-- card whose count is reached is claimed like any other; a changed card has a new digest and counts from none.
CREATE TABLE approvals (
    id           ${auto_key},
    run_id       TEXT   NOT NULL REFERENCES runs (id),
    pause_number INTEGER NOT NULL,
    digest       TEXT   NOT NULL,
    approved_by  TEXT   NOT NULL,
    approved_at  BIGINT NOT NULL,
    verdicts     TEXT   NOT NULL, -- JSON array of {index, approved, reason}, as in decisions
    UNIQUE (run_id, digest, approved_by)
);
