-- Decision deadlines. Same file on SQLite and PostgreSQL.
--
-- An agent's deadlines, as the JSON object of its agents-file fields (decisionDeadline, onDeadline, escalationRole,
-- toolDeadlines); NULL when its cards wait without one.
ALTER TABLE agent_configurations ADD COLUMN decision_deadlines TEXT;

-- A waiting run's deadline, set from its agent's when it pauses and cleared when it stops waiting: when the fallback
-- applies (deadline), the configured span (deadline_span, nanoseconds, by which an escalation or an Extend moves the
-- deadline once each), the fallback (on_deadline: deny, cancel or escalate), whether the card was escalated and who
-- sees it first then, and who extended it when. A release back to waiting keeps them: it is the same wait.
ALTER TABLE runs ADD COLUMN deadline BIGINT;
ALTER TABLE runs ADD COLUMN deadline_span BIGINT;
ALTER TABLE runs ADD COLUMN on_deadline TEXT;
ALTER TABLE runs ADD COLUMN escalated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE runs ADD COLUMN escalation_role TEXT;
ALTER TABLE runs ADD COLUMN extended_by TEXT;
ALTER TABLE runs ADD COLUMN extended_at BIGINT;

-- The sweep finds the runs whose deadline passed with one range scan, however many runs wait.
CREATE INDEX runs_by_deadline ON runs (deadline, id) WHERE deadline IS NOT NULL;
