-- How long decisions take, counted as they are taken, so that the statistics over months add up some thousands of
-- rows rather than read every decision. Same file on SQLite and PostgreSQL.
--
-- One row per UTC day, dimension (agent, tool or operator) and name: how many people's decisions, the sum of their
-- latencies and the largest, in milliseconds from the card's waiting to the decision, and how many fell in each
-- latency bucket (histogram: "bucket:count" pairs, comma-separated, by bucket). The buckets are fixed and log-scale,
-- eight to each doubling (LatencyBuckets); the percentiles are read from them. One row per day and name, whatever
-- the number of decisions: a range reads days times names rows. The claim that records a decision adds to them in
-- its own transaction. A card waiting on two tools counts for each tool. Decisions taken before this version are
-- not counted: when their card started waiting was not kept.
CREATE TABLE decision_latency_counts (
    dimension    TEXT   NOT NULL, -- agent, tool or operator
    decision_day BIGINT NOT NULL, -- whole days since the epoch, UTC
    name         TEXT   NOT NULL,
    decisions    BIGINT NOT NULL,
    latency_sum  BIGINT NOT NULL,
    latency_max  BIGINT NOT NULL,
    histogram    TEXT   NOT NULL,
    PRIMARY KEY (dimension, decision_day, name)
)${without_rowid};

-- Per UTC day, dimension and name: cards whose deadline's fallback decided them (expired; its claim adds the
-- count, under the operator "deadline"), and cards escalated (the escalation adds the count, by agent and tool).
CREATE TABLE decision_fallback_counts (
    dimension    TEXT   NOT NULL,
    decision_day BIGINT NOT NULL,
    name         TEXT   NOT NULL,
    expired      BIGINT NOT NULL,
    escalated    BIGINT NOT NULL,
    PRIMARY KEY (dimension, decision_day, name)
)${without_rowid};
